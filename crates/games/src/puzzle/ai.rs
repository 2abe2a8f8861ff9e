//! The AIs, behind one entry point [`choose`]:
//! - `random`: any removable group, uniformly;
//! - `greedy`: the group that sends the most garbage now (hard counted
//!   twice, as in the end score), the larger group on ties;
//! - `default` (`default:N` for N sampled refills per candidate): looks two
//!   of its own removals ahead, refilling with colours sampled from its own
//!   generator (never the game's, so it cannot peek at the real refills),
//!   and values garbage sent, keeping groups available (none loses) and the
//!   garbage on its own field and in its own queues.

use super::PuzzleAction;
use super::PuzzleDuel;
use super::engine::{Removal, remove_group};
use super::field::{CELLS, Cell, Field, Side, neighbours};
use super::garbage::{Kind, garbage_sent};
use super::groups::{Group, find_components, find_groups};
use crate::seam::{AiBudget, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The AI levels; the first is the default.
pub const LEVELS: &[&str] = &["default", "greedy", "random"];

/// Sampled refills per candidate for `default` without a parameter: 64
/// takes about 16 ms a move in a release build (of a 1 s budget); 16 (the
/// default until issue 21, still `default:16`) gained about +70 Elo over
/// the earlier 3, and 64 beats 16 in turn (see the README's tournament).
pub const DEFAULT_SAMPLES: u64 = 64;

/// The most samples per candidate plain `default` takes when the budget
/// has a stopwatch: it keeps adding rounds of [`DEFAULT_SAMPLES`] to every
/// candidate until the time is up, so a long budget buys a less noisy
/// choice. `default:N` always takes exactly N (reproducible comparisons).
pub const MAX_SAMPLES: u64 = 1024;

/// Picks `seat`'s action at `level` (unknown levels play `default`).
pub fn choose(
    game: &PuzzleDuel,
    seat: Seat,
    level: &str,
    budget: AiBudget,
    seed: u64,
) -> PuzzleAction {
    let seat = seat.min(1);
    let groups = game.groups_of(seat);
    if groups.is_empty() {
        // Only reachable when the game is over or it is not this seat's
        // move with a stuck field; any cell is as good as another.
        return PuzzleAction { x: 1, y: 1 };
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (name, param) = match level.split_once(':') {
        Some((n, p)) => (n, p.trim().parse::<u64>().ok()),
        None => (level, None),
    };
    let pick = match name.trim() {
        "random" => rng.gen_range(0..groups.len()),
        "greedy" => greedy_index(&game.sides[seat].field, &groups),
        _ => {
            let samples = param.unwrap_or(DEFAULT_SAMPLES).clamp(1, 64);
            let deepen = param.is_none() && budget.deadline.is_some();
            let most = if deepen { MAX_SAMPLES } else { samples };
            lookahead_index(&game.sides[seat], &groups, samples, most, budget, &mut rng)
        }
    };
    let (x, y) = groups[pick].anchor_xy1();
    PuzzleAction { x, y }
}

/// `(c, o, w)` the removal of `group` would give on `field`, without changing it.
pub fn preview(field: &Field, group: &[u8]) -> (u32, u32, u32) {
    let mut touched = [0u8; CELLS];
    for &i in group {
        for n in neighbours(usize::from(i)) {
            touched[n] += 1;
        }
    }
    let (mut o, mut w) = (0, 0);
    for (i, &t) in touched.iter().enumerate() {
        if t == 0 {
            continue;
        }
        match field.cells[i] {
            Cell::Soft => o += 1,
            Cell::Hard if t >= 2 => {
                o += 1;
                w += 1
            }
            Cell::Hard => w += 1,
            _ => {}
        }
    }
    (group.len() as u32, o, w)
}

/// Garbage value of a send: hard balls count twice, as in the end score.
fn send_value(kind: Kind, count: u32) -> f64 {
    match kind {
        Kind::Hard => 2.0 * f64::from(count),
        Kind::Soft => f64::from(count),
    }
}

fn removal_value(r: &Removal) -> f64 {
    send_value(r.kind, r.count)
}

fn greedy_index(field: &Field, groups: &[Group]) -> usize {
    let mut best = (f64::MIN, 0usize, 0usize);
    for (i, g) in groups.iter().enumerate() {
        let (c, o, w) = preview(field, &g.cells);
        let (k, n) = garbage_sent(c, o, w);
        let v = send_value(k, n);
        if v > best.0 || (v == best.0 && g.size() > best.1) {
            best = (v, g.size(), i);
        }
    }
    best.2
}

/// Penalty for a field with no group: losing outweighs any garbage.
const STUCK: f64 = 1000.0;
/// Weight of the second removal's value against the first's.
const SECOND: f64 = 0.9;

/// Value of a position after the two looked-ahead removals: the best
/// immediate send still available, how clustered the colours are (big
/// components grow into big groups), how many groups remain (having none
/// loses), minus garbage on the field and in the queues.
fn leaf_value(side: &Side) -> f64 {
    let comps = find_components(&side.field, 2);
    let mut best_next = 0.0f64;
    let mut n_groups = 0;
    let mut cluster = 0.0;
    for g in &comps {
        let n = g.size();
        if n >= super::groups::MIN_GROUP {
            n_groups += 1;
            let (c, o, w) = preview(&side.field, &g.cells);
            let (k, cnt) = garbage_sent(c, o, w);
            best_next = best_next.max(send_value(k, cnt));
        }
        cluster += (n * n) as f64;
    }
    if n_groups == 0 {
        return -STUCK;
    }
    let (fh, fs) = side.field.garbage_counts();
    let (qh, qs) = side.queues.garbage_counts();
    let garbage = f64::from(2 * fh + fs) + 0.5 * f64::from(2 * qh + qs);
    let scarcity = match n_groups {
        1 => 30.0,
        2 => 10.0,
        3 => 3.0,
        _ => 0.0,
    };
    0.6 * best_next + 0.004 * cluster - 0.3 * garbage - scarcity
}

/// The candidate with the best mean lookahead value: rounds of `samples`
/// sampled refills per candidate, more rounds while the stopwatch allows
/// and fewer than `most` samples each were taken. A round cut short by the
/// stopwatch is dropped, except the first (some answer is needed).
fn lookahead_index<R: Rng>(
    side: &Side,
    groups: &[Group],
    samples: u64,
    most: u64,
    budget: AiBudget,
    rng: &mut R,
) -> usize {
    // Candidates in greedy order, so a deadline still leaves a fair answer.
    let mut order: Vec<(f64, usize)> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let (c, o, w) = preview(&side.field, &g.cells);
            let (k, n) = garbage_sent(c, o, w);
            (send_value(k, n) + g.size() as f64 * 1e-3, i)
        })
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    let samples = match budget.iterations {
        Some(it) => (it / groups.len() as u64).clamp(1, samples),
        None => samples,
    };
    // Sum of values and samples taken, per candidate (in `order`).
    let mut totals = vec![(0.0f64, 0u64); order.len()];
    let mut taken = 0;
    'rounds: while taken < most.max(samples) {
        let mut round = vec![(0.0f64, 0u64); order.len()];
        for (slot, &(_, gi)) in round.iter_mut().zip(&order) {
            for _ in 0..samples {
                slot.0 += sample_value(side, groups, gi, rng);
            }
            slot.1 = samples;
            if budget.expired() {
                if taken == 0 {
                    for (t, r) in totals.iter_mut().zip(&round) {
                        *t = *r;
                    }
                }
                break 'rounds;
            }
        }
        for (t, r) in totals.iter_mut().zip(&round) {
            t.0 += r.0;
            t.1 += r.1;
        }
        taken += samples;
    }
    let mut best = (f64::MIN, order[0].1);
    for (&(sum, n), &(_, gi)) in totals.iter().zip(&order) {
        if n == 0 {
            continue;
        }
        let v = sum / n as f64;
        if v > best.0 {
            best = (v, gi);
        }
    }
    best.1
}

/// One sampled lookahead of removing `groups[gi]`: its send, then the
/// best second removal (send plus leaf value) on a refill drawn from `rng`.
fn sample_value<R: Rng>(side: &Side, groups: &[Group], gi: usize, rng: &mut R) -> f64 {
    let mut s1 = side.clone();
    let r1 = remove_group(&mut s1, &groups[gi].cells, rng);
    let next = find_groups(&s1.field);
    let mut best2 = -STUCK;
    for g2 in &next {
        let mut s2 = s1.clone();
        let r2 = remove_group(&mut s2, &g2.cells, rng);
        let v = removal_value(&r2) + leaf_value(&s2);
        if v > best2 {
            best2 = v;
        }
    }
    removal_value(&r1) + SECOND * best2
}
