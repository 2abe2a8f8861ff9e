//! The exact solver for small battles: every position reachable from the
//! root is enumerated with every chance outcome, then values are computed
//! by value iteration over the number of turns left, solving the zero-sum
//! matrix game of the two seats' simultaneous choices at each position by
//! linear programming (simplex).
//!
//! `V_0 = 0` (a battle still running at the turn limit is a draw);
//! `V_k(s) = val[ sum_o p(o) * V_{k-1}(s_o) ]` for a turn, where a win is
//! +1 for seat 0 and a loss -1; a replacement step is solved at the same
//! `k` (it is not a turn). Iteration stops early once `V_k = V_{k-1}`
//! (within 1e-12), after which every later `V` is the same.
//!
//! It is the test oracle of the engine and the AI `exact`, and the default
//! AI uses it in endgames with one monster per side.

use super::engine::{self, Act, Acts, Pos, Res, Setup, Step};
use crate::seam::AiBudget;
use rand::Rng;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The largest state space the `exact` level solves (else it falls back to
/// the default search).
pub const EXACT_MAX_STATES: usize = 60_000;

/// The largest endgame state space the default AI hands to the solver.
pub const ENDGAME_MAX_STATES: usize = 6_000;

/// Solutions kept by [`cached_solve`]: a battle's endgame is solved once
/// and every later turn of it is a lookup.
const CACHE_SIZE: usize = 4;

/// Turns of value iteration a solve may run when no stopwatch bounds it
/// (the state cap bounds the enumeration; this bounds the levels, so a
/// roster with a huge turn limit cannot make an untimed solve run on).
pub const UNTIMED_MAX_LEVELS: usize = 200;

/// Solutions of recent endgames with their battle's context, most recent
/// first. The seam gives an AI no state of its own between turns
/// (`Game::ai_action` takes `&self`), so the cache lives here; a solution
/// is a pure function of the context and position, so a hit returns
/// exactly what a fresh solve would and determinism is kept.
static CACHE: Mutex<Vec<(Setup, Arc<Solution>)>> = Mutex::new(Vec::new());

/// The solution covering `pos`: from the cache if an earlier turn of the
/// same battle solved it, else solved now within the budget (its
/// stopwatch if it has one; otherwise a bound on work, so the time is
/// always bounded) and cached. `None` if it has more than `max_states`
/// states or the budget ran out.
pub fn cached_solve(
    setup: &Setup,
    pos: &Pos,
    max_states: usize,
    budget: &AiBudget,
) -> Option<Arc<Solution>> {
    if pos.result.is_some() {
        return None;
    }
    let k = key(pos);
    {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = cache
            .iter()
            .position(|(c, s)| s.index.contains_key(&k) && c == setup)
        {
            let hit = cache.remove(i);
            let sol = hit.1.clone();
            cache.insert(0, hit);
            return Some(sol);
        }
    }
    let calls = Cell::new(0usize);
    let max_calls = (max_states / STOP_CHECK_EVERY + 1) * (UNTIMED_MAX_LEVELS + 1);
    let stop = || {
        calls.set(calls.get() + 1);
        budget.expired() || calls.get() > max_calls
    };
    let sol = Arc::new(Solution::solve_within(setup, pos, max_states, &stop)?);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.insert(0, (setup.clone(), sol.clone()));
    cache.truncate(CACHE_SIZE);
    Some(sol)
}

/// States enumerated or solved between two questions to the stop test.
const STOP_CHECK_EVERY: usize = 256;

/// Where an outcome leads.
#[derive(Debug, Clone, Copy)]
enum Succ {
    /// The battle ended: value for seat 0.
    End(f64),
    /// Another state, by index.
    State(u32),
}

#[derive(Debug, Clone)]
struct State {
    pos: Pos,
    acts: [Acts; 2],
    /// Outcomes per joint action, row-major (`i0 * k1 + i1`); a seat that
    /// does not act has one "none" action.
    outs: Vec<Vec<(f64, Succ)>>,
}

/// A solved battle: state values for every number of turns left.
#[derive(Debug, Clone)]
pub struct Solution {
    states: Vec<State>,
    index: HashMap<Pos, u32>,
    /// `levels[k][s]`: value of state `s` with `k` turns left (for seat 0).
    levels: Vec<Vec<f64>>,
    /// The turn limit of the solved context.
    turn_limit: u16,
}

/// The solver's key of a position: the turn number is dropped (the number
/// of turns left is handled by the levels).
fn key(pos: &Pos) -> Pos {
    Pos { turn: 0, ..*pos }
}

fn n_choices(acts: &Acts) -> usize {
    acts.len().max(1)
}

fn pick(acts: &Acts, i: usize) -> Option<Act> {
    acts.as_slice().get(i).copied()
}

impl Solution {
    /// Solves the battle from `root`, or `None` if more than `max_states`
    /// positions are reachable.
    pub fn solve(setup: &Setup, root: &Pos, max_states: usize) -> Option<Solution> {
        Self::solve_within(setup, root, max_states, &|| false)
    }

    /// [`Solution::solve`] that gives up (`None`) as soon as `stop` says so;
    /// it is asked every few hundred states or LPs, so an AI's stopwatch
    /// bounds the solve.
    pub fn solve_within(
        setup: &Setup,
        root: &Pos,
        max_states: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Solution> {
        if root.result.is_some() {
            return None;
        }
        // Simulate without the turn limit; the levels apply it.
        let mut free = setup.clone();
        free.turn_limit = u16::MAX;
        let mut states: Vec<State> = Vec::new();
        let mut index: HashMap<Pos, u32> = HashMap::new();
        let root_key = key(root);
        index.insert(root_key, 0);
        states.push(State {
            pos: root_key,
            acts: [
                engine::legal(setup, &root_key, 0),
                engine::legal(setup, &root_key, 1),
            ],
            outs: Vec::new(),
        });
        let mut next = 0;
        while next < states.len() {
            if next % STOP_CHECK_EVERY == 0 && stop() {
                return None;
            }
            let pos = states[next].pos;
            let acts = states[next].acts;
            let (k0, k1) = (n_choices(&acts[0]), n_choices(&acts[1]));
            let mut outs = Vec::with_capacity(k0 * k1);
            for i0 in 0..k0 {
                for i1 in 0..k1 {
                    let mut row = Vec::new();
                    for (p, q) in
                        engine::outcomes(&free, &pos, [pick(&acts[0], i0), pick(&acts[1], i1)])
                    {
                        let succ = match q.result {
                            Some(r) => Succ::End(crate::battle::ai::eval::terminal(r)),
                            None => {
                                let kq = key(&q);
                                let id = match index.get(&kq) {
                                    Some(&id) => id,
                                    None => {
                                        if states.len() >= max_states {
                                            return None;
                                        }
                                        let id = states.len() as u32;
                                        index.insert(kq, id);
                                        states.push(State {
                                            pos: kq,
                                            acts: [
                                                engine::legal(setup, &kq, 0),
                                                engine::legal(setup, &kq, 1),
                                            ],
                                            outs: Vec::new(),
                                        });
                                        id
                                    }
                                };
                                Succ::State(id)
                            }
                        };
                        row.push((p, succ));
                    }
                    outs.push(row);
                }
            }
            states[next].outs = outs;
            next += 1;
        }
        let mut sol = Solution {
            states,
            index,
            levels: vec![],
            turn_limit: setup.turn_limit,
        };
        let horizon = setup.turn_limit.saturating_sub(root.turn) as usize;
        sol.iterate(horizon, stop).then_some(sol)
    }

    /// Every position the solve reached (with turn 0: [`Solution::value`]
    /// of one gives its value with the root's turns left).
    pub fn positions(&self) -> impl Iterator<Item = &Pos> {
        self.states.iter().map(|s| &s.pos)
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// True when no state was enumerated (never after a successful solve).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Value iteration up to `horizon` turns left; false if `stop` cut it short.
    fn iterate(&mut self, horizon: usize, stop: &dyn Fn() -> bool) -> bool {
        let n = self.states.len();
        self.levels = vec![vec![0.0; n]];
        for k in 1..=horizon {
            let prev = &self.levels[k - 1];
            let mut cur = vec![0.0; n];
            // Turns first (they read level k-1), then replacement steps (they read level k).
            for (s, st) in self.states.iter().enumerate() {
                if s % STOP_CHECK_EVERY == 0 && stop() {
                    return false;
                }
                if st.pos.step() == Step::Choose {
                    cur[s] = self.matrix_value(st, prev).0;
                }
            }
            for (s, st) in self.states.iter().enumerate() {
                if st.pos.step() == Step::Replace {
                    let v = self.matrix_value(st, &cur).0;
                    cur[s] = v;
                }
            }
            let diff = cur
                .iter()
                .zip(prev)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            self.levels.push(cur);
            if diff < 1e-12 {
                break;
            }
        }
        true
    }

    /// The payoff matrix of a state against next-level values, and its solution.
    fn matrix_value(&self, st: &State, next: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
        let (k0, k1) = (n_choices(&st.acts[0]), n_choices(&st.acts[1]));
        solve_matrix(&payoff_matrix(st, next), k0, k1)
    }

    fn level_for(&self, pos: &Pos) -> usize {
        let left = self.turn_limit.saturating_sub(pos.turn) as usize;
        left.min(self.levels.len() - 1)
    }

    /// The value of `pos` for seat 0 (win +1, loss -1, draw 0), if it was
    /// reached in the solve.
    pub fn value(&self, pos: &Pos) -> Option<f64> {
        if let Some(r) = pos.result {
            return Some(crate::battle::ai::eval::terminal(r));
        }
        let &s = self.index.get(&key(pos))?;
        Some(self.levels[self.level_for(pos)][s as usize])
    }

    /// The equilibrium strategy of `seat` at `pos`: each legal action with
    /// its probability (empty if the seat does not act or `pos` is unknown).
    pub fn strategy(&self, pos: &Pos, seat: usize) -> Vec<(Act, f64)> {
        let Some(&s) = self.index.get(&key(pos)) else {
            return Vec::new();
        };
        let st = &self.states[s as usize];
        if st.acts[seat].is_empty() || pos.result.is_some() {
            return Vec::new();
        }
        let k = self.level_for(pos);
        let next = match st.pos.step() {
            Step::Replace => &self.levels[k],
            _ => &self.levels[k.saturating_sub(1)],
        };
        if k == 0 {
            // Cannot happen in a live battle (it would be over); play uniformly.
            let n = st.acts[seat].len() as f64;
            return st.acts[seat]
                .as_slice()
                .iter()
                .map(|&a| (a, 1.0 / n))
                .collect();
        }
        let (_, x, y) = self.matrix_value(st, next);
        let probs = if seat == 0 { x } else { y };
        st.acts[seat]
            .as_slice()
            .iter()
            .copied()
            .zip(probs)
            .collect()
    }

    /// The one-turn matrix game at `pos` (seat 0's values of every joint
    /// action, continuation valued by the solution, row-major by seat 0's
    /// action) with both seats' actions; `None` if `pos` is unknown or over.
    /// A seat that does not act has one "none" column or row (empty `Acts`).
    pub fn matrix(&self, pos: &Pos) -> Option<(Vec<f64>, [Acts; 2])> {
        if pos.result.is_some() {
            return None;
        }
        let &s = self.index.get(&key(pos))?;
        let st = &self.states[s as usize];
        let k = self.level_for(pos);
        if k == 0 {
            return None;
        }
        let next = match st.pos.step() {
            Step::Replace => &self.levels[k],
            _ => &self.levels[k - 1],
        };
        Some((payoff_matrix(st, next), st.acts))
    }

    /// An action of `seat` drawn from its equilibrium strategy.
    pub fn sample<R: Rng>(&self, setup: &Setup, pos: &Pos, seat: usize, rng: &mut R) -> Act {
        let strat = self.strategy(pos, seat);
        let mut r: f64 = rng.r#gen();
        for &(a, p) in &strat {
            if r < p {
                return a;
            }
            r -= p;
        }
        strat
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|s| s.0)
            .unwrap_or_else(|| {
                engine::legal(setup, pos, seat)
                    .as_slice()
                    .first()
                    .copied()
                    .unwrap_or(Act::Move(0))
            })
    }

    /// The result of a finished position, for callers without the engine.
    pub fn result_value(r: Res) -> f64 {
        crate::battle::ai::eval::terminal(r)
    }
}

/// Solves the zero-sum matrix game `m` (`rows x cols`, row-major, the row
/// player maximises): returns the value and both optimal mixed strategies.
///
/// The classic reduction: shift the payoffs to be positive, then the column
/// player's LP `max sum y  s.t.  M y <= 1, y >= 0` is solved by the simplex
/// method (Bland's rule, so it cannot cycle); the row strategy is its dual,
/// read from the final objective row.
pub fn solve_matrix(m: &[f64], rows: usize, cols: usize) -> (f64, Vec<f64>, Vec<f64>) {
    assert_eq!(m.len(), rows * cols, "matrix size");
    if rows == 1 || cols == 1 {
        // A one-sided choice: the chooser takes its best entry.
        if rows == 1 {
            let (j, v) =
                m.iter().enumerate().fold(
                    (0, f64::INFINITY),
                    |b, (j, &v)| if v < b.1 { (j, v) } else { b },
                );
            let mut y = vec![0.0; cols];
            y[j] = 1.0;
            return (v, vec![1.0], y);
        }
        let (i, v) =
            m.iter().enumerate().fold(
                (0, f64::NEG_INFINITY),
                |b, (i, &v)| if v > b.1 { (i, v) } else { b },
            );
        let mut x = vec![0.0; rows];
        x[i] = 1.0;
        return (v, x, vec![1.0]);
    }
    let min = m.iter().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - min;
    // Tableau: `rows` constraint rows + objective row; columns: y (cols),
    // slacks (rows), rhs.
    let w = cols + rows + 1;
    let mut t = vec![0.0; (rows + 1) * w];
    for i in 0..rows {
        for j in 0..cols {
            t[i * w + j] = m[i * cols + j] + shift;
        }
        t[i * w + cols + i] = 1.0;
        t[i * w + w - 1] = 1.0;
    }
    for j in 0..cols {
        t[rows * w + j] = -1.0;
    }
    let mut basis: Vec<usize> = (0..rows).map(|i| cols + i).collect();
    const EPS: f64 = 1e-12;
    for _ in 0..1000 {
        // Bland: the first column with a negative reduced cost enters.
        let Some(e) = (0..cols + rows).find(|&j| t[rows * w + j] < -EPS) else {
            break;
        };
        let mut leave: Option<(f64, usize)> = None;
        for i in 0..rows {
            let a = t[i * w + e];
            if a > EPS {
                let ratio = t[i * w + w - 1] / a;
                let better = match leave {
                    None => true,
                    Some((r, l)) => ratio < r - EPS || (ratio <= r + EPS && basis[i] < basis[l]),
                };
                if better {
                    leave = Some((ratio, i));
                }
            }
        }
        let Some((_, l)) = leave else { break }; // unbounded: cannot happen with positive payoffs
        let piv = t[l * w + e];
        for c in 0..w {
            t[l * w + c] /= piv;
        }
        for r in 0..=rows {
            if r != l {
                let f = t[r * w + e];
                if f != 0.0 {
                    for c in 0..w {
                        t[r * w + c] -= f * t[l * w + c];
                    }
                }
            }
        }
        basis[l] = e;
    }
    let total = t[rows * w + w - 1];
    let v_shifted = 1.0 / total;
    let mut y = vec![0.0; cols];
    for (i, &b) in basis.iter().enumerate() {
        if b < cols {
            y[b] = t[i * w + w - 1] * v_shifted;
        }
    }
    let mut x: Vec<f64> = (0..rows)
        .map(|i| (t[rows * w + cols + i] * v_shifted).max(0.0))
        .collect();
    normalise(&mut x);
    normalise(&mut y);
    (v_shifted - shift, x, y)
}

fn normalise(v: &mut [f64]) {
    for p in v.iter_mut() {
        if *p < 0.0 {
            *p = 0.0;
        }
    }
    let s: f64 = v.iter().sum();
    if s > 0.0 {
        for p in v.iter_mut() {
            *p /= s;
        }
    } else {
        let n = v.len() as f64;
        for p in v.iter_mut() {
            *p = 1.0 / n;
        }
    }
}

/// A state's payoff matrix (row-major, seat 0's choices by seat 1's): each
/// joint choice's outcomes weighted by their chances, ends by their value,
/// successors by `next`, their values one level down.
fn payoff_matrix(st: &State, next: &[f64]) -> Vec<f64> {
    let cells = n_choices(&st.acts[0]) * n_choices(&st.acts[1]);
    let mut m: Vec<f64> = st
        .outs
        .iter()
        .map(|row| {
            row.iter()
                .map(|&(p, s)| {
                    p * match s {
                        Succ::End(v) => v,
                        Succ::State(i) => next[i as usize],
                    }
                })
                .sum()
        })
        .collect();
    // A joint choice without outcomes scores 0, as before.
    m.resize(cells, 0.0);
    m
}
