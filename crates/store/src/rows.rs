//! Typed rows of the store's tables, and their checked conversion from SQL.

use super::StoreError;

/// The `games` columns [`RawGame::from_row`] reads, in its order.
pub(crate) const GAME_COLUMNS: &str = "id, kind, guild_id, channel_id, creator_id, status, options, seed, \
     state, turn, outcome, turn_seconds, timeout_policy, created_at, updated_at";

/// The number of columns of [`GAME_COLUMNS`].
pub(crate) const GAME_COLUMN_COUNT: usize = 15;

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Seats are being filled.
    Lobby,
    /// Turns are being played.
    Running,
    /// Ended with an outcome.
    Finished,
    /// Stopped by its creator or a moderator.
    Aborted,
}

impl GameStatus {
    /// The text stored in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Lobby => "lobby",
            GameStatus::Running => "running",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "lobby" => GameStatus::Lobby,
            "running" => GameStatus::Running,
            "finished" => GameStatus::Finished,
            "aborted" => GameStatus::Aborted,
            _ => return None,
        })
    }
}

/// What happens to a seat that has not acted when the deadline passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeoutPolicy {
    /// The engine's default action (hold, pass, its greedy move...).
    Default,
    /// The game's AI plays for the seat this turn.
    Ai,
    /// The seat forfeits.
    Forfeit,
}

impl TimeoutPolicy {
    /// The text stored in the `timeout_policy` column and used in config.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeoutPolicy::Default => "default",
            TimeoutPolicy::Ai => "ai",
            TimeoutPolicy::Forfeit => "forfeit",
        }
    }

    /// Reads the stored or configured text.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "default" => TimeoutPolicy::Default,
            "ai" => TimeoutPolicy::Ai,
            "forfeit" => TimeoutPolicy::Forfeit,
            _ => return None,
        })
    }
}

/// What is needed to create a game row.
#[derive(Debug, Clone)]
pub struct NewGameRow {
    /// The engine kind.
    pub kind: String,
    /// The Discord server, if any.
    pub guild_id: Option<String>,
    /// The channel the game lives in.
    pub channel_id: String,
    /// The user who created it.
    pub creator_id: String,
    /// Engine options as JSON.
    pub options: String,
    /// Seed for every random draw.
    pub seed: u64,
    /// Deadline per turn in seconds, if any.
    pub turn_seconds: Option<i64>,
    /// What happens at a deadline.
    pub timeout_policy: TimeoutPolicy,
}

/// A row of `games`.
#[derive(Debug, Clone)]
pub struct GameRow {
    /// Game id.
    pub id: i64,
    /// Engine kind.
    pub kind: String,
    /// Discord server, if any.
    pub guild_id: Option<String>,
    /// Channel.
    pub channel_id: String,
    /// Creator's user id.
    pub creator_id: String,
    /// Life-cycle status.
    pub status: GameStatus,
    /// Engine options as JSON.
    pub options: String,
    /// Seed.
    pub seed: u64,
    /// Engine state as JSON (None in the lobby).
    pub state: Option<String>,
    /// Turns resolved so far.
    pub turn: u32,
    /// Outcome as JSON once finished.
    pub outcome: Option<String>,
    /// Deadline per turn in seconds.
    pub turn_seconds: Option<i64>,
    /// Deadline policy.
    pub timeout_policy: TimeoutPolicy,
    /// Creation time (ms).
    pub created_at: i64,
    /// Last change (ms).
    pub updated_at: i64,
}

/// The columns of `games` as the database returns them, before checking.
pub(super) struct RawGame {
    id: i64,
    kind: String,
    guild_id: Option<String>,
    channel_id: String,
    creator_id: String,
    status: String,
    options: String,
    seed: i64,
    state: Option<String>,
    turn: i64,
    outcome: Option<String>,
    turn_seconds: Option<i64>,
    timeout_policy: String,
    created_at: i64,
    updated_at: i64,
}

impl RawGame {
    pub(super) fn from_row(r: &super::db::Row) -> Result<RawGame, StoreError> {
        Ok(RawGame {
            id: r.get(0)?,
            kind: r.get(1)?,
            guild_id: r.get(2)?,
            channel_id: r.get(3)?,
            creator_id: r.get(4)?,
            status: r.get(5)?,
            options: r.get(6)?,
            seed: r.get(7)?,
            state: r.get(8)?,
            turn: r.get(9)?,
            outcome: r.get(10)?,
            turn_seconds: r.get(11)?,
            timeout_policy: r.get(12)?,
            created_at: r.get(13)?,
            updated_at: r.get(14)?,
        })
    }

    pub(super) fn into_row(self) -> Result<GameRow, StoreError> {
        let corrupt = |reason: String| StoreError::Corrupt {
            table: "games",
            key: format!("game {}", self.id),
            reason,
        };
        let status = GameStatus::parse(&self.status)
            .ok_or_else(|| corrupt(format!("unknown status `{}`", self.status)))?;
        let timeout_policy = TimeoutPolicy::parse(&self.timeout_policy)
            .ok_or_else(|| corrupt(format!("unknown timeout policy `{}`", self.timeout_policy)))?;
        let turn = u32::try_from(self.turn)
            .map_err(|_| corrupt(format!("turn {} out of range", self.turn)))?;
        // A game aborted in its lobby was never started, so it has no state.
        if !matches!(status, GameStatus::Lobby | GameStatus::Aborted) && self.state.is_none() {
            return Err(corrupt(format!("a {} game has no state", self.status)));
        }
        Ok(GameRow {
            id: self.id,
            kind: self.kind,
            guild_id: self.guild_id,
            channel_id: self.channel_id,
            creator_id: self.creator_id,
            status,
            options: self.options,
            seed: self.seed as u64,
            state: self.state,
            turn,
            outcome: self.outcome,
            turn_seconds: self.turn_seconds,
            timeout_policy,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// Who occupies a seat.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Occupant {
    /// A person, by front-end user id.
    User(String),
    /// An AI at this level.
    Ai(String),
}

/// A row of `seats`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    /// Seat number.
    pub seat: usize,
    /// Who sits there.
    pub occupant: Occupant,
    /// Name shown to players.
    pub display_name: String,
}

impl SeatRow {
    pub(super) fn from_parts(
        game_id: i64,
        seat: i64,
        user: Option<String>,
        ai: Option<String>,
        display_name: String,
    ) -> Result<SeatRow, StoreError> {
        let occupant = match (user, ai) {
            (Some(u), None) => Occupant::User(u),
            (None, Some(a)) => Occupant::Ai(a),
            _ => {
                return Err(StoreError::Corrupt {
                    table: "seats",
                    key: format!("game {game_id} seat {seat}"),
                    reason: "a seat must hold exactly one of a user or an AI".into(),
                });
            }
        };
        let seat = usize::try_from(seat).map_err(|_| StoreError::Corrupt {
            table: "seats",
            key: format!("game {game_id} seat {seat}"),
            reason: "negative seat number".into(),
        })?;
        Ok(SeatRow {
            seat,
            occupant,
            display_name,
        })
    }
}

/// A row of `pending_actions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRow {
    /// Seat.
    pub seat: usize,
    /// The turn it was submitted for.
    pub turn: u32,
    /// The engine action as JSON.
    pub action: String,
    /// Whether the seat is done for this turn.
    pub is_final: bool,
    /// When (ms).
    pub submitted_at: i64,
}

/// A row of `turn_log`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnLogRow {
    /// 1-based turn number.
    pub turn: u32,
    /// `{"seat": action}` JSON.
    pub actions: String,
    /// The TurnReport JSON.
    pub report: String,
    /// Engine state after the turn.
    pub state_after: String,
    /// When (ms).
    pub resolved_at: i64,
}

/// A row of `deadlines`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadlineRow {
    /// Game.
    pub game_id: i64,
    /// The turn (resolved-turn count) the deadline is for.
    pub turn: u32,
    /// When it falls due (ms).
    pub due_at: i64,
    /// When to remind the seats still to act (ms); None once done.
    pub remind_at: Option<i64>,
    /// Extensions granted on players' requests this turn (0 for a new turn).
    pub extensions_used: u32,
    /// Deadlines passed in a row, before this one, without any person acting.
    pub idle_deadlines: u32,
}

impl DeadlineRow {
    pub(super) fn from_row(r: &super::db::Row) -> Result<DeadlineRow, StoreError> {
        Ok(DeadlineRow {
            game_id: r.get(0)?,
            turn: r.get(1)?,
            due_at: r.get(2)?,
            remind_at: r.get(3)?,
            extensions_used: r.get(4)?,
            idle_deadlines: r.get(5)?,
        })
    }
}

/// Where an announcement goes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    /// A channel, by front-end id.
    Channel(String),
    /// A user's direct messages, by front-end id.
    User(String),
}

impl Target {
    pub(super) fn parts(&self) -> (&'static str, &str) {
        match self {
            Target::Channel(id) => ("channel", id),
            Target::User(id) => ("user", id),
        }
    }

    pub(super) fn from_parts(kind: &str, id: String) -> Option<Target> {
        match kind {
            "channel" => Some(Target::Channel(id)),
            "user" => Some(Target::User(id)),
            _ => None,
        }
    }
}

/// A row of `outbox`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    /// Row id, increasing.
    pub id: i64,
    /// The game announced.
    pub game_id: i64,
    /// Where it goes.
    pub target: Target,
    /// The announcement as JSON.
    pub payload: String,
    /// When queued (ms).
    pub created_at: i64,
}

/// A game's turn counter beside the turns its log holds (for `gamehost check`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnLogSpan {
    /// Game.
    pub game_id: i64,
    /// The game's counter of resolved turns.
    pub turn: i64,
    /// How many rows its turn log has.
    pub rows: i64,
    /// The lowest logged turn, if any.
    pub first: Option<i64>,
    /// The highest logged turn, if any.
    pub last: Option<i64>,
}
