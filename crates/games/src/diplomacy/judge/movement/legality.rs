//! Stages 1 and 2 of the movement judge: each order bound to the unit it
//! names, and checked for legality (convoy routes included).

use super::*;

/// Stage 1 and 2: binding orders to units, and their legality.
impl<'m> Judge<'m> {
    pub(super) fn new(map: &'m Map) -> Self {
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

    pub(super) fn province_count(&self) -> usize {
        self.map.province_count()
    }

    /// Puts each unit in its province; a second unit in the same province
    /// (and any unit past the 255th) is ignored.
    pub(super) fn place_units(&mut self, units: &[Unit]) {
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
    pub(super) fn bind_orders(
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
    pub(super) fn check_legality(
        &mut self,
        orders: &[(Power, Order)],
        outcomes: &mut [OrderOutcome],
    ) {
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
