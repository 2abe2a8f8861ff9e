//! The clock side of the tournament runner in [`games::tournament`]:
//! AI budgets from a wall-clock limit, and timing of decisions. The
//! games crate stays pure; only this module reads the clock.

use games::seam::{AiBudget, Game, Seat};
use games::tournament::decision_seed;
use std::time::{Duration, Instant};

/// The budget of one AI decision: `ms` milliseconds of wall clock from now,
/// or (with `None`) each AI's own iteration count, which makes a run
/// reproducible.
pub fn ai_budget(ms: Option<u64>) -> AiBudget {
    AiBudget {
        iterations: None,
        deadline: ms.map(|m| host::ThinkingDeadline::after_ms(m).stopwatch()),
    }
}

/// Total thinking time and number of decisions, per seat.
pub type SeatTimes = Vec<(Duration, u32)>;

/// A decision function for [`games::tournament::play_out`]: each
/// seat's AI through the seam with [`ai_budget`]`(budget_ms)`, its time
/// added to `times[seat]`.
pub fn timed_ai_decision<G: Game>(
    game_ai_seed: u64,
    budget_ms: Option<u64>,
    times: &mut SeatTimes,
) -> impl FnMut(&G, Seat, &str, u64) -> G::Action + '_ {
    move |game, seat, level, turn| {
        let t0 = Instant::now();
        let action = game.ai_action(
            seat,
            level,
            ai_budget(budget_ms),
            decision_seed(game_ai_seed, turn, seat),
        );
        if times.len() <= seat {
            times.resize(seat + 1, (Duration::ZERO, 0));
        }
        times[seat].0 += t0.elapsed();
        times[seat].1 += 1;
        action
    }
}
