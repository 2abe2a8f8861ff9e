//! The `mc:N` AI: pure Monte Carlo exactly as the spec describes the
//! source material's baseline.
//!
//! For each of its legal actions it plays the turn against a uniformly
//! random opponent action, then plays the battle out with random actions
//! for both sides (a switch with probability 10% when one is possible),
//! splitting the `N` playouts evenly over its actions (the first `N mod k`
//! actions get one more); it picks the action with the most wins (the
//! first on ties). It assumes the opponent's team is known (it is public
//! here). Playouts are interleaved over the actions so a deadline cuts all
//! of them evenly; with a cut, wins are compared as rates.

use super::super::engine::{self, Act, Pos, Res, Setup, Step};
use crate::seam::AiBudget;
use rand::Rng;

/// The chance of a switch in a playout step when one is possible.
pub const PLAYOUT_SWITCH_PROB: f64 = 0.1;

/// A playout action: a switch with probability 10% (if any), else a move;
/// in the replacement step a uniformly random replacement.
pub fn playout_act<R: Rng>(setup: &Setup, pos: &Pos, x: usize, rng: &mut R) -> Option<Act> {
    if !pos.awaits(x) {
        return None;
    }
    let l = engine::legal(setup, pos, x);
    let acts = l.as_slice();
    if acts.is_empty() {
        return None;
    }
    if pos.step() == Step::Replace {
        return Some(acts[rng.gen_range(0..acts.len())]);
    }
    let n_moves = acts.iter().filter(|a| matches!(a, Act::Move(_))).count();
    let n_sw = acts.len() - n_moves;
    if n_sw > 0 && (n_moves == 0 || rng.gen_bool(PLAYOUT_SWITCH_PROB)) {
        Some(acts[n_moves + rng.gen_range(0..n_sw)])
    } else {
        Some(acts[rng.gen_range(0..n_moves)])
    }
}

/// Plays `pos` to the end with playout actions; returns the result.
pub fn playout<R: Rng>(setup: &Setup, pos: &mut Pos, rng: &mut R) -> Res {
    loop {
        if let Some(r) = pos.result {
            return r;
        }
        let a0 = playout_act(setup, pos, 0, rng);
        let a1 = playout_act(setup, pos, 1, rng);
        engine::apply(setup, pos, [a0, a1], rng, &mut ());
    }
}

/// The pure Monte Carlo choice of `seat` with `playouts` in total.
pub fn choose<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    playouts: u64,
    budget: &AiBudget,
    rng: &mut R,
) -> Act {
    let legal = engine::legal(setup, pos, seat);
    let acts = legal.as_slice();
    if acts.is_empty() {
        return Act::Move(0);
    }
    let k = acts.len() as u64;
    // N is the level's own playout count; only the deadline of the budget applies.
    let playouts = playouts.max(k);
    let quota: Vec<u64> = (0..k)
        .map(|j| playouts / k + u64::from(j < playouts % k))
        .collect();
    let mut wins = vec![0u64; acts.len()];
    let mut done = vec![0u64; acts.len()];
    let y = 1 - seat;
    let rounds = quota[0];
    'outer: for r in 0..rounds {
        for (j, &a) in acts.iter().enumerate() {
            if r >= quota[j] {
                continue;
            }
            if r > 0 && budget.expired() {
                break 'outer;
            }
            let mut p = *pos;
            let their = if p.awaits(y) {
                let l = engine::legal(setup, &p, y);
                Some(l.as_slice()[rng.gen_range(0..l.len())])
            } else {
                None
            };
            let mut both = [None, None];
            both[seat] = Some(a);
            both[y] = their;
            engine::apply(setup, &mut p, both, rng, &mut ());
            if playout(setup, &mut p, rng) == Res::Win(seat as u8) {
                wins[j] += 1;
            }
            done[j] += 1;
        }
    }
    let mut best = 0;
    for j in 1..acts.len() {
        // wins[j]/done[j] > wins[best]/done[best], without division.
        if wins[j] * done[best].max(1) > wins[best] * done[j].max(1) {
            best = j;
        }
    }
    acts[best]
}
