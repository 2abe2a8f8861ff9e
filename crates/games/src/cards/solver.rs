//! The exact solver for Invisible.
//!
//! Values are always **player 1's final score minus player 2's final score**
//! under best play (player 1 maximises, player 2 minimises), the reference
//! problem's output.
//!
//! Why it is small: while the stack is non-empty the players can only have
//! alternated plays since it was last cleared (any pass clears it), so the
//! stack is a run of alternating plays. We therefore tabulate only the
//! empty-stack positions, `(i, j, seat to move, passed on empty?)` — a
//! `(n+1)·(m+1)·2·2` table. The value of playing first from one of them is
//! the min/max fold over the run of plays that follows ("a chain", at most
//! `2·min(n-i, m-j)+1` long) of "pass here". [`Solver::new_by_chains`] walks
//! every chain (O(n·m·min(n, m))); [`Solver::new`] shares the work between
//! chains on the same diagonal (O(n·m), see [`super::lanes`]). A position
//! with a non-empty stack is answered by walking its one chain.

use crate::seam::Seat;

use super::empty_stack::{best, fill_empty_stack};
use super::rules::{JAM, Move, Position};

/// Solved tables for one pair of decks; answers for any position of them.
#[derive(Debug, Clone)]
pub struct Solver {
    decks: [Vec<i64>; 2],
    /// `open[idx(i, j, t)]`: future difference from an empty stack, `t` to
    /// move, the last move was not a pass on an empty stack.
    open: Vec<i64>,
    /// `closing[idx(i, j, t)]`: same, but the last move was a pass on an
    /// empty stack (so a pass now ends the game).
    closing: Vec<i64>,
}

impl Solver {
    /// Solves every empty-stack position of these two decks in O(n·m)
    /// (see [`super::lanes`]).
    pub fn new(deck1: &[i64], deck2: &[i64]) -> Self {
        if deck1.len().max(deck2.len()) > super::lanes::MAX_LANE_DECK {
            // Far beyond the rules' 50 cards; the chain walk has no index limit.
            return Solver::new_by_chains(deck1, deck2);
        }
        let (open, closing) = super::lanes::tables(deck1, deck2);
        Solver {
            decks: [deck1.to_vec(), deck2.to_vec()],
            open,
            closing,
        }
    }

    /// The same tables built the simple way, one chain walk per position
    /// (O(n·m·min(n, m))). Kept as an independent cross-check for tests
    /// and benches.
    pub fn new_by_chains(deck1: &[i64], deck2: &[i64]) -> Self {
        let n = deck1.len();
        let m = deck2.len();
        let size = (n + 1) * (m + 1) * 2;
        let mut s = Solver {
            decks: [deck1.to_vec(), deck2.to_vec()],
            open: vec![0; size],
            closing: vec![0; size],
        };
        let mut buf = Vec::with_capacity(n + m + 2);
        // Every chain strictly advances a deck, so fill from the ends backwards.
        for i in (0..=n).rev() {
            for j in (0..=m).rev() {
                let play = [
                    (i < n).then(|| s.chain_after_play(i, j, 0, &mut buf)),
                    (j < m).then(|| s.chain_after_play(i, j, 1, &mut buf)),
                ];
                let stride = m + 1;
                fill_empty_stack(&mut s.open, &mut s.closing, (i * stride + j) * 2, play);
            }
        }
        s
    }

    /// Whether two solvers hold identical tables (for cross-checks).
    pub fn same_tables(&self, other: &Solver) -> bool {
        self.open == other.open && self.closing == other.closing
    }

    /// Solves a position's decks (the position's own decks are used).
    pub fn for_position(pos: &Position) -> Self {
        Solver::new(&pos.decks[0], &pos.decks[1])
    }

    /// The value of the starting position (player 1 to move): the reference answer.
    pub fn root_value(&self) -> i64 {
        self.open[self.idx(0, 0, 0)]
    }

    /// The value of the starting position if `first` moved first instead
    /// (player 1's score minus player 2's either way).
    pub fn root_value_with_first(&self, first: Seat) -> i64 {
        self.open[self.idx(0, 0, first.min(1))]
    }

    /// The final score difference (P1 − P2, points already scored included)
    /// under best play from `pos`. `pos` must use this solver's decks.
    pub fn value(&self, pos: &Position) -> i64 {
        pos.score_diff() + self.future(pos)
    }

    /// The final score difference after the seat to move makes each legal
    /// move and both sides then play best, in the order of [`Position::legal_moves`].
    pub fn action_values(&self, pos: &Position) -> Vec<(Move, i64)> {
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = pos.clone();
                // Legal by construction; an error would mean a stale position.
                let v = match next.apply(mv) {
                    Ok(_) => self.value(&next),
                    Err(_) => pos.score_diff() + self.future(pos),
                };
                (mv, v)
            })
            .collect()
    }

    /// The best move for the seat to move (ties prefer `Play`, which keeps
    /// the game going), or `None` once the game is over.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        let me = pos.to_move;
        let mut best_mv: Option<(Move, i64)> = None;
        for (mv, v) in self.action_values(pos) {
            let better = match best_mv {
                None => true,
                Some((_, b)) => (me == 0 && v > b) || (me == 1 && v < b),
            };
            if better {
                best_mv = Some((mv, v));
            }
        }
        best_mv.map(|(mv, _)| mv)
    }

    /// Points still to be scored (P1 − P2) under best play from `pos`.
    fn future(&self, pos: &Position) -> i64 {
        if pos.over {
            return 0;
        }
        let (i, j, t) = (pos.next[0], pos.next[1], pos.to_move);
        if i > self.decks[0].len() || j > self.decks[1].len() {
            // Not a position of these decks; nothing sensible to add.
            return 0;
        }
        if pos.stack.is_empty() {
            let k = self.idx(i, j, t);
            if pos.passed_on_empty {
                self.closing[k]
            } else {
                self.open[k]
            }
        } else {
            let c = pos.stack_points();
            let mut buf = Vec::with_capacity(self.decks[0].len() + self.decks[1].len() + 2);
            self.chain(i, j, t, c, &mut buf)
        }
    }

    #[inline]
    fn idx(&self, i: usize, j: usize, t: Seat) -> usize {
        (i * (self.decks[1].len() + 1) + j) * 2 + t
    }

    /// Value once seat `t` has put its next card on an empty stack at `(i, j)`.
    fn chain_after_play(&self, i: usize, j: usize, t: Seat, buf: &mut Vec<i64>) -> i64 {
        let mut c = [0i64; 2];
        let card = if t == 0 {
            self.decks[0][i]
        } else {
            self.decks[1][j]
        };
        add_card(&mut c, t, card);
        let (i, j) = if t == 0 { (i + 1, j) } else { (i, j + 1) };
        self.chain(i, j, 1 - t, c, buf)
    }

    /// Value of a non-empty-stack position: next cards `(i, j)`, `u` to move,
    /// `c` = what each seat would score by a pass now.
    ///
    /// Walks forward over the alternating plays until the mover has no card
    /// (and must pass), recording the value of passing at each step, then
    /// folds backwards with min/max.
    fn chain(
        &self,
        mut i: usize,
        mut j: usize,
        u0: Seat,
        mut c: [i64; 2],
        buf: &mut Vec<i64>,
    ) -> i64 {
        let (a, b) = (&self.decks[0], &self.decks[1]);
        let stride = b.len() + 1;
        buf.clear();
        let mut u = u0;
        loop {
            // A pass clears the stack and gives the opponent an "open" position.
            let after = self.open[(i * stride + j) * 2 + (1 - u)];
            buf.push(c[0] - c[1] + after);
            let card = if u == 0 { a.get(i) } else { b.get(j) };
            let Some(&card) = card else { break };
            if u == 0 {
                i += 1;
            } else {
                j += 1;
            }
            add_card(&mut c, u, card);
            u = 1 - u;
        }
        // Backwards: the last step is a forced pass; before it, the mover
        // compares passing with what continuing is worth.
        let last = buf.len() - 1;
        let mut val = buf[last];
        for k in (0..last).rev() {
            let mover = u0 ^ (k & 1);
            val = best(mover, buf[k], val);
        }
        val
    }
}

/// The reference answer for two decks: P1's score minus P2's under best play.
pub fn solve(deck1: &[i64], deck2: &[i64]) -> i64 {
    Solver::new(deck1, deck2).root_value()
}

/// Updates "what a pass would score" when `owner` puts `card` on the stack.
#[inline]
pub(super) fn add_card(c: &mut [i64; 2], owner: Seat, card: i64) {
    if card == JAM {
        // Everything the opponent has on the stack is now buried.
        c[1 - owner] = 0;
    } else {
        c[owner] += card;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example() {
        assert_eq!(solve(&[100, JAM], &[200, 300]), -100);
    }

    #[test]
    fn action_values_agree_with_value() {
        let pos = Position::new([vec![100, JAM], vec![200, 300]]);
        let s = Solver::for_position(&pos);
        let av = s.action_values(&pos);
        let best = av.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(best, s.value(&pos));
    }
}
