//! The one seam between the host and every game engine.
//!
//! Engines implement [`Game`]; the host only ever sees a game through the
//! type-erased `AnyGame` (in the host crate) built on top of it. This
//! file is pure (serde only), so every engine can depend on it without
//! pulling in the host, the store or Discord.

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

/// A seat at the table, numbered from 0 (seat 0 moves first where order matters).
pub type Seat = usize;

/// Why a player's text or action was refused: what was wrong and what would be right.
///
/// Both halves are shown to the player, so write them as sentences for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{problem} {expected}")]
pub struct ActionError {
    /// What was wrong, e.g. "`Pari` is not a province."
    pub problem: String,
    /// What would be right, e.g. "Did you mean `Paris` (par)?"
    pub expected: String,
}

impl ActionError {
    /// An error with a problem and a hint at what would be accepted.
    pub fn new(problem: impl Into<String>, expected: impl Into<String>) -> Self {
        ActionError {
            problem: problem.into(),
            expected: expected.into(),
        }
    }
}

/// Why a game could not be created from the options a player gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{0}")]
pub struct OptionsError(pub String);

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// One seat won outright.
    Win(Seat),
    /// A draw shared by these seats (all seats still in the game; never empty).
    Draw(Vec<Seat>),
}

/// One legal action offered to a player, so a front-end can draw a button or
/// a select option for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionChoice {
    /// Short text for a button or menu entry, e.g. "Flame Burst (40, 90%)".
    pub label: String,
    /// The exact text that [`Game::parse_action`] accepts for this choice.
    pub text: String,
    /// How a front-end should group it: buttons for a few main actions, a
    /// select menu for longer lists (switches, cells).
    pub style: ChoiceStyle,
}

/// Where an [`ActionChoice`] belongs in a user interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChoiceStyle {
    /// A button (at most a handful per game).
    Button,
    /// An entry of a select menu.
    Select,
}

/// What a seat still owes this turn, so a reminder before the deadline
/// goes only to seats that lack something and says what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outstanding {
    /// The engine does not say: every seat without a final action is
    /// reminded, as for any game (the default).
    Unknown,
    /// Nothing: what the seat sent stands at the deadline as it is.
    Nothing,
    /// What is missing, as a sentence for the player ("2 of 4 units have no
    /// order (A Vie, F Tri); they hold at the deadline.").
    Missing(String),
}

/// What one viewer may see of a game right now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct View {
    /// The board as plain text (fits a monospace code block; lines under 80 chars).
    pub board: String,
    /// One line saying whose move it is or how the game ended.
    pub status: String,
    /// The legal actions of the viewer's seat now (empty for spectators or
    /// when the seat has nothing to do, and for games whose actions are free
    /// text such as Diplomacy orders).
    pub choices: Vec<ActionChoice>,
}

/// What the resolution of one turn produced, for the turn log and the channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TurnReport {
    /// Public text of what happened, shown to everyone.
    pub public: String,
    /// Extra text only one seat may read (e.g. its own receipts), by seat.
    pub private: BTreeMap<Seat, String>,
    /// Structured, game-defined detail of what happened, for renderers that
    /// draw a turn without replaying it (Diplomacy: the adjudicated orders
    /// and outcomes). `None` for games without one and in turn-log rows
    /// written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<serde_json::Value>,
}

/// The host's answer to "is the AI's thinking time up?".
///
/// Engines never read a clock (they must stay pure and replayable); the
/// host builds one of these from its own clock and hands it in with the
/// [`AiBudget`], so a game only ever asks whether to stop.
pub trait Stopwatch: Send + Sync + Debug {
    /// True once the time given to the AI has run out.
    fn expired(&self) -> bool;
}

/// How much an AI may think. Engines honour whichever limit comes first;
/// with only `iterations` set the AI is deterministic for a given seed.
#[derive(Debug, Clone, Default)]
pub struct AiBudget {
    /// Upper bound on search iterations / playouts (engine-defined unit).
    pub iterations: Option<u64>,
    /// The host's stopwatch: once it says the time is up, the AI answers
    /// with its best so far.
    pub deadline: Option<Arc<dyn Stopwatch>>,
}

impl AiBudget {
    /// A budget of a fixed number of iterations and no clock.
    pub fn iterations(n: u64) -> Self {
        AiBudget {
            iterations: Some(n),
            deadline: None,
        }
    }

    /// True when the host's stopwatch (if any) says the time is up.
    pub fn expired(&self) -> bool {
        self.deadline.as_ref().is_some_and(|d| d.expired())
    }
}

/// A game engine as the host drives it.
///
/// Contract:
/// - every seat listed by [`Game::awaiting`] must submit an action before
///   [`Game::resolve`] is called with exactly those seats' actions;
/// - [`Game::parse_action`] both parses and validates against the current
///   position, so an `Ok` action is legal for that seat now;
/// - the engine is deterministic: all randomness comes from a seeded
///   generator stored in the serialised state.
pub trait Game: Serialize + DeserializeOwned + Clone + Send + Sync + 'static {
    /// One seat's action for one turn.
    type Action: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// Options chosen when the game is created (team size, deck sizes, ...).
    type Options: Serialize + DeserializeOwned + Default + Clone + Debug;

    /// The stable name of this kind of game, used in the database and commands.
    const KIND: &'static str;
    /// Whether players move in the game's channel (open moves, prompted
    /// there with buttons) rather than by DM (hidden moves, the default).
    const MOVES_IN_CHANNEL: bool = false;
    /// The longest action text a player may send, in characters (a host
    /// caps it at its own ceiling for every game).
    const MAX_ACTION_CHARS: usize = 200;
    /// The shortest turn deadline a creator may ask for, in seconds: time
    /// to read the board and answer (a few seconds would resolve turns
    /// nobody could play and flood the channel).
    const MIN_TURN_SECONDS: u64 = 30;
    /// The turn deadline when neither the creator nor the operator's config
    /// sets one, in seconds (0: no deadline).
    const DEFAULT_TURN_SECONDS: u64 = 0;
    /// The name of the board image renderer that draws this kind, if it has
    /// an image (front-ends look the renderer up by this name; the engine
    /// does not depend on any renderer). `None`: the text board only.
    const BOARD_IMAGE: Option<&'static str> = None;
    /// The name of the renderer that draws an image for this kind's rules
    /// (battle: its type chart), shown beside [`Game::rules`]; `None`: the
    /// rules are text only.
    const RULES_IMAGE: Option<&'static str> = None;
    /// Whether players of this kind write press to each other through the
    /// bot (kept sealed until the game ends), so front-ends offer it.
    const HAS_PRESS: bool = false;
    /// Whether a server's daily deadline (a phase a day at a fixed hour)
    /// applies to this kind: long games played over weeks.
    const TAKES_DAILY_DEADLINE: bool = false;
    /// Whether an action is a list of orders, one a line, that a player may
    /// send over several messages and ends with `done` (see [`Game::combine`]
    /// and [`Game::is_final`]), so front-ends explain moves that way.
    const ORDERS_BY_LINE: bool = false;
    /// Whether [`Game::rules`] fits its reader's seat (examples with their
    /// own units), so front-ends say so.
    const RULES_FIT_THE_READER: bool = false;
    /// Whether `text` is a vote that ends the game for everyone once all
    /// agree (Diplomacy's draw), which front-ends confirm before sending.
    /// The default: this kind has no such vote.
    fn is_draw_vote(_text: &str) -> bool {
        false
    }
    /// The number of seats a game of this kind has.
    fn seat_count(options: &Self::Options) -> usize;
    /// Creates a game from its options and a seed for every random draw.
    fn new_game(options: Self::Options, seed: u64) -> Result<Self, OptionsError>;
    /// What players call a seat ("Player 1", "England", ...).
    fn seat_name(&self, seat: Seat) -> String;

    /// The seats that must act before the turn resolves (empty once the game is over).
    fn awaiting(&self) -> Vec<Seat>;
    /// Parses what a player typed into a legal action for `seat`, or says why not.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, ActionError>;
    /// Checks that an action (e.g. one read back from storage) is legal for `seat` now.
    fn validate(&self, seat: Seat, action: &Self::Action) -> Result<(), ActionError>;
    /// Merges a newly submitted action into one already pending for the same
    /// seat this turn. The default replaces it; Diplomacy adds orders.
    fn combine(&self, _seat: Seat, _pending: Self::Action, new: Self::Action) -> Self::Action {
        new
    }
    /// The action as it stays pending once its receipt is written: the
    /// default keeps it whole; Diplomacy drops what only answered the
    /// message just sent (notes, refused lines), so a later listing of the
    /// pending orders does not repeat them.
    fn settled(&self, _seat: Seat, action: Self::Action) -> Self::Action {
        action
    }
    /// Whether a pending action is final. Resolution waits until every
    /// awaited seat has a final action (or the deadline passes).
    fn is_final(&self, _seat: Seat, _action: &Self::Action) -> bool {
        true
    }
    /// The canonical text of an action, for receipts and the turn log.
    fn describe_action(&self, seat: Seat, action: &Self::Action) -> String;
    /// Applies one turn: the actions of exactly the awaited seats.
    fn resolve(&mut self, actions: BTreeMap<Seat, Self::Action>) -> TurnReport;
    /// The action a seat gets when its deadline passes without one.
    fn default_action(&self, seat: Seat) -> Self::Action;
    /// Seconds allowed for the turn now starting, given the game's configured
    /// turn length (`None`: no deadline). The default keeps the configured
    /// value; Diplomacy gives movement and retreat/adjustment phases their own.
    fn turn_seconds(&self, configured: Option<u64>) -> Option<u64> {
        configured
    }
    /// How many times players may have the deadline of one turn extended
    /// (see `Host::extend_deadline`). The default: never.
    fn extensions_per_turn(&self) -> u32 {
        0
    }
    /// The seat gives up: the engine decides what that means (the opponent
    /// wins a duel; a Diplomacy power goes into civil disorder).
    fn forfeit(&mut self, seat: Seat) -> TurnReport;
    /// Whether a seat of a game under way may be taken by another player or
    /// an AI (e.g. a Diplomacy power in civil disorder). The default: no seat
    /// is ever open, so games that do not support takeovers refuse them.
    fn seat_open(&self, _seat: Seat) -> bool {
        false
    }
    /// Whether a seat still plays: false once it is out (a Diplomacy power
    /// eliminated or in civil disorder). A seat out of play may not forfeit
    /// or ask for more time. The default: every seat plays to the end.
    fn seat_in_play(&self, _seat: Seat) -> bool {
        true
    }
    /// A new player (or an AI) takes an open seat; the engine makes it an
    /// ordinary playing seat again. Returns false, changing nothing, when the
    /// seat was not open (the default does nothing).
    fn take_over(&mut self, _seat: Seat) -> bool {
        false
    }
    /// What `seat` still owes this turn, given what it sent so far
    /// (`None`: nothing), for reminders. The default, [`Outstanding::Unknown`],
    /// reminds every seat whose action is not final.
    fn outstanding(&self, _seat: Seat, _pending: Option<&Self::Action>) -> Outstanding {
        Outstanding::Unknown
    }
    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// A seat's material standing, for scoring systems that share a draw by
    /// size (Diplomacy's sum-of-squares: supply centres). 0 by default.
    fn strength(&self, _seat: Seat) -> u32 {
        0
    }
    /// What `viewer` may see (`None` is a spectator).
    fn view(&self, viewer: Option<Seat>) -> View;
    /// Whether the game keeps part of its board from players and spectators
    /// while it runs (Diplomacy's Fog of War): front-ends then show each
    /// viewer only its [`Game::view`], draw no board image from the whole
    /// state for the channel, and keep the replay until the end. False by
    /// default (every piece on the board is public).
    fn hides_board(&self) -> bool {
        false
    }
    /// The host ended the game whatever the engine's own outcome says
    /// (aborted by its creator or a moderator, abandoned): what the engine
    /// hid while it ran is shown from now on, as after an ending by the
    /// rules. Called on every copy the host loads of a game that is over;
    /// the default hides nothing, so does nothing.
    fn end_by_host(&mut self) {}
    /// A logged turn's report as anyone may read it once the game has
    /// ended: by default its public text; an engine whose public text left
    /// things out while the game ran (Fog of War's orders) adds them here.
    fn report_after_end(&self, report: &TurnReport) -> String {
        report.public.clone()
    }
    /// The rules as a player who never read a manual needs them: how to
    /// move, how a turn resolves, what the board's symbols mean, with what
    /// concerns `viewer`'s seat when given (Diplomacy: examples of its own
    /// units). One text every front-end shows (Markdown-light: `**bold**`,
    /// `code`, code blocks), under 1,900 characters so it fits one Discord
    /// message. Empty: the engine has none (the host says so).
    fn rules(&self, _viewer: Option<Seat>) -> String {
        String::new()
    }

    /// Whether a state read back from storage holds together beyond what
    /// its types say (indices within their tables), so a corrupt row is
    /// reported instead of panicking later. Empty: nothing more to check.
    fn check_loaded(&self) -> Result<(), String> {
        Ok(())
    }

    /// The AI levels this engine offers; the first is the default.
    fn ai_levels() -> &'static [&'static str];
    /// Whether `level` names an AI this engine can play, offered or not
    /// (the tournament tools also compare levels kept out of
    /// [`Game::ai_levels`], and levels with a parameter such as `mc:500`);
    /// `Err` says what is wrong with it in words a player can act on (the
    /// host shows it). By default: its name before any `:` is an offered
    /// level's.
    fn check_ai_level(level: &str) -> Result<(), String> {
        let base = level.split(':').next().unwrap_or("").trim();
        if Self::ai_levels()
            .iter()
            .any(|k| k.split(':').next() == Some(base))
        {
            Ok(())
        } else {
            Err(format!("`{base}` is not one of this game's AI levels"))
        }
    }
    /// An AI's action for `seat` at `level`, within `budget`, drawing any
    /// randomness from `seed`. Returns a legal action.
    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> Self::Action;
}
