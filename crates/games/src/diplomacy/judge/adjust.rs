//! Winter adjustments: builds, removals, waives and civil disorder.
//!
//! A power with more centres than units may build, up to the difference,
//! in vacant home centres it still owns; a fleet in a split-coast centre
//! must name its coast (DATC 6.B.14), an army's coast is ignored. Orders are
//! taken in the order given; extra builds fail. A power with more units than
//! centres removes the difference; removals it did not order are chosen by
//! the 2023 civil-disorder rule: the unit farthest from any centre the power
//! owns (counting moves through any province, armies and fleets alike) goes
//! first; ties go to fleets before armies, then to the alphabetically first
//! province name.

use super::{OrderOutcome, PhaseKind, Reason};
use crate::diplomacy::geo::{Bits, LocId, MAX_POWERS, Map, Power, ProvId, Terrain};
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};

/// Everything an adjustment phase produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjustResult {
    /// One outcome per submitted order, in input order.
    pub orders: Vec<OrderOutcome>,
    /// Units after the phase.
    pub final_units: Vec<Unit>,
    /// Units built.
    pub built: Vec<Unit>,
    /// Units removed by order.
    pub removed: Vec<Unit>,
    /// Units removed by the civil-disorder rule.
    pub civil_disorder: Vec<Unit>,
}

/// Centres minus units for a power (positive: builds, negative: removals).
pub fn adjustment_count(map: &Map, units: &[Unit], owners: &[Option<Power>], power: Power) -> i32 {
    let _ = map;
    let centres = owners.iter().filter(|o| **o == Some(power)).count() as i32;
    let n = units.iter().filter(|u| u.power == power).count() as i32;
    centres - n
}

/// Checks one build against the board (ignoring the build count).
pub fn check_build(
    map: &Map,
    occupied: Bits,
    owners: &[Option<Power>],
    power: Power,
    unit: UnitKind,
    at: LocId,
) -> Result<Unit, Reason> {
    let p = map.prov_of(at);
    let prov = map.prov(p);
    if prov.home != Some(power) {
        return Err(Reason::NotHomeCentre(p));
    }
    if owners.get(p as usize).copied().flatten() != Some(power) {
        return Err(Reason::NotOwned(p));
    }
    if occupied & (1u128 << p) != 0 {
        return Err(Reason::Occupied(p));
    }
    let loc = match unit {
        UnitKind::Army => {
            if prov.terrain == Terrain::Sea {
                return Err(Reason::ArmyToSea(p));
            }
            p
        }
        UnitKind::Fleet => {
            if prov.terrain != Terrain::Coast {
                return Err(Reason::FleetInland(p));
            }
            if !prov.coasts.is_empty() && map.loc(at).coast.is_none() {
                return Err(Reason::CoastNeeded(p));
            }
            at
        }
    };
    Ok(Unit {
        power,
        kind: unit,
        loc,
    })
}

/// Adjudicates an adjustment phase. `owners[p]` is the owner of province `p`'s centre.
pub fn adjudicate_adjustments(
    map: &Map,
    units: &[Unit],
    owners: &[Option<Power>],
    orders: &[(Power, Order)],
) -> AdjustResult {
    let mut ledger = AdjustmentLedger::new(map, units, owners);
    let out: Vec<OrderOutcome> = orders
        .iter()
        .map(|(power, o)| match ledger.apply(*power, o) {
            Ok(()) => OrderOutcome {
                success: true,
                reason: None,
            },
            Err(e) => OrderOutcome {
                success: false,
                reason: Some(e),
            },
        })
        .collect();
    let civil = ledger.civil_disorder();
    let mut removed_mask = ledger.removed_mask;
    for u in &civil {
        removed_mask |= 1u128 << map.prov_of(u.loc);
    }
    let mut final_units: Vec<Unit> = units
        .iter()
        .copied()
        .filter(|u| removed_mask & (1u128 << map.prov_of(u.loc)) == 0)
        .collect();
    final_units.extend(ledger.built.iter().copied());
    AdjustResult {
        orders: out,
        final_units,
        built: ledger.built,
        removed: ledger.removed,
        civil_disorder: civil,
    }
}

/// The adjustment orders taken so far, in order: each power's allowance
/// and how much of it is used, the builds and the removals.
struct AdjustmentLedger<'a> {
    map: &'a Map,
    units: &'a [Unit],
    owners: &'a [Option<Power>],
    /// Per power: builds owed (positive) or removals owed (negative).
    delta: [i32; MAX_POWERS],
    /// Per power: builds, waives or removals taken.
    used: [i32; MAX_POWERS],
    occupied: Bits,
    built: Vec<Unit>,
    removed_mask: Bits,
    removed: Vec<Unit>,
}

impl<'a> AdjustmentLedger<'a> {
    fn new(map: &'a Map, units: &'a [Unit], owners: &'a [Option<Power>]) -> Self {
        let mut delta = [0i32; MAX_POWERS];
        for pw in map.powers() {
            delta[pw.index()] = adjustment_count(map, units, owners, pw);
        }
        AdjustmentLedger {
            map,
            units,
            owners,
            delta,
            used: [0i32; MAX_POWERS],
            occupied: units.iter().fold(0, |b, u| b | 1u128 << map.prov_of(u.loc)),
            built: Vec::new(),
            removed_mask: 0,
            removed: Vec::new(),
        }
    }

    /// Takes one order of `power`, or says why it fails.
    fn apply(&mut self, power: Power, o: &Order) -> Result<(), Reason> {
        let pi = power.index();
        match *o {
            Order::Build { unit, at } => {
                if self.delta[pi] <= self.used[pi] {
                    Err(Reason::NoBuildsLeft)
                } else {
                    let u = check_build(self.map, self.occupied, self.owners, power, unit, at)?;
                    self.occupied |= 1u128 << self.map.prov_of(u.loc);
                    self.built.push(u);
                    self.used[pi] += 1;
                    Ok(())
                }
            }
            Order::Waive => {
                if self.delta[pi] <= self.used[pi] {
                    Err(Reason::NoBuildsLeft)
                } else {
                    self.used[pi] += 1;
                    Ok(())
                }
            }
            Order::Unit {
                unit,
                at,
                kind: OrderKind::Disband,
            } => self.remove(power, unit, at),
            Order::Unit { .. } => Err(Reason::WrongPhase(PhaseKind::Adjustment)),
        }
    }

    /// A removal: the unit there must be `power`'s, of the kind named, not
    /// removed already, and within the removals owed.
    fn remove(&mut self, power: Power, unit: Option<UnitKind>, at: LocId) -> Result<(), Reason> {
        let pi = power.index();
        let p = self.map.prov_of(at);
        match self.units.iter().find(|u| self.map.prov_of(u.loc) == p) {
            None => Err(Reason::NoUnit(p)),
            Some(u) if u.power != power => Err(Reason::NotOwnUnit(p, u.power)),
            Some(u) if unit.is_some_and(|k| k != u.kind) => Err(Reason::WrongUnitType(p, u.kind)),
            Some(_) if self.removed_mask & (1u128 << p) != 0 => Err(Reason::AlreadyRemoved),
            Some(_) if -self.delta[pi] <= self.used[pi] => Err(Reason::NoRemovalsLeft),
            Some(u) => {
                self.removed_mask |= 1u128 << p;
                self.removed.push(*u);
                self.used[pi] += 1;
                Ok(())
            }
        }
    }

    /// Civil disorder for removals owed but not ordered.
    fn civil_disorder(&self) -> Vec<Unit> {
        let mut civil = Vec::new();
        for pw in self.map.powers() {
            let pi = pw.index();
            let missing = -self.delta[pi] - self.used[pi];
            if self.delta[pi] >= 0 || missing <= 0 {
                continue;
            }
            civil.extend(civil_disorder_removals(
                self.map,
                self.units,
                self.owners,
                pw,
                self.removed_mask,
                missing as usize,
            ));
        }
        civil
    }
}

/// The units the 2023 civil-disorder rule removes for `power` (see the module doc).
pub fn civil_disorder_removals(
    map: &Map,
    units: &[Unit],
    owners: &[Option<Power>],
    power: Power,
    already_removed: Bits,
    count: usize,
) -> Vec<Unit> {
    let owned: Bits = owners
        .iter()
        .enumerate()
        .filter(|(_, o)| **o == Some(power))
        .fold(0, |b, (p, _)| b | 1u128 << p);
    let dist = map.distances_to(owned);
    let mut cands: Vec<(u8, u8, String, Unit)> = units
        .iter()
        .filter(|u| u.power == power && already_removed & (1u128 << map.prov_of(u.loc)) == 0)
        .map(|u| {
            let p: ProvId = map.prov_of(u.loc);
            let fleet_first = if u.kind == UnitKind::Fleet { 0 } else { 1 };
            (
                dist[p as usize],
                fleet_first,
                map.prov(p).name.to_lowercase(),
                *u,
            )
        })
        .collect();
    cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    cands.into_iter().take(count).map(|c| c.3).collect()
}
