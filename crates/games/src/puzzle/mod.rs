//! Puzzle duel: two 9x15 fields of three colours; on each turn each player
//! removes a group of five or more and sends hard or soft garbage to the
//! other's column queues (rules: `shared/specs/puzzle.md`).

pub mod ai;
pub mod engine;
pub mod field;
pub mod garbage;
pub mod groups;
pub mod guide;
pub mod notation;
pub mod record;
mod text;

use crate::seam::{
    ActionChoice, ActionError, AiBudget, ChoiceStyle, Game, OptionsError, Outcome, Seat,
    TurnReport, View,
};
use field::{COLOR_NAMES, Field, Queues, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use engine::{MoveRecord, Removal};

/// The number of turns after which the game ends on the garbage score.
///
/// Choice: "after the 200th turn" means after both players' removals of
/// turn 200 (a turn is first player then second player).
pub const TURN_LIMIT: u32 = 200;

/// At most this many select entries are offered (a Discord select menu's
/// limit); the largest groups come first and any other group can still be
/// named by a cell. A field rarely has more than 20 groups.
pub const MAX_CHOICES: usize = 25;

/// How a puzzle duel is set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleOptions {
    /// Both players start from the same field (a fair start).
    pub fair_start: bool,
    /// Draw the first player at random from the seed; otherwise seat 0
    /// moves first in every turn (the seam's convention).
    pub random_first: bool,
    /// Turns before the score decides (the spec's 200; 1..=1000 allowed).
    pub max_turns: u32,
}

impl Default for PuzzleOptions {
    fn default() -> Self {
        PuzzleOptions {
            fair_start: false,
            random_first: false,
            max_turns: TURN_LIMIT,
        }
    }
}

/// One removal: any cell of the group, 1-based as in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleAction {
    /// Column, 1..=9 from the left.
    pub x: usize,
    /// Row, 1..=15 from the top.
    pub y: usize,
}

/// Why the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// These seats had no group of 5 when it was their move.
    Stuck {
        /// The seats that could not remove.
        seats: Vec<Seat>,
    },
    /// The turn limit was reached; scores per seat (lower wins).
    TurnLimit {
        /// `2 * hard + soft` garbage on the field and in the queues.
        scores: [u32; 2],
    },
    /// This seat gave up.
    Forfeit {
        /// The seat that gave up.
        seat: Seat,
    },
}

/// The end of a game: the outcome and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    /// Who won, or the draw.
    pub outcome: Outcome,
    /// Why.
    pub reason: EndReason,
}

/// A puzzle duel in progress or finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PuzzleDuel {
    /// The options it was created with.
    pub options: PuzzleOptions,
    /// Seat 0's and seat 1's field and queues.
    pub sides: [Side; 2],
    /// The seat that moves first in every turn.
    pub first: Seat,
    /// The current turn, from 1.
    pub turn: u32,
    /// False while the first player of the turn is to move.
    pub second_to_move: bool,
    /// Set once the game is over.
    pub finish: Option<Finish>,
    /// The latest removal, for display.
    pub last: Option<MoveRecord>,
    /// Every random draw of the game (fields, refills, garbage columns).
    rng: ChaCha8Rng,
}

impl PuzzleDuel {
    /// Creates a game; see [`PuzzleOptions`].
    pub fn create(options: PuzzleOptions, seed: u64) -> Result<Self, OptionsError> {
        if !(1..=1000).contains(&options.max_turns) {
            return Err(OptionsError(format!(
                "max_turns must be between 1 and 1000 (the rules use {TURN_LIMIT}), not {}.",
                options.max_turns
            )));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let first = if options.random_first {
            rng.gen_range(0..2)
        } else {
            0
        };
        let f0 = Field::random(&mut rng);
        let f1 = if options.fair_start {
            f0.clone()
        } else {
            Field::random(&mut rng)
        };
        let mut g = PuzzleDuel {
            options,
            sides: [
                Side {
                    field: f0,
                    queues: Queues::default(),
                },
                Side {
                    field: f1,
                    queues: Queues::default(),
                },
            ],
            first,
            turn: 1,
            second_to_move: false,
            finish: None,
            last: None,
            rng,
        };
        g.check_turn_start();
        Ok(g)
    }

    /// Builds a position directly (for tests and analysis): the game is at
    /// the start of `turn` with `first` to move, and the usual start-of-turn
    /// check is applied.
    pub fn from_sides(sides: [Side; 2], first: Seat, turn: u32, seed: u64) -> Self {
        let mut g = PuzzleDuel {
            options: PuzzleOptions::default(),
            sides,
            first: first.min(1),
            turn: turn.max(1),
            second_to_move: false,
            finish: None,
            last: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        g.check_turn_start();
        g
    }

    /// The compact text form of both fields (see [`text::render_text`]).
    pub fn text_board(&self) -> String {
        text::render_text(self)
    }

    /// "Player 1" / "Player 2".
    pub fn seat_label(&self, seat: Seat) -> String {
        format!("Player {}", seat + 1)
    }

    /// The removable groups of `seat`'s field, largest first.
    pub fn groups_of(&self, seat: Seat) -> Vec<groups::Group> {
        let mut gs = groups::find_groups(&self.sides[seat.min(1)].field);
        gs.sort_by(|a, b| b.size().cmp(&a.size()).then(a.cells[0].cmp(&b.cells[0])));
        gs
    }

    /// "3 groups are available: c7 (red 12), ..." for error messages.
    pub fn available_text(&self, seat: Seat) -> String {
        let gs = self.groups_of(seat);
        if gs.is_empty() {
            return "No group of 5 or more is available.".into();
        }
        let list: Vec<String> = gs
            .iter()
            .map(|g| {
                let (x, y) = g.anchor_xy1();
                format!(
                    "{} ({} {})",
                    notation::format_cell(x, y),
                    COLOR_NAMES[usize::from(g.color)],
                    g.size()
                )
            })
            .collect();
        let n = gs.len();
        let head = if n == 1 {
            "1 group is available".to_string()
        } else {
            format!("{n} groups are available")
        };
        format!("{head}: {}.", list.join(", "))
    }

    /// Plays a validated action for the seat to move and describes it.
    fn play_report(&mut self, seat: Seat, a: PuzzleAction) -> Result<String, ActionError> {
        let r = self.play(seat, a.x, a.y)?;
        let mut s = format!(
            "{} removed {} {} at {} ({},{})",
            self.seat_label(seat),
            r.color,
            r.size,
            notation::format_cell(r.x, r.y),
            r.x,
            r.y
        );
        if r.o + r.w > 0 {
            s.push_str(&format!(" catching {} garbage ({} hard hit)", r.o, r.w));
        }
        match r.sent_kind {
            Some(k) => s.push_str(&format!(
                ": {} {} garbage sent to {}.",
                r.sent_count,
                k.name(),
                self.seat_label(1 - seat)
            )),
            None => s.push_str(": no garbage sent."),
        }
        Ok(s)
    }

    /// One line saying how the game ended, or whose move it is.
    pub fn status_line(&self) -> String {
        match &self.finish {
            Some(f) => {
                let why = match &f.reason {
                    EndReason::Stuck { seats } if seats.len() == 2 => {
                        "neither player has a group of 5".to_string()
                    }
                    EndReason::Stuck { seats } => format!(
                        "{} has no group of 5",
                        self.seat_label(seats.first().copied().unwrap_or(0))
                    ),
                    EndReason::TurnLimit { scores } => format!(
                        "turn limit reached, garbage scores {} to {}",
                        scores[0], scores[1]
                    ),
                    EndReason::Forfeit { seat } => {
                        format!("{} forfeited", self.seat_label(*seat))
                    }
                };
                match &f.outcome {
                    Outcome::Win(s) => format!("{} wins: {why}.", self.seat_label(*s)),
                    Outcome::Draw(_) => format!("Draw: {why}."),
                }
            }
            None => {
                let m = self.mover().unwrap_or(0);
                format!(
                    "Turn {}/{}: {} to move ({} player).",
                    self.turn,
                    self.options.max_turns,
                    self.seat_label(m),
                    if self.second_to_move {
                        "second"
                    } else {
                        "first"
                    }
                )
            }
        }
    }
}

impl Game for PuzzleDuel {
    type Action = PuzzleAction;
    type Options = PuzzleOptions;

    const KIND: &'static str = "puzzle";
    // Moves are played openly in the channel; the two fields have an image.
    const MOVES_IN_CHANNEL: bool = true;
    const DEFAULT_TURN_SECONDS: u64 = 600;
    const BOARD_IMAGE: Option<&'static str> = Some("puzzle-fields");

    fn seat_count(_options: &PuzzleOptions) -> usize {
        2
    }

    fn new_game(options: PuzzleOptions, seed: u64) -> Result<Self, OptionsError> {
        PuzzleDuel::create(options, seed)
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.seat_label(seat)
    }

    /// One player at a time, in the spec's turn order.
    fn awaiting(&self) -> Vec<Seat> {
        self.mover().into_iter().collect()
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<PuzzleAction, ActionError> {
        let (x, y) = notation::parse_cell(text).map_err(|p| {
            let mut hint = notation::CELL_HELP.to_string();
            if self.mover() == Some(seat) {
                hint.push(' ');
                hint.push_str(&self.available_text(seat));
            }
            ActionError::new(p, hint)
        })?;
        let a = PuzzleAction { x, y };
        self.validate(seat, &a)?;
        Ok(a)
    }

    fn validate(&self, seat: Seat, action: &PuzzleAction) -> Result<(), ActionError> {
        let Some(mover) = self.mover() else {
            return Err(ActionError::new(
                "The game is over.",
                "No more moves can be made.",
            ));
        };
        if seat != mover {
            return Err(ActionError::new(
                format!("It is not {}'s move.", self.seat_label(seat)),
                format!("Wait for {} to move.", self.seat_label(mover)),
            ));
        }
        if !(1..=field::WIDTH).contains(&action.x) || !(1..=field::HEIGHT).contains(&action.y) {
            return Err(ActionError::new(
                format!("({},{}) is off the field.", action.x, action.y),
                notation::CELL_HELP,
            ));
        }
        self.group_at(seat, field::idx(action.x - 1, action.y - 1))
            .map(|_| ())
            .map_err(|p| ActionError::new(p, self.available_text(seat)))
    }

    fn describe_action(&self, _seat: Seat, action: &PuzzleAction) -> String {
        format!(
            "{} ({},{})",
            notation::format_cell(action.x, action.y),
            action.x,
            action.y
        )
    }

    fn resolve(&mut self, actions: BTreeMap<Seat, PuzzleAction>) -> TurnReport {
        let Some(seat) = self.mover() else {
            return TurnReport::default();
        };
        let mut public = String::new();
        let action = match actions.get(&seat) {
            Some(a) if self.validate(seat, a).is_ok() => *a,
            _ => {
                // Never panic on a stale or missing action: play the default.
                public.push_str(&format!(
                    "{} had no legal move recorded; the largest group was removed. ",
                    self.seat_label(seat)
                ));
                self.default_action(seat)
            }
        };
        match self.play_report(seat, action) {
            Ok(s) => public.push_str(&s),
            Err(e) => public.push_str(&e.to_string()),
        }
        if self.finish.is_some() {
            public.push('\n');
            public.push_str(&self.status_line());
        }
        TurnReport {
            public,
            private: BTreeMap::new(),
            detail: None,
        }
    }

    /// The largest group (topmost-leftmost on ties): what a timed-out player removes.
    fn default_action(&self, seat: Seat) -> PuzzleAction {
        match self.groups_of(seat).first() {
            Some(g) => {
                let (x, y) = g.anchor_xy1();
                PuzzleAction { x, y }
            }
            None => PuzzleAction { x: 1, y: 1 },
        }
    }

    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        if self.finish.is_some() || seat > 1 {
            return TurnReport::default();
        }
        self.finish = Some(Finish {
            outcome: Outcome::Win(1 - seat),
            reason: EndReason::Forfeit { seat },
        });
        TurnReport {
            public: self.status_line(),
            private: BTreeMap::new(),
            detail: None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finish.as_ref().map(|f| f.outcome.clone())
    }

    /// Both fields are public; the seat to move gets one select entry per
    /// group, largest first (at most [`MAX_CHOICES`]).
    fn rules(&self, _viewer: Option<Seat>) -> String {
        guide::rules_text(self.options.max_turns)
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        let choices = match viewer {
            Some(v) if self.mover() == Some(v) => self
                .groups_of(v)
                .iter()
                .take(MAX_CHOICES)
                .map(|g| {
                    let (x, y) = g.anchor_xy1();
                    let cell = notation::format_cell(x, y);
                    ActionChoice {
                        label: format!(
                            "{} {} ({cell})",
                            COLOR_NAMES[usize::from(g.color)],
                            g.size()
                        ),
                        text: cell,
                        style: ChoiceStyle::Select,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        View {
            board: text::render_text(self),
            status: self.status_line(),
            choices,
        }
    }

    fn ai_levels() -> &'static [&'static str] {
        ai::LEVELS
    }

    fn check_ai_level(level: &str) -> Result<(), String> {
        ai::check_level(level)
    }

    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> PuzzleAction {
        ai::choose(self, seat, level, budget, seed)
    }
}
