//! The `default` AI's movement search: a sampled best response improved
//! unit by unit, built on the adjudicator's speed (the BRBot / SearchBot
//! family, without a learned policy). It replaced [`super::search`], which
//! stays playable as the level `search1`.
//!
//! 1. **Opponent samples**: a fixed set of [`PROFILES`] joint order sets of
//!    the other powers, each drawn from DumbBot's randomised policy
//!    ([`super::dumbbot`]). Every candidate is judged against the same
//!    samples (common random numbers), so two candidates differ in score
//!    only through their own orders.
//! 2. **Value of a candidate**: the mean, over the samples, of the centres
//!    the power holds once the phase is adjudicated (a Fall), or once a
//!    Spring is adjudicated and the Fall after it rolled out with every
//!    power on DumbBot's policy (the rollout's luck is fixed per sample),
//!    plus [`UNIT_SCORE`] per own unit left and [`THREAT_SCORE`] per own
//!    centre no other unit can reach.
//! 3. **Seeds**: the older heuristic's orders and [`SEED_SAMPLES`] DumbBot
//!    samples for the power itself; the best of them starts the search.
//! 4. **Improvement**: unit by unit, every other order the unit could give
//!    (hold, each move, a support of another own unit's hold or move, and
//!    a move with another own unit's support added) replaces its order if
//!    that raises the value; passes repeat until none helps or the budget
//!    is spent. The result is a best response to the sampled opponents.
//!
//! One iteration of the budget is one candidate adjudicated against one
//! sample. With no iteration limit the search stops after
//! [`DEFAULT_ITERATIONS`] or when the host's stopwatch expires (checked
//! before every candidate), whichever is first.

use super::Diplomacy;
use super::ai;
use super::dumbbot::{Valuation, movement_orders, valuation};
use super::game::Season;
use super::geo::{BitIter, Map, Power};
use super::judge::adjudicate_movement;
use super::order::{Order, OrderKind, Unit, UnitKind};
use crate::seam::AiBudget;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Opponent samples every candidate is judged against.
const PROFILES: usize = 12;
/// DumbBot samples of the power's own orders that seed the search.
const SEED_SAMPLES: usize = 8;
/// Iterations (candidate × sample adjudications) when the budget sets none.
pub const DEFAULT_ITERATIONS: u64 = 2400;
/// Score of each own unit left on the board (a centre counts 1).
const UNIT_SCORE: f64 = 0.1;
/// Score of each own centre no other power's unit stands next to.
const THREAT_SCORE: f64 = 0.05;
/// How much better a change must score to be kept (guards float noise).
const MIN_GAIN: f64 = 1e-9;

/// One sample of what the other powers do.
struct Profile {
    /// The other powers' orders.
    orders: Vec<(Power, Order)>,
    /// Seed of a Spring candidate's Fall rollout.
    rollout_seed: u64,
}

/// Judges candidates against the samples, counting the budget.
struct Scorer<'a> {
    m: &'a Map,
    units: &'a [Unit],
    owners: &'a [Option<Power>],
    power: Power,
    season: Season,
    profiles: Vec<Profile>,
    budget: &'a AiBudget,
    used: u64,
    limit: u64,
    /// Set once the stopwatch said the time is up (it is not asked again).
    out_of_time: bool,
}

impl Scorer<'_> {
    /// Whether another candidate may still be judged.
    fn can_afford(&mut self) -> bool {
        if self.out_of_time || self.used + self.profiles.len() as u64 > self.limit {
            return false;
        }
        self.out_of_time = self.budget.expired();
        !self.out_of_time
    }

    /// The candidate's mean value over the samples.
    fn value(&mut self, cand: &[Order]) -> f64 {
        let mut sum = 0.0;
        for p in &self.profiles {
            let mut joint = p.orders.clone();
            joint.extend(cand.iter().map(|&o| (self.power, o)));
            let r = adjudicate_movement(self.m, self.units, &joint);
            let after = if self.season == Season::Spring {
                let mut rng = ChaCha8Rng::seed_from_u64(p.rollout_seed);
                super::search::fall_rollout(self.m, &r.final_units, self.owners, &mut rng)
            } else {
                r.final_units
            };
            sum += score(self.m, &after, self.owners, self.power);
        }
        self.used += self.profiles.len() as u64;
        sum / self.profiles.len().max(1) as f64
    }
}

/// The searching power's movement orders (unchecked; the caller filters
/// them with [`Diplomacy::check_line`]).
pub fn movement(g: &Diplomacy, power: Power, budget: &AiBudget, seed: u64) -> Vec<Order> {
    let m = g.map();
    let units = g.units();
    let owners = g.owners();
    let season = g.season();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
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
    let mine: Vec<Unit> = units.iter().copied().filter(|u| u.power == power).collect();
    let profiles = (0..PROFILES)
        .map(|_| Profile {
            orders: others_orders(m, units, power, &values, &mut rng),
            rollout_seed: rng.r#gen(),
        })
        .collect();
    let mut scorer = Scorer {
        m,
        units,
        owners,
        power,
        season,
        profiles,
        budget,
        used: 0,
        limit: budget.iterations.unwrap_or(DEFAULT_ITERATIONS),
        out_of_time: false,
    };
    let mut seeds = vec![per_unit(&mine, &ai::heuristic_movement(g, power, seed))];
    for _ in 0..SEED_SAMPLES {
        let c = per_unit(&mine, &movement_orders(m, units, power, own, &mut rng));
        if !seeds.contains(&c) {
            seeds.push(c);
        }
    }
    let mut best = seeds[0].clone();
    let mut best_value = f64::NEG_INFINITY;
    for c in seeds {
        if best_value > f64::NEG_INFINITY && !scorer.can_afford() {
            break;
        }
        let v = scorer.value(&c);
        if v > best_value + MIN_GAIN {
            best = c;
            best_value = v;
        }
    }
    improve(&mut scorer, &mine, &mut best, &mut best_value);
    best
}

/// Changes one or two units' orders at a time while that raises the value.
fn improve(scorer: &mut Scorer, mine: &[Unit], best: &mut [Order], best_value: &mut f64) {
    loop {
        let mut improved = false;
        for i in 0..mine.len() {
            for change in changes(scorer.m, mine, best, i) {
                if !scorer.can_afford() {
                    return;
                }
                let mut c = best.to_vec();
                for (j, o) in change {
                    c[j] = o;
                }
                let v = scorer.value(&c);
                if v > *best_value + MIN_GAIN {
                    best.copy_from_slice(&c);
                    *best_value = v;
                    improved = true;
                }
            }
        }
        if !improved {
            return;
        }
    }
}

/// The provinces a unit at `loc` can move to or support into.
fn reach(m: &Map, kind: UnitKind, loc: u8) -> u128 {
    match kind {
        UnitKind::Army => m.army_adj(m.prov_of(loc)),
        UnitKind::Fleet => m.fleet_prov_adj(loc),
    }
}

/// The changes to try for unit `i` given the current orders: each a list
/// of `(unit index, new order)`.
fn changes(m: &Map, mine: &[Unit], orders: &[Order], i: usize) -> Vec<Vec<(usize, Order)>> {
    let u = mine[i];
    let order = |kind| Order::Unit {
        unit: Some(u.kind),
        at: u.loc,
        kind,
    };
    let mut out = vec![vec![(i, order(OrderKind::Hold))]];
    let targets: Vec<u8> = match u.kind {
        UnitKind::Army => BitIter(m.army_adj(m.prov_of(u.loc))).collect(),
        UnitKind::Fleet => BitIter(m.fleet_adj(u.loc)).collect(),
    };
    for to in targets {
        let mv = order(OrderKind::Move {
            to,
            via_convoy: false,
        });
        out.push(vec![(i, mv)]);
        // The same move with each other unit able to support it.
        let tp = m.prov_of(to);
        for (j, s) in mine.iter().enumerate() {
            if j != i && m.prov_of(s.loc) != tp && reach(m, s.kind, s.loc) & 1u128 << tp != 0 {
                let support = Order::Unit {
                    unit: Some(s.kind),
                    at: s.loc,
                    kind: OrderKind::Support {
                        unit: Some(u.kind),
                        from: u.loc,
                        to: Some(tp),
                    },
                };
                out.push(vec![(i, mv), (j, support)]);
            }
        }
    }
    // Supports of the other units' current orders.
    let my_reach = reach(m, u.kind, u.loc);
    for (j, s) in mine.iter().enumerate() {
        if j == i {
            continue;
        }
        let into = match orders[j] {
            Order::Unit {
                kind: OrderKind::Move { to, .. },
                ..
            } => Some(m.prov_of(to)),
            _ => None,
        };
        let target = into.unwrap_or_else(|| m.prov_of(s.loc));
        if target != m.prov_of(u.loc) && my_reach & 1u128 << target != 0 {
            out.push(vec![(
                i,
                order(OrderKind::Support {
                    unit: Some(s.kind),
                    from: s.loc,
                    to: into,
                }),
            )]);
        }
    }
    out
}

/// `orders` rearranged to one order per unit of `mine`, in its order (a
/// unit without one holds).
fn per_unit(mine: &[Unit], orders: &[Order]) -> Vec<Order> {
    mine.iter()
        .map(|u| {
            orders
                .iter()
                .find(|o| matches!(o, Order::Unit { .. }) && o.at() == Some(u.loc))
                .copied()
                .unwrap_or(Order::Unit {
                    unit: Some(u.kind),
                    at: u.loc,
                    kind: OrderKind::Hold,
                })
        })
        .collect()
}

/// One DumbBot sample of every other power's orders.
fn others_orders(
    m: &Map,
    units: &[Unit],
    power: Power,
    values: &[Option<Valuation>],
    rng: &mut ChaCha8Rng,
) -> Vec<(Power, Order)> {
    let mut out = Vec::new();
    for p in m.powers().filter(|&p| p != power) {
        if let Some(v) = values[p.index()].as_ref() {
            out.extend(
                movement_orders(m, units, p, v, rng)
                    .into_iter()
                    .map(|o| (p, o)),
            );
        }
    }
    out
}

/// The centres `power` would own with `units` standing where they are after
/// a Fall (a unit on a centre takes it), plus [`UNIT_SCORE`] per own unit
/// and [`THREAT_SCORE`] per own centre out of every other unit's reach.
fn score(m: &Map, units: &[Unit], owners: &[Option<Power>], power: Power) -> f64 {
    let mut owned: Vec<Option<Power>> = owners.to_vec();
    for u in units {
        let p = m.prov_of(u.loc);
        if m.prov(p).sc {
            owned[p as usize] = Some(u.power);
        }
    }
    let threatened = units
        .iter()
        .filter(|u| u.power != power)
        .fold(0u128, |b, u| b | reach(m, u.kind, u.loc));
    let mut value = 0.0;
    for (p, o) in owned.iter().enumerate() {
        if *o == Some(power) {
            value += 1.0;
            if threatened & 1u128 << p == 0 {
                value += THREAT_SCORE;
            }
        }
    }
    let mine = units.iter().filter(|u| u.power == power).count();
    value + UNIT_SCORE * mine as f64
}
