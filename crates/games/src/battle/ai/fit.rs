//! Fitting the search's leaf evaluation to solved positions (issue 21):
//! small battles are solved exactly, every position a solve reaches gives
//! a pair (its [`Features`], its exact value), and the [`Weights`] of the
//! squashed form are fitted to those values by least squares.
//!
//! Why solved positions and not self-play outcomes: an exact value is the
//! value under best play of both sides, free of the noise of one game's
//! dice, so a few hundred solves give tens of thousands of clean targets.
//! They come from 2-a-side battles (the solver's reach); the features are
//! shares and differences that mean the same at 3 a side.

// The three weights and features index parallel arrays; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use super::super::engine::Pos;
use super::super::rules::data::Roster;
use super::super::solver::Solution;
use super::eval::{self, Features, Weights};
use super::exploit;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// One fitting target: a solved position's features and its exact value
/// for seat 0 (win +1, loss -1, draw 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// What the evaluation reads off the position.
    pub features: Features,
    /// The solver's value of the position.
    pub value: f64,
}

/// Random turns played before a solved root: 0-5, so the roots are varied
/// but most 2-a-side battles stay under the solver's state cap.
const ADVANCE: std::ops::Range<u32> = 0..6;

/// The samples of the `index`-th seeded battle of `team_size` a side:
/// solved from a root a few random turns in (at most `max_states`
/// positions; `None` if larger or over), and `per_root` of the positions
/// the solve reached, drawn with a generator seeded from `seed` and
/// `index` (all of them if fewer).
pub fn solved_samples(
    roster: &Roster,
    team_size: usize,
    seed: u64,
    index: u64,
    per_root: usize,
    max_states: usize,
) -> Option<Vec<Sample>> {
    let (setup, root, _) = exploit::sample_position(roster, team_size, ADVANCE, seed, index)?;
    let solution = Solution::solve(&setup, &root, max_states)?;
    let mut positions: Vec<Pos> = solution.positions().copied().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.rotate_left(32) ^ 0x5eed);
    positions.shuffle(&mut rng);
    positions.truncate(per_root);
    let samples = positions
        .into_iter()
        .filter_map(|p| {
            // The solver keys positions without the turn; its values are
            // for the root's turns left, so the features are read there too.
            let pos = Pos {
                turn: root.turn,
                ..p
            };
            let value = solution.value(&pos)?;
            Some(Sample {
                features: eval::features(&setup, &pos),
                value,
            })
        })
        .collect();
    Some(samples)
}

/// Mean squared error of `weights` on `samples` (0 without samples).
pub fn mean_squared_error(samples: &[Sample], weights: &Weights) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (weights.value(&s.features) - s.value).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// Gradient steps of [`fit`].
const FIT_STEPS: usize = 3_000;

/// The squashed [`Weights`] with the least squared error on `samples`:
/// gradient descent with a fixed number of steps from the hand-set
/// weights, so the result depends only on the samples. Deterministic.
pub fn fit(samples: &[Sample]) -> Weights {
    let mut w = [eval::RACE_WEIGHT, 1.0 - eval::RACE_WEIGHT, 0.0];
    if samples.is_empty() {
        return to_weights(w);
    }
    let n = samples.len() as f64;
    // Adam-style steps: the three features have very different scales of
    // gradient, and a plain step size would crawl on one of them.
    let (mut m, mut v) = ([0.0f64; 3], [0.0f64; 3]);
    let (b1, b2, rate, eps) = (0.9f64, 0.999f64, 0.02f64, 1e-12f64);
    for step in 1..=FIT_STEPS {
        let mut grad = [0.0f64; 3];
        for s in samples.iter().filter(|s| !s.features.past_limit) {
            let f = [s.features.race, s.features.material, s.features.alive];
            let sum: f64 = (0..3).map(|i| w[i] * f[i]).sum();
            let t = sum.tanh();
            // d/dw (tanh(w.f) - y)^2 = 2 (t - y) (1 - t^2) f
            let g = 2.0 * (t - s.value) * (1.0 - t * t) / n;
            for i in 0..3 {
                grad[i] += g * f[i];
            }
        }
        for i in 0..3 {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
    }
    to_weights(w)
}

fn to_weights(w: [f64; 3]) -> Weights {
    Weights {
        race: w[0],
        material: w[1],
        alive: w[2],
        squash: true,
    }
}
