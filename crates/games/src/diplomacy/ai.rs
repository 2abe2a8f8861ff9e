//! The `heuristic` AI level ([`heuristic_orders`]), the earlier default, a
//! heuristic player in the spirit of DumbBot (its movement is also one of
//! the `default` search's candidates; the levels' entry point is
//! [`super::ai_seat`]):
//!
//! 1. Every province gets a base value: a supply centre it does not own is
//!    worth more the stronger its owner (neutral centres are cheap prizes);
//!    an own centre is worth defending in proportion to the enemy units next
//!    to it; other provinces are worth nothing by themselves.
//! 2. Values spread over the map separately for armies and fleets (a
//!    province is worth what lies within a few moves of it, decaying with
//!    distance), so units drift towards clusters of targets.
//! 3. Units are given destinations greedily, best first, never two units to
//!    the same province and never into a province an own unit keeps;
//!    units that stay put support an own attack next to them when it meets
//!    resistance, or else hold.
//! 4. Retreats go to the most valuable free province; builds go where the
//!    new unit has the best prospects; removals take the least useful units.
//!
//! Every order is checked with [`Diplomacy::check_line`] before it is
//! returned; an order that fails the check is dropped (the unit holds), so
//! the AI never issues an illegal order.

use super::Diplomacy;
use super::game::Season;
use super::geo::{BitIter, Bits, MAX_POWERS, Map, MapCache, Power, ProvId};
use super::judge::{PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use super::order::{Order, OrderKind, Unit, UnitKind};
use crate::diplomacy::DiplomacyAction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Weights of a province's neighbourhood by distance (0 = the province itself).
const SPREAD: [f64; 4] = [1.0, 0.35, 0.12, 0.04];

/// All-pairs move distances for armies (`[0]`) and fleets (`[1]`), by province.
fn distances(m: &Map) -> &'static [Vec<Vec<u8>>; 2] {
    static D: MapCache<[Vec<Vec<u8>>; 2]> = MapCache::new();
    D.get(m, |m| {
        let n = m.province_count();
        let bfs = |adj: &dyn Fn(ProvId) -> Bits, from: usize| {
            let mut d = vec![u8::MAX; n];
            d[from] = 0;
            let mut frontier: Bits = 1u128 << from;
            let mut seen = frontier;
            let mut k = 0u8;
            while frontier != 0 {
                let mut next: Bits = 0;
                for p in BitIter(frontier) {
                    next |= adj(p);
                }
                next &= !seen;
                seen |= next;
                k += 1;
                for p in BitIter(next) {
                    d[p as usize] = k;
                }
                frontier = next;
            }
            d
        };
        let army = |p: ProvId| m.army_adj(p);
        let fleet = |p: ProvId| m.prov_fleet_adj(p);
        [
            (0..n).map(|f| bfs(&army, f)).collect(),
            (0..n).map(|f| bfs(&fleet, f)).collect(),
        ]
    })
}

fn kind_index(k: UnitKind) -> usize {
    match k {
        UnitKind::Army => 0,
        UnitKind::Fleet => 1,
    }
}

/// The per-phase valuation of the board for one power.
struct Values {
    /// Spread value of each province, for armies and fleets.
    spread: [Vec<f64>; 2],
    /// Enemy units adjacent to each province (how contested it is).
    threat: Vec<u32>,
}

fn values(g: &Diplomacy, power: Power) -> Values {
    let m = g.map();
    let n = m.province_count();
    let owners = g.owners();
    let mut counts = [0usize; MAX_POWERS];
    for o in owners.iter().flatten() {
        counts[o.index()] += 1;
    }
    let mut threat = vec![0u32; n];
    for u in g.units().iter().filter(|u| u.power != power) {
        let reach = match u.kind {
            UnitKind::Army => m.army_adj(m.prov_of(u.loc)),
            UnitKind::Fleet => m.fleet_prov_adj(u.loc),
        };
        for p in BitIter(reach) {
            threat[p as usize] += 1;
        }
    }
    let fall = g.season() == Season::Fall;
    let mut base = vec![0.0f64; n];
    for (p, prov) in m.provinces().iter().enumerate() {
        if !prov.sc {
            continue;
        }
        base[p] = match owners[p] {
            None => 6.0,
            Some(o) if o == power => 1.0 + 2.5 * threat[p] as f64,
            Some(o) => 4.0 + counts[o.index()] as f64 * 0.6,
        };
        if fall && owners[p] != Some(power) {
            base[p] *= 1.5;
        }
    }
    let d = distances(m);
    let spread = [0, 1].map(|k| {
        (0..n)
            .map(|p| {
                (0..n)
                    .map(|q| {
                        let dist = d[k][p][q] as usize;
                        if dist < SPREAD.len() {
                            base[q] * SPREAD[dist]
                        } else {
                            0.0
                        }
                    })
                    .sum()
            })
            .collect()
    });
    Values { spread, threat }
}

/// The orders among `raw` that pass [`Diplomacy::check_line`] (a failing
/// one is dropped: the unit holds).
pub(super) fn checked(g: &Diplomacy, power: Power, raw: Vec<Order>) -> Vec<Order> {
    let m = g.map();
    raw.into_iter()
        .filter(|o| g.check_line(power, &o.canonical(m)).is_ok())
        .collect()
}

fn heuristic_rng(g: &Diplomacy, power: Power, seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(
        seed ^ (g.year() as u64) << 16 ^ (g.season() as u64) << 8 ^ power.index() as u64,
    )
}

/// The `heuristic` AI's action for `power` in the current phase (always ready).
pub fn heuristic_orders(g: &Diplomacy, power: Power, seed: u64) -> DiplomacyAction {
    let mut rng = heuristic_rng(g, power, seed);
    let raw = match g.phase() {
        PhaseKind::Movement => movement(g, power, &mut rng),
        PhaseKind::Retreat => retreats(g, power),
        PhaseKind::Adjustment => adjustments(g, power),
    };
    DiplomacyAction {
        orders: checked(g, power, raw),
        ready: true,
        ..Default::default()
    }
}

/// The `heuristic` AI's movement orders (unchecked), a candidate of the search.
pub(crate) fn heuristic_movement(g: &Diplomacy, power: Power, seed: u64) -> Vec<Order> {
    movement(g, power, &mut heuristic_rng(g, power, seed))
}

fn movement(g: &Diplomacy, power: Power, rng: &mut ChaCha8Rng) -> Vec<Order> {
    let v = values(g, power);
    let mine: Vec<_> = g
        .units()
        .iter()
        .copied()
        .filter(|u| u.power == power)
        .collect();
    let fall = g.season() == Season::Fall;
    // Candidate (score, destination location) per unit, best first. The
    // random draws happen unit by unit in this order: keep it so.
    let cands: Vec<Vec<(f64, u8)>> = mine
        .iter()
        .map(|u| candidate_destinations(g, power, &v, u, fall, rng))
        .collect();
    let dest = assign_destinations(g.map(), &mine, &cands);
    orders_for_destinations(g, power, &v, &mine, &dest, fall)
}

/// Where unit `u` might go (its own place included, to hold), each with a
/// score (the place's value with a little noise), best first.
fn candidate_destinations(
    g: &Diplomacy,
    power: Power,
    v: &Values,
    u: &Unit,
    fall: bool,
    rng: &mut ChaCha8Rng,
) -> Vec<(f64, u8)> {
    let m = g.map();
    let here = m.prov_of(u.loc);
    let k = kind_index(u.kind);
    let mut c: Vec<(f64, u8)> = Vec::new();
    let mut stay = v.spread[k][here as usize];
    let prov = m.prov(here);
    if prov.sc {
        let owner = g.owners()[here as usize];
        if owner == Some(power) {
            stay += 2.0 * v.threat[here as usize] as f64;
        } else if fall {
            // Stand on a centre being taken until it changes hands.
            stay += 20.0;
        }
    }
    c.push((stay + rng.gen_range(0.0..0.5), u.loc));
    let targets: Vec<u8> = match u.kind {
        UnitKind::Army => BitIter(m.army_adj(here)).collect(),
        UnitKind::Fleet => BitIter(m.fleet_adj(u.loc)).collect(),
    };
    for to in targets {
        let tp = m.prov_of(to);
        let mut s = v.spread[k][tp as usize] + rng.gen_range(0.0..0.5);
        // An enemy unit there is likely to hold: less attractive alone.
        if g.units()
            .iter()
            .any(|x| x.power != power && m.prov_of(x.loc) == tp)
        {
            s *= 0.8;
        }
        c.push((s, to));
    }
    c.sort_by(|a, b| b.0.total_cmp(&a.0));
    c
}

/// One destination per unit, the units with the best first candidate
/// choosing first; no two units claim a province, and none moves into a
/// province an own unit still stands in.
fn assign_destinations(m: &Map, mine: &[Unit], cands: &[Vec<(f64, u8)>]) -> Vec<Option<u8>> {
    let mut order: Vec<usize> = (0..mine.len()).collect();
    order.sort_by(|&a, &b| cands[b][0].0.total_cmp(&cands[a][0].0));
    let mut dest: Vec<Option<u8>> = vec![None; mine.len()];
    let mut claimed: Bits = 0;
    for &i in &order {
        let here = m.prov_of(mine[i].loc);
        for &(_, to) in &cands[i] {
            let tp = m.prov_of(to);
            if claimed & 1u128 << tp != 0 {
                continue;
            }
            // An own unit not yet moved away still stands there.
            let blocked = tp != here
                && mine.iter().enumerate().any(|(j, x)| {
                    j != i && m.prov_of(x.loc) == tp && dest[j].is_none_or(|d| m.prov_of(d) == tp)
                });
            if blocked {
                continue;
            }
            claimed |= 1u128 << tp;
            dest[i] = Some(to);
            break;
        }
    }
    dest
}

/// The orders: a move for each unit with a destination elsewhere; each
/// other unit supports the best contested own attack in its reach (unless
/// it guards a threatened own centre in the fall), else holds.
fn orders_for_destinations(
    g: &Diplomacy,
    power: Power,
    v: &Values,
    mine: &[Unit],
    dest: &[Option<u8>],
    fall: bool,
) -> Vec<Order> {
    let m = g.map();
    let mut out = Vec::new();
    let moving: Vec<(usize, u8)> = dest
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.filter(|&to| to != mine[i].loc).map(|to| (i, to)))
        .collect();
    for (i, u) in mine.iter().enumerate() {
        match dest[i] {
            Some(to) if to != u.loc => out.push(Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind: OrderKind::Move {
                    to,
                    via_convoy: false,
                },
            }),
            _ => {
                // Staying: support the best contested own attack in reach.
                let reach = match u.kind {
                    UnitKind::Army => m.army_adj(m.prov_of(u.loc)),
                    UnitKind::Fleet => m.fleet_prov_adj(u.loc),
                };
                let here = m.prov_of(u.loc);
                let threatened_here = g.owners()[here as usize] == Some(power)
                    && m.prov(here).sc
                    && v.threat[here as usize] > 0;
                let best = moving
                    .iter()
                    .filter(|&&(_, to)| {
                        let tp = m.prov_of(to);
                        reach & 1u128 << tp != 0
                            && (v.threat[tp as usize] > 0
                                || g.units().iter().any(|x| m.prov_of(x.loc) == tp))
                    })
                    .max_by(|a, b| {
                        let va = v.spread[0][m.prov_of(a.1) as usize];
                        let vb = v.spread[0][m.prov_of(b.1) as usize];
                        va.total_cmp(&vb)
                    });
                match best {
                    Some(&(j, to)) if !(threatened_here && fall) => out.push(Order::Unit {
                        unit: Some(u.kind),
                        at: u.loc,
                        kind: OrderKind::Support {
                            unit: Some(mine[j].kind),
                            from: mine[j].loc,
                            to: Some(m.prov_of(to)),
                        },
                    }),
                    _ => out.push(Order::Unit {
                        unit: Some(u.kind),
                        at: u.loc,
                        kind: OrderKind::Hold,
                    }),
                }
            }
        }
    }
    out
}

fn retreats(g: &Diplomacy, power: Power) -> Vec<Order> {
    let m = g.map();
    let v = values(g, power);
    let occ = g.occupied_provinces();
    let so = g.standoff_provinces();
    let mut taken: Bits = 0;
    let mut out = Vec::new();
    for d in g.dislodged().iter().filter(|d| d.unit.power == power) {
        let k = kind_index(d.unit.kind);
        let best = retreat_options(m, occ, so, d)
            .into_iter()
            .filter(|&l| taken & 1u128 << m.prov_of(l) == 0)
            .max_by(|&a, &b| {
                v.spread[k][m.prov_of(a) as usize].total_cmp(&v.spread[k][m.prov_of(b) as usize])
            });
        let kind = match best {
            Some(to) => {
                taken |= 1u128 << m.prov_of(to);
                OrderKind::Retreat { to }
            }
            None => OrderKind::Disband,
        };
        out.push(Order::Unit {
            unit: Some(d.unit.kind),
            at: d.unit.loc,
            kind,
        });
    }
    out
}

fn adjustments(g: &Diplomacy, power: Power) -> Vec<Order> {
    let m = g.map();
    let v = values(g, power);
    let n = adjustment_count(m, g.units(), g.owners(), power);
    let mut out = Vec::new();
    if n > 0 {
        // Score each build by the best destination the new unit could reach.
        let mut builds: Vec<(f64, Order)> = g
            .build_choices(power)
            .into_iter()
            .map(|o| {
                let (kind, at) = match o {
                    Order::Build { unit, at } => (unit, at),
                    _ => (UnitKind::Army, 0),
                };
                let reach = match kind {
                    UnitKind::Army => m.army_adj(m.prov_of(at)),
                    UnitKind::Fleet => m.fleet_prov_adj(at),
                };
                let k = kind_index(kind);
                let s = BitIter(reach)
                    .map(|p| v.spread[k][p as usize])
                    .fold(0.0, f64::max);
                (s, o)
            })
            .collect();
        builds.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut used: Bits = 0;
        let mut left = n;
        for (_, o) in builds {
            if left == 0 {
                break;
            }
            let p = m.prov_of(o.at().unwrap_or(0));
            if used & 1u128 << p == 0 {
                used |= 1u128 << p;
                out.push(o);
                left -= 1;
            }
        }
    } else if n < 0 {
        let mut mine: Vec<(f64, Order)> = g
            .units()
            .iter()
            .filter(|u| u.power == power)
            .map(|u| {
                let s = v.spread[kind_index(u.kind)][m.prov_of(u.loc) as usize];
                (
                    s,
                    Order::Unit {
                        unit: Some(u.kind),
                        at: u.loc,
                        kind: OrderKind::Disband,
                    },
                )
            })
            .collect();
        mine.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.extend(mine.into_iter().take((-n) as usize).map(|(_, o)| o));
    }
    out
}
