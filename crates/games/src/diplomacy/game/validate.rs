//! Order validation: one order line checked against the position, a
//! player's message parsed into an action, and pending actions combined.

use super::{Diplomacy, DiplomacyAction, MAX_ERRORS_LISTED, err, map};
use crate::diplomacy::geo::{Map, Power};
use crate::diplomacy::judge::{
    PhaseKind, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
    adjust::adjustment_count, adjust::check_build, retreat::retreat_options,
};
use crate::diplomacy::order::{Order, OrderKind, loc_name, parse_order, unit_name};
use crate::seam::{ActionError, Seat};

impl Diplomacy {
    /// Parses and checks one order line for `power` in the current phase.
    pub fn check_line(&self, power: Power, line: &str) -> Result<Order, ActionError> {
        let m = map();
        let o = parse_order(m, line).map_err(|e| err(e.problem, e.expected))?;
        let wrong_phase = |what: &str| {
            err(
                format!(
                    "`{}` is {what}, but this is the {} phase.",
                    crate::diplomacy::order::quoted(line),
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
        };
        let reason = match (self.phase, &o) {
            (
                PhaseKind::Movement,
                Order::Unit {
                    kind: OrderKind::Retreat { .. } | OrderKind::Disband,
                    ..
                },
            ) => {
                return Err(wrong_phase("a retreat or disband order"));
            }
            (PhaseKind::Movement, Order::Build { .. } | Order::Waive) => {
                return Err(wrong_phase("a build order"));
            }
            (PhaseKind::Retreat, Order::Build { .. } | Order::Waive) => {
                return Err(wrong_phase("a build order"));
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
                return Err(wrong_phase("not a retreat or disband"));
            }
            (PhaseKind::Adjustment, Order::Unit { kind, .. }) if *kind != OrderKind::Disband => {
                return Err(wrong_phase("a unit order"));
            }
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
        };
        match reason {
            Some(r)
                if r.is_illegal()
                    || matches!(
                        r,
                        crate::diplomacy::judge::Reason::NoBuildsLeft
                            | crate::diplomacy::judge::Reason::NoRemovalsLeft
                    ) =>
            {
                Err(err(format!("`{line}`: {}.", r.text(m)), self.hint(power)))
            }
            _ => Ok(self.fill_unit(o)),
        }
    }

    pub(super) fn fill_unit(&self, o: Order) -> Order {
        let m = map();
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

    pub(super) fn hint(&self, power: Power) -> String {
        let m = map();
        match self.phase {
            PhaseKind::Movement => {
                let us = self.unit_names_of(power);
                format!(
                    "Your units: {}. Write e.g. `A Par - Bur`, `F Lon S F Nth - Eng`, `F Nth C A Lon - Nwy`.",
                    us.join(", ")
                )
            }
            PhaseKind::Retreat => {
                let occ = self.occupied();
                let so = self.standoff_bits();
                let opts: Vec<String> = self
                    .dislodged
                    .iter()
                    .filter(|d| d.unit.power == power)
                    .map(|d| {
                        let o = retreat_options(m, occ, so, d);
                        let os: Vec<String> = o.iter().map(|&l| loc_name(m, l)).collect();
                        format!(
                            "{}: R {} or D",
                            unit_name(m, &d.unit),
                            if os.is_empty() {
                                "(none)".into()
                            } else {
                                os.join("/")
                            }
                        )
                    })
                    .collect();
                format!("Dislodged units: {}.", opts.join("; "))
            }
            PhaseKind::Adjustment => {
                let n = adjustment_count(m, &self.units, &self.owners, power);
                if n > 0 {
                    let b: Vec<String> = self
                        .build_choices(power)
                        .into_iter()
                        .map(|o| o.canonical(m))
                        .collect();
                    format!("You may build {n}: {} (or `Waive`).", b.join(", "))
                } else if n < 0 {
                    let us = self.unit_names_of(power);
                    format!("You must remove {}: one of {}.", -n, us.join(", "))
                } else {
                    "You have no adjustments this Winter.".into()
                }
            }
        }
    }

    /// [`crate::seam::Game::parse_action`]: each line is an order, or one of
    /// `done`, `clear`, `draw`, `no draw`.
    pub(super) fn parse_message(
        &self,
        seat: Seat,
        text: &str,
    ) -> Result<DiplomacyAction, ActionError> {
        let Some(power) = self.power_of_seat(seat) else {
            return Err(err(
                format!("Seat {seat} is not a power."),
                "Seats are 0 (Austria) to 6 (Turkey).",
            ));
        };
        if self.outcome.is_some() {
            return Err(err("The game is over.", "No more orders are taken."));
        }
        let mut a = DiplomacyAction::default();
        let mut errors = Vec::new();
        let mut any_ok = false;
        for line in text.split(['\n', ';']) {
            let l = line.trim();
            if l.is_empty() {
                continue;
            }
            match l.to_ascii_lowercase().trim_end_matches(['.', '!']) {
                "done" | "ready" | "submit" | "end" | "finish" | "finished" => {
                    a.ready = true;
                    any_ok = true;
                    continue;
                }
                "clear" | "reset" => {
                    a.clear = true;
                    a.orders.clear();
                    any_ok = true;
                    continue;
                }
                "draw" | "vote draw" | "propose draw" => {
                    a.draw = Some(true);
                    any_ok = true;
                    continue;
                }
                "no draw" | "nodraw" | "withdraw draw" | "cancel draw" => {
                    a.draw = Some(false);
                    any_ok = true;
                    continue;
                }
                _ => {}
            }
            match self.check_line(power, l) {
                Ok(o) => {
                    any_ok = true;
                    push_order(&mut a, o, map());
                }
                Err(e) => errors.push(e),
            }
        }
        // A message of thousands of bad lines is answered with a few of
        // them and a count, not thousands of errors.
        let unlisted = errors.len().saturating_sub(MAX_ERRORS_LISTED);
        let more = (unlisted > 0).then(|| format!("({unlisted} more lines not understood.)"));
        if !any_ok {
            return Err(match errors.len() {
                0 => err("No orders found.", self.hint(power)),
                1 => errors.remove(0),
                _ => err(
                    errors
                        .iter()
                        .take(MAX_ERRORS_LISTED)
                        .map(|e| e.problem.clone())
                        .chain(more)
                        .collect::<Vec<_>>()
                        .join(" "),
                    errors[0].expected.clone(),
                ),
            });
        }
        for e in errors.iter().take(MAX_ERRORS_LISTED) {
            a.notes
                .push(format!("Not accepted: {} {}", e.problem, e.expected));
        }
        a.notes.extend(more);
        Ok(a)
    }

    /// [`crate::seam::Game::validate`]: every order still legal.
    pub(super) fn validate_action(
        &self,
        seat: Seat,
        action: &DiplomacyAction,
    ) -> Result<(), ActionError> {
        let Some(power) = self.power_of_seat(seat) else {
            return Err(err(
                format!("Seat {seat} is not a power."),
                "Seats are 0 to 6.",
            ));
        };
        for o in &action.orders {
            self.check_line(power, &o.canonical(map()))?;
        }
        Ok(())
    }
}

/// [`crate::seam::Game::combine`]: newly typed orders merged into the
/// pending ones, a new order for a unit replacing the old one.
pub(super) fn combine_actions(pending: DiplomacyAction, new: DiplomacyAction) -> DiplomacyAction {
    let m = map();
    let mut a = if new.clear {
        DiplomacyAction::default()
    } else {
        pending
    };
    a.notes.clear();
    for o in new.orders {
        push_order(&mut a, o, m);
    }
    a.ready = a.ready || new.ready;
    if new.draw.is_some() {
        a.draw = new.draw;
    }
    a.notes.extend(new.notes);
    a
}

/// Adds an order, replacing an earlier one for the same unit (and saying so).
fn push_order(a: &mut DiplomacyAction, o: Order, m: &Map) {
    if let Order::Unit { at, .. } = o {
        let p = m.prov_of(at);
        if let Some(i) = a
            .orders
            .iter()
            .position(|x| matches!(x, Order::Unit { at: a2, .. } if m.prov_of(*a2) == p))
        {
            let old = a.orders.remove(i);
            a.notes.push(format!(
                "Replaced `{}` with `{}`.",
                old.canonical(m),
                o.canonical(m)
            ));
        }
    }
    a.orders.push(o);
}
