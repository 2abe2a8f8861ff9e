//! Stage 4 of the movement judge: convoy routes, strengths (DATC 5.B) and
//! Kruijswijk's guess-and-check resolver with its backup rules. The
//! strengths and the resolver call each other, so they share this file.

use super::*;

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
    pub(super) fn is_convoyed(&mut self, p: ProvId) -> bool {
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
    pub(super) fn has_path(&mut self, a: ProvId) -> bool {
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
    pub(super) fn attack_strength(&mut self, p: ProvId) -> u32 {
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
    pub(super) fn defend_strength(&mut self, q: ProvId) -> u32 {
        1 + self.given_supports(q, NONE)
    }

    /// Hold strength of province `q`: what a move into it must beat.
    pub(super) fn hold_strength(&mut self, q: ProvId) -> u32 {
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
    pub(super) fn prevent_strength(&mut self, r: ProvId) -> u32 {
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
    pub(super) fn resolve_all(&mut self) {
        for p in BitIter(self.occupied) {
            if !matches!(self.node[p as usize], Node::Empty | Node::Hold) {
                self.resolve(p);
            }
        }
    }

    /// The result of node `n`, guessing (and checking the guess) when it
    /// depends on itself.
    pub(super) fn resolve(&mut self, n: ProvId) -> bool {
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
    pub(super) fn szykman_rule(&mut self, cycle: std::ops::Range<usize>) {
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
    pub(super) fn circular_movement_rule(&mut self, cycle: std::ops::Range<usize>) {
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
    pub(super) fn support_cutter(&mut self, s: ProvId) -> Option<ProvId> {
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
