//! Invisible, the card duel of perfect information (`specs/cards.md`).
//!
//! Two seats alternate `play` / `pass` on one shared stack; see [`rules`]
//! for the rules (and how the spec's end condition is read), [`solver`] for
//! the exact solver the `exact` AI uses, [`deal`] for the options.

mod ai;
pub mod deal;
mod empty_stack;
pub mod guide;
mod lanes;
pub mod notation;
pub mod rules;
pub mod solver;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::seam::{
    ActionChoice, ActionError, AiBudget, ChoiceStyle, Game, OptionsError, Outcome, Seat,
    TurnReport, View,
};

pub use deal::InvisibleOptions;
pub use rules::{Effect, JAM, Move, Position};
pub use solver::{Solver, solve};

use notation::{card_phrase, card_text, move_hint, move_text, parse_move, wrap_cards};

/// Widest board line (the board goes into a monospace block).
const BOARD_WIDTH: usize = 78;

/// An Invisible game as the host stores it.
///
/// Randomness is only used to deal the decks at creation (from the seed,
/// kept here so the deal can be reproduced); play itself is deterministic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invisible {
    /// The position: decks, stack, scores, whose turn.
    pos: Position,
    /// The seed the decks were dealt from.
    seed: u64,
    /// Moves made so far.
    moves: u32,
    /// The seat that gave up, if any.
    forfeited: Option<Seat>,
    /// One sentence about the last move, for the board.
    last: Option<String>,
}

impl Invisible {
    /// The current position (decks, stack, scores).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The seed the decks were dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether play has stopped (two passes on an empty stack, or a forfeit).
    pub fn is_over(&self) -> bool {
        self.pos.over || self.forfeited.is_some()
    }

    /// Why `mv` is not legal for `seat` now, if it is not.
    fn check(
        &self,
        seat: Seat,
        mv: Option<Move>,
        typed: Option<&str>,
    ) -> Result<Move, ActionError> {
        if self.is_over() {
            return Err(ActionError::new(
                "The game is over.",
                "No moves are possible any more.",
            ));
        }
        if seat != self.pos.to_move {
            return Err(ActionError::new(
                "It is not your turn.",
                format!(
                    "You have no legal move now; wait for {} to move.",
                    self.seat_name(self.pos.to_move)
                ),
            ));
        }
        let legal = self.pos.legal_moves();
        let hint = || {
            let words: Vec<&str> = legal.iter().map(|&m| move_hint(m)).collect();
            if words.len() == 1 {
                format!("The only legal move is {}.", words[0])
            } else {
                format!("Type {}.", words.join(" or "))
            }
        };
        match mv {
            None => Err(ActionError::new(
                format!(
                    "`{}` is not a move.",
                    crate::clip::clip_typed(typed.unwrap_or("").trim())
                ),
                hint(),
            )),
            Some(Move::Play) if !self.pos.can_play() => Err(ActionError::new(
                "Your deck is empty, so you cannot play.",
                hint(),
            )),
            Some(mv) => Ok(mv),
        }
    }

    /// The board text shared by every viewer (the game has no hidden information).
    fn board(&self) -> String {
        let mut lines = vec![format!("Invisible, move {}", self.moves + 1)];
        for seat in 0..2 {
            let rest: Vec<String> = self
                .pos
                .remaining(seat)
                .iter()
                .map(|&c| card_text(c))
                .collect();
            let head = format!(
                "{} ({} pts) deck [{} left, top first]:",
                self.seat_name(seat),
                self.pos.scores[seat],
                rest.len()
            );
            let rest = if rest.is_empty() {
                vec!["-".to_string()]
            } else {
                rest
            };
            lines.push(wrap_cards(&head, &rest, 4, BOARD_WIDTH));
        }
        if self.pos.stack.is_empty() {
            lines.push("Stack: empty".to_string());
        } else {
            let cards: Vec<String> = self
                .pos
                .stack
                .iter()
                // Each card with who played it; the host puts the
                // players' names where the seat names are.
                .map(|&(o, c)| format!("{}:{}", self.seat_name(o), card_text(c)))
                .collect();
            lines.push(wrap_cards("Stack (bottom to top):", &cards, 4, BOARD_WIDTH));
            let p = self.pos.stack_points();
            lines.push(format!(
                "A pass now scores: Player 1 +{}, Player 2 +{}",
                p[0], p[1]
            ));
        }
        if let Some(last) = &self.last {
            lines.push(format!("Last: {last}"));
        }
        lines.join("\n")
    }

    /// One line: whose move it is, or how the game ended.
    fn status(&self) -> String {
        let [s1, s2] = self.pos.scores;
        if let Some(f) = self.forfeited {
            return format!(
                "Game over: {} forfeited; {} wins.",
                self.seat_name(f),
                self.seat_name(1 - f)
            );
        }
        if self.pos.over {
            return match s1.cmp(&s2) {
                std::cmp::Ordering::Greater => format!("Game over: Player 1 wins {s1} to {s2}."),
                std::cmp::Ordering::Less => format!("Game over: Player 2 wins {s2} to {s1}."),
                std::cmp::Ordering::Equal => format!("Game over: a draw, {s1} to {s2}."),
            };
        }
        let who = self.seat_name(self.pos.to_move);
        if self.pos.stack.is_empty() && self.pos.passed_on_empty {
            format!("{who} to move; a pass now ends the game.")
        } else if self.pos.can_play() {
            format!("{who} to move: play or pass.")
        } else {
            format!("{who} to move: deck empty, must pass.")
        }
    }
}

impl Game for Invisible {
    type Action = Move;
    type Options = InvisibleOptions;

    const KIND: &'static str = "cards";
    // Moves are played openly in the channel.
    const MOVES_IN_CHANNEL: bool = true;
    const DEFAULT_TURN_SECONDS: u64 = 600;

    fn seat_count(_options: &Self::Options) -> usize {
        2
    }

    fn new_game(options: Self::Options, seed: u64) -> Result<Self, OptionsError> {
        let decks = options.decks(seed)?;
        Ok(Invisible {
            pos: Position::new(decks),
            seed,
            moves: 0,
            forfeited: None,
            last: None,
        })
    }

    fn seat_name(&self, seat: Seat) -> String {
        format!("Player {}", seat + 1)
    }

    fn awaiting(&self) -> Vec<Seat> {
        if self.is_over() {
            Vec::new()
        } else {
            vec![self.pos.to_move]
        }
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Move, ActionError> {
        self.check(seat, parse_move(text), Some(text))
    }

    fn validate(&self, seat: Seat, action: &Move) -> Result<(), ActionError> {
        self.check(seat, Some(*action), None).map(|_| ())
    }

    fn describe_action(&self, _seat: Seat, action: &Move) -> String {
        move_text(*action).to_string()
    }

    /// Applies the mover's action. A missing action changes nothing; an
    /// illegal one (a play from an empty deck) is replaced by `pass`, the
    /// only move that is always legal.
    fn resolve(&mut self, actions: BTreeMap<Seat, Move>) -> TurnReport {
        if self.is_over() {
            return TurnReport {
                public: "The game is already over.".to_string(),
                ..Default::default()
            };
        }
        let me = self.pos.to_move;
        let Some(&wanted) = actions.get(&me) else {
            return TurnReport {
                public: format!("{} has not moved yet.", self.seat_name(me)),
                ..Default::default()
            };
        };
        let mv = if self.validate(me, &wanted).is_ok() {
            wanted
        } else {
            Move::Pass
        };
        let name = self.seat_name(me);
        let text = match self.pos.apply(mv) {
            Ok(Effect::Played(card)) => format!("{name} plays {}.", card_phrase(card)),
            Ok(Effect::Scored([p1, p2])) => {
                format!("{name} passes: Player 1 +{p1}, Player 2 +{p2}; stack cleared.")
            }
            Ok(Effect::PassedEmpty) => format!("{name} passes on the empty stack."),
            Ok(Effect::Ended) => format!("{name} passes too: the game is over."),
            Err(e) => format!("{name} could not move: {e}."),
        };
        self.moves += 1;
        self.last = Some(text.clone());
        let public = if self.is_over() {
            format!("{text} {}", self.status())
        } else {
            text
        };
        TurnReport {
            public,
            ..Default::default()
        }
    }

    /// A seat that runs out of time passes: always legal, never gives points away.
    fn default_action(&self, _seat: Seat) -> Move {
        Move::Pass
    }

    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        if self.is_over() {
            return TurnReport {
                public: "The game is already over.".to_string(),
                ..Default::default()
            };
        }
        let seat = seat.min(1);
        self.forfeited = Some(seat);
        self.last = Some(format!("{} forfeited.", self.seat_name(seat)));
        TurnReport {
            public: self.status(),
            ..Default::default()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(f) = self.forfeited {
            return Some(Outcome::Win(1 - f));
        }
        if !self.pos.over {
            return None;
        }
        let [s1, s2] = self.pos.scores;
        Some(match s1.cmp(&s2) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
        })
    }

    fn rules(&self, _viewer: Option<Seat>) -> String {
        guide::rules_text()
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        let mut choices = Vec::new();
        if viewer == Some(self.pos.to_move) && !self.is_over() {
            for mv in self.pos.legal_moves() {
                let label = match mv {
                    Move::Play => match self.pos.remaining(self.pos.to_move).first() {
                        Some(&JAM) => "Play jam".to_string(),
                        Some(&c) => format!("Play {c}"),
                        None => "Play".to_string(),
                    },
                    Move::Pass if self.pos.stack.is_empty() && self.pos.passed_on_empty => {
                        "Pass (ends the game)".to_string()
                    }
                    Move::Pass if self.pos.stack.is_empty() => "Pass".to_string(),
                    Move::Pass => {
                        // The mover reads it: points as "you" and the
                        // opponent, not seat numbers.
                        let p = self.pos.stack_points();
                        let me = self.pos.to_move.min(1);
                        format!("Pass (you +{}, opponent +{})", p[me], p[1 - me])
                    }
                };
                choices.push(ActionChoice {
                    label,
                    text: move_text(mv).to_string(),
                    style: ChoiceStyle::Button,
                });
            }
        }
        View {
            board: self.board(),
            status: self.status(),
            choices,
        }
    }

    fn ai_levels() -> &'static [&'static str] {
        ai::LEVELS
    }

    fn ai_action(&self, seat: Seat, level: &str, _budget: AiBudget, seed: u64) -> Move {
        // The exact solver takes well under a millisecond, so the budget never binds.
        if self.is_over() || seat != self.pos.to_move {
            return Move::Pass;
        }
        ai::choose(&self.pos, level, seed)
    }
}
