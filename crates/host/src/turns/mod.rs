//! Turns: hidden actions, resolution exactly once, AI seats, deadlines and
//! forfeits.

mod ai;
mod deadline;
mod forfeit;
mod resolve;
mod submit;

use super::announce::{name_seats, name_with_role, status_of_people};
use super::clock::ThinkingDeadline;
use super::leave_rules::AwayMode;
use super::registry::derive_seed;
use super::shared::{current_pending, running_game, seat_display};
use super::{
    Announcement, AnnouncementKind, AnyGame, GameId, Host, HostError, game_label, require_game,
    seat_of_user,
};
use games::seam::{AiBudget, Outcome, Outstanding, Seat, TurnReport};
use serde_json::Value;
use std::collections::BTreeMap;
use store::{
    DeadlineRow, GameRow, GameStatus, Occupant, PendingRow, SeatRow, Target, TimeoutPolicy,
    TurnLogRow, Tx,
};

/// What a player is told after submitting an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// The game.
    pub game_id: GameId,
    /// The game as players name it (`battle #12`).
    pub game_label: String,
    /// Where the game lives, and its results are posted (its thread once
    /// it has one).
    pub channel_id: String,
    /// The player's seat.
    pub seat: Seat,
    /// The action as the engine understood it (canonical text).
    pub recorded: String,
    /// Whether the seat is done for this turn.
    pub is_final: bool,
    /// Whether this action completed the turn and it resolved.
    pub resolved: bool,
    /// Names of the seats still awaited (empty once resolved).
    pub waiting_for: Vec<String>,
}

/// An AI seat that must act: think on `engine` (a copy; no lock is held)
/// and hand the result to [`Host::submit_ai`].
pub struct AiTask {
    /// The game.
    pub game_id: GameId,
    /// The turn the action is for.
    pub turn: u32,
    /// The AI's seat.
    pub seat: Seat,
    /// Its level.
    pub level: String,
    /// Seed of this decision.
    pub seed: u64,
    /// A copy of the position.
    pub engine: Box<dyn AnyGame>,
}

/// The part of an AI decision's budget its search may use: three quarters.
/// The rest is left for resolving the turn and posting it, because levels
/// that think until the stopwatch (the battle's default since issue 21)
/// otherwise made a player wait the whole budget plus delivery: with 12
/// battles against the AI on 2 cores, the AI latency bench (now
/// `benches/discord_latency.rs`) measured a
/// p95 of 1,383 ms for a 1,000 ms budget.
pub fn thinking_ms(budget_ms: u64) -> u64 {
    budget_ms - budget_ms / 4
}

impl AiTask {
    /// Computes the AI's action within `budget_ms` of wall-clock time
    /// (searching for [`thinking_ms`] of it).
    pub fn think(&self, budget_ms: u64) -> Value {
        let budget = AiBudget {
            iterations: None,
            deadline: Some(ThinkingDeadline::after_ms(thinking_ms(budget_ms)).stopwatch()),
        };
        self.engine
            .ai_action(self.seat, &self.level, budget, self.seed)
    }
}

/// The most turns [`Host::resolve_if_complete`] resolves in a row without
/// anyone acting.
const MAX_CHAINED_RESOLUTIONS: usize = 8;

/// What happened when a deadline or reminder fell due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeadlineEvent {
    /// The seats still to act were reminded.
    Reminded(GameId),
    /// The turn was resolved with timeout actions for the missing seats.
    Resolved(GameId),
    /// Missing seats forfeited.
    Forfeited(GameId, Vec<Seat>),
    /// No person had acted for the host's limit of deadlines in a row: the
    /// game was aborted as abandoned.
    Abandoned(GameId),
    /// The deadline was for a turn already resolved; it was dropped.
    Stale(GameId),
    /// A player who had not moved is away: the deadline moved to their return.
    Postponed(GameId),
}

/// Splits the seats without a final action at a deadline into those whose
/// sent action leaves nothing owed (every Diplomacy unit ordered, `done`
/// not said) and those that missed the deadline. The first have moved:
/// their action stands as sent, and neither the reliability record nor the
/// announcement counts them, as the reminders promised ("a power with every
/// unit ordered loses nothing by not saying `done`"). Under the forfeit
/// policy every seat without a final action forfeits, as its reminder
/// warned, so none is split off.
pub(super) fn split_complete(
    row: &GameRow,
    engine: &dyn AnyGame,
    pending: &BTreeMap<Seat, (Value, bool)>,
    not_final: Vec<Seat>,
) -> Result<(Vec<Seat>, Vec<Seat>), HostError> {
    if row.timeout_policy == TimeoutPolicy::Forfeit {
        return Ok((Vec::new(), not_final));
    }
    let mut complete = Vec::new();
    let mut missing = Vec::new();
    for seat in not_final {
        let sent = pending.get(&seat).map(|(a, _)| a);
        let owed = engine
            .outstanding(seat, sent)
            .map_err(|source| HostError::Corrupt {
                game_id: row.id,
                source,
            })?;
        if sent.is_some() && owed == Outstanding::Nothing {
            complete.push(seat);
        } else {
            missing.push(seat);
        }
    }
    Ok((complete, missing))
}

/// Whether any seat held by a person sent something this turn (even a
/// partial action): the game is not abandoned.
pub(super) fn people_acted(seats: &[SeatRow], pending: &BTreeMap<Seat, (Value, bool)>) -> bool {
    pending.keys().any(|seat| {
        seats
            .iter()
            .any(|s| s.seat == *seat && matches!(s.occupant, Occupant::User(_)))
    })
}

pub(super) fn timeout_words(p: TimeoutPolicy) -> &'static str {
    match p {
        TimeoutPolicy::Default => "a seat that has not moved gets the default action",
        TimeoutPolicy::Ai => "an AI moves for a seat that has not moved",
        TimeoutPolicy::Forfeit => "a seat that has not moved forfeits",
    }
}

/// Whether an AI sits in `seat` (it moves on its own: never awaited).
pub(super) fn is_ai_seat(seats: &[SeatRow], seat: Seat) -> bool {
    seats
        .iter()
        .any(|s| s.seat == seat && matches!(s.occupant, Occupant::Ai(_)))
}
