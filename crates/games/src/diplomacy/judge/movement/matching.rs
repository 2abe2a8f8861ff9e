//! Stage 3 of the movement judge: supports and convoys count only for the
//! unit whose real order they match.

use super::*;

/// Stage 3: supports and convoys that match their unit's real order.
impl Judge<'_> {
    /// Indexes movers by destination and supports and convoys by the unit
    /// they help. A support or convoy that does not match its unit's real
    /// order is void: a void support stays a support node (reported as given
    /// or cut, like any other) but counts for nobody; a void convoy holds.
    pub(super) fn match_supports_and_convoys(&mut self, outcomes: &mut [OrderOutcome]) {
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
