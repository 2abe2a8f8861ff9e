//! AI players: `exact` (the solver's best move) and `random`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rules::{Move, Position};
use super::solver::Solver;

/// The AI levels, default first.
pub const LEVELS: &[&str] = &["exact", "random"];

/// The move an AI of `level` makes in `pos`. Always legal while the game
/// goes on; `Pass` otherwise (there is nothing legal to return then).
/// Unknown levels play `exact`, the default.
pub fn choose(pos: &Position, level: &str, seed: u64) -> Move {
    let legal = pos.legal_moves();
    if legal.len() <= 1 {
        return legal.first().copied().unwrap_or(Move::Pass);
    }
    match level.trim().to_ascii_lowercase().as_str() {
        "random" => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            legal[rng.gen_range(0..legal.len())]
        }
        _ => Solver::for_position(pos)
            .best_move(pos)
            .unwrap_or(Move::Pass),
    }
}
