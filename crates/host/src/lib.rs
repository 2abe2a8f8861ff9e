//! The host: game-agnostic sessions on top of the store and the engines.
//!
//! It knows nothing of Discord. Front-ends call it with user ids and text,
//! and deliver what it writes to the outbox. Every change is one store
//! transaction; a turn resolves inside the same transaction as the action
//! that completes it, guarded by the turn number, so it resolves exactly once
//! however many submissions race.

/// The input limits every front-end applies before text reaches an engine.
pub mod limits;

mod announce;
mod clock;
mod daily_deadline;
mod diplomacy;
mod durations;
mod error;
mod extend;
mod game_master;
mod history;
mod instances;
mod ladder;
mod leave_rules;
mod lobby;
mod metrics;
mod options;
mod pause;
mod privacy;
mod ratings;
mod registry;
mod replay;
mod rules;
mod scoring;
mod server_settings;
mod shared;
mod skill;
mod takeover;
mod turns;
mod view;

pub use announce::{Announcement, AnnouncementKind, board_without_repeats, is_generic_label};
pub use clock::{Clock, ManualClock, SystemClock, ThinkingDeadline};
pub use daily_deadline::{DAILY_MIN_SPAN_MS, DailyDeadline};
pub use diplomacy::press::{
    PRESS_MAX_CHARS, PRESS_PER_HOUR, PRESS_PER_MINUTE, PressEntry, PressSent, Watch,
};
pub use durations::time_left_words;
pub use error::HostError;
pub use game_master::{GAME_MASTER_MAX_EXTENSION_MS, Replacement};
pub use history::{HISTORY_PAGE, HistoryPage, SeatMove, TurnActions, TurnSummary};
pub use instances::{CLAIM_LEASE_MS, CLAIM_RENEW_EVERY_MS, HEARTBEAT_EVERY_MS, new_instance_id};
pub use ladder::{
    AiLadder, LadderKind, LadderLevel, LadderModel, LevelStanding, expected_score, update_period,
};
pub use leave_rules::{
    AwayMode, DEFAULT_AWAY_DAYS, LEAVE_OPTION_KEYS, LeaveRules, MAX_AWAY_DAYS, take_leave_rules,
};
pub use metrics::{Census, HostMetrics};
pub use pause::{LeaveStatus, PauseOutcome, ResumeOutcome};
pub use privacy::{Forgotten, PrivacySummary};
pub use ratings::{
    GameRules, KindProfile, LEADERBOARD_PAGE, Leaderboard, LeaderboardEntry, Profile, RecentGame,
    Reliability,
};
pub use registry::{AnyGame, Registry};
pub use replay::{GameLog, LoggedTurn, ReplayReport};
pub use scoring::{Scoring, SeatOutcome};
pub use server_settings::{KindDefaults, ServerSettings};
pub use shared::{FORGOTTEN_PREFIX, is_forgotten, names_and};
pub use skill::{
    START_DEVIATION, START_RATING, Skill, WENG_LIN_SCALE, WENG_LIN_START_DEVIATION, update_duel,
    update_multi,
};
pub use turns::{AiTask, DeadlineEvent, Receipt};
pub use view::{GameView, SeatView};
// The store's row types front-ends read, so no front-end names the store.
pub use options::parse_game_options;
pub use store::PostedMessage;
pub use store::{FORMER_PLAYER, UserDataCounts};
pub use store::{GameRow, GameStatus, Occupant, Target, TimeoutPolicy};

use games::seam::Seat;
use std::sync::Arc;
use store::{OutboxRow, SeatRow, Store, Tx};

/// A game's id in the store.
pub type GameId = i64;

/// How long a delivered announcement is kept (7 days): Discord's nonce
/// window that makes a resend after a crash harmless is minutes, and a week
/// leaves an operator time to look at what was sent; after that the rows
/// only grow the database (the turn log keeps the game itself).
pub const KEEP_DELIVERED_MS: i64 = 7 * 24 * 3600 * 1000;

/// Delivered announcements deleted per transaction.
pub const PRUNE_BATCH: u32 = 1000;

/// How the host behaves, from the config.
#[derive(Debug, Clone)]
pub struct HostSettings {
    /// Wall-clock budget of one AI decision, in milliseconds.
    pub ai_budget_ms: u64,
    /// Remind seats still to act when this share of the turn is left (0 = never).
    pub reminder_percent: u8,
}

impl Default for HostSettings {
    fn default() -> Self {
        HostSettings {
            ai_budget_ms: 1000,
            reminder_percent: 20,
        }
    }
}

/// What a front-end asks for when creating a game.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// The kind of game (`cards`, `battle`, ...).
    pub kind: String,
    /// The server, if any.
    pub guild_id: Option<String>,
    /// The channel the game lives in.
    pub channel_id: String,
    /// The creator's user id.
    pub creator_id: String,
    /// The creator's display name.
    pub creator_name: String,
    /// Engine options as JSON (`null` for the defaults).
    pub options: serde_json::Value,
    /// Seed for every random draw; `None` picks one at random.
    pub seed: Option<u64>,
    /// Deadline per turn in seconds (`None` or 0: no deadline).
    pub turn_seconds: Option<u64>,
    /// What happens when a deadline passes.
    pub timeout_policy: TimeoutPolicy,
    /// Whether the creator takes the first free seat.
    pub creator_plays: bool,
}

/// One announcement read back from the outbox.
#[derive(Debug, Clone)]
pub struct OutboxItem {
    /// Outbox row id (pass to [`Host::mark_sent`]).
    pub id: i64,
    /// When the row was queued (ms): with the id, what names it for good,
    /// since a restored database hands out ids that were used after it.
    pub queued_at: i64,
    /// The game it belongs to (its announcements go out in order).
    pub game_id: GameId,
    /// Where it goes.
    pub target: Target,
    /// The announcement, or why the stored row could not be read.
    pub announcement: Result<Announcement, String>,
}

/// The game host.
pub struct Host {
    store: Arc<Store>,
    registry: Registry,
    clock: Arc<dyn Clock>,
    settings: HostSettings,
    /// Deadlines in a row without any person acting after which a game is
    /// ended as abandoned (0: never).
    abandon_after: u32,
    /// The AI levels' measured ratings ([`AiLadder::builtin`] by default).
    ai_ladder: Arc<AiLadder>,
    /// The id this process's claims are made under ([`Host::with_instance_id`]).
    instance_id: String,
    /// What the operator's `/metrics` shows of the games.
    metrics: HostMetrics,
}

impl Host {
    /// A host on a store with the given engines, clock and settings.
    pub fn new(
        store: Arc<Store>,
        registry: Registry,
        clock: Arc<dyn Clock>,
        settings: HostSettings,
    ) -> Host {
        Host {
            store,
            registry,
            clock,
            settings,
            abandon_after: limits::DEFAULT_ABANDON_AFTER,
            ai_ladder: Arc::new(AiLadder::builtin()),
            instance_id: instances::new_instance_id(),
            metrics: HostMetrics::default(),
        }
    }

    /// The host's counters and histograms, for the operator's `/metrics`.
    pub fn metrics(&self) -> &HostMetrics {
        &self.metrics
    }

    /// Ends a game as abandoned once `n` deadlines in a row pass without any
    /// person in it acting (0: never); the default is
    /// [`limits::DEFAULT_ABANDON_AFTER`].
    pub fn with_abandon_after(mut self, n: u32) -> Host {
        self.abandon_after = n;
        self
    }

    /// The store (for backups and checks).
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The engines this host runs.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The host's settings.
    pub fn settings(&self) -> &HostSettings {
        &self.settings
    }

    fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Announcements not yet delivered, oldest first.
    pub fn unsent(&self, limit: u32) -> Result<Vec<OutboxItem>, HostError> {
        let rows: Vec<OutboxRow> = self.store.read(|tx| tx.unsent_outbox(limit))?;
        Ok(rows.into_iter().map(outbox_item).collect())
    }

    /// Undelivered announcements of one game (a terminal delivers only its own).
    pub fn unsent_of_game(&self, game_id: GameId) -> Result<Vec<OutboxItem>, HostError> {
        let rows: Vec<OutboxRow> = self.store.read(|tx| tx.unsent_outbox_of_game(game_id))?;
        Ok(rows.into_iter().map(outbox_item).collect())
    }

    /// Marks an announcement delivered; false if it already was.
    pub fn mark_sent(&self, id: i64) -> Result<bool, HostError> {
        let now = self.now();
        Ok(self.store.write(|tx| tx.mark_sent(id, now))?)
    }

    /// Deletes announcements delivered more than [`KEEP_DELIVERED_MS`] ago,
    /// in short transactions of [`PRUNE_BATCH`] rows so a large backlog never
    /// holds the database; returns how many went. Undelivered ones stay
    /// until they are delivered.
    pub fn prune_delivered(&self) -> Result<usize, HostError> {
        let before = self.now().saturating_sub(KEEP_DELIVERED_MS);
        let mut total = 0;
        loop {
            let n = self
                .store
                .write(|tx| tx.prune_sent_outbox(before, PRUNE_BATCH))?;
            total += n;
            if n < PRUNE_BATCH as usize {
                return Ok(total);
            }
        }
    }

    /// The game in the lobby or running in a channel.
    pub fn game_in_channel(&self, channel_id: &str) -> Result<Option<GameRow>, HostError> {
        Ok(self
            .store
            .read(|tx| tx.active_game_in_channel(channel_id))?)
    }

    /// The game a channel shows (status, history, replay): its lobby or
    /// running game, else the one that ended there last, so a finished
    /// game stays reachable where it was played; a game created there and
    /// played in its thread counts as the channel's too.
    pub fn shown_game_in_channel(&self, channel_id: &str) -> Result<Option<GameRow>, HostError> {
        Ok(self
            .store
            .read(|tx| tx.latest_game_in_channel(channel_id))?)
    }

    /// Games in the lobby or running that were created in a channel and
    /// are played in their threads now (at most `limit`, newest first).
    pub fn games_moved_from_channel(
        &self,
        channel_id: &str,
        limit: u32,
    ) -> Result<Vec<GameRow>, HostError> {
        Ok(self
            .store
            .read(|tx| tx.active_games_moved_from_channel(channel_id, limit))?)
    }

    /// A game by id, or a user error if there is none.
    pub fn game(&self, game_id: GameId) -> Result<GameRow, HostError> {
        self.store.read(|tx| require_game(tx, game_id))
    }

    /// Games in the lobby or running where a user sits.
    pub fn games_of_user(&self, user_id: &str) -> Result<Vec<GameRow>, HostError> {
        Ok(self.store.read(|tx| tx.active_games_of_user(user_id))?)
    }

    /// Recent games, optionally in one server.
    pub fn list_games(
        &self,
        guild_id: Option<&str>,
        statuses: &[GameStatus],
        limit: u32,
    ) -> Result<Vec<GameRow>, HostError> {
        Ok(self.store.read(|tx| tx.games(guild_id, statuses, limit))?)
    }

    /// The seats of a game.
    pub fn seats(&self, game_id: GameId) -> Result<Vec<SeatRow>, HostError> {
        Ok(self.store.read(|tx| tx.seats(game_id))?)
    }

    /// The earliest time (ms) a deadline or reminder falls due.
    pub fn next_wakeup(&self) -> Result<Option<i64>, HostError> {
        Ok(self.store.read(|tx| tx.next_wakeup())?)
    }

    /// Loads a game's engine from its row.
    fn engine_of(&self, row: &GameRow) -> Result<Box<dyn AnyGame>, HostError> {
        let state = row.state.as_deref().ok_or_else(|| {
            HostError::user(format!(
                "{} has not started yet; its creator starts it with `start`.",
                game_label(row)
            ))
        })?;
        self.loaded(row, state)
    }

    /// The engine of `row` loaded from `state` (its current state or a
    /// logged one): for a game that is over, whether by its rules or by an
    /// abort, with what it hid while running shown ([`reveal_if_over`]).
    fn loaded(&self, row: &GameRow, state: &str) -> Result<Box<dyn AnyGame>, HostError> {
        let engine = self
            .registry
            .load(&row.kind, state)
            .map_err(|source| HostError::Corrupt {
                game_id: row.id,
                source,
            })?;
        Ok(reveal_if_over(row, engine))
    }

    /// Queues one announcement in the current transaction.
    fn announce(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        target: Target,
        a: Announcement,
    ) -> Result<(), HostError> {
        let payload = serde_json::to_string(&a).unwrap_or_default();
        tx.push_outbox(row.id, &target, &payload, self.now())?;
        Ok(())
    }
}

/// A game by id or a user error naming it.
fn require_game(tx: &Tx<'_>, game_id: GameId) -> Result<GameRow, HostError> {
    tx.game(game_id)?
        .ok_or_else(|| HostError::user(format!("There is no game #{game_id}.")))
}

/// The seat a user holds in a game, if any.
fn seat_of_user(seats: &[SeatRow], user_id: &str) -> Option<Seat> {
    seats
        .iter()
        .find(|s| matches!(&s.occupant, Occupant::User(u) if u == user_id))
        .map(|s| s.seat)
}

/// A short label of a game for messages: "cards #12".
pub fn game_label(row: &GameRow) -> String {
    format!("{} #{}", row.kind, row.id)
}

fn outbox_item(r: OutboxRow) -> OutboxItem {
    OutboxItem {
        id: r.id,
        queued_at: r.created_at,
        game_id: r.game_id,
        target: r.target,
        announcement: serde_json::from_str(&r.payload).map_err(|e| {
            format!(
                "outbox row {} of game {} is unreadable: {e}",
                r.id, r.game_id
            )
        }),
    }
}

/// `engine` as readers of `row` see it: for a game that is over, whether
/// by its rules or by an abort, with what it hid while running shown
/// ([`games::seam::Game::end_by_host`]), so status, boards, history and
/// replay agree once it has ended.
fn reveal_if_over(row: &GameRow, mut engine: Box<dyn AnyGame>) -> Box<dyn AnyGame> {
    if matches!(row.status, GameStatus::Finished | GameStatus::Aborted) {
        engine.end_by_host();
    }
    engine
}
