//! Stage 5 of the movement judge: dislodgements, final positions,
//! standoffs and each order's outcome and reason.

use super::*;

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
    pub(super) fn settle_positions(
        &mut self,
        units: &[Unit],
    ) -> (Vec<Unit>, Vec<Dislodgement>, Bits) {
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
    pub(super) fn standoffs(&mut self, final_occupied: Bits) -> Bits {
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
    pub(super) fn report_outcomes(&mut self, outcomes: &mut [OrderOutcome]) {
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
