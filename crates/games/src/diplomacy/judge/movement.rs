//! Movement-phase adjudication, in the order of the rulebook:
//!
//! 1. [`Judge::place_units`] and [`Judge::bind_orders`]: each order is bound to
//!    the unit it names; orders for missing or foreign units are rejected;
//! 2. [`Judge::check_legality`]: each bound order becomes a [`Node`] (illegal
//!    orders become holds and keep their reason), with convoy routes decided
//!    by [`Judge::own_convoy_intents`] and [`useful_fleets`];
//! 3. [`Judge::match_supports_and_convoys`]: supports and convoys count only
//!    for the unit whose real order they match;
//! 4. the resolver ([`Judge::resolve`]): every move, support and convoy is a
//!    node of Kruijswijk's guess-and-check resolver, deciding with the
//!    strengths ([`Judge::attack_strength`], [`Judge::defend_strength`],
//!    [`Judge::prevent_strength`], [`Judge::hold_strength`]); a cycle with no
//!    single consistent answer goes to [`Judge::szykman_rule`] or
//!    [`Judge::circular_movement_rule`];
//! 5. [`Judge::settle_positions`] and [`Judge::standoffs`]: dislodgements,
//!    final positions and standoffs; [`Judge::report_outcomes`] gives each
//!    order its result and reason.
//!
//! All per-province state lives in fixed arrays indexed by dense province id
//! and neighbour sets are 128-bit masks, so the resolver itself never
//! allocates.
//!
//! Rule choices (DATC v3.0 preferences, 2023 rulebook):
//! - an army moving to an adjacent province goes by convoy only if the order
//!   says "via convoy" or a fleet of the same power is ordered to convoy it
//!   (4.A.3); a "via convoy" move with no route fails, with no land fallback;
//! - a move to a non-adjacent coastal province is always by convoy;
//! - a fleet moving to a split-coast province without a coast uses the only
//!   reachable coast, and is illegal when two are reachable (4.B.1, 4.B.2);
//! - the coast written on the ordered unit is ignored; a support that
//!   names a coast counts only for a fleet moving to that coast (6.B.9),
//!   one without a coast for either;
//! - the supported unit's type in a support order is not checked;
//! - convoy paradoxes: Szykman rule (the convoys in the paradox fail);
//!   circular movement: all moves of the ring succeed.

use super::{OrderOutcome, PhaseKind, Reason};
use crate::diplomacy::geo::{BitIter, Bits, LocId, Map, Power, ProvId, Terrain};
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};

/// Provinces supported by the fixed-size arrays.
const MAX_PROVINCES: usize = 96;
/// "No province", "no unit", "no power" in the `u8`-indexed arrays.
const NONE: u8 = u8::MAX;
/// "No order" in [`Judge::order_of`].
const NO_ORDER: u16 = u16::MAX;

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

/// How an army's move gets to its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// Over land (every fleet move, and army moves with no convoy intent).
    Land,
    /// By convoy only: the move fails if the convoy does (no land fallback).
    ConvoyOnly,
    /// Convoy intent shown by a fleet of the same power (4.A.3): by convoy
    /// if the convoy succeeds, over land otherwise.
    ConvoyOrLand,
}

/// A normalised, legal order of the unit in one province: one resolver node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    /// No unit in the province.
    Empty,
    /// A hold, or an illegal order (which holds).
    Hold,
    /// A move to province `to`.
    Move { to: ProvId, route: Route },
    /// Support for the unit in `supported` to hold.
    SupportHold { supported: ProvId },
    /// Support for the unit in `supported` to move to `target`;
    /// `target_coast` is the coast written for it (`NONE` if none).
    SupportMove {
        supported: ProvId,
        target: ProvId,
        target_coast: LocId,
    },
    /// Convoy of the army in `army` to `target`.
    Convoy { army: ProvId, target: ProvId },
}

/// Where a node stands in the guess-and-check resolver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolution {
    /// Not looked at yet (or its guess was undone).
    Unresolved,
    /// Its current result is a guess that a cycle depends on.
    Guessing,
    /// Its result is final.
    Resolved,
}

/// All state of one movement adjudication, indexed by province.
struct Judge<'m> {
    map: &'m Map,
    /// Index in `units` of the unit in each province (`NONE` if empty).
    unit_at: [u8; MAX_PROVINCES],
    /// The exact location (with coast) of each province's unit.
    unit_loc: [LocId; MAX_PROVINCES],
    /// The kind of each province's unit.
    unit_kind: [UnitKind; MAX_PROVINCES],
    /// The power owning each province's unit (`NONE` if empty).
    owner: [u8; MAX_PROVINCES],
    /// Index in `orders` of the order bound to each province's unit.
    order_of: [u16; MAX_PROVINCES],
    /// The location (with coast) a move ends at, for coast-checked supports
    /// and final positions.
    move_target_loc: [LocId; MAX_PROVINCES],
    /// The node of each province's unit.
    node: [Node; MAX_PROVINCES],
    /// Whether the order was legal (an illegal one holds and fails).
    legal: [bool; MAX_PROVINCES],
    /// Why a support or convoy counts for nobody (its unit did something else).
    void_reason: [Option<Reason>; MAX_PROVINCES],
    /// Provinces with a unit.
    occupied: Bits,
    /// The provinces whose units move into each province.
    movers_into: [Bits; MAX_PROVINCES],
    /// The provinces whose units support each province's unit.
    supporters: [Bits; MAX_PROVINCES],
    /// The fleets ordered to convoy each province's army.
    convoyers: [Bits; MAX_PROVINCES],
    /// Each node's result: move succeeds, support given, convoy not disrupted.
    result: [bool; MAX_PROVINCES],
    /// Each node's resolver state.
    resolution: [Resolution; MAX_PROVINCES],
    /// The province whose unit dislodged each province's unit (`NONE` if
    /// none), set by [`Judge::settle_positions`].
    dislodged_by: [ProvId; MAX_PROVINCES],
    /// The nodes whose guesses the current resolution depends on.
    dependencies: [ProvId; 2 * MAX_PROVINCES],
    /// How many of `dependencies` are in use.
    n_dependencies: usize,
}

#[inline]
fn bit(p: u8) -> Bits {
    1u128 << p
}

/// Adjudicates a movement phase. `orders` are `(power, order)` pairs as
/// submitted; units without a (legal) order hold.
pub fn adjudicate_movement(map: &Map, units: &[Unit], orders: &[(Power, Order)]) -> MovementResult {
    assert!(
        map.province_count() <= MAX_PROVINCES,
        "map too large for the adjudicator"
    );
    let mut outcomes = vec![OrderOutcome::FAIL; orders.len()];
    let mut judge = Judge::new(map);
    judge.place_units(units);
    judge.bind_orders(units, orders, &mut outcomes);
    judge.check_legality(orders, &mut outcomes);
    judge.match_supports_and_convoys(&mut outcomes);
    judge.resolve_all();
    let (final_units, dislodged, final_occupied) = judge.settle_positions(units);
    let standoffs = judge.standoffs(final_occupied);
    judge.report_outcomes(&mut outcomes);
    MovementResult {
        orders: outcomes,
        final_units,
        dislodged,
        standoffs,
    }
}

/// Stage 1 and 2: binding orders to units, and their legality.
impl<'m> Judge<'m> {
    fn new(map: &'m Map) -> Self {
        Judge {
            map,
            unit_at: [NONE; MAX_PROVINCES],
            unit_loc: [0; MAX_PROVINCES],
            unit_kind: [UnitKind::Army; MAX_PROVINCES],
            owner: [NONE; MAX_PROVINCES],
            order_of: [NO_ORDER; MAX_PROVINCES],
            move_target_loc: [0; MAX_PROVINCES],
            node: [Node::Empty; MAX_PROVINCES],
            legal: [true; MAX_PROVINCES],
            void_reason: [None; MAX_PROVINCES],
            occupied: 0,
            movers_into: [0; MAX_PROVINCES],
            supporters: [0; MAX_PROVINCES],
            convoyers: [0; MAX_PROVINCES],
            result: [false; MAX_PROVINCES],
            resolution: [Resolution::Unresolved; MAX_PROVINCES],
            dislodged_by: [NONE; MAX_PROVINCES],
            dependencies: [0; 2 * MAX_PROVINCES],
            n_dependencies: 0,
        }
    }

    fn province_count(&self) -> usize {
        self.map.province_count()
    }

    /// Puts each unit in its province; a second unit in the same province
    /// (and any unit past the 255th) is ignored.
    fn place_units(&mut self, units: &[Unit]) {
        for (i, u) in units.iter().enumerate() {
            let p = self.map.prov_of(u.loc) as usize;
            if self.unit_at[p] != NONE || i >= NONE as usize {
                continue;
            }
            self.unit_at[p] = i as u8;
            self.unit_loc[p] = u.loc;
            self.unit_kind[p] = u.kind;
            self.owner[p] = u.power.index() as u8;
            self.occupied |= bit(p as u8);
            self.node[p] = Node::Hold;
        }
    }

    /// Binds each order to the unit it names; the last order for a unit
    /// replaces earlier ones.
    fn bind_orders(
        &mut self,
        units: &[Unit],
        orders: &[(Power, Order)],
        outcomes: &mut [OrderOutcome],
    ) {
        for (i, (power, o)) in orders.iter().enumerate() {
            let Order::Unit { unit, at, kind } = *o else {
                outcomes[i].reason = Some(Reason::WrongPhase(PhaseKind::Movement));
                continue;
            };
            let p = self.map.prov_of(at) as usize;
            if self.unit_at[p] == NONE {
                outcomes[i].reason = Some(Reason::NoUnit(p as u8));
                continue;
            }
            if i >= NO_ORDER as usize {
                // Far more orders than units: only the first 65535 are read.
                outcomes[i].reason = Some(Reason::TooManyOrders);
                continue;
            }
            let u = units[self.unit_at[p] as usize];
            if u.power != *power {
                outcomes[i].reason = Some(Reason::NotOwnUnit(p as u8, u.power));
                continue;
            }
            if unit.is_some_and(|k| k != u.kind) {
                outcomes[i].reason = Some(Reason::WrongUnitType(p as u8, u.kind));
                continue;
            }
            if matches!(kind, OrderKind::Retreat { .. } | OrderKind::Disband) {
                outcomes[i].reason = Some(Reason::WrongPhase(PhaseKind::Movement));
                continue;
            }
            if self.order_of[p] != NO_ORDER {
                outcomes[self.order_of[p] as usize].reason = Some(Reason::Replaced);
            }
            self.order_of[p] = i as u16;
        }
    }

    /// The order bound to the unit in province `p`, if any.
    fn bound_order(&self, p: usize, orders: &[(Power, Order)]) -> Option<OrderKind> {
        match self.order_of[p] {
            NO_ORDER => None,
            i => match orders[i as usize].1 {
                Order::Unit { kind, .. } => Some(kind),
                _ => None,
            },
        }
    }

    /// Fleets at sea: the only units that can convoy.
    fn fleets_at_sea(&self) -> Bits {
        let mut fleets: Bits = 0;
        for p in BitIter(self.occupied) {
            if self.unit_kind[p as usize] == UnitKind::Fleet && self.map.is_sea(p) {
                fleets |= bit(p);
            }
        }
        fleets
    }

    /// Convoy intent shown by a power's own fleets (4.A.3): every possible
    /// convoy order as `(power, army province, destination)`. Needed before
    /// the legality of army moves.
    fn own_convoy_intents(&self, orders: &[(Power, Order)], fleets_at_sea: Bits) -> OwnConvoys {
        let mut intents = OwnConvoys {
            list: [(NONE, NONE, NONE); MAX_PROVINCES],
            len: 0,
        };
        for p in 0..self.province_count() {
            if let Some(OrderKind::Convoy { from, to }) = self.bound_order(p, orders) {
                let (army, target) = (self.map.prov_of(from), self.map.prov_of(to));
                if self.unit_kind[p] == UnitKind::Fleet
                    && self.map.is_sea(p as u8)
                    && useful_fleets(self.map, army, target, fleets_at_sea) & bit(p as u8) != 0
                {
                    intents.list[intents.len] = (self.owner[p], army, target);
                    intents.len += 1;
                }
            }
        }
        intents
    }

    /// Turns each bound order into its node; an illegal order holds, is
    /// marked illegal and keeps its reason.
    fn check_legality(&mut self, orders: &[(Power, Order)], outcomes: &mut [OrderOutcome]) {
        let fleets_at_sea = self.fleets_at_sea();
        let intents = self.own_convoy_intents(orders, fleets_at_sea);
        for p in 0..self.province_count() {
            let Some(kind) = self.bound_order(p, orders) else {
                continue;
            };
            let node = match kind {
                OrderKind::Hold => Ok(Node::Hold),
                OrderKind::Move { to, via_convoy } => {
                    self.legal_move(p, to, via_convoy, &intents, fleets_at_sea)
                }
                OrderKind::Support { from, to, .. } => self.legal_support(p, from, to),
                OrderKind::Convoy { from, to } => self.legal_convoy(p, from, to, fleets_at_sea),
                OrderKind::Retreat { .. } | OrderKind::Disband => {
                    Err(Reason::WrongPhase(PhaseKind::Movement))
                }
            };
            match node {
                Ok(node) => self.node[p] = node,
                Err(e) => {
                    self.node[p] = Node::Hold;
                    self.legal[p] = false;
                    outcomes[self.order_of[p] as usize].reason = Some(e);
                }
            }
        }
    }

    /// A move's node, with its route (land, convoy, or convoy with land
    /// fallback).
    fn legal_move(
        &mut self,
        p: usize,
        to: LocId,
        via_convoy: bool,
        intents: &OwnConvoys,
        fleets_at_sea: Bits,
    ) -> Result<Node, Reason> {
        let map = self.map;
        let from = p as u8;
        let q = map.prov_of(to);
        if q == from {
            return Err(Reason::MoveToSelf);
        }
        if self.unit_kind[p] == UnitKind::Fleet {
            if via_convoy {
                return Err(Reason::FleetViaConvoy);
            }
            let l = fleet_target(map, self.unit_loc[p], to)?;
            self.move_target_loc[p] = l;
            return Ok(Node::Move {
                to: q,
                route: Route::Land,
            });
        }
        self.move_target_loc[p] = q;
        let adjacent = map.army_adj(from) & bit(q) != 0;
        let own_intent = intents.has(self.owner[p], from, q);
        if map.prov(q).terrain == Terrain::Sea {
            Err(Reason::ArmyToSea(q))
        } else if adjacent && !via_convoy && !own_intent {
            Ok(Node::Move {
                to: q,
                route: Route::Land,
            })
        } else if adjacent && !via_convoy {
            Ok(Node::Move {
                to: q,
                route: Route::ConvoyOrLand,
            })
        } else if useful_fleets(map, from, q, fleets_at_sea) != 0 {
            Ok(Node::Move {
                to: q,
                route: Route::ConvoyOnly,
            })
        } else {
            Err(Reason::NoConvoyPossible(q))
        }
    }

    /// A support's node: the supporter must be able to reach the province
    /// it supports into.
    fn legal_support(&self, p: usize, from: LocId, to: Option<LocId>) -> Result<Node, Reason> {
        let map = self.map;
        let supported = map.prov_of(from);
        let target = to.map(|l| map.prov_of(l)).unwrap_or(supported);
        let reach = match self.unit_kind[p] {
            UnitKind::Army => map.army_adj(p as u8),
            UnitKind::Fleet => map.fleet_prov_adj(self.unit_loc[p]),
        };
        if supported == p as u8 || target == p as u8 {
            Err(Reason::SupportSelf)
        } else if reach & bit(target) == 0 {
            Err(Reason::SupportUnreachable(target))
        } else if let Some(to) = to {
            let target_coast = if map.loc(to).coast.is_some() {
                to
            } else {
                NONE
            };
            Ok(Node::SupportMove {
                supported,
                target,
                target_coast,
            })
        } else {
            Ok(Node::SupportHold { supported })
        }
    }

    /// A convoy's node: only a fleet at sea on a possible route can convoy.
    fn legal_convoy(
        &self,
        p: usize,
        from: LocId,
        to: LocId,
        fleets_at_sea: Bits,
    ) -> Result<Node, Reason> {
        let map = self.map;
        let (army, target) = (map.prov_of(from), map.prov_of(to));
        if self.unit_kind[p] != UnitKind::Fleet || !map.is_sea(p as u8) {
            Err(Reason::ConvoyNotAtSea)
        } else if useful_fleets(map, army, target, fleets_at_sea) & bit(p as u8) == 0 {
            Err(Reason::ConvoyUseless(army, target))
        } else {
            Ok(Node::Convoy { army, target })
        }
    }
}

/// Convoy orders by fleets that could carry the army, as
/// `(power, army province, destination)`, in a fixed array so the judge
/// never allocates.
struct OwnConvoys {
    list: [(u8, ProvId, ProvId); MAX_PROVINCES],
    len: usize,
}

impl OwnConvoys {
    /// Whether `power` ordered one of its fleets to convoy `army` to `target`.
    fn has(&self, power: u8, army: ProvId, target: ProvId) -> bool {
        self.list[..self.len]
            .iter()
            .any(|&(pw, a, t)| pw == power && a == army && t == target)
    }
}

/// Stage 3: supports and convoys that match their unit's real order.
impl Judge<'_> {
    /// Indexes movers by destination and supports and convoys by the unit
    /// they help. A support or convoy that does not match its unit's real
    /// order is void: a void support stays a support node (reported as given
    /// or cut, like any other) but counts for nobody; a void convoy holds.
    fn match_supports_and_convoys(&mut self, outcomes: &mut [OrderOutcome]) {
        #[allow(clippy::needless_range_loop)] // p indexes several parallel arrays
        for p in 0..self.province_count() {
            let pu = p as u8;
            match self.node[p] {
                Node::Move { to, .. } => self.movers_into[to as usize] |= bit(pu),
                Node::SupportHold { supported } => {
                    if self.unit_at[supported as usize] == NONE {
                        self.void_reason[p] = Some(Reason::TargetNoUnit(supported));
                    } else if matches!(self.node[supported as usize], Node::Move { .. }) {
                        self.void_reason[p] = Some(Reason::Mismatch(supported));
                    } else {
                        self.supporters[supported as usize] |= bit(pu);
                    }
                }
                Node::SupportMove {
                    supported,
                    target,
                    target_coast,
                } => {
                    let s = supported as usize;
                    if self.unit_at[s] == NONE {
                        self.void_reason[p] = Some(Reason::TargetNoUnit(supported));
                    } else if matches!(self.node[s], Node::Move { to, .. } if to == target)
                        && (target_coast == NONE
                            || self.unit_kind[s] == UnitKind::Army
                            || self.move_target_loc[s] == target_coast)
                    {
                        self.supporters[s] |= bit(pu);
                    } else {
                        self.void_reason[p] = Some(Reason::Mismatch(supported));
                    }
                }
                Node::Convoy { army, target } => {
                    let a = army as usize;
                    if self.unit_at[a] == NONE {
                        self.void_reason[p] = Some(Reason::TargetNoUnit(army));
                    } else if self.unit_kind[a] == UnitKind::Army
                        && matches!(self.node[a], Node::Move { to, route } if to == target && route != Route::Land)
                    {
                        self.convoyers[a] |= bit(pu);
                    } else {
                        self.void_reason[p] = Some(Reason::Mismatch(army));
                    }
                }
                Node::Empty | Node::Hold => {}
            }
        }
        for p in 0..self.province_count() {
            if let Some(r) = self.void_reason[p] {
                if matches!(self.node[p], Node::Convoy { .. }) {
                    self.node[p] = Node::Hold;
                }
                if self.order_of[p] != NO_ORDER {
                    outcomes[self.order_of[p] as usize].reason = Some(r);
                }
            }
        }
    }
}

/// Stage 4: convoy routes and strengths (DATC 5.B).
impl Judge<'_> {
    /// The destination of the unit in `p`, or `NONE` if it does not move.
    fn destination(&self, p: ProvId) -> ProvId {
        match self.node[p as usize] {
            Node::Move { to, .. } => to,
            _ => NONE,
        }
    }

    /// Whether the move from `p` actually goes by convoy.
    fn is_convoyed(&mut self, p: ProvId) -> bool {
        match self.node[p as usize] {
            Node::Move {
                route: Route::ConvoyOnly,
                ..
            } => true,
            Node::Move {
                route: Route::ConvoyOrLand,
                ..
            } => self.convoy_path(p),
            _ => false,
        }
    }

    /// Head-to-head: `p` and `q` move into each other, neither by convoy.
    fn head_to_head(&mut self, p: ProvId, q: ProvId) -> bool {
        matches!(self.node[p as usize], Node::Move { to, .. } if to == q)
            && matches!(self.node[q as usize], Node::Move { to, .. } if to == p)
            && !self.is_convoyed(p)
            && !self.is_convoyed(q)
    }

    /// Whether the unit at `a` can get to its destination at all: by land,
    /// or by an unbroken chain of convoying fleets.
    fn has_path(&mut self, a: ProvId) -> bool {
        match self.node[a as usize] {
            Node::Move {
                route: Route::ConvoyOnly,
                ..
            } => self.convoy_path(a),
            Node::Move { .. } => true,
            _ => false,
        }
    }

    /// Whether an unbroken chain of successful convoys links `army` to its
    /// destination.
    fn convoy_path(&mut self, army: ProvId) -> bool {
        let Node::Move { to, .. } = self.node[army as usize] else {
            return false;
        };
        let convoyers = self.convoyers[army as usize];
        if convoyers == 0 {
            return false;
        }
        let mut reached = self.map.prov_fleet_adj(army) & convoyers;
        let mut tried: Bits = 0;
        loop {
            let open = reached & !tried;
            if open == 0 {
                return false;
            }
            let fleet = open.trailing_zeros() as u8;
            tried |= bit(fleet);
            if !self.resolve(fleet) {
                continue;
            }
            let adj = self.map.fleet_prov_adj(fleet as LocId);
            if adj & bit(to) != 0 {
                return true;
            }
            reached |= adj & convoyers;
        }
    }

    /// How many supports of the unit in `p` are given, not counting those
    /// of the power `excluded` (`NONE` to count all).
    fn given_supports(&mut self, p: ProvId, excluded: u8) -> u32 {
        let mut n = 0;
        for s in BitIter(self.supporters[p as usize]) {
            if self.owner[s as usize] == excluded {
                continue;
            }
            if self.resolve(s) {
                n += 1;
            }
        }
        n
    }

    /// Attack strength of the move from `p`: no power helps dislodge its
    /// own unit, and a unit staying in the destination must be beaten.
    fn attack_strength(&mut self, p: ProvId) -> u32 {
        let q = self.destination(p);
        if !self.has_path(p) {
            return 0;
        }
        let occupied = self.occupied & bit(q) != 0;
        let defender_leaves = occupied
            && matches!(self.node[q as usize], Node::Move { .. })
            && !self.head_to_head(p, q)
            && self.resolve(q);
        if !occupied || defender_leaves {
            return 1 + self.given_supports(p, NONE);
        }
        if self.owner[q as usize] == self.owner[p as usize] {
            return 0;
        }
        1 + self.given_supports(p, self.owner[q as usize])
    }

    /// Defend strength of the unit in `q` in a head-to-head battle.
    fn defend_strength(&mut self, q: ProvId) -> u32 {
        1 + self.given_supports(q, NONE)
    }

    /// Hold strength of province `q`: what a move into it must beat.
    fn hold_strength(&mut self, q: ProvId) -> u32 {
        if self.occupied & bit(q) == 0 {
            return 0;
        }
        if let Node::Move { .. } = self.node[q as usize] {
            return if self.resolve(q) { 0 } else { 1 };
        }
        1 + self.given_supports(q, NONE)
    }

    /// Prevent strength of the move from `r`: how hard it keeps others out
    /// of its destination.
    fn prevent_strength(&mut self, r: ProvId) -> u32 {
        if !self.has_path(r) {
            return 0;
        }
        let q = self.destination(r);
        if self.head_to_head(r, q) && self.resolve(q) {
            return 0;
        }
        1 + self.given_supports(r, NONE)
    }
}

/// Stage 4: the resolver (Kruijswijk's guess-and-check) and its backup rules.
impl Judge<'_> {
    /// Resolves every move, support and convoy.
    fn resolve_all(&mut self) {
        for p in BitIter(self.occupied) {
            if !matches!(self.node[p as usize], Node::Empty | Node::Hold) {
                self.resolve(p);
            }
        }
    }

    /// The result of node `n`, guessing (and checking the guess) when it
    /// depends on itself.
    fn resolve(&mut self, n: ProvId) -> bool {
        let ni = n as usize;
        match self.resolution[ni] {
            Resolution::Resolved => return self.result[ni],
            Resolution::Guessing => {
                self.push_dependency(n);
                return self.result[ni];
            }
            Resolution::Unresolved => {}
        }
        let old = self.n_dependencies;
        self.result[ni] = false;
        self.resolution[ni] = Resolution::Guessing;
        let with_fail_guess = self.adjudicate(n);
        if self.n_dependencies == old {
            if self.resolution[ni] != Resolution::Resolved {
                self.result[ni] = with_fail_guess;
                self.resolution[ni] = Resolution::Resolved;
            }
            return self.result[ni];
        }
        if self.dependencies[old] != n {
            // Part of a cycle that started with an earlier guess.
            self.push_dependency(n);
            self.result[ni] = with_fail_guess;
            return with_fail_guess;
        }
        // `n` heads a cycle: try the other guess.
        self.undo_guesses(old);
        self.result[ni] = true;
        self.resolution[ni] = Resolution::Guessing;
        let with_success_guess = self.adjudicate(n);
        if with_fail_guess == with_success_guess {
            self.undo_guesses(old);
            self.result[ni] = with_fail_guess;
            self.resolution[ni] = Resolution::Resolved;
            return with_fail_guess;
        }
        // No or two consistent resolutions: the backup rule decides.
        self.backup_rule(old);
        self.resolve(n)
    }

    fn push_dependency(&mut self, n: ProvId) {
        if !self.dependencies[..self.n_dependencies].contains(&n) {
            self.dependencies[self.n_dependencies] = n;
            self.n_dependencies += 1;
        }
    }

    /// Forgets the guesses made since `old` dependencies were recorded.
    fn undo_guesses(&mut self, old: usize) {
        for i in old..self.n_dependencies {
            self.resolution[self.dependencies[i] as usize] = Resolution::Unresolved;
        }
        self.n_dependencies = old;
    }

    /// Decides a cycle (the dependencies recorded since `old`) with no single
    /// consistent resolution: a paradox with a convoy in it by the Szykman
    /// rule, otherwise as circular movement.
    fn backup_rule(&mut self, old: usize) {
        let cycle = old..self.n_dependencies;
        let has_convoy = self.dependencies[cycle.clone()]
            .iter()
            .any(|&n| matches!(self.node[n as usize], Node::Convoy { .. }));
        if has_convoy {
            self.szykman_rule(cycle);
        } else {
            self.circular_movement_rule(cycle);
        }
        self.n_dependencies = old;
    }

    /// Szykman rule: the convoys of a paradox fail; the rest is resolved
    /// again knowing that.
    fn szykman_rule(&mut self, cycle: std::ops::Range<usize>) {
        for i in cycle {
            let n = self.dependencies[i] as usize;
            if let Node::Convoy { .. } = self.node[n] {
                self.result[n] = false;
                self.resolution[n] = Resolution::Resolved;
            } else {
                self.resolution[n] = Resolution::Unresolved;
            }
        }
    }

    /// Circular movement: every move of the ring succeeds; the rest is
    /// resolved again knowing that.
    fn circular_movement_rule(&mut self, cycle: std::ops::Range<usize>) {
        for i in cycle {
            let n = self.dependencies[i] as usize;
            if let Node::Move { .. } = self.node[n] {
                self.result[n] = true;
                self.resolution[n] = Resolution::Resolved;
            } else {
                self.resolution[n] = Resolution::Unresolved;
            }
        }
    }

    /// Decides node `n` from the current results of the nodes it depends on.
    fn adjudicate(&mut self, n: ProvId) -> bool {
        match self.node[n as usize] {
            Node::Move { .. } => self.move_succeeds(n),
            Node::SupportHold { .. } | Node::SupportMove { .. } => self.support_given(n),
            Node::Convoy { .. } => self.convoy_undisrupted(n),
            Node::Empty | Node::Hold => true,
        }
    }

    /// A move succeeds when its attack beats the defence (head to head) or
    /// the hold strength, and every other move into the same province.
    fn move_succeeds(&mut self, p: ProvId) -> bool {
        let q = self.destination(p);
        let attack = self.attack_strength(p);
        if attack == 0 {
            return false;
        }
        if self.head_to_head(p, q) {
            if attack <= self.defend_strength(q) {
                return false;
            }
        } else if attack <= self.hold_strength(q) {
            return false;
        }
        for r in BitIter(self.movers_into[q as usize] & !bit(p)) {
            if attack <= self.prevent_strength(r) {
                return false;
            }
        }
        true
    }

    /// A support is given unless a foreign unit attacks the supporter
    /// (by a route it has); the unit it supports against cuts it only by
    /// dislodging it.
    fn support_given(&mut self, s: ProvId) -> bool {
        let against = match self.node[s as usize] {
            Node::SupportMove { target, .. } => target,
            _ => NONE,
        };
        for m in BitIter(self.movers_into[s as usize]) {
            if self.owner[m as usize] == self.owner[s as usize] {
                continue;
            }
            if !self.has_path(m) {
                continue;
            }
            if m == against {
                if self.resolve(m) {
                    return false;
                }
                continue;
            }
            return false;
        }
        true
    }

    /// The unit whose attack cut the support from `s`, once resolved: a
    /// foreign unit moving into `s` by a route it has, not from the province
    /// the support is aimed at (that one cuts only by dislodging, DATC
    /// 6.D.15, and is then reported as the dislodger).
    fn support_cutter(&mut self, s: ProvId) -> Option<ProvId> {
        let against = match self.node[s as usize] {
            Node::SupportMove { target, .. } => target,
            _ => NONE,
        };
        BitIter(self.movers_into[s as usize]).find(|&m| {
            m != against && self.owner[m as usize] != self.owner[s as usize] && self.has_path(m)
        })
    }

    /// A convoy holds unless its fleet is dislodged.
    fn convoy_undisrupted(&mut self, c: ProvId) -> bool {
        for m in BitIter(self.movers_into[c as usize]) {
            if self.resolve(m) {
                return false;
            }
        }
        true
    }
}

/// Stage 5: dislodgements, standoffs and each order's outcome.
impl Judge<'_> {
    /// The province whose unit dislodged the unit in `p`, if any.
    fn dislodger(&self, p: ProvId) -> Option<ProvId> {
        match self.dislodged_by[p as usize] {
            NONE => None,
            m => Some(m),
        }
    }

    /// Final positions (successful moves moved, the rest in place), the
    /// dislodged units with their attackers, and the provinces occupied
    /// after the phase.
    fn settle_positions(&mut self, units: &[Unit]) -> (Vec<Unit>, Vec<Dislodgement>, Bits) {
        let mut final_units = Vec::with_capacity(units.len());
        let mut dislodged = Vec::new();
        let mut final_occupied: Bits = 0;
        for p in BitIter(self.occupied) {
            let pi = p as usize;
            let u = units[self.unit_at[pi] as usize];
            if let Node::Move { to, .. } = self.node[pi]
                && self.result[pi]
            {
                final_units.push(Unit {
                    loc: self.move_target_loc[pi],
                    ..u
                });
                final_occupied |= bit(to);
                continue;
            }
            match BitIter(self.movers_into[pi]).find(|&m| self.result[m as usize]) {
                Some(m) => {
                    self.dislodged_by[pi] = m;
                    let by_convoy = self.is_convoyed(m);
                    dislodged.push(Dislodgement {
                        unit: u,
                        attacker_from: m,
                        by_convoy,
                    });
                }
                None => {
                    final_units.push(u);
                    final_occupied |= bit(p);
                }
            }
        }
        (final_units, dislodged, final_occupied)
    }

    /// Standoffs: vacant provinces where two or more real attacks failed.
    fn standoffs(&mut self, final_occupied: Bits) -> Bits {
        let mut standoffs: Bits = 0;
        for q in 0..self.province_count() as u8 {
            if final_occupied & bit(q) != 0 || self.movers_into[q as usize] == 0 {
                continue;
            }
            let mut failed = 0;
            for m in BitIter(self.movers_into[q as usize]) {
                if !self.result[m as usize] && self.has_path(m) {
                    failed += 1;
                }
            }
            if failed >= 2 {
                standoffs |= bit(q);
            }
        }
        standoffs
    }

    /// Each bound order's success and, when it failed, why.
    fn report_outcomes(&mut self, outcomes: &mut [OrderOutcome]) {
        for p in BitIter(self.occupied) {
            let pi = p as usize;
            let oi = self.order_of[pi];
            if oi == NO_ORDER {
                continue;
            }
            let dislodger = self.dislodger(p);
            let o = &mut outcomes[oi as usize];
            if !self.legal[pi] {
                o.success = false;
                continue;
            }
            let supports = matches!(
                self.node[pi],
                Node::SupportHold { .. } | Node::SupportMove { .. }
            );
            if self.void_reason[pi].is_some() {
                o.success = if supports {
                    self.result[pi]
                } else {
                    dislodger.is_none()
                };
                continue;
            }
            match self.node[pi] {
                Node::Move { to, .. } => {
                    o.success = self.result[pi];
                    if !o.success {
                        o.reason = Some(if !self.has_path(p) {
                            Reason::NoConvoyRoute
                        } else {
                            Reason::Bounced(to)
                        });
                    }
                }
                Node::SupportHold { .. } | Node::SupportMove { .. } => {
                    o.success = self.result[pi];
                    if !o.success {
                        o.reason = Some(match dislodger {
                            Some(d) => Reason::Dislodged(d),
                            None => Reason::SupportCut(self.support_cutter(p).unwrap_or(p)),
                        });
                    }
                }
                Node::Convoy { .. } => {
                    o.success = self.result[pi];
                    if !o.success {
                        o.reason = Some(match dislodger {
                            Some(d) => Reason::Dislodged(d),
                            None => Reason::ConvoyParadox,
                        });
                    }
                }
                Node::Empty | Node::Hold => {
                    o.success = dislodger.is_none();
                    if let Some(d) = dislodger {
                        o.reason = Some(Reason::Dislodged(d));
                    }
                }
            }
        }
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
