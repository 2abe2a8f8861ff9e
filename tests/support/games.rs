//! `nim`, the bot tests' engine of alternate moves in the channel (with an
//! optional huge board and long choice lists to exercise Discord's limits).
//! The hidden simultaneous moves by DM are `rps` (`support::rps`), the one
//! test engine the host tests use too.

use games::seam::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Options of `nim`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct NimOptions {
    /// Stones on the pile (default 7).
    pub stones: Option<u32>,
    /// A board over 2000 characters and 30 select choices.
    pub big: bool,
}

/// Take 1 to 3 stones in turn; who takes the last stone wins.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Nim {
    stones: u32,
    to_move: Seat,
    big: bool,
    winner: Option<Seat>,
}

impl Game for Nim {
    type Action = u32;
    type Options = NimOptions;
    const KIND: &'static str = "nim";
    // Moves are open: prompted in the channel, like cards and puzzle.
    const MOVES_IN_CHANNEL: bool = true;
    fn seat_count(_: &NimOptions) -> usize {
        2
    }
    fn new_game(o: NimOptions, _seed: u64) -> Result<Self, OptionsError> {
        Ok(Nim {
            stones: o.stones.unwrap_or(7),
            to_move: 0,
            big: o.big,
            winner: None,
        })
    }
    fn seat_name(&self, seat: Seat) -> String {
        format!("Player {}", seat + 1)
    }
    fn awaiting(&self) -> Vec<Seat> {
        if self.winner.is_some() {
            vec![]
        } else {
            vec![self.to_move]
        }
    }
    fn parse_action(&self, _: Seat, text: &str) -> Result<u32, ActionError> {
        let t = text.trim().to_ascii_lowercase();
        let n = t
            .strip_prefix("take ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(|| {
                ActionError::new(
                    format!("`{t}` is not a move."),
                    "Write `take 1`, `take 2` or `take 3`.",
                )
            })?;
        self.validate(0, &n).map(|_| n)
    }
    fn validate(&self, _: Seat, n: &u32) -> Result<(), ActionError> {
        if (1..=3).contains(n) && *n <= self.stones {
            Ok(())
        } else {
            Err(ActionError::new(
                format!("You cannot take {n}."),
                format!("Take 1 to {}.", self.stones.min(3)),
            ))
        }
    }
    fn describe_action(&self, _: Seat, n: &u32) -> String {
        format!("take {n}")
    }
    fn resolve(&mut self, acts: BTreeMap<Seat, u32>) -> TurnReport {
        let n = acts[&self.to_move];
        self.stones -= n;
        let who = self.to_move;
        if self.stones == 0 {
            self.winner = Some(who);
        }
        self.to_move = 1 - who;
        TurnReport {
            public: format!("Player {} takes {n}; {} left.", who + 1, self.stones),
            private: BTreeMap::new(),
            detail: None,
        }
    }
    fn default_action(&self, _: Seat) -> u32 {
        1
    }
    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        self.winner = Some(1 - seat);
        TurnReport {
            public: format!("Player {} gives up.", seat + 1),
            private: BTreeMap::new(),
            detail: None,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }
    fn view(&self, viewer: Option<Seat>) -> View {
        let mut board = format!("Stones: {}", "o".repeat(self.stones as usize));
        if self.big {
            for i in 0..60 {
                board.push_str(&format!(
                    "\nline {i:02} of a very large board ....................."
                ));
            }
        }
        let mut choices = Vec::new();
        if viewer == Some(self.to_move) && self.winner.is_none() {
            for n in 1..=self.stones.min(3) {
                choices.push(ActionChoice {
                    label: format!("Take {n}"),
                    text: format!("take {n}"),
                    style: ChoiceStyle::Button,
                });
            }
            if self.big {
                for k in 0..30 {
                    choices.push(ActionChoice {
                        label: format!("Take 1 (way {k})"),
                        text: format!("take 1 way{k}"),
                        style: ChoiceStyle::Select,
                    });
                }
            }
        }
        View {
            board,
            status: match self.winner {
                Some(w) => format!("Player {} took the last stone.", w + 1),
                None => format!("Player {} to take.", self.to_move + 1),
            },
            choices,
        }
    }
    fn ai_levels() -> &'static [&'static str] {
        &["one"]
    }
    fn ai_action(&self, _: Seat, _: &str, _: AiBudget, _: u64) -> u32 {
        1
    }
}
