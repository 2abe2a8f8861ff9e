//! Movement-phase adjudication.
//!
//! Orders are first bound to units and checked for legality (illegal orders
//! become holds and keep their reason), then every move, support and convoy
//! is a node of Kruijswijk's guess-and-check resolver. All per-province state
//! lives in fixed arrays indexed by dense province id and neighbour sets are
//! 128-bit masks, so the resolver itself never allocates.
//!
//! Rule choices (DATC v3.0 preferences, 2023 rulebook):
//! - an army moving to an adjacent province goes by convoy only if the order
//!   says "via convoy" or a fleet of the same power is ordered to convoy it
//!   (4.A.3); a "via convoy" move with no route fails, with no land fallback;
//! - a move to a non-adjacent coastal province is always by convoy;
//! - a fleet moving to a split-coast province without a coast uses the only
//!   reachable coast, and is illegal when two are reachable (4.B.1, 4.B.2);
//! - coasts written on supports and on the ordered unit are ignored;
//! - the supported unit's type in a support order is not checked;
//! - convoy paradoxes: Szykman rule (the convoys in the paradox fail);
//!   circular movement: all moves of the ring succeed.

use super::{OrderOutcome, Reason};
use crate::games::diplomacy::geo::{BitIter, Bits, LocId, Map, Power, ProvId, Terrain};
use crate::games::diplomacy::order::{Order, OrderKind, Unit, UnitKind};

/// Provinces supported by the fixed-size arrays.
const MAXP: usize = 96;
const NONE: u8 = u8::MAX;

const LAND: u8 = 0;
const CONVOY: u8 = 1;
const FALLBACK: u8 = 2;

const UNRESOLVED: u8 = 0;
const GUESSING: u8 = 1;
const RESOLVED: u8 = 2;

/// A unit dislodged in the movement phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dislodgement {
    /// The unit, at the place it was dislodged from.
    pub unit: Unit,
    /// The province the successful attacker came from.
    pub attacker_from: ProvId,
    /// Whether that attacker came by convoy (then the dislodged unit may
    /// retreat to the attacker's origin, 2023 rules / DATC 6.H.11).
    pub by_convoy: bool,
}

/// Everything a movement phase produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementResult {
    /// One outcome per submitted order, in input order.
    pub orders: Vec<OrderOutcome>,
    /// Units after the phase (dislodged units excluded).
    pub final_units: Vec<Unit>,
    /// Dislodged units with their attackers.
    pub dislodged: Vec<Dislodgement>,
    /// Provinces left vacant by a standoff (closed to retreats).
    pub standoffs: Bits,
}

/// A normalised, legal order of the unit in one province.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nk {
    Empty,
    Hold,
    /// `mode`: LAND, CONVOY (no land fallback) or FALLBACK (convoy intent
    /// shown by an own fleet; the land route is used if the convoy fails).
    Move {
        to: u8,
        mode: u8,
    },
    SupHold {
        t: u8,
    },
    /// `dc`: the coast written for the destination (`NONE` if none).
    SupMove {
        t: u8,
        d: u8,
        dc: u8,
    },
    Convoy {
        a: u8,
        d: u8,
    },
}

struct Judge<'m> {
    map: &'m Map,
    nk: [Nk; MAXP],
    /// Whether a support/convoy matched its unit's real order.
    valid: [bool; MAXP],
    power: [u8; MAXP],
    occupied: Bits,
    into: [Bits; MAXP],
    sup: [Bits; MAXP],
    conv: [Bits; MAXP],
    res: [bool; MAXP],
    state: [u8; MAXP],
    deps: [u8; 2 * MAXP],
    ndeps: usize,
}

#[inline]
fn bit(p: u8) -> Bits {
    1u128 << p
}

impl<'m> Judge<'m> {
    fn resolve(&mut self, n: u8) -> bool {
        let ni = n as usize;
        match self.state[ni] {
            RESOLVED => return self.res[ni],
            GUESSING => {
                self.push_dep(n);
                return self.res[ni];
            }
            _ => {}
        }
        let old = self.ndeps;
        self.res[ni] = false;
        self.state[ni] = GUESSING;
        let first = self.adjudicate(n);
        if self.ndeps == old {
            if self.state[ni] != RESOLVED {
                self.res[ni] = first;
                self.state[ni] = RESOLVED;
            }
            return self.res[ni];
        }
        if self.deps[old] != n {
            // Part of a cycle that started with an earlier guess.
            self.push_dep(n);
            self.res[ni] = first;
            return first;
        }
        // `n` heads a cycle: try the other guess.
        self.reset_deps(old);
        self.res[ni] = true;
        self.state[ni] = GUESSING;
        let second = self.adjudicate(n);
        if first == second {
            self.reset_deps(old);
            self.res[ni] = first;
            self.state[ni] = RESOLVED;
            return first;
        }
        // No or two consistent resolutions: the backup rule decides.
        self.backup_rule(old);
        self.resolve(n)
    }

    fn push_dep(&mut self, n: u8) {
        if !self.deps[..self.ndeps].contains(&n) {
            self.deps[self.ndeps] = n;
            self.ndeps += 1;
        }
    }

    fn reset_deps(&mut self, old: usize) {
        for i in old..self.ndeps {
            self.state[self.deps[i] as usize] = UNRESOLVED;
        }
        self.ndeps = old;
    }

    fn backup_rule(&mut self, old: usize) {
        let cycle = old..self.ndeps;
        let has_convoy = self.deps[cycle.clone()]
            .iter()
            .any(|&n| matches!(self.nk[n as usize], Nk::Convoy { .. }));
        for i in cycle {
            let n = self.deps[i] as usize;
            match self.nk[n] {
                // Szykman: the convoys of a paradox fail.
                Nk::Convoy { .. } if has_convoy => {
                    self.res[n] = false;
                    self.state[n] = RESOLVED;
                }
                // Circular movement: every move of the ring succeeds.
                Nk::Move { .. } if !has_convoy => {
                    self.res[n] = true;
                    self.state[n] = RESOLVED;
                }
                _ => self.state[n] = UNRESOLVED,
            }
        }
        self.ndeps = old;
    }

    fn adjudicate(&mut self, n: u8) -> bool {
        match self.nk[n as usize] {
            Nk::Move { .. } => self.adj_move(n),
            Nk::SupHold { .. } | Nk::SupMove { .. } => self.adj_support(n),
            Nk::Convoy { .. } => self.adj_convoy(n),
            _ => true,
        }
    }

    fn dest(&self, p: u8) -> u8 {
        match self.nk[p as usize] {
            Nk::Move { to, .. } => to,
            _ => NONE,
        }
    }

    /// Whether the move from `p` actually goes by convoy.
    fn is_convoyed(&mut self, p: u8) -> bool {
        match self.nk[p as usize] {
            Nk::Move { mode: CONVOY, .. } => true,
            Nk::Move { mode: FALLBACK, .. } => self.convoy_path(p),
            _ => false,
        }
    }

    /// Head-to-head: `p` and `q` move into each other, neither by convoy.
    fn h2h(&mut self, p: u8, q: u8) -> bool {
        matches!(self.nk[p as usize], Nk::Move { to, .. } if to == q)
            && matches!(self.nk[q as usize], Nk::Move { to, .. } if to == p)
            && !self.is_convoyed(p)
            && !self.is_convoyed(q)
    }

    /// Whether the unit at `a` can get to its destination at all: by land,
    /// or by an unbroken chain of convoying fleets.
    fn path(&mut self, a: u8) -> bool {
        match self.nk[a as usize] {
            Nk::Move { mode: CONVOY, .. } => self.convoy_path(a),
            Nk::Move { .. } => true,
            _ => false,
        }
    }

    /// Whether an unbroken chain of successful convoys links `a` to its destination.
    fn convoy_path(&mut self, a: u8) -> bool {
        let Nk::Move { to, .. } = self.nk[a as usize] else {
            return false;
        };
        let cands = self.conv[a as usize];
        if cands == 0 {
            return false;
        }
        let mut reach = self.map.prov_fleet_adj(a) & cands;
        let mut done: Bits = 0;
        loop {
            let open = reach & !done;
            if open == 0 {
                return false;
            }
            let f = open.trailing_zeros() as u8;
            done |= bit(f);
            if !self.resolve(f) {
                continue;
            }
            let adj = self.map.fleet_prov_adj(f as LocId);
            if adj & bit(to) != 0 {
                return true;
            }
            reach |= adj & cands;
        }
    }

    fn supports(&mut self, p: u8, exclude: u8) -> u32 {
        let mut n = 0;
        for s in BitIter(self.sup[p as usize]) {
            if self.power[s as usize] == exclude {
                continue;
            }
            if self.resolve(s) {
                n += 1;
            }
        }
        n
    }

    fn attack(&mut self, p: u8) -> u32 {
        let q = self.dest(p);
        if !self.path(p) {
            return 0;
        }
        let occ = self.occupied & bit(q) != 0;
        let leaves = occ
            && matches!(self.nk[q as usize], Nk::Move { .. })
            && !self.h2h(p, q)
            && self.resolve(q);
        if !occ || leaves {
            return 1 + self.supports(p, NONE);
        }
        if self.power[q as usize] == self.power[p as usize] {
            return 0;
        }
        1 + self.supports(p, self.power[q as usize])
    }

    fn hold(&mut self, q: u8) -> u32 {
        if self.occupied & bit(q) == 0 {
            return 0;
        }
        if let Nk::Move { .. } = self.nk[q as usize] {
            return if self.resolve(q) { 0 } else { 1 };
        }
        1 + self.supports(q, NONE)
    }

    fn prevent(&mut self, r: u8) -> u32 {
        if !self.path(r) {
            return 0;
        }
        let q = self.dest(r);
        if self.h2h(r, q) && self.resolve(q) {
            return 0;
        }
        1 + self.supports(r, NONE)
    }

    fn adj_move(&mut self, p: u8) -> bool {
        let q = self.dest(p);
        let a = self.attack(p);
        if a == 0 {
            return false;
        }
        if self.h2h(p, q) {
            let d = 1 + self.supports(q, NONE);
            if a <= d {
                return false;
            }
        } else if a <= self.hold(q) {
            return false;
        }
        for r in BitIter(self.into[q as usize] & !bit(p)) {
            if a <= self.prevent(r) {
                return false;
            }
        }
        true
    }

    fn adj_support(&mut self, s: u8) -> bool {
        let against = match self.nk[s as usize] {
            Nk::SupMove { d, .. } => d,
            _ => NONE,
        };
        for m in BitIter(self.into[s as usize]) {
            if self.power[m as usize] == self.power[s as usize] {
                continue;
            }
            if !self.path(m) {
                continue;
            }
            if m == against {
                // The attacked unit cannot cut the support, only dislodge it.
                if self.resolve(m) {
                    return false;
                }
                continue;
            }
            return false;
        }
        true
    }

    fn adj_convoy(&mut self, c: u8) -> bool {
        for m in BitIter(self.into[c as usize]) {
            if self.resolve(m) {
                return false;
            }
        }
        true
    }
}

/// Adjudicates a movement phase. `orders` are `(power, order)` pairs as
/// submitted; units without a (legal) order hold.
pub fn adjudicate_movement(map: &Map, units: &[Unit], orders: &[(Power, Order)]) -> MovementResult {
    let np = map.province_count();
    assert!(np <= MAXP, "map too large for the adjudicator");
    let mut out = vec![OrderOutcome::FAIL; orders.len()];
    let mut unit_at = [NONE; MAXP];
    let mut unit_loc = [0 as LocId; MAXP];
    let mut unit_kind = [UnitKind::Army; MAXP];
    let mut order_of = [u16::MAX; MAXP];
    let mut j = Judge {
        map,
        nk: [Nk::Empty; MAXP],
        valid: [true; MAXP],
        power: [NONE; MAXP],
        occupied: 0,
        into: [0; MAXP],
        sup: [0; MAXP],
        conv: [0; MAXP],
        res: [false; MAXP],
        state: [UNRESOLVED; MAXP],
        deps: [0; 2 * MAXP],
        ndeps: 0,
    };
    for (i, u) in units.iter().enumerate() {
        let p = map.prov_of(u.loc) as usize;
        if unit_at[p] != NONE || i >= NONE as usize {
            continue;
        }
        unit_at[p] = i as u8;
        unit_loc[p] = u.loc;
        unit_kind[p] = u.kind;
        j.power[p] = u.power as u8;
        j.occupied |= bit(p as u8);
        j.nk[p] = Nk::Hold;
    }
    // Bind orders to units.
    for (i, (power, o)) in orders.iter().enumerate() {
        let Order::Unit { unit, at, kind } = *o else {
            out[i].reason = Some(Reason::WrongPhase(super::PhaseKind::Movement));
            continue;
        };
        let p = map.prov_of(at) as usize;
        if unit_at[p] == NONE {
            out[i].reason = Some(Reason::NoUnit(p as u8));
            continue;
        }
        if i >= u16::MAX as usize {
            // Far more orders than units: only the first 65535 are read.
            out[i].reason = Some(Reason::TooManyOrders);
            continue;
        }
        let u = units[unit_at[p] as usize];
        if u.power != *power {
            out[i].reason = Some(Reason::NotOwnUnit(p as u8, u.power));
            continue;
        }
        if unit.is_some_and(|k| k != u.kind) {
            out[i].reason = Some(Reason::WrongUnitType(p as u8, u.kind));
            continue;
        }
        if matches!(kind, OrderKind::Retreat { .. } | OrderKind::Disband) {
            out[i].reason = Some(Reason::WrongPhase(super::PhaseKind::Movement));
            continue;
        }
        if order_of[p] != u16::MAX {
            out[order_of[p] as usize].reason = Some(Reason::Replaced);
        }
        order_of[p] = i as u16;
    }
    let mut fleets_at_sea: Bits = 0;
    for p in BitIter(j.occupied) {
        if unit_kind[p as usize] == UnitKind::Fleet && map.is_sea(p) {
            fleets_at_sea |= bit(p);
        }
    }
    // Same-power convoy intent (4.A.3) needs the convoy orders first.
    let mut own_convoys: [(u8, u8, u8); MAXP] = [(NONE, NONE, NONE); MAXP];
    let mut n_own = 0;
    for p in 0..np {
        if order_of[p] == u16::MAX {
            continue;
        }
        if let Order::Unit {
            kind: OrderKind::Convoy { from, to },
            ..
        } = orders[order_of[p] as usize].1
        {
            let (a, d) = (map.prov_of(from), map.prov_of(to));
            if unit_kind[p] == UnitKind::Fleet
                && map.is_sea(p as u8)
                && useful_fleets(map, a, d, fleets_at_sea) & bit(p as u8) != 0
            {
                own_convoys[n_own] = (j.power[p], a, d);
                n_own += 1;
            }
        }
    }
    let mut to_loc = [0 as LocId; MAXP];
    // Legality.
    for p in 0..np {
        let oi = order_of[p];
        if oi == u16::MAX {
            continue;
        }
        let Order::Unit { kind, .. } = orders[oi as usize].1 else {
            continue;
        };
        let pu = p as u8;
        let kind_unit = unit_kind[p];
        let r: Result<Nk, Reason> = match kind {
            OrderKind::Hold => Ok(Nk::Hold),
            OrderKind::Move { to, via_convoy } => {
                let q = map.prov_of(to);
                let terr = map.prov(q).terrain;
                if q == pu {
                    Err(Reason::MoveToSelf)
                } else if kind_unit == UnitKind::Army {
                    to_loc[p] = q;
                    let adjacent = map.army_adj(pu) & bit(q) != 0;
                    let own_intent = own_convoys[..n_own]
                        .iter()
                        .any(|&(pw, f, t)| pw == j.power[p] && f == pu && t == q);
                    if terr == Terrain::Sea {
                        Err(Reason::ArmyToSea(q))
                    } else if adjacent && !via_convoy && !own_intent {
                        Ok(Nk::Move { to: q, mode: LAND })
                    } else if adjacent && !via_convoy {
                        Ok(Nk::Move {
                            to: q,
                            mode: FALLBACK,
                        })
                    } else if useful_fleets(map, pu, q, fleets_at_sea) != 0 {
                        Ok(Nk::Move {
                            to: q,
                            mode: CONVOY,
                        })
                    } else {
                        Err(Reason::NoConvoyPossible(q))
                    }
                } else if via_convoy {
                    Err(Reason::FleetViaConvoy)
                } else {
                    match fleet_target(map, unit_loc[p], to) {
                        Ok(l) => {
                            to_loc[p] = l;
                            Ok(Nk::Move { to: q, mode: LAND })
                        }
                        Err(e) => Err(e),
                    }
                }
            }
            OrderKind::Support { from, to, .. } => {
                let t = map.prov_of(from);
                let d = to.map(|l| map.prov_of(l)).unwrap_or(t);
                let reach = match kind_unit {
                    UnitKind::Army => map.army_adj(pu),
                    UnitKind::Fleet => map.fleet_prov_adj(unit_loc[p]),
                };
                if t == pu || d == pu {
                    Err(Reason::SupportSelf)
                } else if reach & bit(d) == 0 {
                    Err(Reason::SupportUnreachable(d))
                } else if let Some(to) = to {
                    let dc = if map.loc(to).coast.is_some() {
                        to
                    } else {
                        NONE
                    };
                    Ok(Nk::SupMove { t, d, dc })
                } else {
                    Ok(Nk::SupHold { t })
                }
            }
            OrderKind::Convoy { from, to } => {
                let (a, d) = (map.prov_of(from), map.prov_of(to));
                if kind_unit != UnitKind::Fleet || !map.is_sea(pu) {
                    Err(Reason::ConvoyNotAtSea)
                } else if useful_fleets(map, a, d, fleets_at_sea) & bit(pu) == 0 {
                    Err(Reason::ConvoyUseless(a, d))
                } else {
                    Ok(Nk::Convoy { a, d })
                }
            }
            OrderKind::Retreat { .. } | OrderKind::Disband => {
                Err(Reason::WrongPhase(super::PhaseKind::Movement))
            }
        };
        match r {
            Ok(nk) => j.nk[p] = nk,
            Err(e) => {
                j.nk[p] = Nk::Hold;
                j.valid[p] = false;
                out[oi as usize].reason = Some(e);
            }
        }
    }
    // Matching supports and convoys; index movers by destination.
    let mut reasons_void = [None::<Reason>; MAXP];
    #[allow(clippy::needless_range_loop)] // p indexes several parallel arrays
    for p in 0..np {
        let pu = p as u8;
        match j.nk[p] {
            Nk::Move { to, .. } => j.into[to as usize] |= bit(pu),
            Nk::SupHold { t } => {
                if unit_at[t as usize] == NONE {
                    reasons_void[p] = Some(Reason::TargetNoUnit(t));
                } else if matches!(j.nk[t as usize], Nk::Move { .. }) {
                    reasons_void[p] = Some(Reason::Mismatch(t));
                } else {
                    j.sup[t as usize] |= bit(pu);
                }
            }
            Nk::SupMove { t, d, dc } => {
                if unit_at[t as usize] == NONE {
                    reasons_void[p] = Some(Reason::TargetNoUnit(t));
                } else if matches!(j.nk[t as usize], Nk::Move { to, .. } if to == d)
                    && (dc == NONE
                        || unit_kind[t as usize] == UnitKind::Army
                        || to_loc[t as usize] == dc)
                {
                    j.sup[t as usize] |= bit(pu);
                } else {
                    reasons_void[p] = Some(Reason::Mismatch(t));
                }
            }
            Nk::Convoy { a, d } => {
                if unit_at[a as usize] == NONE {
                    reasons_void[p] = Some(Reason::TargetNoUnit(a));
                } else if unit_kind[a as usize] == UnitKind::Army
                    && matches!(j.nk[a as usize], Nk::Move { to, mode } if to == d && mode != LAND)
                {
                    j.conv[a as usize] |= bit(pu);
                } else {
                    reasons_void[p] = Some(Reason::Mismatch(a));
                }
            }
            _ => {}
        }
    }
    // A void support stays a support node: it is reported as given (not
    // cut) or cut, like any other, but counts for nobody. A void convoy holds.
    let mut void = [false; MAXP];
    for (p, rv) in reasons_void.iter().enumerate().take(np) {
        if let Some(r) = *rv {
            void[p] = true;
            if matches!(j.nk[p], Nk::Convoy { .. }) {
                j.nk[p] = Nk::Hold;
            }
            if order_of[p] != u16::MAX {
                out[order_of[p] as usize].reason = Some(r);
            }
        }
    }
    // Resolve every node.
    for p in BitIter(j.occupied) {
        if matches!(
            j.nk[p as usize],
            Nk::Move { .. } | Nk::SupHold { .. } | Nk::SupMove { .. } | Nk::Convoy { .. }
        ) {
            j.resolve(p);
        }
    }
    // Dislodgements and final positions.
    let mut final_units = Vec::with_capacity(units.len());
    let mut dislodged = Vec::new();
    let mut dislodger = [NONE; MAXP];
    let mut final_occ: Bits = 0;
    for p in BitIter(j.occupied) {
        let pi = p as usize;
        let u = units[unit_at[pi] as usize];
        if let Nk::Move { to, .. } = j.nk[pi]
            && j.res[pi]
        {
            final_units.push(Unit {
                loc: to_loc[pi],
                ..u
            });
            final_occ |= bit(to);
            continue;
        }
        let by = BitIter(j.into[pi]).find(|&m| j.res[m as usize]);
        match by {
            Some(m) => {
                dislodger[pi] = m;
                let by_convoy = j.is_convoyed(m);
                dislodged.push(Dislodgement {
                    unit: u,
                    attacker_from: m,
                    by_convoy,
                });
            }
            None => {
                final_units.push(u);
                final_occ |= bit(p);
            }
        }
    }
    // Standoffs: vacant provinces where two or more real attacks failed.
    let mut standoffs: Bits = 0;
    for q in 0..np as u8 {
        if final_occ & bit(q) != 0 || j.into[q as usize] == 0 {
            continue;
        }
        let mut failed = 0;
        for m in BitIter(j.into[q as usize]) {
            if !j.res[m as usize] && j.path(m) {
                failed += 1;
            }
        }
        if failed >= 2 {
            standoffs |= bit(q);
        }
    }
    // Per-order results.
    for p in BitIter(j.occupied) {
        let pi = p as usize;
        let oi = order_of[pi];
        if oi == u16::MAX {
            continue;
        }
        let o = &mut out[oi as usize];
        if !j.valid[pi] {
            o.success = false;
            continue;
        }
        if void[pi] {
            o.success = match j.nk[pi] {
                Nk::SupHold { .. } | Nk::SupMove { .. } => j.res[pi],
                _ => dislodger[pi] == NONE,
            };
            continue;
        }
        match j.nk[pi] {
            Nk::Move { to, .. } => {
                o.success = j.res[pi];
                if !o.success {
                    o.reason = Some(if !j.path(p) {
                        Reason::NoConvoyRoute
                    } else {
                        Reason::Bounced(to)
                    });
                }
            }
            Nk::SupHold { .. } | Nk::SupMove { .. } => {
                o.success = j.res[pi];
                if !o.success {
                    o.reason = Some(if dislodger[pi] != NONE {
                        Reason::Dislodged(dislodger[pi])
                    } else {
                        let cutter = BitIter(j.into[pi])
                            .find(|&m| j.power[m as usize] != j.power[pi])
                            .unwrap_or(p);
                        Reason::SupportCut(cutter)
                    });
                }
            }
            Nk::Convoy { .. } => {
                o.success = j.res[pi];
                if !o.success {
                    o.reason = Some(if dislodger[pi] != NONE {
                        Reason::Dislodged(dislodger[pi])
                    } else {
                        Reason::ConvoyParadox
                    });
                }
            }
            _ => {
                o.success = dislodger[pi] == NONE;
                if !o.success {
                    o.reason = Some(Reason::Dislodged(dislodger[pi]));
                }
            }
        }
    }
    MovementResult {
        orders: out,
        final_units,
        dislodged,
        standoffs,
    }
}

/// Where a fleet at `from` ends up when ordered to `to` (coast rules 4.B.1/4.B.2).
pub(crate) fn fleet_target(map: &Map, from: LocId, to: LocId) -> Result<LocId, Reason> {
    let q = map.prov_of(to);
    let prov = map.prov(q);
    let adj = map.fleet_adj(from);
    match prov.terrain {
        Terrain::Land | Terrain::Impassable => return Err(Reason::FleetInland(q)),
        _ => {}
    }
    if map.loc(to).coast.is_some() {
        return if adj & (1u128 << to) != 0 {
            Ok(to)
        } else {
            Err(Reason::CoastUnreachable(to))
        };
    }
    if prov.coasts.is_empty() {
        return if adj & (1u128 << to) != 0 {
            Ok(to)
        } else {
            Err(Reason::NotAdjacent(q))
        };
    }
    let mut found = None;
    let mut n = 0;
    for &c in &prov.coasts {
        if adj & (1u128 << c) != 0 {
            n += 1;
            found = Some(c);
        }
    }
    match (n, found) {
        (1, Some(c)) => Ok(c),
        (0, _) => Err(Reason::NotAdjacent(q)),
        _ => Err(Reason::CoastNeeded(q)),
    }
}

/// The fleets (at sea) that lie on some minimal convoy route from `a` to `d`:
/// a chain of fleet-occupied seas where no fleet could be skipped. A convoy
/// order by any other fleet is impossible and ignored (DATC 6.G.7, 6.G.19),
/// and an army move with no such route at all is illegal (6.D.32).
pub(crate) fn useful_fleets(map: &Map, a: ProvId, d: ProvId, fleets: Bits) -> Bits {
    if a == d || map.prov(a).terrain != Terrain::Coast || map.prov(d).terrain != Terrain::Coast {
        return 0;
    }
    fn dfs(
        map: &Map,
        x: ProvId,
        a: ProvId,
        d: ProvId,
        fleets: Bits,
        path: Bits,
        useful: &mut Bits,
    ) {
        let adj = map.fleet_prov_adj(x as LocId);
        if adj & bit(d) != 0 {
            *useful |= path;
            return;
        }
        for y in BitIter(adj & fleets & !path) {
            let ya = map.fleet_prov_adj(y as LocId);
            // Induced path only: y may touch neither the origin nor an earlier fleet.
            if ya & bit(a) != 0 || ya & (path & !bit(x)) != 0 {
                continue;
            }
            dfs(map, y, a, d, fleets, path | bit(y), useful);
        }
    }
    let mut useful = 0;
    for f in BitIter(map.prov_fleet_adj(a) & fleets) {
        dfs(map, f, a, d, fleets, bit(f), &mut useful);
    }
    useful
}
