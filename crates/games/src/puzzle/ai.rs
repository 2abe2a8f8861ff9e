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

/// Sampled refills per candidate for `default` without a parameter: 16
/// takes about 4 ms a move in a release build (of a 1 s budget) and gained
/// about +70 Elo over the earlier 3 (issue 21); the budget's stopwatch
/// still cuts the search short on a slow host.
pub const DEFAULT_SAMPLES: u64 = 16;

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
            lookahead_index(&game.sides[seat], &groups, samples, budget, &mut rng)
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

fn lookahead_index<R: Rng>(
    side: &Side,
    groups: &[Group],
    samples: u64,
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
    let mut best = (f64::MIN, order[0].1);
    for &(_, gi) in &order {
        let mut total = 0.0;
        for _ in 0..samples {
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
            total += removal_value(&r1) + SECOND * best2;
        }
        let v = total / samples as f64;
        if v > best.0 {
            best = (v, gi);
        }
        if budget.expired() {
            break;
        }
    }
    best.1
}
