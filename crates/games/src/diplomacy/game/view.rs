//! The view of the board: the text board, the status line and the choices
//! offered to the power whose turn it is.

use super::{Diplomacy, DiplomacyAction};
use crate::diplomacy::geo::{Bits, Power};
use crate::diplomacy::judge::{PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use crate::diplomacy::order::{Order, OrderKind, Unit, unit_name};
use crate::seam::{ActionChoice, ChoiceStyle, Outcome, Seat, View};
use std::fmt::Write;

impl Diplomacy {
    /// [`Game::view`]: the board for everyone, choices for `viewer`.
    /// Under Fog of War a power's board lists only the units it sees and
    /// its choices come from the position it sees; a spectator's lists no
    /// units, only what everyone knows (the phase and the centre counts).
    pub(in crate::diplomacy) fn board_view(&self, viewer: Option<Seat>) -> View {
        let power = viewer.and_then(|s| self.power_of_seat(s));
        let shown = self
            .fog_hides()
            .then(|| power.map_or(0, |p| self.visible_provinces(p)));
        let board = self.board_text(shown);
        let status = self.status_line();
        let choices = match (viewer, power) {
            (Some(seat), Some(p)) if self.seats_to_act().contains(&seat) => {
                self.seen_by(p).choices_for(seat)
            }
            _ => Vec::new(),
        };
        View {
            board,
            status,
            choices,
        }
    }

    /// The phase, each live power's centres and units, the dislodged units;
    /// with `shown`, only the units in those provinces (Fog of War), and a
    /// line saying so.
    fn board_text(&self, shown: Option<Bits>) -> String {
        let m = self.map();
        let mut board = format!("{}\n", self.phase_name());
        let in_sight = |u: &Unit| shown.is_none_or(|b| b & (1u128 << m.prov_of(u.loc)) != 0);
        match shown {
            Some(0) => board.push_str("Fog of War: units stay hidden until the game ends.\n"),
            Some(b) => {
                let _ = writeln!(
                    board,
                    "Fog of War: you see {} of {} provinces.",
                    b.count_ones(),
                    m.province_count()
                );
            }
            None => {}
        }
        for &p in &self.seats {
            if !self.alive(p) {
                continue;
            }
            let us: Vec<String> = self
                .units
                .iter()
                .filter(|u| u.power == p && in_sight(u))
                .map(|u| unit_name(m, u))
                .collect();
            // Wrap unit lists so board lines stay under 80 characters.
            let mut line = format!("{:<8} {:>2} SC ", self.power_name(p), self.centre_count(p));
            for (k, u) in us.iter().enumerate() {
                if line.len() + u.len() + 2 > 78 {
                    let _ = writeln!(board, "{}", line.trim_end());
                    line = " ".repeat(15);
                }
                line.push(' ');
                line.push_str(u);
                if k + 1 < us.len() {
                    line.push(',');
                }
            }
            let _ = writeln!(board, "{}", line.trim_end());
        }
        for d in self.dislodged.iter().filter(|d| in_sight(&d.unit)) {
            let _ = writeln!(
                board,
                "Dislodged: {} {}",
                m.power_name(d.unit.power),
                unit_name(m, &d.unit)
            );
        }
        board
    }

    /// Who won or drew, or whom the phase waits for.
    fn status_line(&self) -> String {
        match &self.outcome {
            Some(Outcome::Win(s)) => format!("{} won.", self.seat_label(*s)),
            Some(Outcome::Draw(s)) => {
                format!(
                    "Draw between {}.",
                    s.iter()
                        .map(|&x| self.seat_label(x))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            None => {
                let w: Vec<String> = self
                    .seats_to_act()
                    .iter()
                    .map(|&s| self.seat_label(s))
                    .collect();
                format!("{}: waiting for {}.", self.phase_name(), w.join(", "))
            }
        }
    }

    /// The choices of a seat the phase waits for: done and draw, then its
    /// retreats, builds or removals (movement orders are typed, not picked).
    fn choices_for(&self, seat: Seat) -> Vec<ActionChoice> {
        let Some(power) = self.power_of_seat(seat) else {
            return Vec::new();
        };
        let mut choices = vec![
            ActionChoice {
                label: "Done".into(),
                text: "done".into(),
                style: ChoiceStyle::Button,
            },
            ActionChoice {
                label: "Vote draw".into(),
                text: "draw".into(),
                style: ChoiceStyle::Button,
            },
        ];
        let orders = match self.phase {
            PhaseKind::Retreat => self.retreat_choices(power),
            PhaseKind::Adjustment => self.adjustment_choices(power),
            PhaseKind::Movement => Vec::new(),
        };
        choices.extend(orders.into_iter().map(|t| ActionChoice {
            label: t.clone(),
            text: t,
            style: ChoiceStyle::Select,
        }));
        choices
    }

    /// Each dislodged unit of `power`: every retreat open to it, then its
    /// disband.
    fn retreat_choices(&self, power: Power) -> Vec<String> {
        let m = self.map();
        let occ = self.occupied();
        let so = self.standoff_bits();
        let mut orders = Vec::new();
        for d in self.dislodged.iter().filter(|d| d.unit.power == power) {
            for l in retreat_options(m, occ, so, d) {
                let o = Order::Unit {
                    unit: Some(d.unit.kind),
                    at: d.unit.loc,
                    kind: OrderKind::Retreat { to: l },
                };
                orders.push(o.canonical(m));
            }
            let o = Order::Unit {
                unit: Some(d.unit.kind),
                at: d.unit.loc,
                kind: OrderKind::Disband,
            };
            orders.push(o.canonical(m));
        }
        orders
    }

    /// Builds and a waive for a power owed units, else a disband per unit.
    fn adjustment_choices(&self, power: Power) -> Vec<String> {
        let m = self.map();
        let n = adjustment_count(m, &self.units, &self.owners, power);
        if n > 0 {
            let mut orders: Vec<String> = self
                .build_choices(power)
                .iter()
                .map(|o| o.canonical(m))
                .collect();
            orders.push("Waive".into());
            orders
        } else {
            self.units
                .iter()
                .filter(|u| u.power == power)
                .map(|u| {
                    Order::Unit {
                        unit: Some(u.kind),
                        at: u.loc,
                        kind: OrderKind::Disband,
                    }
                    .canonical(m)
                })
                .collect()
        }
    }
}

impl Diplomacy {
    /// [`Game::describe_action`]: the pending orders once each in canonical
    /// form, the units still without one, the draw vote and readiness, then
    /// what the last message changed and each line it refused, once, with
    /// its reason; the phase's hint (counting pending builds) at most once.
    pub(in crate::diplomacy) fn describe_orders(
        &self,
        seat: Seat,
        action: &DiplomacyAction,
    ) -> String {
        let m = self.map();
        let mut s = String::new();
        for o in &action.orders {
            let _ = writeln!(s, "{}", o.canonical(m));
        }
        let power = self.power_of_seat(seat);
        let missing: Vec<String> = power
            .map(|p| self.units_without_orders(p, &action.orders))
            .unwrap_or_default()
            .iter()
            .map(|u| unit_name(m, u))
            .collect();
        if action.orders.is_empty() && (missing.is_empty() || self.phase == PhaseKind::Adjustment) {
            s.push_str("(no orders)\n");
        } else {
            // Units without orders hold; dislodged ones without orders disband.
            let (all, one) = if self.phase == PhaseKind::Retreat {
                ("all disband", "will disband")
            } else {
                ("all hold", "will hold")
            };
            if action.orders.is_empty() {
                let _ = writeln!(s, "No orders yet ({all}): {}", missing.join(", "));
            } else if !missing.is_empty() {
                let _ = writeln!(s, "No order yet ({one}): {}", missing.join(", "));
            }
        }
        match action.draw {
            Some(true) => s.push_str("Votes for a draw.\n"),
            Some(false) => s.push_str("Withdraws any draw vote.\n"),
            None => {}
        }
        s.push_str(if action.ready {
            "Done.\n"
        } else {
            "Not final: send `done` when ready.\n"
        });
        for n in &action.notes {
            let _ = writeln!(s, "{n}");
        }
        if !action.refused.is_empty() {
            let lines: usize =
                action.refused.iter().map(|r| r.times).sum::<usize>() + action.more_refused;
            let _ = writeln!(
                s,
                "Refused {lines} line{}:",
                if lines == 1 { "" } else { "s" }
            );
        }
        for r in &action.refused {
            let quoted = format!("`{}`", r.line);
            let mut line = if r.problem.starts_with(&quoted) {
                r.problem.clone()
            } else {
                format!("{quoted}: {}", r.problem)
            };
            if !r.expected.is_empty() {
                line.push(' ');
                line.push_str(&r.expected);
            }
            if r.times > 1 {
                let _ = write!(line, " ({} times)", r.times);
            }
            let _ = writeln!(s, "- {line}");
        }
        if action.more_refused > 0 {
            let _ = writeln!(s, "({} more lines not understood.)", action.more_refused);
        }
        if let Some(p) = power
            && (action.refused.iter().any(|r| r.expected.is_empty()) || action.more_refused > 0)
        {
            let _ = writeln!(s, "{}", self.hint_with(p, &action.orders));
        }
        s.trim_end().to_string()
    }
}
