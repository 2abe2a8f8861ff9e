//! Pauses and absences: a game stops its clock when its players agree, and
//! a player may declare a few days away.
//!
//! Choices, where the issue leaves room:
//! - **Who pauses.** A pause takes effect when every surviving human player
//!   (a person in a seat still in play, not left open) has asked for it; a
//!   game created with `pause=creator` lets its creator pause alone. Votes
//!   stay until the pause takes effect or the voter withdraws
//!   (`/game resume` before the pause).
//! - **Who resumes.** Any one surviving human player (or the creator): a
//!   pause lasts only while everyone wants it, so nobody can hold a game
//!   still against the others.
//! - **What freezes.** The deadline and its reminder: the time left is kept
//!   in the store and given back in full on resume, across restarts. Orders
//!   are still accepted while paused; a turn every player finishes resolves,
//!   and the next turn's deadline starts frozen.
//! - **Absences.** `away=extend` (default): a deadline that falls while a
//!   player who has not moved is away waits until they are back.
//!   `away=ai`: the AI moves for them at the deadline (what they already
//!   sent is kept), and it is not counted as a missed deadline.
//!   `away=off`: no absences. Each player may declare at most `away_days`
//!   days (default 14, at most 90) in any 365 days, counted as declared
//!   (whole days; ending one early gives the unused whole days back).

use super::durations::time_left_words;
use super::leave_rules::{AwayMode, LeaveRules};
use super::shared::{names_and, running_game, seat_display};
use super::{AnnouncementKind, GameId, Host, HostError, game_label};
use games::seam::Seat;
use std::collections::BTreeMap;
use store::{DeadlineRow, GameRow, Occupant, PauseRow, SeatRow, Tx};

/// A day in milliseconds.
const DAY_MS: i64 = 24 * 3600 * 1000;
/// What asking for a pause did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PauseOutcome {
    /// The game is now paused.
    Paused,
    /// The vote is recorded; these players (display names) have not asked yet.
    Waiting(Vec<String>),
}

/// What `/game resume` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResumeOutcome {
    /// The game runs again; the deadline, if any (ms).
    Resumed(Option<i64>),
    /// The game was not paused; the user's vote for a pause was withdrawn.
    VoteWithdrawn,
}

/// A game's pause and absences as everyone may see them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeaveStatus {
    /// When the pause took effect (ms), if paused.
    pub paused_since: Option<i64>,
    /// Time left on the frozen deadline (ms), if paused with one.
    pub paused_left_ms: Option<i64>,
    /// Display names of the players who asked for a pause not yet in effect.
    pub pause_votes: Vec<String>,
    /// Players away now: display name and when they are back (ms).
    pub away: Vec<(String, i64)>,
}

impl Host {
    /// A game's rules for pauses and absences.
    pub fn leave_rules(&self, game_id: GameId) -> Result<LeaveRules, HostError> {
        self.store
            .read(|tx| Ok(LeaveRules::from_row(tx.leave_rules(game_id)?)))
    }

    /// Stores a new game's rules for pauses and absences (nothing for the defaults).
    pub(super) fn store_leave_rules(
        &self,
        tx: &Tx<'_>,
        game_id: GameId,
        rules: LeaveRules,
    ) -> Result<(), HostError> {
        if rules != LeaveRules::default() {
            tx.set_leave_rules(game_id, &rules.to_row())?;
        }
        Ok(())
    }

    /// Asks for a pause of a running game: it takes effect once every
    /// surviving human player has asked (or at once from the creator when
    /// the game was created with `pause=creator`).
    pub fn pause_game(&self, game_id: GameId, user_id: &str) -> Result<PauseOutcome, HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let label = game_label(&row);
            if tx.pause(game_id)?.is_some() {
                return Err(HostError::user(format!(
                    "{label} is already paused; `/game resume` ends the pause."
                )));
            }
            let rules = LeaveRules::from_row(tx.leave_rules(game_id)?);
            let seats = tx.seats(game_id)?;
            let voters = self.surviving_people(&row, &seats)?;
            let by_creator = rules.creator_pauses && row.creator_id == user_id;
            if !by_creator && !voters.iter().any(|(u, _)| u == user_id) {
                return Err(HostError::user(format!(
                    "Only the players still in {label} may ask for a pause{}.",
                    if rules.creator_pauses {
                        " (or its creator)"
                    } else {
                        ""
                    }
                )));
            }
            tx.add_pause_vote(game_id, user_id, now)?;
            let votes = tx.pause_votes(game_id)?;
            let waiting: Vec<String> = voters
                .iter()
                .filter(|(u, _)| !votes.contains(u))
                .map(|(_, name)| name.clone())
                .collect();
            if !by_creator && !waiting.is_empty() {
                let asker = voters
                    .iter()
                    .find(|(u, _)| u == user_id)
                    .map(|(_, n)| n.clone())
                    .unwrap_or_default();
                self.announce_to_channel(
                    tx,
                    &row,
                    AnnouncementKind::Moved,
                    format!(
                        "{asker} asks to pause {label}. It pauses when {} {} too (`/game pause`).",
                        names_and(&waiting),
                        if waiting.len() == 1 { "asks" } else { "ask" }
                    ),
                )?;
                return Ok(PauseOutcome::Waiting(waiting));
            }
            let left = self.freeze_deadline(tx, &row, now)?;
            let who = if by_creator {
                "its creator"
            } else {
                "every player"
            };
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!(
                    "{label} is paused at the request of {who}.{left} Orders are still \
                     accepted; any player ends the pause with `/game resume`."
                ),
            )?;
            Ok(PauseOutcome::Paused)
        })
    }

    /// Ends a game's pause (any surviving human player, or the creator), or,
    /// before a pause took effect, withdraws the user's vote for one.
    pub fn resume_game(&self, game_id: GameId, user_id: &str) -> Result<ResumeOutcome, HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let label = game_label(&row);
            let Some(pause) = tx.pause(game_id)? else {
                if tx.remove_pause_vote(game_id, user_id)? {
                    return Ok(ResumeOutcome::VoteWithdrawn);
                }
                return Err(HostError::user(format!(
                    "{label} is not paused, and you had not asked for a pause."
                )));
            };
            let seats = tx.seats(game_id)?;
            let voters = self.surviving_people(&row, &seats)?;
            let rules = LeaveRules::from_row(tx.leave_rules(game_id)?);
            let name = voters.iter().find(|(u, _)| u == user_id).map(|(_, n)| n);
            let name = match name {
                Some(n) => n.clone(),
                None if rules.creator_pauses && row.creator_id == user_id => {
                    "its creator".to_string()
                }
                None => {
                    return Err(HostError::user(format!(
                        "Only the players still in {label} may end its pause."
                    )));
                }
            };
            let (due_at, left) = self.thaw_deadline(tx, &row, &pause, now)?;
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!("{name} resumed {label}.{left}"),
            )?;
            Ok(ResumeOutcome::Resumed(due_at))
        })
    }

    /// Pauses a running game now: stores its frozen deadline and clears
    /// the running one. Returns " The deadline is frozen with ... left."
    /// (empty without a deadline) for the announcement.
    pub(super) fn freeze_deadline(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        now: i64,
    ) -> Result<String, HostError> {
        let game_id = row.id;
        let deadline = tx.deadline(game_id)?.filter(|d| d.turn == row.turn);
        tx.clear_pause(game_id)?;
        tx.set_pause(
            game_id,
            &PauseRow {
                since: now,
                due_left_ms: deadline.as_ref().map(|d| (d.due_at - now).max(0)),
                remind_left_ms: deadline
                    .as_ref()
                    .and_then(|d| d.remind_at)
                    .map(|r| (r - now).max(0)),
                extensions_used: deadline.as_ref().map_or(0, |d| d.extensions_used),
                idle_deadlines: deadline.as_ref().map_or(0, |d| d.idle_deadlines),
            },
        )?;
        tx.clear_deadline(game_id)?;
        let left = match &deadline {
            Some(d) => format!(
                " The deadline is frozen with {} left.",
                time_left_words((d.due_at - now).max(0))
            ),
            None => String::new(),
        };
        Ok(left)
    }

    /// Ends a game's pause now: its deadline runs again with the time that
    /// was left. Returns the deadline (ms) and " The deadline is ... away,
    /// as when paused." (empty without one) for the announcement.
    pub(super) fn thaw_deadline(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        pause: &PauseRow,
        now: i64,
    ) -> Result<(Option<i64>, String), HostError> {
        let game_id = row.id;
        tx.clear_pause(game_id)?;
        let due_at = pause.due_left_ms.map(|left| now.saturating_add(left));
        if let Some(due_at) = due_at {
            tx.set_deadline(
                game_id,
                &DeadlineRow {
                    game_id,
                    turn: row.turn,
                    due_at,
                    remind_at: pause.remind_left_ms.map(|r| now.saturating_add(r)),
                    extensions_used: pause.extensions_used,
                    idle_deadlines: pause.idle_deadlines,
                },
            )?;
        }
        let left = match pause.due_left_ms {
            Some(ms) => format!(
                " The deadline is {} away, as when paused.",
                time_left_words(ms)
            ),
            None => String::new(),
        };
        Ok((due_at, left))
    }

    /// Declares the user away from a game for `days` days from now (0: back
    /// now, ending an absence early). Returns when they are back (ms).
    pub fn declare_away(
        &self,
        game_id: GameId,
        user_id: &str,
        days: u32,
    ) -> Result<i64, HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let label = game_label(&row);
            let seats = tx.seats(game_id)?;
            let people = self.surviving_people(&row, &seats)?;
            let Some((_, name)) = people.iter().find(|(u, _)| u == user_id) else {
                return Err(HostError::user(format!(
                    "Only the players still in {label} may declare an absence from it."
                )));
            };
            let rules = LeaveRules::from_row(tx.leave_rules(game_id)?);
            if rules.away == AwayMode::Off {
                return Err(HostError::user(format!(
                    "{label} does not allow absences (its creator chose `away=off`); \
                     ask the other players for a pause with `/game pause` instead."
                )));
            }
            let mine: Vec<_> = tx
                .absences(game_id)?
                .into_iter()
                .filter(|a| a.user_id == user_id)
                .collect();
            let current = mine.iter().find(|a| a.starts_at <= now && now < a.ends_at);
            if days == 0 {
                let Some(a) = current else {
                    return Err(HostError::user(format!(
                        "You are not away from {label}; `/game away days:N` declares N days away."
                    )));
                };
                tx.set_absence_end(a.id, now)?;
                self.announce_to_channel(
                    tx,
                    &row,
                    AnnouncementKind::Moved,
                    format!("{name} is back in {label}."),
                )?;
                return Ok(now);
            }
            if let Some(a) = current {
                return Err(HostError::user(format!(
                    "You are already away from {label} for {} more; `/game away days:0` ends that \
                     absence, then declare a new one.",
                    time_left_words(a.ends_at - now)
                )));
            }
            let used: u32 = mine
                .iter()
                .filter(|a| a.starts_at > now - 365 * DAY_MS)
                .map(|a| ((a.ends_at - a.starts_at + DAY_MS - 1) / DAY_MS) as u32)
                .sum();
            let left = rules.away_days.saturating_sub(used);
            if days > left {
                return Err(HostError::user(format!(
                    "You may be away from {label} for at most {} days in any year, and have {left} \
                     left; declare at most {left} day(s).",
                    rules.away_days
                )));
            }
            let ends_at = now.saturating_add(i64::from(days) * DAY_MS);
            tx.insert_absence(game_id, user_id, now, ends_at)?;
            let effect = match rules.away {
                AwayMode::Ai => "the AI moves for them at deadlines they miss",
                _ => "deadlines wait for their orders until they are back",
            };
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!(
                    "{name} is away from {label} for {days} day{}: {effect}.",
                    if days == 1 { "" } else { "s" }
                ),
            )?;
            Ok(ends_at)
        })
    }

    /// People in seats still in play (user id, display name): those who
    /// decide a pause.
    fn surviving_people(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
    ) -> Result<Vec<(String, String)>, HostError> {
        let engine = self.engine_of(row)?;
        Ok(seats
            .iter()
            .filter(|s| engine.seat_in_play(s.seat) && !engine.seat_open(s.seat))
            .filter_map(|s| match &s.occupant {
                Occupant::User(u) => Some((u.clone(), s.display_name.clone())),
                Occupant::Ai(_) => None,
            })
            .collect())
    }

    /// A new turn's deadline, when the game is paused, is frozen at once
    /// with its full length.
    pub(super) fn freeze_if_paused(&self, tx: &Tx<'_>, row: &GameRow) -> Result<(), HostError> {
        let Some(pause) = tx.pause(row.id)? else {
            return Ok(());
        };
        let now = self.now();
        let deadline = tx.deadline(row.id)?.filter(|d| d.turn == row.turn);
        tx.set_pause(
            row.id,
            &PauseRow {
                due_left_ms: deadline.as_ref().map(|d| (d.due_at - now).max(0)),
                remind_left_ms: deadline
                    .as_ref()
                    .and_then(|d| d.remind_at)
                    .map(|r| (r - now).max(0)),
                extensions_used: 0,
                idle_deadlines: deadline.as_ref().map_or(0, |d| d.idle_deadlines),
                ..pause
            },
        )?;
        tx.clear_deadline(row.id)?;
        Ok(())
    }

    /// Seats among `missing` whose player is away now, with when each is back.
    pub(super) fn away_seats(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        missing: &[Seat],
    ) -> Result<(AwayMode, BTreeMap<Seat, i64>), HostError> {
        let rules = LeaveRules::from_row(tx.leave_rules(row.id)?);
        if rules.away == AwayMode::Off {
            return Ok((rules.away, BTreeMap::new()));
        }
        let away = active_absences(tx, row.id, self.now())?;
        let seats = tx.seats(row.id)?;
        let found = missing
            .iter()
            .filter_map(|seat| {
                let s = seats.iter().find(|s| s.seat == *seat)?;
                let Occupant::User(u) = &s.occupant else {
                    return None;
                };
                away.get(u).map(|end| (*seat, *end))
            })
            .collect();
        Ok((rules.away, found))
    }

    /// Moves a due deadline to when the last of `away` is back, and says so.
    pub(super) fn postpone_for_absence(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        d: &DeadlineRow,
        away: &BTreeMap<Seat, i64>,
    ) -> Result<(), HostError> {
        let back = away.values().copied().max().unwrap_or(d.due_at);
        let seats = tx.seats(row.id)?;
        let names = away
            .keys()
            .map(|s| seat_display(&seats, *s))
            .collect::<Vec<_>>()
            .join(", ");
        tx.set_deadline(
            row.id,
            &DeadlineRow {
                due_at: back.max(d.due_at),
                remind_at: None,
                ..d.clone()
            },
        )?;
        self.announce_to_channel(
            tx,
            &row.clone(),
            AnnouncementKind::Moved,
            format!(
                "The deadline of {} waits for {names}, away for {} more.",
                game_label(row),
                time_left_words((back - self.now()).max(0))
            ),
        )?;
        Ok(())
    }

    /// Refuses a deadline extension while the game is paused.
    pub(super) fn refuse_if_paused(&self, tx: &Tx<'_>, row: &GameRow) -> Result<(), HostError> {
        if tx.pause(row.id)?.is_some() {
            return Err(HostError::user(format!(
                "{} is paused and its deadline frozen; ask for more time after `/game resume`.",
                game_label(row)
            )));
        }
        Ok(())
    }
}

/// Users away from a game now, with when each is back (ms).
fn active_absences(
    tx: &Tx<'_>,
    game_id: GameId,
    now: i64,
) -> Result<BTreeMap<String, i64>, HostError> {
    let mut away = BTreeMap::new();
    for a in tx.absences(game_id)? {
        if a.starts_at <= now && now < a.ends_at {
            let end = away.entry(a.user_id).or_insert(a.ends_at);
            *end = (*end).max(a.ends_at);
        }
    }
    Ok(away)
}

/// A game's pause, pause votes and absences at `now`.
pub(super) fn leave_status(
    tx: &Tx<'_>,
    game_id: GameId,
    now: i64,
) -> Result<LeaveStatus, HostError> {
    let seats = tx.seats(game_id)?;
    let name_of = |user: &str| {
        seats
            .iter()
            .find(|s| matches!(&s.occupant, Occupant::User(u) if u == user))
            .map(|s| s.display_name.clone())
            .unwrap_or_else(|| user.to_string())
    };
    let pause = tx.pause(game_id)?;
    Ok(LeaveStatus {
        paused_since: pause.as_ref().map(|p| p.since),
        paused_left_ms: pause.and_then(|p| p.due_left_ms),
        pause_votes: tx
            .pause_votes(game_id)?
            .iter()
            .map(|u| name_of(u))
            .collect(),
        away: active_absences(tx, game_id, now)?
            .into_iter()
            .map(|(u, end)| (name_of(&u), end))
            .collect(),
    })
}
