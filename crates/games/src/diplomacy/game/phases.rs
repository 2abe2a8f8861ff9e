//! Phase flow: who is awaited, resolving a phase through the judge, the
//! Fall centre count, the Winter and the end of the game.

use super::{Diplomacy, DiplomacyAction, MISSES_FOR_DISORDER, PhaseDetail, Season};
use crate::diplomacy::geo::{BitIter, Power};
use crate::diplomacy::judge::{
    OrderOutcome, PhaseKind, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
    adjust::adjustment_count,
};
use crate::diplomacy::order::{Order, loc_name, unit_name};
use crate::seam::{Outcome, Seat, TurnReport};
use std::collections::BTreeMap;
use std::fmt::Write;

impl Diplomacy {
    /// The seats whose powers have something to decide in this phase
    /// (what the seam's `awaiting` answers).
    pub(in crate::diplomacy) fn seats_to_act(&self) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&seat| self.power_needs_to_act(self.seats[seat]))
            .collect()
    }

    /// Whether `p` has something to decide in this phase.
    pub(in crate::diplomacy) fn power_needs_to_act(&self, p: Power) -> bool {
        if self.disorder[p.index()] || self.outcome.is_some() {
            return false;
        }
        match self.phase {
            PhaseKind::Movement => self.units.iter().any(|u| u.power == p),
            PhaseKind::Retreat => self.dislodged.iter().any(|d| d.unit.power == p),
            // A power due builds but with no free home centre has nothing to decide.
            PhaseKind::Adjustment => {
                let n = adjustment_count(self.map(), &self.units, &self.owners, p);
                n < 0 || (n > 0 && !self.build_choices(p).is_empty())
            }
        }
    }

    /// The seats whose powers are still in the game.
    pub(super) fn survivors(&self) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&seat| self.alive(self.seats[seat]))
            .collect()
    }

    /// After Fall: centres change hands, victory and elimination are checked,
    /// and the Winter phase starts if anyone has something to adjust.
    pub(super) fn after_fall(&mut self, report: &mut String) {
        let m = self.map();
        for u in &self.units {
            let p = m.prov_of(u.loc);
            if m.prov(p).sc {
                self.owners[p as usize] = Some(u.power);
            }
        }
        // Progress towards a solo: the largest power reaches a size no
        // power had before. Without it for a while the game has stalled.
        let largest = self
            .map()
            .powers()
            .map(|p| self.centre_count(p))
            .max()
            .unwrap_or(0);
        let largest = u8::try_from(largest).unwrap_or(u8::MAX);
        if largest > self.peak_centres {
            self.peak_centres = largest;
            self.still_years = 0;
        } else {
            self.still_years = self.still_years.saturating_add(1);
        }
        let _ = write!(report, "\nCentres:");
        for p in self.seats.clone() {
            let _ = write!(report, " {} {}", self.power_name(p), self.centre_count(p));
        }
        report.push('\n');
        for (seat, p) in self.seats.clone().into_iter().enumerate() {
            if self.centre_count(p) as u32 >= self.victory_centres() {
                self.outcome = Some(Outcome::Win(seat));
                let _ = writeln!(
                    report,
                    "{} controls {} centres and wins!",
                    self.power_name(p),
                    self.centre_count(p)
                );
                return;
            }
        }
        self.season = Season::Winter;
        self.phase = PhaseKind::Adjustment;
        let _ = m;
        if self.seats_to_act().is_empty() {
            // Nobody has to decide anything; waived builds need no phase.
            self.next_year(report);
        }
    }

    pub(super) fn next_year(&mut self, report: &mut String) {
        if self.options.end_year.is_some_and(|y| self.year >= y) {
            let s = self.survivors();
            let _ = writeln!(
                report,
                "The game reached its final year and ends in a draw."
            );
            self.outcome = Some(Outcome::Draw(s));
            return;
        }
        self.year += 1;
        self.season = Season::Spring;
        self.phase = PhaseKind::Movement;
    }

    pub(in crate::diplomacy) fn check_last_standing(&mut self, report: &mut String) {
        if self.outcome.is_some() {
            return;
        }
        let active: Vec<Power> = self
            .seats
            .iter()
            .copied()
            .filter(|&p| self.alive(p) && !self.disorder[p.index()])
            .collect();
        let alive: Vec<Power> = self
            .seats
            .iter()
            .copied()
            .filter(|&p| self.alive(p))
            .collect();
        if alive.len() == 1 || (active.len() == 1 && alive.len() > 1) {
            let w = if alive.len() == 1 {
                alive[0]
            } else {
                active[0]
            };
            let _ = writeln!(
                report,
                "{} is the last power playing and wins.",
                self.power_name(w)
            );
            if let Some(seat) = self.seat_of(w) {
                self.outcome = Some(Outcome::Win(seat));
            }
        }
    }

    pub(super) fn results_text(
        &self,
        orders: &[(Power, Order)],
        outcomes: &[OrderOutcome],
        text: &mut String,
    ) {
        let m = self.map();
        let mut last = None;
        for ((p, o), oc) in orders.iter().zip(outcomes) {
            if last != Some(*p) {
                let _ = writeln!(text, "{}:", self.power_name(*p));
                last = Some(*p);
            }
            let _ = write!(text, "  {}", o.canonical(m));
            if !oc.success {
                match oc.reason {
                    Some(r) => {
                        let _ = write!(text, "  (fails: {})", r.text(m));
                    }
                    None => text.push_str("  (fails)"),
                }
            }
            text.push('\n');
        }
    }

    /// [`Game::resolve`]: the phase adjudicated, the position advanced.
    pub(in crate::diplomacy) fn resolve_phase(
        &mut self,
        actions: BTreeMap<Seat, DiplomacyAction>,
    ) -> TurnReport {
        let mut text = format!("{}\n", self.phase_name());
        if self.outcome.is_some() {
            text.push_str("The game is over.\n");
            return TurnReport {
                public: text,
                private: BTreeMap::new(),
                detail: None,
            };
        }
        let orders = self.orders_to_adjudicate(&actions);
        // Under Fog of War the orders go to each power as far as it saw
        // them, judged from the position before the phase.
        let fogged = self.fog_hides();
        let sight = if fogged {
            self.sight_by_seat()
        } else {
            Vec::new()
        };
        let alive_before: Vec<Power> = self
            .seats
            .iter()
            .copied()
            .filter(|&p| self.alive(p))
            .collect();
        let phase_name = self.phase_name();
        self.record_seat_conduct(&actions, &mut text);
        let detail = match self.phase {
            PhaseKind::Movement => self.resolve_movement(&orders, &mut text),
            PhaseKind::Retreat => self.resolve_retreats(&orders, &mut text),
            PhaseKind::Adjustment => self.resolve_adjustments(&orders, &mut text),
        };
        for p in self.map().powers() {
            if !self.alive(p) && self.outcome.is_none() {
                self.draw_votes[p.index()] = false;
            }
        }
        if fogged {
            self.eliminated_text(&alive_before, &mut text);
        }
        self.check_last_standing(&mut text);
        if self.outcome.is_none() {
            self.check_agreed_draw(&mut text);
        }
        if self.outcome.is_none() {
            let _ = writeln!(text, "Next: {}.", self.phase_name());
        }
        let private = if fogged {
            self.fogged_results(&phase_name, &sight, &detail)
        } else {
            BTreeMap::new()
        };
        TurnReport {
            public: text,
            private,
            detail: Some(detail.to_value()),
        }
    }

    /// Per seat that acted: missed movement deadlines (civil disorder after
    /// [`MISSES_FOR_DISORDER`] in a row), whether the AI played, its draw vote.
    fn record_seat_conduct(
        &mut self,
        actions: &BTreeMap<Seat, DiplomacyAction>,
        text: &mut String,
    ) {
        for (&seat, a) in actions {
            let Some(p) = self.power_of_seat(seat) else {
                continue;
            };
            // The per-power records are indexed by power, not seat.
            let i = p.index();
            if self.phase == PhaseKind::Movement {
                if a.missed {
                    self.missed_moves[i] = self.missed_moves[i].saturating_add(1);
                    if self.missed_moves[i] >= MISSES_FOR_DISORDER && !self.disorder[i] {
                        self.disorder[i] = true;
                        let _ = writeln!(
                            text,
                            "{} missed {MISSES_FOR_DISORDER} movement deadlines in a row and is in civil disorder until someone takes the seat.",
                            self.power_name(p)
                        );
                    }
                } else {
                    self.missed_moves[i] = 0;
                }
            }
            self.ai_held[i] = a.ai;
            if let Some(v) = a.draw {
                self.draw_votes[i] = v;
            }
        }
    }

    /// A movement phase: units moved, dislodgements reported, then the
    /// retreats if any, else the next season.
    fn resolve_movement(&mut self, orders: &[(Power, Order)], text: &mut String) -> PhaseDetail {
        let m = self.map();
        let r = adjudicate_movement(m, &self.units, orders);
        // Under Fog of War the orders and dislodgements are private
        // (`fogged_results`); the public text keeps what everyone knows.
        let public_orders = !self.fog_hides();
        if public_orders {
            self.results_text(orders, &r.orders, text);
        }
        let detail = PhaseDetail {
            dislodged: r.dislodged.clone(),
            ..PhaseDetail::new(PhaseKind::Movement, orders, &r.orders)
        };
        self.units = r.final_units;
        self.dislodged = r.dislodged;
        self.standoffs = BitIter(r.standoffs).collect();
        for d in self.dislodged.iter().filter(|_| public_orders) {
            let _ = writeln!(
                text,
                "Dislodged: {} {} (from {}).",
                m.power_name(d.unit.power),
                unit_name(m, &d.unit),
                loc_name(m, d.attacker_from)
            );
        }
        if !self.dislodged.is_empty() {
            self.phase = PhaseKind::Retreat;
        } else if self.season == Season::Spring {
            self.season = Season::Fall;
        } else {
            self.after_fall(text);
        }
        detail
    }

    /// A retreat phase: retreats made, the rest disbanded, then the next
    /// season.
    fn resolve_retreats(&mut self, orders: &[(Power, Order)], text: &mut String) -> PhaseDetail {
        let m = self.map();
        let r = adjudicate_retreats(
            m,
            &self.units,
            &self.dislodged,
            self.standoff_bits(),
            orders,
        );
        let public_orders = !self.fog_hides();
        if public_orders {
            self.results_text(orders, &r.orders, text);
        }
        let detail = PhaseDetail {
            disbanded: r.disbanded.clone(),
            ..PhaseDetail::new(PhaseKind::Retreat, orders, &r.orders)
        };
        for u in r.disbanded.iter().filter(|_| public_orders) {
            let _ = writeln!(
                text,
                "Disbanded: {} {}.",
                m.power_name(u.power),
                unit_name(m, u)
            );
        }
        self.units = r.final_units;
        self.dislodged.clear();
        self.standoffs.clear();
        self.phase = PhaseKind::Movement;
        if self.season == Season::Spring {
            self.season = Season::Fall;
        } else {
            self.after_fall(text);
        }
        detail
    }

    /// An adjustment phase: builds and removals (civil disorder's too),
    /// then the next year.
    fn resolve_adjustments(&mut self, orders: &[(Power, Order)], text: &mut String) -> PhaseDetail {
        let m = self.map();
        let r = adjudicate_adjustments(m, &self.units, &self.owners, orders);
        let public_orders = !self.fog_hides();
        if public_orders {
            self.results_text(orders, &r.orders, text);
        }
        let detail = PhaseDetail {
            built: r.built.clone(),
            removed: r.removed.iter().chain(&r.civil_disorder).copied().collect(),
            ..PhaseDetail::new(PhaseKind::Adjustment, orders, &r.orders)
        };
        for u in r.civil_disorder.iter().filter(|_| public_orders) {
            let _ = writeln!(
                text,
                "Removed in civil disorder: {} {}.",
                m.power_name(u.power),
                unit_name(m, u)
            );
        }
        self.units = r.final_units;
        self.next_year(text);
        detail
    }

    /// Ends the game in a draw when every surviving power that decides has
    /// voted for one.
    fn check_agreed_draw(&mut self, text: &mut String) {
        let s = self.survivors();
        // Powers in civil disorder or played by the AI count as accepting;
        // the others must all agree, and at least one must have voted.
        let voters: Vec<usize> = s
            .iter()
            .map(|&seat| self.seats[seat].index())
            .filter(|&i| !self.disorder[i] && !self.ai_held[i])
            .collect();
        // With only AI seats left (besides powers in disorder), the
        // AIs' own votes decide, so AI-only games can end in a draw.
        let deciders: Vec<usize> = if voters.is_empty() {
            s.iter()
                .map(|&seat| self.seats[seat].index())
                .filter(|&i| !self.disorder[i] && self.ai_held[i])
                .collect()
        } else {
            voters
        };
        if !deciders.is_empty() && deciders.iter().all(|&i| self.draw_votes[i]) {
            let _ = writeln!(text, "All surviving powers agreed to a draw.");
            self.outcome = Some(Outcome::Draw(s));
        }
    }
}
