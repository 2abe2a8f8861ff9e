//! Whether one order is legal now: the check every typed line, menu and
//! adjudication goes through, below the refusals that add a hint (in
//! `validate`) and the menus that offer orders (in `menu`), both of which
//! build on it.

use super::{Diplomacy, DiplomacyAction, err};
use crate::diplomacy::geo::Power;
use crate::diplomacy::judge::{
    PhaseKind, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
    adjust::adjustment_count, adjust::check_build,
};
use crate::diplomacy::order::{Order, OrderKind, parse_order, unit_name};
use crate::seam::{ActionError, Seat};
use std::collections::BTreeMap;

/// Why an order was refused.
pub(super) enum Refused {
    /// A refusal that says itself what would be right.
    Explained(ActionError),
    /// A refusal by the phase's rules: the problem, to which the caller
    /// adds the power's hint.
    ByRules(String),
}

impl Diplomacy {
    /// The orders a phase adjudicates from the powers' actions: each power's
    /// orders in seat order, re-checked against the position so anything no
    /// longer legal is dropped. `resolve` and the exported phase records
    /// both use it, so an export replays exactly what was adjudicated.
    pub fn orders_to_adjudicate(
        &self,
        actions: &BTreeMap<Seat, DiplomacyAction>,
    ) -> Vec<(Power, Order)> {
        let m = self.map();
        let mut orders = Vec::new();
        for (&seat, a) in actions {
            let Some(p) = self.power_of_seat(seat) else {
                continue;
            };
            for o in &a.orders {
                let reparsed = parse_order(m, &o.canonical(m));
                if reparsed.is_ok_and(|o| self.check_unhinted(p, o, "").is_ok()) {
                    orders.push((p, *o));
                }
            }
        }
        orders
    }

    /// Whether `o` is legal for `power` now, by the very check of
    /// [`Diplomacy::check_order`], returning the order as that would; used
    /// by the menus, which only need the answer: no hint is written (the
    /// hint's examples are found with this very check).
    pub(super) fn legal_order(&self, power: Power, o: Order) -> Option<Order> {
        self.check_unhinted(power, o, "").ok()
    }

    /// Checks `o` (parsed from `line`) for `power` in the current phase,
    /// without writing the hint a refusal by the rules gets (the hint's
    /// examples come from the menus, which are built on this very check).
    pub(super) fn check_unhinted(
        &self,
        power: Power,
        o: Order,
        line: &str,
    ) -> Result<Order, Refused> {
        if self.fog_hides() {
            // Checked against what the power sees, so that a refusal never
            // tells it about a unit it cannot see (see the `fog` module).
            return self.seen_by(power).check_unhinted(power, o, line);
        }
        let m = self.map();
        let o = self.army_destinations_without_coasts(o);
        if let Some(refusal) = self.wrong_coast(&o, line) {
            return Err(Refused::Explained(refusal));
        }
        if let Some(what) = self.wrong_phase_for(&o) {
            return Err(Refused::Explained(self.wrong_phase_error(line, what)));
        }
        match self.judge_alone(power, o) {
            Some(r)
                if r.is_illegal()
                    || matches!(
                        r,
                        crate::diplomacy::judge::Reason::NoBuildsLeft
                            | crate::diplomacy::judge::Reason::NoRemovalsLeft
                    ) =>
            {
                Err(Refused::ByRules(format!("`{line}`: {}.", r.text(m))))
            }
            _ => Ok(self.fill_unit(o)),
        }
    }

    /// The refusal of an order that places its fleet on a coast it is not
    /// on (`F Stp/nc - Bot` with the fleet on the south coast): the order
    /// names both coasts and is never moved to the other coast silently,
    /// since from another coast the fleet reaches other provinces.
    fn wrong_coast(&self, o: &Order, line: &str) -> Option<ActionError> {
        let m = self.map();
        let at = o.at()?;
        let said = m.loc(at).coast?;
        let unit = self
            .units
            .iter()
            .chain(self.dislodged.iter().map(|d| &d.unit))
            .rfind(|u| m.prov_of(u.loc) == m.prov_of(at))?;
        let actual = m.loc(unit.loc).coast.filter(|_| unit.loc != at)?;
        Some(err(
            format!(
                "`{}`: the fleet in {} is on the {} (`{}`), not the {}.",
                crate::clip::clip_typed(line),
                m.prov(m.prov_of(at)).name,
                actual.long(),
                unit_name(m, unit),
                said.long()
            ),
            format!(
                "Order it from where it is, e.g. `{} H`; from the {} it reaches other provinces.",
                unit_name(m, unit),
                actual.long()
            ),
        ))
    }

    /// What `o` is, when it is an order of another phase than this one.
    fn wrong_phase_for(&self, o: &Order) -> Option<&'static str> {
        match (self.phase, o) {
            (
                PhaseKind::Movement,
                Order::Unit {
                    kind: OrderKind::Retreat { .. } | OrderKind::Disband,
                    ..
                },
            ) => Some("a retreat or disband order"),
            (PhaseKind::Movement | PhaseKind::Retreat, Order::Build { .. } | Order::Waive) => {
                Some("a build order")
            }
            (PhaseKind::Retreat, Order::Unit { kind, .. })
                if !matches!(
                    kind,
                    OrderKind::Retreat { .. }
                        | OrderKind::Disband
                        | OrderKind::Move {
                            via_convoy: false,
                            ..
                        }
                ) =>
            {
                Some("not a retreat or disband")
            }
            (PhaseKind::Adjustment, Order::Unit { kind, .. }) if *kind != OrderKind::Disband => {
                Some("a unit order")
            }
            _ => None,
        }
    }

    /// The refusal of an order of another phase, saying what this phase takes.
    fn wrong_phase_error(&self, line: &str, what: &str) -> ActionError {
        err(
            format!(
                "`{}` is {what}, but this is the {} phase.",
                crate::clip::clip_typed(line),
                self.phase_name()
            ),
            match self.phase {
                PhaseKind::Movement => {
                    "Now give hold, move, support or convoy orders, e.g. `A Par - Bur`."
                }
                PhaseKind::Retreat => {
                    "Now retreat or disband dislodged units, e.g. `A Mun R Boh` or `A Mun D`."
                }
                PhaseKind::Adjustment => {
                    "Now build, remove or waive, e.g. `Build A Par`, `Remove F Nth`, `Waive`."
                }
            },
        )
    }

    /// Why `o` (an order of this phase) would fail if it were the only
    /// order given, by the phase's own adjudicator; `None` when it would not.
    fn judge_alone(&self, power: Power, o: Order) -> Option<crate::diplomacy::judge::Reason> {
        let m = self.map();
        match (self.phase, &o) {
            (PhaseKind::Movement, _) => {
                let r = adjudicate_movement(m, &self.units, &[(power, o)]);
                r.orders[0].reason
            }
            (PhaseKind::Retreat, _) => {
                let r = adjudicate_retreats(
                    m,
                    &self.units,
                    &self.dislodged,
                    self.standoff_bits(),
                    &[(power, o)],
                );
                r.orders[0].reason
            }
            (PhaseKind::Adjustment, Order::Build { unit, at }) => {
                if adjustment_count(m, &self.units, &self.owners, power) <= 0 {
                    Some(crate::diplomacy::judge::Reason::NoBuildsLeft)
                } else {
                    check_build(m, self.occupied(), &self.owners, power, *unit, *at).err()
                }
            }
            (PhaseKind::Adjustment, Order::Waive) => {
                if adjustment_count(m, &self.units, &self.owners, power) <= 0 {
                    Some(crate::diplomacy::judge::Reason::NoBuildsLeft)
                } else {
                    None
                }
            }
            (PhaseKind::Adjustment, Order::Unit { .. }) => {
                if adjustment_count(m, &self.units, &self.owners, power) >= 0 {
                    Some(crate::diplomacy::judge::Reason::NoRemovalsLeft)
                } else {
                    let r = adjudicate_adjustments(m, &self.units, &self.owners, &[(power, o)]);
                    r.orders[0].reason
                }
            }
        }
    }

    /// An army's move or retreat to a coast (`A Wal - Spa/nc`) is taken as
    /// the move to the province (`A Wal - Spa`), and echoed so: coasts
    /// matter to fleets only, an army in Spain is on neither coast, and a
    /// player who wrote one meant the province. (The alternative, refusing
    /// the line, would punish a harmless slip; keeping the coast would echo
    /// an order that cannot exist.)
    fn army_destinations_without_coasts(&self, o: Order) -> Order {
        let m = self.map();
        let Order::Unit { unit, at, kind } = o else {
            return o;
        };
        let on_board = self
            .units
            .iter()
            .chain(self.dislodged.iter().map(|d| &d.unit))
            .rfind(|u| m.prov_of(u.loc) == m.prov_of(at))
            .map(|u| u.kind);
        if unit.or(on_board) != Some(crate::diplomacy::order::UnitKind::Army) {
            return o;
        }
        let kind = match kind {
            OrderKind::Move { to, via_convoy } => OrderKind::Move {
                to: m.prov_of(to),
                via_convoy,
            },
            OrderKind::Retreat { to } => OrderKind::Retreat { to: m.prov_of(to) },
            other => other,
        };
        Order::Unit { unit, at, kind }
    }

    pub(super) fn fill_unit(&self, o: Order) -> Order {
        let m = self.map();
        let Some(at) = o.at() else { return o };
        let p = m.prov_of(at);
        let unit = self
            .units
            .iter()
            .chain(self.dislodged.iter().map(|d| &d.unit))
            .rfind(|u| m.prov_of(u.loc) == p);
        match (o, unit) {
            (Order::Unit { at: _, kind, .. }, Some(u)) => Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind,
            },
            _ => o,
        }
    }
}
