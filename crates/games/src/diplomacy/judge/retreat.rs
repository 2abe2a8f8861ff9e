//! Retreat-phase adjudication.
//!
//! A dislodged unit may retreat to an adjacent province (no convoys, and
//! for fleets the usual coast rules) that is empty after the movement phase,
//! was not left empty by a standoff, and is not the province its attacker
//! came from, unless that attacker came by convoy (2023 rules, DATC 6.H.11).
//! Two or more retreats to one province all fail. Dislodged units without a
//! successful retreat are disbanded. In this phase `A Mun - Boh` is read as
//! a retreat; every other kind of order is illegal.

use super::movement::{Dislodgement, fleet_target};
use super::{OrderOutcome, PhaseKind, Reason};
use crate::diplomacy::geo::{Bits, LocId, Map, Power, Terrain};
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};

/// Everything a retreat phase produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetreatResult {
    /// One outcome per submitted order, in input order.
    pub orders: Vec<OrderOutcome>,
    /// Units after the phase.
    pub final_units: Vec<Unit>,
    /// Dislodged units that did not retreat.
    pub disbanded: Vec<Unit>,
}

/// The locations a dislodged unit could legally retreat to.
pub fn retreat_options(map: &Map, occupied: Bits, standoffs: Bits, d: &Dislodgement) -> Vec<LocId> {
    let p = map.prov_of(d.unit.loc);
    let mut out = Vec::new();
    let cands: Vec<LocId> = match d.unit.kind {
        UnitKind::Army => crate::diplomacy::geo::BitIter(map.army_adj(p)).collect(),
        UnitKind::Fleet => crate::diplomacy::geo::BitIter(map.fleet_adj(d.unit.loc)).collect(),
    };
    for l in cands {
        if check_dest(map, occupied, standoffs, d, l).is_ok() {
            out.push(l);
        }
    }
    out
}

fn check_dest(
    map: &Map,
    occupied: Bits,
    standoffs: Bits,
    d: &Dislodgement,
    to: LocId,
) -> Result<LocId, Reason> {
    let p = map.prov_of(d.unit.loc);
    let q = map.prov_of(to);
    if q == p {
        return Err(Reason::MoveToSelf);
    }
    let loc = match d.unit.kind {
        UnitKind::Army => {
            if map.prov(q).terrain == Terrain::Sea {
                return Err(Reason::ArmyToSea(q));
            }
            if map.army_adj(p) & (1u128 << q) == 0 {
                return Err(Reason::NotAdjacent(q));
            }
            q
        }
        UnitKind::Fleet => fleet_target(map, d.unit.loc, to)?,
    };
    if occupied & (1u128 << q) != 0 {
        return Err(Reason::RetreatOccupied(q));
    }
    if q == d.attacker_from && !d.by_convoy {
        return Err(Reason::RetreatToAttacker(q));
    }
    if standoffs & (1u128 << q) != 0 {
        return Err(Reason::RetreatStandoff(q));
    }
    Ok(loc)
}

/// Adjudicates a retreat phase. `units` are the units left on the board
/// after the movement phase; `dislodged` the dislodged ones.
pub fn adjudicate_retreats(
    map: &Map,
    units: &[Unit],
    dislodged: &[Dislodgement],
    standoffs: Bits,
    orders: &[(Power, Order)],
) -> RetreatResult {
    let mut out = vec![
        OrderOutcome {
            success: false,
            reason: None
        };
        orders.len()
    ];
    let occupied: Bits = units.iter().fold(0, |b, u| b | 1u128 << map.prov_of(u.loc));
    // Per dislodged unit: chosen order index and its legal target location.
    let mut chosen: Vec<Option<(usize, Option<LocId>)>> = vec![None; dislodged.len()];
    for (i, (power, o)) in orders.iter().enumerate() {
        let Order::Unit { unit, at, kind } = *o else {
            out[i].reason = Some(Reason::WrongPhase(PhaseKind::Retreat));
            continue;
        };
        let p = map.prov_of(at);
        let Some(di) = dislodged.iter().position(|d| map.prov_of(d.unit.loc) == p) else {
            out[i].reason = Some(if occupied & (1u128 << p) != 0 {
                Reason::NotDislodged(p)
            } else {
                Reason::NoUnit(p)
            });
            continue;
        };
        let d = &dislodged[di];
        if d.unit.power != *power {
            out[i].reason = Some(Reason::NotOwnUnit(p, d.unit.power));
            continue;
        }
        if unit.is_some_and(|k| k != d.unit.kind) {
            out[i].reason = Some(Reason::WrongUnitType(p, d.unit.kind));
            continue;
        }
        let target = match kind {
            OrderKind::Retreat { to }
            | OrderKind::Move {
                to,
                via_convoy: false,
            } => match check_dest(map, occupied, standoffs, d, to) {
                Ok(l) => Some(l),
                Err(e) => {
                    out[i].reason = Some(e);
                    continue;
                }
            },
            OrderKind::Disband => None,
            OrderKind::Move {
                via_convoy: true, ..
            } => {
                out[i].reason = Some(Reason::WrongPhase(PhaseKind::Retreat));
                continue;
            }
            _ => {
                out[i].reason = Some(Reason::WrongPhase(PhaseKind::Retreat));
                continue;
            }
        };
        if let Some((prev, _)) = chosen[di] {
            out[prev].reason = Some(Reason::Replaced);
            out[prev].success = false;
        }
        chosen[di] = Some((i, target));
        out[i].success = true;
    }
    let mut final_units = units.to_vec();
    let mut disbanded = Vec::new();
    for (di, d) in dislodged.iter().enumerate() {
        match chosen[di] {
            Some((i, Some(l))) => {
                let q = map.prov_of(l);
                let clash = chosen.iter().enumerate().any(|(dj, c)| {
                    dj != di && matches!(c, Some((_, Some(l2))) if map.prov_of(*l2) == q)
                });
                if clash {
                    out[i].success = false;
                    out[i].reason = Some(Reason::RetreatClash(q));
                    disbanded.push(d.unit);
                } else {
                    final_units.push(Unit { loc: l, ..d.unit });
                }
            }
            _ => disbanded.push(d.unit),
        }
    }
    RetreatResult {
        orders: out,
        final_units,
        disbanded,
    }
}
