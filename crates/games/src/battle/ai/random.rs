//! The `random` AI: a uniformly random legal action.

use super::super::engine::{self, Act, Ctx, Pos};
use rand::Rng;

/// A uniformly random legal action of `seat` (`Move(0)` if it has none).
pub fn choose<R: Rng>(ctx: &Ctx, pos: &Pos, seat: usize, rng: &mut R) -> Act {
    let l = engine::legal(ctx, pos, seat);
    if l.is_empty() {
        return Act::Move(0);
    }
    l.as_slice()[rng.gen_range(0..l.len())]
}
