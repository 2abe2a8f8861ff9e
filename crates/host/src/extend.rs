//! Deadline extensions: a player asks for more time before the deadline.
//!
//! Choices: an extension moves the current deadline (and a reminder not yet
//! sent) later by **half the turn's length** as the engine sets it (24 h of
//! a 48 h Diplomacy movement phase, 12 h of a retreat or adjustment phase):
//! enough to finish a negotiation, without letting one player double a
//! phase. The engine says how many a turn allows
//! ([`games::seam::Game::extensions_per_turn`]; Diplomacy's option
//! `extensions`, default 1); any seated player still in the game may ask,
//! and the channel is told who did. Extensions are not engine state, so the
//! turn log and replays do not change.

use super::durations::duration_words;
use super::shared::{running_game, seat_display};
use super::{AnnouncementKind, GameId, Host, HostError, game_label, seat_of_user};
use store::{DeadlineRow, Tx};

impl Host {
    /// Moves the current deadline of a game later by half the turn's length
    /// at a seated player's request. Returns the new deadline (ms).
    pub fn extend_deadline(&self, game_id: GameId, user_id: &str) -> Result<i64, HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            self.refuse_if_paused(tx, &row)?;
            let label = game_label(&row);
            let seats = tx.seats(game_id)?;
            let seat = seat_of_user(&seats, user_id).ok_or_else(|| {
                HostError::user(format!(
                    "You are not playing in {label}; only its players may ask for more time."
                ))
            })?;
            let engine = self.engine_of(&row)?;
            if engine.seat_open(seat) {
                return Err(HostError::user(format!(
                    "You have left {label} ({} is open to take over); take it back with \
                     `takeover` before asking for more time.",
                    engine.seat_name(seat)
                )));
            }
            if !engine.seat_in_play(seat) {
                return Err(HostError::user(format!(
                    "{} is out of {label}; only players still in the game may ask for more time.",
                    engine.seat_name(seat)
                )));
            }
            let allowed = engine.extensions_per_turn();
            if allowed == 0 {
                return Err(HostError::user(format!(
                    "{label} grants no deadline extensions."
                )));
            }
            let configured = row.turn_seconds.filter(|s| *s > 0).map(|s| s as u64);
            let (Some(d), Some(secs)) = (
                tx.deadline(game_id)?.filter(|d| d.turn == row.turn),
                engine.turn_seconds(configured).filter(|s| *s > 0),
            ) else {
                return Err(HostError::user(format!(
                    "{label} has no deadline this turn, so there is nothing to extend."
                )));
            };
            if d.extensions_used >= allowed {
                return Err(HostError::user(format!(
                    "The deadline of this turn of {label} was already extended \
                     (at most {allowed} per turn)."
                )));
            }
            let extra = (secs.min(i64::MAX as u64 / 1000) as i64) * 1000 / 2;
            let used = d.extensions_used + 1;
            let due_at = move_deadline(tx, &label, d, now, extra, used)?;
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Moved,
                format!(
                    "{} ({}) asked for more time: the deadline of {label} moves {} later.",
                    seat_display(&seats, seat),
                    engine.seat_name(seat),
                    duration_words(extra)
                ),
            )?;
            Ok(due_at)
        })
    }
}

/// Moves a turn's deadline `extra_ms` later (a reminder not yet sent moves
/// with it) and records `extensions_used`; refused once the deadline has
/// passed, since the turn is being resolved. Returns the new deadline.
pub(super) fn move_deadline(
    tx: &Tx<'_>,
    label: &str,
    d: DeadlineRow,
    now: i64,
    extra_ms: i64,
    extensions_used: u32,
) -> Result<i64, HostError> {
    if d.due_at <= now {
        return Err(HostError::user(format!(
            "The deadline of {label} has already passed; it is being resolved."
        )));
    }
    let due_at = d.due_at.saturating_add(extra_ms);
    tx.set_deadline(
        d.game_id,
        &DeadlineRow {
            due_at,
            remind_at: d.remind_at.map(|r| r.saturating_add(extra_ms)),
            extensions_used,
            ..d
        },
    )?;
    Ok(due_at)
}
