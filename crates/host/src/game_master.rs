//! A server's game masters act on any game of the server: abort it, extend
//! its deadline by a span they choose, pause and resume it at once without
//! a vote. The front-end decides who is a game master (Manage Server,
//! Administrator or the server's game-master role) and calls these only
//! for them; the host never sees roles. The game's channel is told which
//! game master did what.

use super::durations::{duration_words, time_left_words};
use super::turns::running_game;
use super::{AnnouncementKind, GameId, Host, HostError, game_label};
use store::DeadlineRow;

/// The longest a game master may move a deadline at once (30 days).
pub const GAME_MASTER_MAX_EXTENSION_MS: i64 = 30 * 24 * 3600 * 1000;

impl Host {
    /// Whether a game is paused now.
    pub fn is_paused(&self, game_id: GameId) -> Result<bool, HostError> {
        Ok(self.store.read(|tx| tx.pause(game_id))?.is_some())
    }

    /// A game master ends a game in the lobby or running without a result.
    pub fn abort_as_game_master(&self, game_id: GameId, master: &str) -> Result<(), HostError> {
        self.end_aborted(game_id, |row| {
            Ok(format!(
                "The game master {master} aborted {}.",
                game_label(row)
            ))
        })
    }

    /// A game master moves the current deadline of a running game `extra_ms`
    /// later (a reminder not yet sent moves with it); players' own
    /// once-per-phase extensions are not used up. Returns the new deadline.
    pub fn extend_as_game_master(
        &self,
        game_id: GameId,
        master: &str,
        extra_ms: i64,
    ) -> Result<i64, HostError> {
        if !(60_000..=GAME_MASTER_MAX_EXTENSION_MS).contains(&extra_ms) {
            return Err(HostError::user(format!(
                "A deadline moves by at least 1 min and at most {}; `1d` or `12h` would do.",
                time_left_words(GAME_MASTER_MAX_EXTENSION_MS)
            )));
        }
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            self.refuse_if_paused(tx, &row)?;
            let label = game_label(&row);
            let Some(d) = tx.deadline(game_id)?.filter(|d| d.turn == row.turn) else {
                return Err(HostError::user(format!(
                    "{label} has no deadline this turn, so there is nothing to extend."
                )));
            };
            if d.due_at <= now {
                return Err(HostError::user(format!(
                    "The deadline of {label} has already passed; it is being resolved."
                )));
            }
            let due_at = d.due_at.saturating_add(extra_ms);
            tx.set_deadline(
                game_id,
                &DeadlineRow {
                    due_at,
                    remind_at: d.remind_at.map(|r| r.saturating_add(extra_ms)),
                    ..d
                },
            )?;
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!(
                    "The game master {master} moved the deadline of {label} {} later: \
                     <t:{s}:f> (<t:{s}:R>).",
                    duration_words(extra_ms),
                    s = due_at / 1000
                ),
            )?;
            Ok(due_at)
        })
    }

    /// A game master pauses a running game at once, without a vote.
    pub fn pause_as_game_master(&self, game_id: GameId, master: &str) -> Result<(), HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let label = game_label(&row);
            if tx.pause(game_id)?.is_some() {
                return Err(HostError::user(format!(
                    "{label} is already paused; `/game resume` ends the pause."
                )));
            }
            let left = self.freeze_deadline(tx, &row, now)?;
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!(
                    "The game master {master} paused {label}.{left} Orders are still \
                     accepted; `/game resume` ends the pause."
                ),
            )?;
            Ok(())
        })
    }

    /// A game master ends a game's pause at once. Returns the deadline (ms).
    pub fn resume_as_game_master(
        &self,
        game_id: GameId,
        master: &str,
    ) -> Result<Option<i64>, HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let label = game_label(&row);
            let Some(pause) = tx.pause(game_id)? else {
                return Err(HostError::user(format!(
                    "{label} is not paused; `/game pause` pauses it."
                )));
            };
            let (due_at, left) = self.thaw_deadline(tx, &row, &pause, now)?;
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!("The game master {master} resumed {label}.{left}"),
            )?;
            Ok(due_at)
        })
    }
}
