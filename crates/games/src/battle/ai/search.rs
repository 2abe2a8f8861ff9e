//! The search behind `default` (see [`choose_hedge`]) and `duct` (see
//! [`choose`]): simultaneous-move Monte Carlo tree search with
//! decoupled UCT (each seat runs its own UCB1 over its own actions at every
//! node, which is how a simultaneous turn is searched without letting
//! either side see the other's choice), chance sampled from the AI's
//! generator, and new leaves scored by the static [`eval`](super::eval)
//! instead of random playouts to the end (`default` with the weights
//! fitted to solved positions, [`eval::FITTED`]; `duct` with the hand-set
//! ones).
//!
//! Positions are shared through a transposition table (the turn number is
//! part of the position, so the graph has no cycles). `duct` plays the
//! most visited root action. The search also keeps the value of every
//! joint action at the root: `default` plays the most visited action
//! unless a best response in that root matrix game could exploit it, and
//! then samples the game's equilibrium; the `mix` level always samples it.
//!
//! Measured alternatives that lost to this design against `mc:1000`
//! (100-game runs at 5,000 iterations): greedy rollouts to the end instead
//! of the evaluation, open-loop nodes shared across dice outcomes, a
//! depth-2 exact matrix-game search with the same evaluation, and sampling
//! the root action from the visit counts.
//!
//! Small positions go to the exact solver when it finishes within the
//! budget: one monster a side for `duct`, three monsters standing in all
//! for `default`. The default's search also leaves out the actions that
//! change nothing (a heal at full HP, see `search_acts`).

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use super::super::engine::{self, Act, Acts, Pos, Setup, Step};
use super::super::rules::data::MoveKind;
use super::super::solver::{self, Solution};
use super::eval::{self, Weights};
use crate::seam::AiBudget;
use rand::Rng;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// Iterations per decision when the budget gives none (about 40 ms on an
/// idle core in a release build, more on a loaded machine).
pub const DEFAULT_ITERATIONS: u64 = 20_000;

/// The most iterations of one decision when only the stopwatch bounds it
/// (so `default` uses the time it is given): about 300 bytes a node, so
/// the tree stays under ~300 MB even on a fast machine with a long budget.
pub const MAX_ITERATIONS: u64 = 1_000_000;

/// The exploration constant of UCB1 (values are in [-1, 1]).
pub const UCB_C: f64 = 1.2;

/// FxHash: a fast, non-cryptographic hash for the transposition table.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a round: a position's HP array is 24 bytes, and a
        // round per byte made hashing an eighth of the search's time.
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 56));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// Per-seat statistics of one node.
struct Side {
    acts: Acts,
    visits: [u32; 10],
    sum: [f64; 10],
}

impl Side {
    fn new(acts: Acts) -> Side {
        Side {
            acts,
            visits: [0; 10],
            sum: [0.0; 10],
        }
    }

    /// UCB1 over this seat's own actions (unvisited first, in order).
    fn select(&self, total: u32) -> usize {
        let k = self.acts.len();
        if k <= 1 {
            return 0;
        }
        if let Some(i) = (0..k).find(|&i| self.visits[i] == 0) {
            return i;
        }
        let ln = (total.max(1) as f64).ln();
        let mut best = (f64::NEG_INFINITY, 0);
        for i in 0..k {
            let n = self.visits[i] as f64;
            let v = self.sum[i] / n + UCB_C * (ln / n).sqrt();
            if v > best.0 {
                best = (v, i);
            }
        }
        best.1
    }
}

struct Node {
    total: u32,
    sides: [Side; 2],
}

struct Tree<'a> {
    setup: &'a Setup,
    /// How new leaves are valued.
    weights: Weights,
    /// The battle's attacks, precomputed for the evaluation.
    hits: eval::HitTable,
    /// Whether the seats' actions that change nothing are left out (see
    /// [`search_acts`]).
    prune: bool,
    nodes: Vec<Node>,
    table: FxMap<Pos, u32>,
    /// Visits and value sums (for seat 0) of each joint root action,
    /// row-major by seat 0's action (`i0 * 10 + i1`).
    joint: Vec<(u32, f64)>,
}

impl Tree<'_> {
    fn add(&mut self, pos: &Pos) -> u32 {
        let id = self.nodes.len() as u32;
        let side = |x: usize| {
            Side::new(if self.prune {
                search_acts(self.setup, pos, x)
            } else {
                engine::legal(self.setup, pos, x)
            })
        };
        self.nodes.push(Node {
            total: 0,
            sides: [side(0), side(1)],
        });
        self.table.insert(*pos, id);
        id
    }

    /// One iteration from `node` at `pos`; returns the value for seat 0.
    fn iterate<R: Rng>(&mut self, node: u32, pos: &Pos, rng: &mut R) -> f64 {
        let n = &self.nodes[node as usize];
        let i0 = n.sides[0].select(n.total);
        let i1 = n.sides[1].select(n.total);
        let a0 = n.sides[0].acts.as_slice().get(i0).copied();
        let a1 = n.sides[1].acts.as_slice().get(i1).copied();
        let mut p = *pos;
        // Both actions come from the node's lists, which `legal` made.
        engine::apply_legal(self.setup, &mut p, [a0, a1], rng, &mut ());
        let v = if let Some(r) = p.result {
            eval::terminal(r)
        } else if let Some(&child) = self.table.get(&p) {
            self.iterate(child, &p, rng)
        } else {
            self.add(&p);
            self.weights
                .value(&eval::features_with(self.setup, &self.hits, &p))
        };
        if node == ROOT {
            let cell = &mut self.joint[i0 * 10 + i1];
            cell.0 += 1;
            cell.1 += v;
        }
        let n = &mut self.nodes[node as usize];
        n.total += 1;
        if a0.is_some() {
            n.sides[0].visits[i0] += 1;
            n.sides[0].sum[i0] += v;
        }
        if a1.is_some() {
            n.sides[1].visits[i1] += 1;
            n.sides[1].sum[i1] -= v;
        }
        v
    }
}

/// The actions the default's search tries for seat `x` at `pos`: the
/// legal ones except a heal at full HP while an attack is possible. Such a
/// heal changes nothing, and in this game dealing damage is never worse
/// than not dealing it, so any attack weakly dominates it; without this,
/// a search that sees no progress in a stalled position picks among
/// equal-looking actions and may pass turns with a heal a player would
/// call a blunder.
fn search_acts(setup: &Setup, pos: &Pos, x: usize) -> Acts {
    let mut acts = engine::legal(setup, pos, x);
    if pos.step() != Step::Choose {
        return acts;
    }
    let me = setup.active(pos, x);
    if pos.hp[x][pos.active[x] as usize] < me.hp {
        return acts;
    }
    let is_heal = |a: &Act| match *a {
        Act::Move(m) => matches!(
            me.moves.get(usize::from(m)).map(|mv| &mv.kind),
            Some(MoveKind::Heal { .. })
        ),
        Act::Switch(_) => false,
    };
    let can_attack = acts
        .as_slice()
        .iter()
        .any(|a| matches!(a, Act::Move(_)) && !is_heal(a));
    if can_attack {
        acts.retain(|a| !is_heal(a));
    }
    acts
}

/// Whether `pos` is an endgame the exact solver should take.
fn small_endgame(setup: &Setup, pos: &Pos) -> bool {
    pos.alive(setup, 0) <= 1 && pos.alive(setup, 1) <= 1
}

/// The root's node id (the first node added).
const ROOT: u32 = 0;

/// Runs the search from `pos` for `iterations` (or until the stopwatch).
fn search<'a, R: Rng>(
    setup: &'a Setup,
    pos: &Pos,
    budget: &AiBudget,
    iterations: u64,
    weights: &Weights,
    prune: bool,
    rng: &mut R,
) -> Tree<'a> {
    let mut tree = Tree {
        setup,
        weights: *weights,
        hits: eval::HitTable::new(setup),
        prune,
        nodes: Vec::new(),
        table: FxMap::default(),
        joint: vec![(0, 0.0); 100],
    };
    let root = tree.add(pos);
    for it in 0..iterations {
        if it % 64 == 0 && it > 0 && budget.expired() {
            break;
        }
        tree.iterate(root, pos, rng);
    }
    tree
}

/// The search's root statistics: each legal action of `seat` with its
/// visits and mean value (for `seat`). Exposed for tests and the bench.
pub fn root_stats<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: u64,
    rng: &mut R,
) -> Vec<(Act, u32, f64)> {
    let tree = search(setup, pos, budget, iterations, &Weights::HAND, false, rng);
    marginal_stats(&tree, seat)
}

fn marginal_stats(tree: &Tree, seat: usize) -> Vec<(Act, u32, f64)> {
    let side = &tree.nodes[ROOT as usize].sides[seat];
    (0..side.acts.len())
        .map(|i| {
            let n = side.visits[i];
            // Seat 1's sums are stored negated, so the mean is already for `seat`.
            let mean = if n == 0 { 0.0 } else { side.sum[i] / n as f64 };
            (side.acts.as_slice()[i], n, mean)
        })
        .collect()
}

/// Joint root visits below which a cell of the root matrix leans on its
/// actions' marginal means (a prior worth this many visits).
const PRIOR_VISITS: f64 = 30.0;

/// Probabilities below this are dropped from the root strategy before
/// sampling: they are mostly noise of the estimated matrix.
const MIN_PROBABILITY: f64 = 0.2;

/// The root as a matrix game: seat 0's value of each joint action, from
/// the search's joint root statistics, each cell shrunk towards the mean
/// of its two actions' marginal values (so rarely tried pairs are not
/// taken at face value). Returns the matrix and its shape.
fn root_matrix(tree: &Tree) -> (Vec<f64>, usize, usize) {
    let root = &tree.nodes[ROOT as usize];
    let k0 = root.sides[0].acts.len().max(1);
    let k1 = root.sides[1].acts.len().max(1);
    let mean = |side: &Side, i: usize| {
        let n = side.visits[i];
        if n == 0 {
            0.0
        } else {
            side.sum[i] / f64::from(n)
        }
    };
    let mut m = vec![0.0; k0 * k1];
    for i0 in 0..k0 {
        for i1 in 0..k1 {
            // Seat 1's sums are stored negated (its own value).
            let prior = 0.5 * (mean(&root.sides[0], i0) - mean(&root.sides[1], i1));
            let (n, sum) = tree.joint[i0 * 10 + i1];
            m[i0 * k1 + i1] = (sum + prior * PRIOR_VISITS) / (f64::from(n) + PRIOR_VISITS);
        }
    }
    (m, k0, k1)
}

/// `seat`'s mixed strategy at the root: the root matrix game solved by
/// the simplex method ([`solver::solve_matrix`]), small probabilities
/// dropped. Exposed for tests and the exploitability tool.
pub fn root_strategy<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: u64,
    rng: &mut R,
) -> Vec<(Act, f64)> {
    let tree = search(setup, pos, budget, iterations, &Weights::HAND, false, rng);
    let acts = tree.nodes[ROOT as usize].sides[seat].acts;
    if acts.is_empty() {
        return Vec::new();
    }
    let (m, k0, k1) = root_matrix(&tree);
    let (_, x, y) = solver::solve_matrix(&m, k0, k1);
    let probs = if seat == 0 { x } else { y };
    let kept: f64 = probs.iter().filter(|&&p| p >= MIN_PROBABILITY).sum();
    if kept <= 0.0 {
        // Nothing stands out: fall back to the most visited action.
        let best = marginal_stats(&tree, seat)
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map_or(acts.as_slice()[0], |s| s.0);
        return vec![(best, 1.0)];
    }
    acts.as_slice()
        .iter()
        .zip(probs)
        .filter(|&(_, p)| p >= MIN_PROBABILITY)
        .map(|(&a, p)| (a, p / kept))
        .collect()
}

/// Whether the endgame solver should take `pos`, and its solution if it
/// finishes before the budget's stopwatch expires (the search's original
/// rule: one monster a side). Used by `duct` and `mix`.
fn endgame_solution(setup: &Setup, pos: &Pos, budget: &AiBudget) -> Option<Arc<Solution>> {
    if !small_endgame(setup, pos) {
        return None;
    }
    solver::cached_solve(setup, pos, solver::ENDGAME_MAX_STATES, budget)
}

/// The `mix` AI's action for `seat`: the search's root solved as a
/// matrix game and an action sampled from `seat`'s equilibrium strategy
/// (so it mixes where the position calls for it), or the exact solver's
/// strategy in small endgames.
///
/// Measured against `mc:1000` (80 games, 20,000 iterations) it scored
/// 50% where the most visited action scores about 67%: the estimated
/// matrix is too noisy for its equilibrium to beat a weak opponent, so it
/// is not the default.
pub fn choose_mixed<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: Option<u64>,
    rng: &mut R,
) -> Act {
    if let Some(sol) = endgame_solution(setup, pos, budget) {
        return sol.sample(setup, pos, seat, rng);
    }
    let iterations = iterations
        .or(budget.iterations)
        .unwrap_or(DEFAULT_ITERATIONS);
    let strategy = root_strategy(setup, pos, seat, budget, iterations, rng);
    let mut r: f64 = rng.r#gen();
    for &(a, p) in &strategy {
        if r < p {
            return a;
        }
        r -= p;
    }
    strategy.last().map_or(Act::Move(0), |s| s.0)
}

/// The `duct` AI's action for `seat` (the default before issue 21): the most visited
/// root action of the search (a pure choice), or the exact solver's
/// strategy in one-a-side endgames solved before the budget's stopwatch
/// expires (cached across turns, bounded without a stopwatch).
pub fn choose<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: Option<u64>,
    rng: &mut R,
) -> Act {
    if let Some(sol) = endgame_solution(setup, pos, budget) {
        return sol.sample(setup, pos, seat, rng);
    }
    most_visited(setup, pos, seat, budget, iterations, rng)
}

/// The search half of [`choose`] (no solver): also the `exact` level's
/// fallback once its larger solve has given up.
pub fn most_visited<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: Option<u64>,
    rng: &mut R,
) -> Act {
    let iterations = iterations
        .or(budget.iterations)
        .unwrap_or(DEFAULT_ITERATIONS);
    let stats = root_stats(setup, pos, seat, budget, iterations, rng);
    // The most visited action (then the best mean): measured against
    // `mc:1000`, playing it beat sampling from the visit distribution by
    // about 10 points of score; DUCT's visits are only a rough equilibrium.
    stats
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map_or(Act::Move(0), |s| s.0)
}

/// How much of its value (seat's scale, [-1, 1]) the most visited root
/// action may give away to a best response in the search's estimated root
/// game before `default` plays the game's mixed equilibrium instead.
pub const MIX_EXPOSURE: f64 = 0.1;

/// The most alive monsters in all (both sides) for which `default` asks
/// the exact solver first.
pub const SOLVE_MAX_ALIVE: usize = 3;

/// The `default` (also `hedge`) AI's action for `seat`:
/// - positions with at most [`SOLVE_MAX_ALIVE`] monsters alive in all are
///   solved exactly (cached across turns, within the budget) and the
///   action sampled from the equilibrium;
/// - otherwise the search runs for the whole budget (its stopwatch, up to
///   [`MAX_ITERATIONS`]; [`DEFAULT_ITERATIONS`] when it has neither
///   clock nor count), and plays its most visited root action unless
///   that action is exposed: if, in the root matrix game the search
///   estimated, a best response would take more than [`MIX_EXPOSURE`]
///   from it, it samples from the matrix game's equilibrium instead. So it
///   mixes where a pure choice can be exploited, and stays pure (the
///   stronger choice against weak play) where it cannot.
///
/// Measured against `mc:1000` (issue 21), 300 games each on one seed
/// (`gamehost battle tournament --ai L,mc:1000 --games 300 --seed 100`,
/// 20,000 iterations): `duct` 63.3%, this search with the hand-set
/// evaluation 63.2%, with [`eval::FITTED`] 65.5% for `duct` and 65.7%
/// here, so `default` is this with the fitted weights. On 2-a-side
/// positions its one-move exploitability was 0.07 ± 0.05 points a
/// decision against `duct`'s 0.28 ± 0.29 (117 positions, `gamehost
/// battle exploit`). The timed runs are in docs/games/battle.md.
///
/// Leaving heals at full HP out of the search (they change nothing) was
/// measured over 1,000 games at 5,000 iterations (`search:5000` against
/// `mc:1000`, five seeds): 63.1% against 60.7% without; at 20,000
/// iterations over 400 games 63.1% against 64.1%: no gain beyond the
/// noise, so it is kept because the pass it removes is a visible blunder
/// in stalled positions, not for strength. Two opponent models measured
/// the same way were no better and are not used: more exploration for
/// the opponent's UCB1 (C = 2.5: 61.1%) and playing the best reply to the
/// opponent's visits blended 30% with uniform play (62.9%; 58.2% with no
/// blend; 62.1% on top of the pruning).
///
/// Issue 21's goal of 70% against `mc:1000` is out of this design's
/// reach, and nearly out of any fair AI's: at 20,000 iterations over 600
/// games the default scored 64.8%, the same search drawing the opponent's
/// root action from `mc:1000`'s own algorithm 67.5%, and told its actual
/// action 75.2% (docs/games/battle.md, "How far 70% is"). Modelling that one baseline is
/// deliberately not done.
pub fn choose_hedge<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: Option<u64>,
    weights: &Weights,
    rng: &mut R,
) -> Act {
    if pos.alive(setup, 0) + pos.alive(setup, 1) <= SOLVE_MAX_ALIVE
        && let Some(sol) = solver::cached_solve(setup, pos, solver::ENDGAME_MAX_STATES, budget)
    {
        return sol.sample(setup, pos, seat, rng);
    }
    search_and_choose(setup, pos, seat, budget, iterations, weights, rng)
}

/// The search half of [`choose_hedge`] (no solver).
pub fn search_and_choose<R: Rng>(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    budget: &AiBudget,
    iterations: Option<u64>,
    weights: &Weights,
    rng: &mut R,
) -> Act {
    let iterations = iterations
        .or(budget.iterations)
        .unwrap_or(if budget.deadline.is_some() {
            MAX_ITERATIONS
        } else {
            DEFAULT_ITERATIONS
        });
    let tree = search(setup, pos, budget, iterations, weights, true, rng);
    let stats = marginal_stats(&tree, seat);
    let Some(best) = (0..stats.len()).max_by(|&a, &b| {
        stats[a]
            .1
            .cmp(&stats[b].1)
            .then(stats[a].2.total_cmp(&stats[b].2))
    }) else {
        return Act::Move(0);
    };
    let (m, k0, k1) = root_matrix(&tree);
    let (v, x, y) = solver::solve_matrix(&m, k0, k1);
    // The value a best response leaves the most visited action, and the game's value, for `seat`.
    let (worst, value, probs) = if seat == 0 {
        let w = (0..k1)
            .map(|j| m[best * k1 + j])
            .fold(f64::INFINITY, f64::min);
        (w, v, x)
    } else {
        let w = (0..k0)
            .map(|i| -m[i * k1 + best])
            .fold(f64::INFINITY, f64::min);
        (w, -v, y)
    };
    if value - worst <= MIX_EXPOSURE {
        return stats[best].0;
    }
    let kept: f64 = probs.iter().filter(|&&p| p >= MIN_PROBABILITY).sum();
    let mut r: f64 = rng.r#gen::<f64>() * kept;
    for (i, &p) in probs.iter().enumerate() {
        if p < MIN_PROBABILITY {
            continue;
        }
        if r < p {
            return stats[i].0;
        }
        r -= p;
    }
    stats[best].0
}
