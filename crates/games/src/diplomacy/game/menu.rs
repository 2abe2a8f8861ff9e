//! The orders a power may give now, unit by unit, for menus: every
//! candidate order is put to [`Diplomacy::check_order`], the very check a
//! typed line goes through, so a menu offers exactly what the adjudicator
//! takes and the rules live in one place.

use super::{Diplomacy, map};
use crate::diplomacy::geo::{LocId, Power};
use crate::diplomacy::judge::PhaseKind;
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};

/// What a player picks after the unit: the buttons of the order desk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OrderChoice {
    /// Stay put.
    Hold,
    /// Move (convoyed moves included).
    Move,
    /// Support a unit holding or moving.
    Support,
    /// Convoy an army (fleets at sea).
    Convoy,
    /// Retreat a dislodged unit.
    Retreat,
    /// Disband a dislodged unit, or remove a unit in Winter.
    Disband,
    /// Build in a home centre.
    Build,
    /// Give up a build.
    Waive,
}

impl OrderChoice {
    /// The kind of an order.
    pub fn of(o: &Order) -> OrderChoice {
        match o {
            Order::Unit { kind, .. } => match kind {
                OrderKind::Hold => OrderChoice::Hold,
                OrderKind::Move { .. } => OrderChoice::Move,
                OrderKind::Support { .. } => OrderChoice::Support,
                OrderKind::Convoy { .. } => OrderChoice::Convoy,
                OrderKind::Retreat { .. } => OrderChoice::Retreat,
                OrderKind::Disband => OrderChoice::Disband,
            },
            Order::Build { .. } => OrderChoice::Build,
            Order::Waive => OrderChoice::Waive,
        }
    }

    /// The button label.
    pub fn label(self) -> &'static str {
        match self {
            OrderChoice::Hold => "Hold",
            OrderChoice::Move => "Move",
            OrderChoice::Support => "Support",
            OrderChoice::Convoy => "Convoy",
            OrderChoice::Retreat => "Retreat",
            OrderChoice::Disband => "Disband",
            OrderChoice::Build => "Build",
            OrderChoice::Waive => "Waive",
        }
    }
}

impl Diplomacy {
    /// The units `power` gives orders to this phase: its units in movement
    /// and in a Winter with removals, its dislodged units in retreats; none
    /// in a Winter with builds (see [`Diplomacy::legal_builds`]).
    pub fn orderable_units(&self, power: Power) -> Vec<Unit> {
        match self.phase {
            PhaseKind::Movement => self
                .units
                .iter()
                .filter(|u| u.power == power)
                .copied()
                .collect(),
            PhaseKind::Retreat => self
                .dislodged
                .iter()
                .map(|d| d.unit)
                .filter(|u| u.power == power)
                .collect(),
            PhaseKind::Adjustment => {
                let m = map();
                let n = crate::diplomacy::judge::adjust::adjustment_count(
                    m,
                    &self.units,
                    &self.owners,
                    power,
                );
                if n < 0 {
                    self.units
                        .iter()
                        .filter(|u| u.power == power)
                        .copied()
                        .collect()
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// Every legal order for the unit of `power` at `at` now, in a stable
    /// order (hold, moves, supports, convoys; retreats, disband), each as
    /// [`Diplomacy::check_order`] returns it. Empty when there is no such
    /// unit of `power` to order.
    pub fn legal_unit_orders(&self, power: Power, at: LocId) -> Vec<Order> {
        let m = map();
        let Some(unit) = self
            .orderable_units(power)
            .into_iter()
            .find(|u| m.prov_of(u.loc) == m.prov_of(at))
        else {
            return Vec::new();
        };
        let provinces: Vec<LocId> = (0..m.province_count() as LocId).collect();
        let all_locs: Vec<LocId> = (0..m.location_count() as LocId).collect();
        // Armies never use coasts: their destinations are provinces.
        let destinations = match unit.kind {
            UnitKind::Army => &provinces,
            UnitKind::Fleet => &all_locs,
        };
        let order = |kind| Order::Unit {
            unit: Some(unit.kind),
            at: unit.loc,
            kind,
        };
        let mut candidates = Vec::new();
        match self.phase {
            PhaseKind::Movement => {
                candidates.push(order(OrderKind::Hold));
                for &to in destinations {
                    candidates.push(order(OrderKind::Move {
                        to,
                        via_convoy: false,
                    }));
                }
                for other in self.units.iter().filter(|u| u.loc != unit.loc) {
                    candidates.push(order(OrderKind::Support {
                        unit: Some(other.kind),
                        from: other.loc,
                        to: None,
                    }));
                    for &to in &provinces {
                        candidates.push(order(OrderKind::Support {
                            unit: Some(other.kind),
                            from: other.loc,
                            to: Some(to),
                        }));
                    }
                }
                if unit.kind == UnitKind::Fleet {
                    for army in self.units.iter().filter(|u| u.kind == UnitKind::Army) {
                        for &to in &provinces {
                            candidates.push(order(OrderKind::Convoy { from: army.loc, to }));
                        }
                    }
                }
            }
            PhaseKind::Retreat => {
                for &to in destinations {
                    candidates.push(order(OrderKind::Retreat { to }));
                }
                candidates.push(order(OrderKind::Disband));
            }
            PhaseKind::Adjustment => candidates.push(order(OrderKind::Disband)),
        }
        let mut legal: Vec<Order> = candidates
            .into_iter()
            .filter_map(|o| self.check_order(power, o).ok())
            .collect();
        // A fleet whose move is legal to a coast and to the bare province
        // of a split-coast province is offered the coasts only.
        let coast_of = |o: &Order| match o {
            Order::Unit {
                kind: OrderKind::Move { to, .. } | OrderKind::Retreat { to },
                ..
            } => Some(*to),
            _ => None,
        };
        let coasted: Vec<LocId> = legal
            .iter()
            .filter_map(coast_of)
            .filter(|&l| m.loc(l).coast.is_some())
            .map(|l| m.prov_of(l))
            .collect();
        legal.retain(|o| {
            coast_of(o).is_none_or(|l| m.loc(l).coast.is_some() || !coasted.contains(&l))
        });
        legal.dedup();
        legal
    }

    /// The legal builds of `power` now (each site and unit type), and
    /// `Waive` when it may build at all.
    pub fn legal_builds(&self, power: Power) -> Vec<Order> {
        if self.phase != PhaseKind::Adjustment {
            return Vec::new();
        }
        let mut out: Vec<Order> = self
            .build_choices(power)
            .into_iter()
            .filter_map(|o| self.check_order(power, o).ok())
            .collect();
        if self.check_order(power, Order::Waive).is_ok() {
            out.push(Order::Waive);
        }
        out
    }
}
