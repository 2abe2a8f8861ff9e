//! The AI seat's entry point: which AI plays each level. It sits beside the
//! AIs and above the rules they read ([`super::game`]), so the rules never
//! call their own AIs; [`super::engine`]'s `Game::ai_action` calls it.

use super::ai::{self, checked};
use super::dumbbot;
use super::game::{Diplomacy, DiplomacyAction};
use super::geo::{BitIter, Bits, Power};
use super::judge::{PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use super::order::{Order, OrderKind, UnitKind};
use crate::seam::{AiBudget, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `default`: a sampled best response over DumbBot's policy improved unit
/// by unit ([`super::best_response`]), voting for a draw once the game has
/// stalled. `search1`: the default until issue 51, a best response among
/// DumbBot samples only ([`super::search`]), kept so ratings stay comparable.
/// `heuristic`: the earlier default, a one-pass heuristic ([`super::ai`]).
/// `random`: each unit moves to a random neighbour with probability 2/3
/// (else holds), retreats are random, builds fill random home centres.
/// `hold`: every unit holds; no builds; removals by civil disorder.
/// `dumbbot`: a port of David Norman's DumbBot ([`super::dumbbot`]).
pub(super) fn action(
    g: &Diplomacy,
    seat: Seat,
    level: &str,
    budget: AiBudget,
    seed: u64,
) -> DiplomacyAction {
    let m = g.map();
    let mut a = DiplomacyAction {
        ready: true,
        ai: true,
        ..Default::default()
    };
    let Some(power) = g.power_of_seat(seat) else {
        return a;
    };
    if level == "hold" {
        return a;
    }
    if level == "dumbbot" {
        let orders = dumbbot::orders(g, power, seed)
            .into_iter()
            .filter(|o| g.check_line(power, &o.canonical(m)).is_ok())
            .collect();
        return DiplomacyAction { orders, ..a };
    }
    if level == "heuristic" {
        return DiplomacyAction {
            ai: true,
            ..ai::heuristic_orders(g, power, seed)
        };
    }
    if level == "search1" {
        return DiplomacyAction {
            ai: true,
            ..search1_orders(g, power, &budget, seed)
        };
    }
    if level != "random" {
        return DiplomacyAction {
            ai: true,
            ..orders(g, power, &budget, seed)
        };
    }
    a.orders = random_orders(g, seat, power, seed);
    a
}

/// The `random` level's orders: each unit moves to a random neighbour with
/// probability 2/3, retreats are random, builds fill random home centres.
fn random_orders(g: &Diplomacy, seat: Seat, power: Power, seed: u64) -> Vec<Order> {
    let m = g.map();
    let mut orders = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (g.year as u64) << 8 ^ seat as u64);
    match g.phase {
        PhaseKind::Movement => {
            for u in g.units.iter().filter(|u| u.power == power) {
                let p = m.prov_of(u.loc);
                let targets: Vec<u8> = match u.kind {
                    UnitKind::Army => BitIter(m.army_adj(p)).collect(),
                    UnitKind::Fleet => BitIter(m.fleet_adj(u.loc)).collect(),
                };
                if !targets.is_empty() && rng.gen_range(0..3) < 2 {
                    let to = targets[rng.gen_range(0..targets.len())];
                    let o = Order::Unit {
                        unit: Some(u.kind),
                        at: u.loc,
                        kind: OrderKind::Move {
                            to,
                            via_convoy: false,
                        },
                    };
                    orders.push(o);
                }
            }
        }
        PhaseKind::Retreat => {
            let occ = g.occupied();
            let so = g.standoff_bits();
            for d in g.dislodged.iter().filter(|d| d.unit.power == power) {
                let opts = retreat_options(m, occ, so, d);
                let kind = if opts.is_empty() {
                    OrderKind::Disband
                } else {
                    OrderKind::Retreat {
                        to: opts[rng.gen_range(0..opts.len())],
                    }
                };
                orders.push(Order::Unit {
                    unit: Some(d.unit.kind),
                    at: d.unit.loc,
                    kind,
                });
            }
        }
        PhaseKind::Adjustment => {
            let mut n = adjustment_count(m, &g.units, &g.owners, power);
            let mut used: Bits = 0;
            let mut choices = g.build_choices(power);
            while n > 0 && !choices.is_empty() {
                let i = rng.gen_range(0..choices.len());
                let o = choices.swap_remove(i);
                let p = m.prov_of(o.at().unwrap_or(0));
                if used & 1u128 << p == 0 {
                    used |= 1u128 << p;
                    orders.push(o);
                    n -= 1;
                }
            }
        }
    }
    orders
}

/// The `default` AI's action for `power` in the current phase (always
/// ready), within `budget`, drawing its random choices from `seed`.
pub fn orders(g: &Diplomacy, power: Power, budget: &AiBudget, seed: u64) -> DiplomacyAction {
    searched_orders(g, power, budget, seed, super::best_response::movement)
}

/// The `search1` AI's action (the `default` before issue 51).
fn search1_orders(g: &Diplomacy, power: Power, budget: &AiBudget, seed: u64) -> DiplomacyAction {
    searched_orders(g, power, budget, seed, super::search::movement)
}

/// A searching AI's action: its `movement` search in a movement phase,
/// DumbBot's retreats and adjustments, a draw vote once the game stalls.
fn searched_orders(
    g: &Diplomacy,
    power: Power,
    budget: &AiBudget,
    seed: u64,
    movement: fn(&Diplomacy, Power, &AiBudget, u64) -> Vec<Order>,
) -> DiplomacyAction {
    let raw = match g.phase() {
        PhaseKind::Movement => movement(g, power, budget, seed),
        PhaseKind::Retreat | PhaseKind::Adjustment => dumbbot::orders(g, power, seed),
    };
    DiplomacyAction {
        orders: checked(g, power, raw),
        ready: true,
        draw: Some(g.stalled()),
        ..Default::default()
    }
}
