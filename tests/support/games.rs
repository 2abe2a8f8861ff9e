//! Tiny engines for the bot's tests: `hands` (simultaneous hidden throws,
//! moves by DM) and `nim` (alternate moves in the channel, optional huge
//! board and long choice lists to exercise Discord's limits).

use games::seam::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

const THROWS: [&str; 3] = ["rock", "paper", "scissors"];

fn beats(a: usize, b: usize) -> bool {
    (a + 3 - b) % 3 == 1
}

/// Options of `hands`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct HandsOptions {
    /// Wins needed (default 2).
    pub wins: Option<u32>,
}

/// Rock-paper-scissors to `wins` wins; both throw at once, hidden.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Hands {
    wins: u32,
    score: [u32; 2],
    round: u32,
    winner: Option<Seat>,
}

impl Game for Hands {
    type Action = usize;
    type Options = HandsOptions;
    const KIND: &'static str = "hands";
    fn seat_count(_: &HandsOptions) -> usize {
        2
    }
    fn new_game(o: HandsOptions, _seed: u64) -> Result<Self, OptionsError> {
        Ok(Hands {
            wins: o.wins.unwrap_or(2),
            score: [0, 0],
            round: 0,
            winner: None,
        })
    }
    fn seat_name(&self, seat: Seat) -> String {
        format!("Hand {}", seat + 1)
    }
    fn awaiting(&self) -> Vec<Seat> {
        if self.winner.is_some() {
            vec![]
        } else {
            vec![0, 1]
        }
    }
    fn parse_action(&self, _: Seat, text: &str) -> Result<usize, ActionError> {
        let t = text.trim().to_ascii_lowercase();
        THROWS.iter().position(|x| *x == t).ok_or_else(|| {
            ActionError::new(
                format!("`{t}` is not a throw."),
                "Throw rock, paper or scissors.",
            )
        })
    }
    fn validate(&self, _: Seat, a: &usize) -> Result<(), ActionError> {
        if *a < 3 {
            Ok(())
        } else {
            Err(ActionError::new("bad throw", "rock, paper or scissors"))
        }
    }
    fn describe_action(&self, _: Seat, a: &usize) -> String {
        THROWS[*a % 3].to_string()
    }
    fn resolve(&mut self, acts: BTreeMap<Seat, usize>) -> TurnReport {
        let (a, b) = (acts[&0], acts[&1]);
        self.round += 1;
        if beats(a, b) {
            self.score[0] += 1;
        } else if beats(b, a) {
            self.score[1] += 1;
        }
        for s in 0..2 {
            if self.score[s] >= self.wins {
                self.winner = Some(s);
            }
        }
        let mut private = BTreeMap::new();
        private.insert(
            0,
            format!("Secret note for hand 1 in round {}.", self.round),
        );
        TurnReport {
            public: format!(
                "Round {}: {} against {}. Score {}-{}.",
                self.round, THROWS[a], THROWS[b], self.score[0], self.score[1]
            ),
            private,
            detail: None,
        }
    }
    fn default_action(&self, _: Seat) -> usize {
        0
    }
    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        self.winner = Some(1 - seat);
        TurnReport {
            public: format!("Hand {} gives up.", seat + 1),
            private: BTreeMap::new(),
            detail: None,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }
    fn view(&self, viewer: Option<Seat>) -> View {
        View {
            board: format!(
                "Score {}-{} after {} rounds",
                self.score[0], self.score[1], self.round
            ),
            status: match self.winner {
                Some(w) => format!("Hand {} won.", w + 1),
                None => "Both hands throw.".into(),
            },
            choices: match viewer {
                Some(_) if self.winner.is_none() => THROWS
                    .iter()
                    .map(|t| ActionChoice {
                        label: t.to_string(),
                        text: t.to_string(),
                        style: ChoiceStyle::Button,
                    })
                    .collect(),
                _ => vec![],
            },
        }
    }
    fn ai_levels() -> &'static [&'static str] {
        &["rock"]
    }
    fn ai_action(&self, _: Seat, _: &str, _: AiBudget, _: u64) -> usize {
        0
    }
}

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
