//! The `search1` AI's movement search (the `default` until issue 51, kept
//! so ratings stay comparable): a sampled best response built on the
//! adjudicator's speed (the BRBot / SearchBot family, without a learned
//! policy).
//!
//! 1. **Candidates**: the power's own order sets are sampled from DumbBot's
//!    randomised policy ([`super::dumbbot`]), plus the order set of the
//!    older heuristic player of [`super::ai`]; duplicates are dropped.
//! 2. **Opponent model**: every other power plays a fresh sample of the
//!    same DumbBot policy each round (its valuation is computed once).
//! 3. **Evaluation**: each round draws one joint profile of the others'
//!    orders and adjudicates every candidate against it (common random
//!    numbers, so candidates are compared on the same luck). A Fall
//!    candidate is scored by the centres the power owns once the units
//!    stand where the adjudication left them; a Spring candidate is first
//!    rolled out through the Fall with every power (itself included) on
//!    the DumbBot policy, then scored the same way. Dislodged units are
//!    dropped in the rollout (their retreats are not played out).
//! 4. **Choice**: the candidate with the best mean score over the rounds
//!    (a best response to the sampled opponents).
//!
//! One iteration of the budget is one candidate evaluated (one or two
//! adjudications). At least one round is always played; with no
//! iteration limit the search stops after [`DEFAULT_EVALUATIONS`]
//! evaluations or when the budget's stopwatch expires, whichever is first.

use super::Diplomacy;
use super::ai;
use super::dumbbot::{Valuation, movement_orders, valuation};
use super::game::Season;
use super::geo::{Map, Power};
use super::judge::adjudicate_movement;
use super::order::{Order, Unit};
use crate::seam::AiBudget;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Order sets sampled for the searching power (before duplicates are dropped).
const CANDIDATE_SAMPLES: usize = 16;
/// Evaluations when the budget sets no iteration limit.
pub const DEFAULT_EVALUATIONS: u64 = 500;
/// Score of each own unit left on the board (centres count 1 each): breaks
/// ties between candidates that keep the same centres in favour of keeping
/// units alive.
const UNIT_SCORE: f64 = 0.1;

/// The searching power's movement orders (unchecked; the caller filters
/// them with [`Diplomacy::check_line`]).
pub fn movement(g: &Diplomacy, power: Power, budget: &AiBudget, seed: u64) -> Vec<Order> {
    let m = g.map();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let units = g.units();
    let season = g.season();
    let owners = g.owners();
    let values: Vec<Option<Valuation>> = m
        .powers()
        .map(|p| {
            units
                .iter()
                .any(|u| u.power == p)
                .then(|| valuation(m, units, owners, p, season))
        })
        .collect();
    let Some(own) = values[power.index()].as_ref() else {
        return Vec::new();
    };
    let mut cands: Vec<Vec<Order>> = Vec::new();
    let mut push = |mut c: Vec<Order>| {
        c.sort_by_key(|o| o.at());
        if !cands.contains(&c) {
            cands.push(c);
        }
    };
    push(ai::heuristic_movement(g, power, seed));
    for _ in 0..CANDIDATE_SAMPLES {
        push(movement_orders(m, units, power, own, &mut rng));
    }
    let limit = budget.iterations.unwrap_or(DEFAULT_EVALUATIONS).max(1);
    let mut sums = vec![0.0f64; cands.len()];
    let mut used = 0u64;
    let mut rounds = 0u32;
    while rounds == 0 || (used + cands.len() as u64 <= limit && !budget.expired()) {
        let others: Vec<(Power, Order)> = m
            .powers()
            .filter(|&p| p != power)
            .filter_map(|p| values[p.index()].as_ref().map(|v| (p, v)))
            .flat_map(|(p, v)| {
                movement_orders(m, units, p, v, &mut rng)
                    .into_iter()
                    .map(move |o| (p, o))
            })
            .collect();
        for (c, sum) in cands.iter().zip(sums.iter_mut()) {
            let mut joint = others.clone();
            joint.extend(c.iter().map(|&o| (power, o)));
            let r = adjudicate_movement(m, units, &joint);
            let after = if season == Season::Spring {
                fall_rollout(m, &r.final_units, owners, &mut rng)
            } else {
                r.final_units
            };
            *sum += score(m, &after, owners, power);
        }
        used += cands.len() as u64;
        rounds += 1;
    }
    let best = (0..cands.len())
        .max_by(|&a, &b| sums[a].total_cmp(&sums[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    cands.swap_remove(best)
}

/// Plays one Fall movement phase from `units` with every power on the
/// DumbBot policy; returns the units left on the board (the `default`
/// AI's rollout too, [`super::best_response`]).
pub(super) fn fall_rollout(
    m: &Map,
    units: &[Unit],
    owners: &[Option<Power>],
    rng: &mut ChaCha8Rng,
) -> Vec<Unit> {
    let mut orders = Vec::new();
    for p in m.powers() {
        if units.iter().any(|u| u.power == p) {
            let v = valuation(m, units, owners, p, Season::Fall);
            orders.extend(
                movement_orders(m, units, p, &v, rng)
                    .into_iter()
                    .map(|o| (p, o)),
            );
        }
    }
    adjudicate_movement(m, units, &orders).final_units
}

/// The centres `power` would own with `units` standing where they are after
/// a Fall (a unit on a centre takes it; the rest keep their owners), plus
/// [`UNIT_SCORE`] per own unit.
fn score(m: &Map, units: &[Unit], owners: &[Option<Power>], power: Power) -> f64 {
    let mut owned: Vec<Option<Power>> = owners.to_vec();
    for u in units {
        let p = m.prov_of(u.loc) as usize;
        if m.prov(p as u8).sc {
            owned[p] = Some(u.power);
        }
    }
    let centres = owned.iter().filter(|o| **o == Some(power)).count();
    let mine = units.iter().filter(|u| u.power == power).count();
    centres as f64 + UNIT_SCORE * mine as f64
}
