//! The view of the board: the text board, the status line and the choices
//! offered to the power whose turn it is.

use super::{Diplomacy, map};
use crate::diplomacy::judge::{PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use crate::diplomacy::order::{Order, OrderKind, unit_name};
use crate::seam::{ActionChoice, ChoiceStyle, Game, Outcome, Seat, View};
use std::fmt::Write;

impl Diplomacy {
    /// [`Game::view`]: the board for everyone, choices for `viewer`.
    pub(super) fn board_view(&self, viewer: Option<Seat>) -> View {
        let m = map();
        let mut board = format!("{}\n", self.phase_name());
        for &p in &self.seats {
            if !self.alive(p) {
                continue;
            }
            let us = self.unit_names_of(p);
            // Wrap unit lists so board lines stay under 80 characters.
            let mut line = format!("{:<8} {:>2} SC ", p.name(), self.centre_count(p));
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
        for d in &self.dislodged {
            let _ = writeln!(
                board,
                "Dislodged: {} {}",
                d.unit.power,
                unit_name(m, &d.unit)
            );
        }
        let status = match &self.outcome {
            Some(Outcome::Win(s)) => format!("{} won.", self.seat_name(*s)),
            Some(Outcome::Draw(s)) => {
                format!(
                    "Draw between {}.",
                    s.iter()
                        .map(|&x| self.seat_name(x))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            None => {
                let w: Vec<String> = self.awaiting().iter().map(|&s| self.seat_name(s)).collect();
                format!("{}: waiting for {}.", self.phase_name(), w.join(", "))
            }
        };
        let mut choices = Vec::new();
        if let Some(seat) = viewer
            && self.awaiting().contains(&seat)
        {
            {
                let Some(power) = self.power_of_seat(seat) else {
                    return View {
                        board,
                        status,
                        choices,
                    };
                };
                choices.push(ActionChoice {
                    label: "Done".into(),
                    text: "done".into(),
                    style: ChoiceStyle::Button,
                });
                choices.push(ActionChoice {
                    label: "Vote draw".into(),
                    text: "draw".into(),
                    style: ChoiceStyle::Button,
                });
                match self.phase {
                    PhaseKind::Retreat => {
                        let occ = self.occupied();
                        let so = self.standoff_bits();
                        for d in self.dislodged.iter().filter(|d| d.unit.power == power) {
                            for l in retreat_options(m, occ, so, d) {
                                let o = Order::Unit {
                                    unit: Some(d.unit.kind),
                                    at: d.unit.loc,
                                    kind: OrderKind::Retreat { to: l },
                                };
                                let t = o.canonical(m);
                                choices.push(ActionChoice {
                                    label: t.clone(),
                                    text: t,
                                    style: ChoiceStyle::Select,
                                });
                            }
                            let o = Order::Unit {
                                unit: Some(d.unit.kind),
                                at: d.unit.loc,
                                kind: OrderKind::Disband,
                            };
                            let t = o.canonical(m);
                            choices.push(ActionChoice {
                                label: t.clone(),
                                text: t,
                                style: ChoiceStyle::Select,
                            });
                        }
                    }
                    PhaseKind::Adjustment => {
                        let n = adjustment_count(m, &self.units, &self.owners, power);
                        if n > 0 {
                            for o in self.build_choices(power) {
                                let t = o.canonical(m);
                                choices.push(ActionChoice {
                                    label: t.clone(),
                                    text: t,
                                    style: ChoiceStyle::Select,
                                });
                            }
                            choices.push(ActionChoice {
                                label: "Waive".into(),
                                text: "Waive".into(),
                                style: ChoiceStyle::Select,
                            });
                        } else {
                            for u in self.units.iter().filter(|u| u.power == power) {
                                let t = Order::Unit {
                                    unit: Some(u.kind),
                                    at: u.loc,
                                    kind: OrderKind::Disband,
                                }
                                .canonical(m);
                                choices.push(ActionChoice {
                                    label: t.clone(),
                                    text: t,
                                    style: ChoiceStyle::Select,
                                });
                            }
                        }
                    }
                    PhaseKind::Movement => {}
                }
            }
        }
        View {
            board,
            status,
            choices,
        }
    }
}
