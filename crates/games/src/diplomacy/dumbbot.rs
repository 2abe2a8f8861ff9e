//! `dumbbot`: an AI power written from the published description of David
//! Norman's DumbBot (DAIDE client, 2002–2003), the usual baseline of
//! Diplomacy AI research. Written from the description and its documented
//! weights, not from its code.
//!
//! How it decides, as the description has it:
//!
//! 1. **Power size**: each power's size is `x² + 4x + 16` for `x` centres.
//!    Neutral centres count as one more "power" whose `x` is the number of
//!    unowned centres (so early on neutral centres are the richest prize).
//! 2. **Province factors**: a centre we do not own has an *attack value*,
//!    the size of its owner; a centre we own has a *defence value*, the size
//!    of the largest other power with a unit that can move into it; other
//!    provinces have neither.
//! 3. **Proximity**: `proximity[0]` of each place a unit can stand (a
//!    province, or one coast of a split-coast province, separately for
//!    armies and fleets) is `attack × attack weight + defence × defence
//!    weight`; `proximity[n]` is the sum of `proximity[n-1]` of the place
//!    itself and of every place next to it, divided by 5, for `n` up to 9
//!    (values spread 10 steps).
//! 4. **Strength and competition**: for each province, our *strength* is
//!    the number of our units that could be there next phase (in it or next
//!    to it); its *competition* is the largest such number of any one other
//!    power.
//! 5. **Destination value** of a place: the proximities weighted by the
//!    season's proximity weights, plus strength × strength weight, minus
//!    competition × competition weight. Winter values use the build (or
//!    removal) proximity weights plus defence × defence weight.
//! 6. **Movement**: units are taken in a random order; each ranks its own
//!    place and every place it can move to by value and takes the best,
//!    with a random chance of taking the second, third, ... (more likely
//!    the closer their values). Its own place means hold. A place another
//!    of our units already goes to (or holds in) is either supported (that
//!    unit is not sure to succeed) or given up for the next choice.
//! 7. **Retreats** are chosen the same way without supports (disband when
//!    nothing is left); **builds** go to the best home centres, **removals**
//!    take the units in the least valuable places.
//!
//! Where the description is silent, this port decides (each noted where it
//! is done):
//! - "not sure to succeed" means the province has competition (some other
//!   power has a unit that could reach it); with none, the unit chooses
//!   again rather than support;
//! - when the best place holds an own unit that has no order yet, that unit
//!   is ordered first (so a unit can follow one that moves away);
//! - two own units never swap places (that would bounce): the swap is given
//!   up for the next choice;
//! - the random choice: with chance 1/2 the current candidate is played
//!   outright; otherwise it is still played with a chance in percent of
//!   `500 × (its value − the next value) / its value`, else the next one is
//!   considered the same way (a non-positive value always passes on);
//! - proximity is computed in floating point (no integer rounding), and a
//!   place next to two coasts of one province counts that province once,
//!   with its better coast;
//! - DumbBot never convoys, and neither does this port.

use super::Diplomacy;
use super::game::Season;
use super::geo::{BitIter, MAX_POWERS, Map, MapCache, Power, ProvId, Terrain};
use super::judge::{PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use super::order::{Order, OrderKind, Unit, UnitKind};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Steps the proximity values spread (`proximity[0..10]`).
const PROXIMITY_DEPTH: usize = 10;
/// Spring weights of `proximity[n]`: next phase's neighbours matter most.
const SPRING_PROXIMITY: [f64; PROXIMITY_DEPTH] =
    [100.0, 1000.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
/// Fall (and Winter) weights: where a unit stands after Fall decides centres.
const FALL_PROXIMITY: [f64; PROXIMITY_DEPTH] =
    [1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
/// Spring weight of attacking centres we do not own.
const SPRING_ATTACK: f64 = 700.0;
/// Spring weight of defending our own centres.
const SPRING_DEFENCE: f64 = 300.0;
/// Fall weight of attacking centres we do not own.
const FALL_ATTACK: f64 = 600.0;
/// Fall weight of defending our own centres.
const FALL_DEFENCE: f64 = 400.0;
/// Weight of our strength on a province (both movement seasons).
const STRENGTH_WEIGHT: f64 = 1000.0;
/// Weight of the competition for a province (both movement seasons).
const COMPETITION_WEIGHT: f64 = 1000.0;
/// Winter weight of the defence value when building or removing.
const WINTER_DEFENCE: f64 = 1000.0;
/// Percent chance of playing the current candidate outright.
const PLAY_ALTERNATIVE: f64 = 50.0;
/// Scales how close the next candidate must be to be tried instead.
const ALTERNATIVE_DIFFERENCE_MODIFIER: f64 = 500.0;

/// Unit kind as an index: armies 0, fleets 1.
fn kind_index(k: UnitKind) -> usize {
    match k {
        UnitKind::Army => 0,
        UnitKind::Fleet => 1,
    }
}

/// The places a unit of each kind can stand, and what lies next to each,
/// grouped by province: `[kind][loc] = [(province, [locations of it])]`.
type Graph = [Vec<Vec<(ProvId, Vec<u8>)>>; 2];

fn graph(m: &Map) -> &'static Graph {
    static G: MapCache<Graph> = MapCache::new();
    G.get(m, |m| {
        let n = m.location_count();
        let group = |locs: Vec<u8>| {
            let mut out: Vec<(ProvId, Vec<u8>)> = Vec::new();
            for l in locs {
                let p = m.prov_of(l);
                match out.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, v)) => v.push(l),
                    None => out.push((p, vec![l])),
                }
            }
            out
        };
        let army = (0..n)
            .map(|l| {
                let l = l as u8;
                if army_stands(m, l) {
                    group(BitIter(m.army_adj(l)).collect())
                } else {
                    Vec::new()
                }
            })
            .collect();
        let fleet = (0..n)
            .map(|l| group(BitIter(m.fleet_adj(l as u8)).collect()))
            .collect();
        [army, fleet]
    })
}

/// Whether an army can stand at location `l` (a land or coastal province's main location).
fn army_stands(m: &Map, l: u8) -> bool {
    (l as usize) < m.province_count() && matches!(m.prov(l).terrain, Terrain::Land | Terrain::Coast)
}

/// Whether a unit of kind `k` can stand at `l`.
fn stands(m: &Map, k: usize, l: u8) -> bool {
    if k == 0 {
        army_stands(m, l)
    } else {
        m.fleet_adj(l) != 0
    }
}

/// Provinces a unit could occupy next phase: its own and those it can move to.
fn reach(m: &Map, u: &Unit) -> u128 {
    let here = 1u128 << m.prov_of(u.loc);
    here | match u.kind {
        UnitKind::Army => m.army_adj(m.prov_of(u.loc)),
        UnitKind::Fleet => m.fleet_prov_adj(u.loc),
    }
}

/// DumbBot's valuation of the board for one power in one phase.
#[derive(Debug, Clone)]
pub struct Valuation {
    /// Destination value of each location, for armies (`[0]`) and fleets (`[1]`).
    pub dest: [Vec<f64>; 2],
    /// Competition for each province (see the module notes).
    pub competition: Vec<u32>,
}

/// The size of each power (`x² + 4x + 16`), and of the neutral "power" at
/// index [`MAX_POWERS`].
fn power_sizes(owners: &[Option<Power>], m: &Map) -> [f64; MAX_POWERS + 1] {
    let mut counts = [0f64; MAX_POWERS + 1];
    for p in m.supply_centres() {
        let i = owners[p as usize].map_or(MAX_POWERS, Power::index);
        counts[i] += 1.0;
    }
    counts.map(|x| x * x + 4.0 * x + 16.0)
}

/// DumbBot's values for `power` given the units and centre owners, for a
/// movement or retreat phase in `season`, or for Winter (builds/removals).
pub fn valuation(
    m: &Map,
    units: &[Unit],
    owners: &[Option<Power>],
    power: Power,
    season: Season,
) -> Valuation {
    let np = m.province_count();
    let nl = m.location_count();
    let size = power_sizes(owners, m);
    // Units that could be in each province next phase, by power.
    let mut adjacent = vec![[0u32; MAX_POWERS]; np];
    for u in units {
        for p in BitIter(reach(m, u)) {
            adjacent[p as usize][u.power.index()] += 1;
        }
    }
    let mut attack = vec![0f64; np];
    let mut defence = vec![0f64; np];
    for p in m.supply_centres() {
        let pi = p as usize;
        match owners[pi] {
            Some(o) if o == power => {
                // The largest other power with a unit that can move in.
                defence[pi] = units
                    .iter()
                    .filter(|u| u.power != power && m.prov_of(u.loc) != p)
                    .filter(|u| reach(m, u) & 1u128 << p != 0)
                    .map(|u| size[u.power.index()])
                    .fold(0.0, f64::max);
            }
            o => attack[pi] = size[o.map_or(MAX_POWERS, Power::index)],
        }
    }
    let (attack_w, defence_w, weights) = match season {
        Season::Spring => (SPRING_ATTACK, SPRING_DEFENCE, SPRING_PROXIMITY),
        Season::Fall => (FALL_ATTACK, FALL_DEFENCE, FALL_PROXIMITY),
        // Adjustments use the Spring factors and the build/removal weights
        // (which equal the Fall proximity weights).
        Season::Winter => (SPRING_ATTACK, SPRING_DEFENCE, FALL_PROXIMITY),
    };
    let g = graph(m);
    let mut strength = vec![0u32; np];
    let mut competition = vec![0u32; np];
    for p in 0..np {
        strength[p] = adjacent[p][power.index()];
        competition[p] = (0..m.power_count())
            .filter(|&i| i != power.index())
            .map(|i| adjacent[p][i])
            .max()
            .unwrap_or(0);
    }
    let dest = [0usize, 1].map(|k| {
        let mut prox: Vec<f64> = (0..nl)
            .map(|l| {
                if stands(m, k, l as u8) {
                    let p = m.prov_of(l as u8) as usize;
                    attack[p] * attack_w + defence[p] * defence_w
                } else {
                    0.0
                }
            })
            .collect();
        let mut total: Vec<f64> = prox.iter().map(|v| v * weights[0]).collect();
        for w in &weights[1..] {
            let next: Vec<f64> = (0..nl)
                .map(|l| {
                    if !stands(m, k, l as u8) {
                        return 0.0;
                    }
                    let around: f64 = g[k][l]
                        .iter()
                        .map(|(_, locs)| locs.iter().map(|&x| prox[x as usize]).fold(0.0, f64::max))
                        .sum();
                    (prox[l] + around) / 5.0
                })
                .collect();
            for l in 0..nl {
                total[l] += next[l] * w;
            }
            prox = next;
        }
        for (l, t) in total.iter_mut().enumerate() {
            let p = m.prov_of(l as u8) as usize;
            if season == Season::Winter {
                *t += defence[p] * WINTER_DEFENCE;
            } else {
                *t += f64::from(strength[p]) * STRENGTH_WEIGHT
                    - f64::from(competition[p]) * COMPETITION_WEIGHT;
            }
        }
        total
    });
    Valuation { dest, competition }
}

/// DumbBot's randomised choice among candidates ranked best first: the
/// index of the one played (see the module notes).
fn pick<T>(ranked: &[(f64, T)], rng: &mut ChaCha8Rng) -> usize {
    let mut i = 0;
    while i + 1 < ranked.len() {
        if rng.gen_range(0.0..100.0) < PLAY_ALTERNATIVE {
            break;
        }
        let (v, next) = (ranked[i].0, ranked[i + 1].0);
        let chance = if v > 0.0 {
            ALTERNATIVE_DIFFERENCE_MODIFIER * (v - next) / v
        } else {
            0.0
        };
        if rng.gen_range(0.0..100.0) < chance {
            break;
        }
        i += 1;
    }
    i
}

/// Sorts candidates best first (ties keep their order).
fn rank<T>(c: &mut [(f64, T)]) {
    c.sort_by(|a, b| b.0.total_cmp(&a.0));
}

/// A movement plan for one unit.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Plan {
    Hold,
    Move(u8),
    Support(usize),
}

/// DumbBot's movement orders for `power`'s units among `units`, from its
/// valuation `v`, drawing its random choices from `rng`.
pub fn movement_orders(
    m: &Map,
    units: &[Unit],
    power: Power,
    v: &Valuation,
    rng: &mut ChaCha8Rng,
) -> Vec<Order> {
    let mine: Vec<Unit> = units.iter().copied().filter(|u| u.power == power).collect();
    let mut order: Vec<usize> = (0..mine.len()).collect();
    order.shuffle(rng);
    let mut plans: Vec<Option<Plan>> = vec![None; mine.len()];
    // Which own unit will be in each province (holding or moving in).
    let mut bound: Vec<Option<usize>> = vec![None; m.province_count()];
    let mut visiting = vec![false; mine.len()];
    for &i in &order {
        decide(i, &mine, v, m, rng, &mut plans, &mut bound, &mut visiting);
    }
    mine.iter()
        .enumerate()
        .map(|(i, u)| {
            let kind = match plans[i].unwrap_or(Plan::Hold) {
                Plan::Hold => OrderKind::Hold,
                Plan::Move(to) => OrderKind::Move {
                    to,
                    via_convoy: false,
                },
                Plan::Support(j) => OrderKind::Support {
                    unit: Some(mine[j].kind),
                    from: mine[j].loc,
                    to: match plans[j] {
                        Some(Plan::Move(to)) => Some(m.prov_of(to)),
                        _ => None,
                    },
                },
            };
            Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind,
            }
        })
        .collect()
}

/// Chooses the plan of unit `i` (and, first, of an own unit standing where
/// it wants to go).
#[allow(clippy::too_many_arguments)]
fn decide(
    i: usize,
    mine: &[Unit],
    v: &Valuation,
    m: &Map,
    rng: &mut ChaCha8Rng,
    plans: &mut [Option<Plan>],
    bound: &mut [Option<usize>],
    visiting: &mut [bool],
) {
    if plans[i].is_some() || visiting[i] {
        return;
    }
    visiting[i] = true;
    let u = mine[i];
    let k = kind_index(u.kind);
    let here = m.prov_of(u.loc);
    let targets: Vec<u8> = match u.kind {
        UnitKind::Army => BitIter(m.army_adj(here)).collect(),
        UnitKind::Fleet => BitIter(m.fleet_adj(u.loc)).collect(),
    };
    let mut cands: Vec<(f64, u8)> = std::iter::once(u.loc)
        .chain(targets)
        .map(|l| (v.dest[k][l as usize], l))
        .collect();
    rank(&mut cands);
    let plan = loop {
        if cands.is_empty() {
            break Plan::Hold;
        }
        let c = pick(&cands, rng);
        let to = cands[c].1;
        let tp = m.prov_of(to);
        // An own unit standing there with no order yet is ordered first.
        if tp != here
            && let Some(j) = (0..mine.len())
                .find(|&j| j != i && m.prov_of(mine[j].loc) == tp && plans[j].is_none())
        {
            decide(j, mine, v, m, rng, plans, bound, visiting);
        }
        match bound[tp as usize] {
            Some(j) if j != i => {
                // Another own unit will be there: support it if it may fail.
                if tp != here && v.competition[tp as usize] > 0 && plans[j].is_some() {
                    break Plan::Support(j);
                }
                cands.remove(c);
            }
            _ if tp == here => {
                bound[tp as usize] = Some(i);
                break Plan::Hold;
            }
            _ => {
                // An own unit still standing there (ordered, but not bound
                // there: only a unit mid-decision) blocks the move.
                let blocked = (0..mine.len()).any(|j| {
                    j != i
                        && m.prov_of(mine[j].loc) == tp
                        && !matches!(plans[j], Some(Plan::Move(x)) if m.prov_of(x) != here)
                });
                if blocked {
                    cands.remove(c);
                    continue;
                }
                bound[tp as usize] = Some(i);
                break Plan::Move(to);
            }
        }
    };
    if let Plan::Support(_) = plan {
        // A supporting unit stays where it is.
        bound[here as usize] = Some(i);
    }
    plans[i] = Some(plan);
    visiting[i] = false;
}

/// DumbBot's retreats for `power` (a random order of its dislodged units).
fn retreat_orders(g: &Diplomacy, power: Power, rng: &mut ChaCha8Rng) -> Vec<Order> {
    let m = g.map();
    let v = valuation(g.map(), g.units(), g.owners(), power, g.season());
    let occ = g.occupied_provinces();
    let so = g.standoff_provinces();
    let mut ds: Vec<_> = g
        .dislodged()
        .iter()
        .filter(|d| d.unit.power == power)
        .copied()
        .collect();
    ds.shuffle(rng);
    let mut taken: u128 = 0;
    let mut out = Vec::new();
    for d in ds {
        let k = kind_index(d.unit.kind);
        let mut cands: Vec<(f64, u8)> = retreat_options(m, occ, so, &d)
            .into_iter()
            .map(|l| (v.dest[k][l as usize], l))
            .collect();
        rank(&mut cands);
        let kind = loop {
            if cands.is_empty() {
                break OrderKind::Disband;
            }
            let c = pick(&cands, rng);
            let p = m.prov_of(cands[c].1);
            if taken & 1u128 << p != 0 {
                cands.remove(c);
                continue;
            }
            taken |= 1u128 << p;
            break OrderKind::Retreat { to: cands[c].1 };
        };
        out.push(Order::Unit {
            unit: Some(d.unit.kind),
            at: d.unit.loc,
            kind,
        });
    }
    out
}

/// DumbBot's builds or removals for `power`.
fn adjustment_orders(g: &Diplomacy, power: Power, rng: &mut ChaCha8Rng) -> Vec<Order> {
    let m = g.map();
    let v = valuation(g.map(), g.units(), g.owners(), power, Season::Winter);
    let n = adjustment_count(m, g.units(), g.owners(), power);
    let mut out = Vec::new();
    if n > 0 {
        let mut cands: Vec<(f64, Order)> = g
            .build_choices(power)
            .into_iter()
            .filter_map(|o| match o {
                Order::Build { unit, at } => Some((v.dest[kind_index(unit)][at as usize], o)),
                _ => None,
            })
            .collect();
        rank(&mut cands);
        for _ in 0..n {
            if cands.is_empty() {
                break;
            }
            let (_, o) = cands[pick(&cands, rng)];
            let p = m.prov_of(o.at().unwrap_or(0));
            cands.retain(|(_, x)| m.prov_of(x.at().unwrap_or(0)) != p);
            out.push(o);
        }
    } else if n < 0 {
        // The least valuable places first: rank by the negated value.
        let mut cands: Vec<(f64, Unit)> = g
            .units()
            .iter()
            .filter(|u| u.power == power)
            .map(|u| (-v.dest[kind_index(u.kind)][u.loc as usize], *u))
            .collect();
        rank(&mut cands);
        for _ in 0..(-n) {
            if cands.is_empty() {
                break;
            }
            let c = pick(&cands, rng);
            let u = cands.remove(c).1;
            out.push(Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind: OrderKind::Disband,
            });
        }
    }
    out
}

/// DumbBot's orders for `power` in the current phase of `g`, drawing its
/// random choices from `seed`. Unchecked: the caller filters them with
/// [`Diplomacy::check_line`].
pub fn orders(g: &Diplomacy, power: Power, seed: u64) -> Vec<Order> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    match g.phase() {
        PhaseKind::Movement => {
            let v = valuation(g.map(), g.units(), g.owners(), power, g.season());
            movement_orders(g.map(), g.units(), power, &v, &mut rng)
        }
        PhaseKind::Retreat => retreat_orders(g, power, &mut rng),
        PhaseKind::Adjustment => adjustment_orders(g, power, &mut rng),
    }
}
