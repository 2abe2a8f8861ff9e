//! A server's game masters act on any game of the server: abort it, extend
//! its deadline by a span they choose, pause and resume it at once without
//! a vote, and give a seat to another person or an AI. The front-end decides who is a game master (Manage Server,
//! Administrator or the server's game-master role) and calls these only
//! for them; the host never sees roles. The game's channel is told which
//! game master did what.

use super::announce::is_generic_label;
use super::durations::{duration_words, time_left_words};
use super::extend::move_deadline;
use super::shared::running_game;
use super::takeover::record_new_occupant;
use super::{AnnouncementKind, AnyGame, GameId, Host, HostError, game_label};
use games::seam::Seat;
use store::{GameRow, Occupant, SeatRow, Tx};

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
            let used = d.extensions_used;
            let due_at = move_deadline(tx, &label, d, now, extra_ms, used)?;
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

/// Who a game master puts in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replacement {
    /// A person: their user id and display name.
    User {
        /// Their user id.
        id: String,
        /// Their display name.
        name: String,
    },
    /// An AI of this level (`None`: the server's or the game's default).
    Ai(Option<String>),
}

impl Host {
    /// A game master puts `replacement` in `seat` of a running game, whoever
    /// held it. An open seat (a Diplomacy power in civil disorder) is taken
    /// over as `/game takeover` does. A seat still in play changes hands in
    /// place: the phase goes on, the seat's unfinished move is dropped
    /// (its new holder decides afterwards), the previous holder keeps the
    /// turns they played (ratings and reliability count those against
    /// them), and a person who arrives is prompted at once. A game
    /// master's choice stands over the game's reliability threshold. Returns
    /// the seat's name ("Austria", or "Seat 2" where seats are only numbered).
    pub fn replace_as_game_master(
        &self,
        game_id: GameId,
        master: &str,
        seat: Seat,
        replacement: Replacement,
    ) -> Result<String, HostError> {
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let seats = tx.seats(game_id)?;
            let engine = self.engine_of(&row)?;
            let label = game_label(&row);
            let Some(current) = seats.iter().find(|s| s.seat == seat) else {
                return Err(HostError::user(format!(
                    "{label} has no seat {}; `/game status` lists its seats.",
                    seat + 1
                )));
            };
            // "Austria", or for a game whose seats are only numbered
            // ("Player 2") the seat by its holder and number.
            let name = engine.seat_name(seat);
            let (role, what) = if is_generic_label(&name) {
                let role = format!("Seat {}", seat + 1);
                let what = format!("{}'s seat", current.display_name);
                (role, what)
            } else {
                let what = format!("{name} ({}'s until now)", current.display_name);
                (name, what)
            };
            let new_seat =
                self.replacement_seat(tx, &row, &seats, current, &role, replacement.clone())?;
            let text = format!(
                "The game master {master} gave {what} to {} in {label}.",
                new_seat.display_name
            );
            if engine.seat_open(seat) {
                self.commit_takeover(tx, &row, engine, new_seat, text)?;
            } else {
                self.swap_in_place(tx, &row, engine.as_ref(), new_seat, text)?;
            }
            Ok(role)
        })
    }

    /// The seat row `replacement` would occupy, or a user error: a person
    /// already seated elsewhere in the game, or the seat's own holder.
    fn replacement_seat(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        seats: &[SeatRow],
        current: &SeatRow,
        role: &str,
        replacement: Replacement,
    ) -> Result<SeatRow, HostError> {
        let label = game_label(row);
        let (occupant, display_name) = match replacement {
            Replacement::User { id, name } => {
                if let Some(held) = seats
                    .iter()
                    .find(|s| s.occupant == Occupant::User(id.clone()))
                {
                    let what = if held.seat == current.seat {
                        format!("already plays {role}")
                    } else {
                        "already holds a seat; a player holds one seat".to_string()
                    };
                    return Err(HostError::user(format!("{name} {what} in {label}.")));
                }
                (Occupant::User(id), name)
            }
            Replacement::Ai(level) => {
                let level = match level {
                    Some(l) => self.check_ai_level(&row.kind, &l)?,
                    None => self.default_ai_level(tx, row.guild_id.as_deref(), &row.kind)?,
                };
                if current.occupant == Occupant::Ai(level.clone()) {
                    return Err(HostError::user(format!(
                        "An AI ({level}) already plays {role} in {label}."
                    )));
                }
                (Occupant::Ai(level.clone()), format!("AI ({level})"))
            }
        };
        Ok(SeatRow {
            seat: current.seat,
            occupant,
            display_name,
        })
    }

    /// Gives a seat still in play to its new occupant within the current
    /// phase: the seat's pending move is dropped, the channel told, and a
    /// person who must act prompted.
    fn swap_in_place(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        new_seat: SeatRow,
        text: String,
    ) -> Result<(), HostError> {
        let seat = new_seat.seat;
        let kept: Vec<_> = tx
            .pending(row.id)?
            .into_iter()
            .filter(|p| p.turn == row.turn && p.seat != seat)
            .collect();
        record_new_occupant(tx, row, &new_seat)?;
        tx.clear_pending(row.id)?;
        for p in kept {
            tx.upsert_pending(row.id, &p)?;
        }
        self.announce_to_channel(tx, row, AnnouncementKind::Moved, text)?;
        if let Occupant::User(user) = &new_seat.occupant
            && engine.awaiting().contains(&seat)
        {
            self.prompt(tx, row, engine, seat, user)?;
        }
        Ok(())
    }
}
