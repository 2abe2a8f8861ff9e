//! The `random` AI: a uniformly random legal action.

use super::super::engine::{self, Act, Pos, Setup};
use rand::Rng;

/// A uniformly random legal action of `seat` (`Move(0)` if it has none).
pub fn choose<R: Rng>(setup: &Setup, pos: &Pos, seat: usize, rng: &mut R) -> Act {
    let l = engine::legal(setup, pos, seat);
    if l.is_empty() {
        return Act::Move(0);
    }
    l.as_slice()[rng.gen_range(0..l.len())]
}
