//! The rules of Invisible: positions, legal moves and how a move changes a
//! position (spec: `specs/cards.md`, AOJ 2741).
//!
//! Cards are plain `i64`s, exactly as in the reference input: a positive
//! value is a score card, [`JAM`] (`-1`) is a jamming card.
//!
//! Ambiguity resolved here: the spec ends the game when "the stack is empty
//! and the two players pass one after the other". We read it as its solving
//! section does: the game ends when a player passes **on an empty stack**
//! right after the opponent also passed **on an empty stack**. A pass that
//! clears a non-empty stack therefore never counts towards the end; after it
//! two more passes are needed. The game start counts as "stack empty, no pass
//! yet", so `pass, pass` at the very start ends the game 0 to 0.

use serde::{Deserialize, Serialize};

use crate::seam::Seat;

/// The jamming card, as written in the reference input.
pub const JAM: i64 = -1;
/// The most cards one deck may hold.
pub const MAX_DECK: usize = 50;
/// The largest value of a score card.
pub const MAX_VALUE: i64 = 1_000_000;

/// One move of the player whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// Put the top card of one's own deck on the stack.
    Play,
    /// Pass: score the stack (if any) and clear it.
    Pass,
}

/// Why a move or a deck was refused by the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// The player to move tried to play from an empty deck.
    #[error("your deck is empty")]
    EmptyDeck,
    /// A deck is empty or longer than [`MAX_DECK`].
    #[error("deck {deck} has {len} cards; a deck holds 1 to {MAX_DECK} cards")]
    DeckSize {
        /// 1 or 2.
        deck: usize,
        /// The size given.
        len: usize,
    },
    /// A card is neither a jamming card nor a score in range.
    #[error("card {card} of deck {deck} is {value}; a card is -1 (jam) or 1 to {MAX_VALUE}")]
    CardValue {
        /// 1 or 2.
        deck: usize,
        /// 1-based position from the top.
        card: usize,
        /// The value given.
        value: i64,
    },
}

/// Checks two decks against the spec's limits (1..=50 cards, cards -1 or 1..=1e6).
pub fn check_decks(decks: &[Vec<i64>; 2]) -> Result<(), RuleError> {
    for (d, deck) in decks.iter().enumerate() {
        if deck.is_empty() || deck.len() > MAX_DECK {
            return Err(RuleError::DeckSize {
                deck: d + 1,
                len: deck.len(),
            });
        }
        for (k, &v) in deck.iter().enumerate() {
            if v != JAM && !(1..=MAX_VALUE).contains(&v) {
                return Err(RuleError::CardValue {
                    deck: d + 1,
                    card: k + 1,
                    value: v,
                });
            }
        }
    }
    Ok(())
}

/// What one move did, for reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// The mover put this card on the stack.
    Played(i64),
    /// The mover passed on a non-empty stack; each seat gained these points.
    Scored([i64; 2]),
    /// The mover passed on an empty stack; the game goes on.
    PassedEmpty,
    /// The mover passed on an empty stack right after the opponent did: game over.
    Ended,
}

/// A full position: both decks, how far each has been played, the stack,
/// whose turn it is and the scores so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The two decks, top card first (seat 0's deck first).
    pub decks: [Vec<i64>; 2],
    /// Index of the next card of each deck (cards before it have been played).
    pub next: [usize; 2],
    /// The seat to move.
    pub to_move: Seat,
    /// The stack, bottom first: (owner, card).
    pub stack: Vec<(Seat, i64)>,
    /// Whether the last move was a pass on an empty stack (one more such pass ends the game).
    pub passed_on_empty: bool,
    /// Points scored so far by each seat.
    pub scores: [i64; 2],
    /// Whether the game has ended by two passes on an empty stack.
    pub over: bool,
}

impl Position {
    /// The starting position for two decks (not checked: see [`check_decks`]).
    pub fn new(decks: [Vec<i64>; 2]) -> Self {
        Position {
            decks,
            next: [0, 0],
            to_move: 0,
            stack: Vec::new(),
            passed_on_empty: false,
            scores: [0, 0],
            over: false,
        }
    }

    /// The cards `seat` has not played yet, top first.
    pub fn remaining(&self, seat: Seat) -> &[i64] {
        &self.decks[seat][self.next[seat]..]
    }

    /// Whether `Play` is legal for the seat to move (its deck is not empty).
    pub fn can_play(&self) -> bool {
        !self.over && self.next[self.to_move] < self.decks[self.to_move].len()
    }

    /// The legal moves of the seat to move (empty once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.over {
            Vec::new()
        } else if self.can_play() {
            vec![Move::Play, Move::Pass]
        } else {
            vec![Move::Pass]
        }
    }

    /// What each seat would score if the stack were passed now.
    pub fn stack_points(&self) -> [i64; 2] {
        stack_points(&self.stack)
    }

    /// P1's score minus P2's score so far.
    pub fn score_diff(&self) -> i64 {
        self.scores[0] - self.scores[1]
    }

    /// Applies one move of the seat to move.
    pub fn apply(&mut self, mv: Move) -> Result<Effect, RuleError> {
        if self.over {
            return Err(RuleError::GameOver);
        }
        let me = self.to_move;
        let effect = match mv {
            Move::Play => {
                let Some(&card) = self.decks[me].get(self.next[me]) else {
                    return Err(RuleError::EmptyDeck);
                };
                self.next[me] += 1;
                self.stack.push((me, card));
                self.passed_on_empty = false;
                Effect::Played(card)
            }
            Move::Pass if self.stack.is_empty() => {
                if self.passed_on_empty {
                    self.over = true;
                    Effect::Ended
                } else {
                    self.passed_on_empty = true;
                    Effect::PassedEmpty
                }
            }
            Move::Pass => {
                let gained = self.stack_points();
                self.scores[0] += gained[0];
                self.scores[1] += gained[1];
                self.stack.clear();
                // Passing on a non-empty stack never counts towards the end.
                self.passed_on_empty = false;
                Effect::Scored(gained)
            }
        };
        if !self.over {
            self.to_move = 1 - me;
        }
        Ok(effect)
    }
}

/// What each seat scores from a stack (bottom first): its own score cards
/// lying above every jamming card the opponent put there.
pub fn stack_points(stack: &[(Seat, i64)]) -> [i64; 2] {
    let mut points = [0i64; 2];
    // Walk down from the top; a seat stops counting at the first jam of its opponent.
    let mut blocked = [false; 2];
    for &(owner, card) in stack.iter().rev() {
        if card == JAM {
            blocked[1 - owner] = true;
        } else if !blocked[owner] {
            points[owner] += card;
        }
        if blocked[0] && blocked[1] {
            break;
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_jam_does_not_block_own_cards() {
        assert_eq!(stack_points(&[(0, 5), (0, JAM), (1, 7), (0, 3)]), [8, 7]);
    }

    #[test]
    fn opponent_jam_blocks_cards_below_it() {
        assert_eq!(stack_points(&[(0, 5), (1, JAM), (0, 3), (1, 4)]), [3, 4]);
        assert_eq!(
            stack_points(&[(1, 4), (0, 5), (1, JAM), (0, 3), (0, JAM)]),
            [3, 0]
        );
    }

    #[test]
    fn clearing_pass_does_not_count_towards_the_end() {
        let mut p = Position::new([vec![1], vec![2]]);
        p.apply(Move::Play).unwrap();
        assert_eq!(p.apply(Move::Pass).unwrap(), Effect::Scored([1, 0]));
        assert_eq!(p.apply(Move::Pass).unwrap(), Effect::PassedEmpty);
        assert!(!p.over);
        assert_eq!(p.apply(Move::Pass).unwrap(), Effect::Ended);
        assert!(p.over);
        assert_eq!(p.apply(Move::Pass), Err(RuleError::GameOver));
    }

    #[test]
    fn play_from_empty_deck_is_refused() {
        let mut p = Position::new([vec![1], vec![2]]);
        p.apply(Move::Play).unwrap();
        p.apply(Move::Play).unwrap();
        assert_eq!(p.apply(Move::Play), Err(RuleError::EmptyDeck));
        assert_eq!(p.legal_moves(), vec![Move::Pass]);
    }
}
