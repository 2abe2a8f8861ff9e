//! The AIs, behind one entry point [`choose`]:
//! - `random`: any removable group, uniformly;
//! - `greedy`: the group that sends the most garbage now (hard counted
//!   twice, as in the end score), the larger group on ties;
//! - `default` (`default:N` for N sampled refills per candidate): looks two
//!   of its own removals ahead for every group, refilling with colours
//!   sampled from its own generator (never the game's, so it cannot peek at
//!   the real refills), and values garbage sent, keeping groups available
//!   (none loses) and the garbage on its own field and in its own queues;
//!   then searches its best [`DEFAULT_BEAM`] candidates three removals deep
//!   and plays the best of those. The three-removal search is what made it
//!   stronger than the two-removal search alone (`default:classic`, the
//!   default before issue 21 item 3): `gamehost tournament --game puzzle
//!   --ai default,default:classic,greedy --games 300 --seed 21` (tuned on
//!   seed 100) gave 184/1/115 against `default:classic`, 61.5% (95% Wilson
//!   interval 55.9-66.8%), +81 Elo, and 298/0/2 against `greedy`, 99.3%
//!   (97.6-99.8%), at 12-21 ms a decision (`default:classic` 3-6 ms) on
//!   2 cores under a load of about 5; a second run, `--ai
//!   default,default:classic --games 300 --seed 2121`, gave 179/1/120,
//!   59.8% (54.2-65.2%), +69 Elo, at 14.5 ms (3.9); both runs together:
//!   363/2/235 of 600, 60.7% (56.7-64.5%).

use super::PuzzleAction;
use super::PuzzleDuel;
use super::engine::remove_group;
use super::field::{CELLS, Cell, Field, Side, neighbours};
use super::garbage::{Kind, garbage_sent};
use super::groups::{Group, find_components, find_groups};
use crate::seam::{AiBudget, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The AI levels; the first is the default.
pub const LEVELS: &[&str] = &["default", "greedy", "random"];

/// Sampled refills per candidate of `default`'s two-removal search: 16
/// gained about +70 Elo over the earlier 3 (issue 21), 64 nothing more;
/// the budget's stopwatch still cuts the search short on a slow host.
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
        Some((n, p)) => (n, p.trim()),
        None => (level, ""),
    };
    let pick = match name.trim() {
        "random" => rng.gen_range(0..groups.len()),
        "greedy" => greedy_index(&game.sides[seat].field, &groups),
        _ => {
            // A level the host refused never reaches here; one stored before
            // the check was strict plays the default.
            let p = default_params(param).unwrap_or_else(|_| Params::default_level());
            lookahead_index(
                &game.sides[seat],
                &game.sides[1 - seat],
                &groups,
                &p,
                budget,
                &mut rng,
            )
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

/// Garbage value of a send with hard balls worth `hardw` soft ones.
fn weighted_value(kind: Kind, count: u32, hardw: f64) -> f64 {
    match kind {
        Kind::Hard => hardw * f64::from(count),
        Kind::Soft => f64::from(count),
    }
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

/// The knobs of the lookahead AI, set by `default:k=v/k=v` (or
/// `default:classic/k=v` from the old search) to compare candidates in a
/// tournament. Against `default:classic` over 200 games (seed 100) every
/// single-knob change scored within noise or worse (e.g. `crn=1` 49.0%,
/// `queue=1` 57.0%, `hard=1` 52.5%, `cluster=0.008` 53.5%, `hardw=3`
/// 49.0%, `oppsim=1` 49.0%, `opp=1.5` 37.5%, `second=0.7` 42.0%); only
/// depth (`beam`) won clearly, so the others stay at the old values.
/// Beam variants scored alike (`beam=4/s3=4` 63.5%, `beam=6/s3=8` 65.5%,
/// `beam=8/s3=4` 62.5%, `beam=6/s3=16` 66.5%, `beam=10/s3=8` 65.0%); four
/// removals deep scored 56.5% (`beam=3/s3=2/depth=3`) and 67.5%
/// (`beam=6/s3=4/depth=3`, 26 ms a decision against 17), no clear gain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Sampled refills per candidate.
    pub samples: u64,
    /// Common random numbers: every candidate sees the same refill streams.
    pub crn: bool,
    /// Weight of the second removal's value against the first's.
    pub second: f64,
    /// Weight of the best send still available at the leaf.
    pub next: f64,
    /// Weight of the sum of squared component sizes.
    pub cluster: f64,
    /// Weight of own garbage (field; queue scaled by `queue`).
    pub garbage: f64,
    /// Weight of a queued garbage ball against one on the field.
    pub queue: f64,
    /// Scale of the few-groups penalty.
    pub scarcity: f64,
    /// Extra weight of garbage sent, per unit of the opponent's pressure.
    pub opp: f64,
    /// Penalty per hard garbage ball with fewer than two coloured neighbours.
    pub hard: f64,
    /// Weight of the most common colour's count (balance of colours).
    pub balance: f64,
    /// Value of one hard garbage ball sent, in soft balls.
    pub hardw: f64,
    /// Before the second removal, the opponent's best send now lands in
    /// the own queues (the search sees the garbage it will have to take).
    pub oppsim: bool,
    /// How many of the best two-removal candidates are searched three
    /// removals deep (0: none).
    pub beam: usize,
    /// Sampled refills per candidate of the three-removal search.
    pub s3: u64,
    /// Removals after the first in the beam's deeper search (2: three in all).
    pub depth: u32,
}

/// The best few candidates by the two-removal search that `default`
/// searches three removals deep; 6 (with [`DEFAULT_DEEP_SAMPLES`]) scored
/// 65.5% against the two-removal search alone in tuning (200 games,
/// seed 100), 4 and 8 (with 4 samples) 63.5% and 62.5%.
pub const DEFAULT_BEAM: usize = 6;

/// Sampled refills per candidate of `default`'s three-removal search.
pub const DEFAULT_DEEP_SAMPLES: u64 = 8;

/// The parameters of `default:PARAM`: empty is the default; a number is
/// the samples per candidate of the two-removal search; `classic` is the
/// two-removal search alone as it was before issue 21 item 3 (today's
/// baseline in tournaments); then `k=v` pairs separated by `/` (see
/// [`Params::parse`]) for tuning. Not offered as levels: only `default`
/// is rated. An error names what was wrong and what is accepted.
pub fn default_params(param: &str) -> Result<Params, String> {
    let default = Params::default_level();
    if let Ok(n) = param.parse::<u64>() {
        return Ok(Params {
            samples: n.clamp(1, 64),
            ..default
        });
    }
    match param.strip_prefix("classic") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            Params::parse(Params::classic(DEFAULT_SAMPLES), rest)
        }
        _ => Params::parse(default, param),
    }
}

/// Whether `level` is one `choose` plays as written: `random`, `greedy`,
/// `default`, or `default:PARAM` that [`default_params`] accepts (so a
/// mistyped tuning key is refused instead of silently ignored). `Err`
/// names what was wrong.
pub fn check_level(level: &str) -> Result<(), String> {
    let level = level.trim();
    match level.split_once(':') {
        None if LEVELS.contains(&level) => Ok(()),
        None => Err(format!("`{level}` is not a puzzle AI level")),
        Some(("default", param)) => default_params(param.trim()).map(|_| ()),
        Some((name, _)) if LEVELS.contains(&name) => Err(format!("`{name}` takes no parameter")),
        Some((name, _)) => Err(format!("`{name}` is not a puzzle AI level")),
    }
}

impl Params {
    /// The parameters of `default` itself.
    pub fn default_level() -> Params {
        Params {
            beam: DEFAULT_BEAM,
            s3: DEFAULT_DEEP_SAMPLES,
            ..Params::classic(DEFAULT_SAMPLES)
        }
    }

    /// Today's (before issue 21 item 3) default with `samples` refills.
    pub fn classic(samples: u64) -> Params {
        Params {
            samples,
            crn: false,
            second: 0.9,
            next: 0.6,
            cluster: 0.004,
            garbage: 0.3,
            queue: 0.5,
            scarcity: 1.0,
            opp: 0.0,
            hard: 0.0,
            balance: 0.0,
            hardw: 2.0,
            oppsim: false,
            beam: 0,
            s3: 4,
            depth: 2,
        }
    }

    /// Parses `k=v` pairs separated by `/` over `base` (empty items are
    /// skipped); an unknown key or a value that is not a finite number is
    /// an error. Counts are clamped to what the search can afford.
    pub fn parse(base: Params, text: &str) -> Result<Params, String> {
        let mut p = base;
        for kv in text.split('/').map(str::trim).filter(|kv| !kv.is_empty()) {
            let Some((k, v)) = kv.split_once('=') else {
                return Err(format!("`{kv}` is not `key=value`"));
            };
            let v = match v.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => v,
                _ => return Err(format!("`{kv}`: the value must be a finite number")),
            };
            match k.trim() {
                "s" => p.samples = (v as u64).clamp(1, 256),
                "crn" => p.crn = v != 0.0,
                "second" => p.second = v,
                "next" => p.next = v,
                "cluster" => p.cluster = v,
                "garbage" => p.garbage = v,
                "queue" => p.queue = v,
                "scarcity" => p.scarcity = v,
                "opp" => p.opp = v,
                "hard" => p.hard = v,
                "balance" => p.balance = v,
                "hardw" => p.hardw = v,
                "oppsim" => p.oppsim = v != 0.0,
                "beam" => p.beam = (v as usize).min(64),
                "s3" => p.s3 = (v as u64).clamp(1, 64),
                "depth" => p.depth = (v as u32).clamp(1, 3),
                other => {
                    return Err(format!(
                        "`{other}` is not a parameter (s, crn, second, next, cluster, garbage, \
                         queue, scarcity, opp, hard, balance, hardw, oppsim, beam, s3, depth)"
                    ));
                }
            }
        }
        Ok(p)
    }
}

/// Value of a position after the two looked-ahead removals: the best
/// immediate send still available, how clustered the colours are (big
/// components grow into big groups), how many groups remain (having none
/// loses), minus garbage on the field and in the queues.
fn leaf_value(side: &Side, p: &Params) -> f64 {
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
            best_next = best_next.max(weighted_value(k, cnt, p.hardw));
        }
        cluster += (n * n) as f64;
    }
    if n_groups == 0 {
        return -STUCK;
    }
    let (fh, fs) = side.field.garbage_counts();
    let (qh, qs) = side.queues.garbage_counts();
    let garbage = f64::from(2 * fh + fs) + p.queue * f64::from(2 * qh + qs);
    let scarcity = match n_groups {
        1 => 30.0,
        2 => 10.0,
        3 => 3.0,
        _ => 0.0,
    };
    let mut v =
        p.next * best_next + p.cluster * cluster - p.garbage * garbage - p.scarcity * scarcity;
    if p.hard != 0.0 {
        // Hard balls walled in by garbage or edges need two removed
        // neighbours that may never come.
        let mut stuck_hard = 0;
        for (i, c) in side.field.cells.iter().enumerate() {
            if *c == Cell::Hard {
                let coloured = neighbours(i)
                    .filter(|&n| matches!(side.field.cells[n], Cell::Color(_)))
                    .count();
                if coloured < 2 {
                    stuck_hard += 1;
                }
            }
        }
        v -= p.hard * f64::from(stuck_hard);
    }
    if p.balance != 0.0 {
        let mut counts = [0u32; 3];
        for c in &side.field.cells {
            if let Cell::Color(k) = c {
                counts[usize::from(*k).min(2)] += 1;
            }
        }
        let max = counts.iter().copied().max().unwrap_or(0);
        v += p.balance * f64::from(max);
    }
    v
}

/// How close the opponent is to losing, 0 (safe) and up: few groups on
/// their field and much garbage waiting in their queues.
fn pressure(opp: &Side) -> f64 {
    let groups = find_groups(&opp.field).len();
    let (qh, qs) = opp.queues.garbage_counts();
    let (fh, fs) = opp.field.garbage_counts();
    let garbage = f64::from(2 * (qh + fh) + qs + fs);
    let few = match groups {
        0..=1 => 1.0,
        2 => 0.6,
        3 => 0.3,
        4 => 0.1,
        _ => 0.0,
    };
    few + garbage / 60.0
}

fn lookahead_index<R: Rng>(
    side: &Side,
    opponent: &Side,
    groups: &[Group],
    p: &Params,
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
        Some(it) => (it / groups.len() as u64).clamp(1, p.samples),
        None => p.samples,
    };
    let send_weight = if p.opp != 0.0 {
        1.0 + p.opp * pressure(opponent)
    } else {
        1.0
    };
    let incoming = if p.oppsim {
        let og = find_groups(&opponent.field);
        og.iter()
            .map(|g| {
                let (c, o, w) = preview(&opponent.field, &g.cells);
                garbage_sent(c, o, w)
            })
            .max_by(|a, b| send_value(a.0, a.1).total_cmp(&send_value(b.0, b.1)))
    } else {
        None
    };
    let stream_seeds: Vec<u64> = if p.crn {
        (0..samples).map(|_| rng.r#gen::<u64>()).collect()
    } else {
        Vec::new()
    };
    let mut best = (f64::MIN, order[0].1);
    let mut scored: Vec<(f64, usize)> = Vec::with_capacity(order.len());
    for &(_, gi) in &order {
        let mut total = 0.0;
        for k in 0..samples {
            let mut own;
            let r: &mut dyn rand::RngCore = if p.crn {
                own = ChaCha8Rng::seed_from_u64(stream_seeds[k as usize]);
                &mut own
            } else {
                rng
            };
            total += sample_value(side, &groups[gi].cells, p, send_weight, incoming, r);
        }
        let v = total / samples as f64;
        scored.push((v, gi));
        if v > best.0 {
            best = (v, gi);
        }
        if budget.expired() {
            return best.1;
        }
    }
    if p.beam < 2 {
        return best.1;
    }
    // The few best by two removals, compared three removals deep; the
    // two-removal choice stands if the stopwatch cuts this short.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let s3 = match budget.iterations {
        Some(it) => (it / groups.len() as u64).clamp(1, p.s3),
        None => p.s3,
    };
    let mut deep_best = (f64::MIN, best.1);
    for &(_, gi) in scored.iter().take(p.beam) {
        let mut total = 0.0;
        for _ in 0..s3 {
            let mut s1 = side.clone();
            let r1 = remove_group(&mut s1, &groups[gi].cells, rng);
            total += weighted_value(r1.kind, r1.count, p.hardw)
                + p.second * future(&s1, p.depth, p, rng);
        }
        let v = total / s3 as f64;
        if v > deep_best.0 {
            deep_best = (v, gi);
        }
        if budget.expired() {
            return best.1;
        }
    }
    deep_best.1
}

/// The best value of `depth` more own removals from `side`, refills
/// sampled from `rng`: each removal's send, the later ones discounted by
/// `second`, the last followed by the leaf value.
fn future<R: Rng>(side: &Side, depth: u32, p: &Params, rng: &mut R) -> f64 {
    let mut best = -STUCK;
    for g in &find_groups(&side.field) {
        let mut s = side.clone();
        let r = remove_group(&mut s, &g.cells, rng);
        let rest = if depth <= 1 {
            leaf_value(&s, p)
        } else {
            p.second * future(&s, depth - 1, p, rng)
        };
        let v = weighted_value(r.kind, r.count, p.hardw) + rest;
        if v > best {
            best = v;
        }
    }
    best
}

/// One sampled two-removal value of removing `group` first.
fn sample_value(
    side: &Side,
    group: &[u8],
    p: &Params,
    send_weight: f64,
    incoming: Option<(Kind, u32)>,
    mut rng: &mut dyn rand::RngCore,
) -> f64 {
    let mut s1 = side.clone();
    let r1 = remove_group(&mut s1, group, &mut rng);
    if let Some((kind, count)) = incoming {
        super::garbage::push_garbage(&mut s1.queues, kind, count, &mut rng);
    }
    let next = find_groups(&s1.field);
    let mut best2 = -STUCK;
    for g2 in &next {
        let mut s2 = s1.clone();
        let r2 = remove_group(&mut s2, &g2.cells, &mut rng);
        let v = send_weight * weighted_value(r2.kind, r2.count, p.hardw) + leaf_value(&s2, p);
        if v > best2 {
            best2 = v;
        }
    }
    send_weight * weighted_value(r1.kind, r1.count, p.hardw) + p.second * best2
}
