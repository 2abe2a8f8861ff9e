//! Taking over a seat of a running game: a player who left (a Diplomacy
//! power in civil disorder) is replaced by another user or by an AI.
//!
//! A takeover changes the engine's state outside a resolved turn, so it is
//! recorded like a forfeit: as an entry of the turn log (`{"takeover":
//! [seat]}`) that [`Host::replay`] re-applies, advancing the turn counter.
//! Unlike a forfeit it keeps the current phase as it is: the other seats'
//! pending actions and the deadline (moved to the new turn number, same
//! time) stay. Because prompts and their buttons name the turn, the
//! newcomer and every player still to decide (no final action yet) are
//! prompted again for the new turn number; those already done are not.

use super::shared::seat_display;
use super::{
    AnnouncementKind, AnyGame, GameId, Host, HostError, game_label, require_game, seat_of_user,
};
use games::seam::{Seat, TurnReport};
use store::{DeadlineRow, GameRow, GameStatus, Occupant, SeatRow, TurnLogRow, Tx};

impl Host {
    /// A user takes over an open seat of a running game: the given one, or
    /// the first open one. Returns the seat.
    ///
    /// A user already seated is refused, except the player whose own seat is
    /// open (a Diplomacy player back from civil disorder may take their
    /// power again). The channel is told who took which seat, and the new
    /// player is prompted at once if the seat must act in the current phase.
    pub fn takeover(
        &self,
        game_id: GameId,
        user_id: &str,
        display_name: &str,
        seat: Option<Seat>,
    ) -> Result<Seat, HostError> {
        self.store.write(|tx| {
            let row = takeover_game(tx, game_id)?;
            let seats = tx.seats(game_id)?;
            let engine = self.engine_of(&row)?;
            let mut wanted = seat;
            let returning = seat_of_user(&seats, user_id)
                .is_some_and(|mine| engine.seat_open(mine) && seat.is_none_or(|s| s == mine));
            // A newcomer must be as reliable as the game asks of those who
            // join; a player back at their own open seat is not a newcomer.
            if !returning {
                self.check_join_reliability(tx, &row, user_id)?;
            }
            if let Some(mine) = seat_of_user(&seats, user_id) {
                let returning = engine.seat_open(mine) && seat.is_none_or(|s| s == mine);
                if !returning {
                    return Err(HostError::user(format!(
                        "You already play {} in {}; a player holds one seat.",
                        engine.seat_name(mine),
                        game_label(&row)
                    )));
                }
                wanted = Some(mine);
            }
            let seat = self.open_seat(&row, engine.as_ref(), &seats, wanted)?;
            let text = format!(
                "{display_name} takes over {} in {}.",
                engine.seat_name(seat),
                game_label(&row)
            );
            self.commit_takeover(
                tx,
                &row,
                engine,
                SeatRow {
                    seat,
                    occupant: Occupant::User(user_id.to_string()),
                    display_name: display_name.to_string(),
                },
                text,
            )?;
            Ok(seat)
        })
    }

    /// The seats of a running game that may be taken over now, by number.
    pub fn open_seats(&self, game_id: GameId) -> Result<Vec<Seat>, HostError> {
        self.store.read(|tx| {
            let row = takeover_game(tx, game_id)?;
            let engine = self.engine_of(&row)?;
            Ok((0..self.seat_count_of(&row)?)
                .filter(|s| engine.seat_open(*s))
                .collect())
        })
    }

    /// The seat a player means by `text`: its number from 1, or its name in
    /// the game (`austria`, `Aus`: any unambiguous start, any case).
    pub fn seat_by_name(&self, game_id: GameId, text: &str) -> Result<Seat, HostError> {
        let row = self.game(game_id)?;
        let count = self.seat_count_of(&row)?;
        let names: Vec<String> = match &row.state {
            Some(_) => {
                let engine = self.engine_of(&row)?;
                (0..count).map(|s| engine.seat_name(s)).collect()
            }
            None => (0..count).map(|s| format!("Seat {}", s + 1)).collect(),
        };
        let asked = text.trim().to_lowercase();
        if let Ok(n) = asked.parse::<usize>() {
            if (1..=count).contains(&n) {
                return Ok(n - 1);
            }
        } else if !asked.is_empty() {
            if let Some(s) = names.iter().position(|n| n.to_lowercase() == asked) {
                return Ok(s);
            }
            let starts: Vec<Seat> = (0..count)
                .filter(|s| names[*s].to_lowercase().starts_with(&asked))
                .collect();
            if let [one] = starts.as_slice() {
                return Ok(*one);
            }
        }
        Err(HostError::user(format!(
            "`{}` is not a seat of {}. Name one of {}, or give its number (1 to {count}).",
            games::clip::clip_typed(text.trim()),
            game_label(&row),
            names.join(", ")
        )))
    }

    /// The number of seats of a game, from its options.
    fn seat_count_of(&self, row: &GameRow) -> Result<usize, HostError> {
        let options: serde_json::Value = serde_json::from_str(&row.options).unwrap_or_default();
        Ok(self.registry.seat_count(&row.kind, &options)?)
    }

    /// Checks the wanted seat is open (or picks the first open one), with a
    /// message naming the open seats when it is not.
    pub(super) fn open_seat(
        &self,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        wanted: Option<Seat>,
    ) -> Result<Seat, HostError> {
        let count = self.seat_count_of(row)?;
        let open: Vec<Seat> = (0..count).filter(|s| engine.seat_open(*s)).collect();
        let describe = |s: Seat| format!("{} (seat {})", engine.seat_name(s), s + 1);
        let open_text = if open.is_empty() {
            format!(
                "No seat of {} is open: a seat opens only when its player has left \
                 (in Diplomacy, a power in civil disorder after a forfeit or two missed \
                 movement deadlines in a row).",
                game_label(row)
            )
        } else {
            format!(
                "Open seats: {}.",
                open.iter()
                    .map(|s| describe(*s))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        match wanted {
            Some(s) if s >= count => Err(HostError::user(format!(
                "{} has seats 1 to {count}; there is no seat {}. {open_text}",
                game_label(row),
                s + 1
            ))),
            Some(s) if !open.contains(&s) => Err(HostError::user(format!(
                "{} is not open: {} plays it. {open_text}",
                describe(s),
                seat_display(seats, s)
            ))),
            Some(s) => Ok(s),
            None => open
                .first()
                .copied()
                .ok_or_else(|| HostError::user(open_text)),
        }
    }

    /// Gives an open seat to its new occupant: engine state, seat row, turn
    /// log entry, the kept phase (pending actions, deadline), the channel
    /// announcement and the newcomer's prompt, in the caller's transaction.
    pub(super) fn commit_takeover(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        mut engine: Box<dyn AnyGame>,
        new_seat: SeatRow,
        text: String,
    ) -> Result<(), HostError> {
        let seat = new_seat.seat;
        if !engine.take_over(seat) {
            return Err(HostError::user(format!(
                "{} is not open to take over.",
                engine.seat_name(seat)
            )));
        }
        let now = self.now();
        let kept: Vec<_> = tx
            .pending(row.id)?
            .into_iter()
            .filter(|p| p.turn == row.turn && p.seat != seat)
            .collect();
        let deadline = tx.deadline(row.id)?.filter(|d| d.turn == row.turn);
        record_new_occupant(tx, row, &new_seat)?;
        let state = engine.state_json();
        tx.advance_game(row.id, row.turn, &state, now)?;
        let report = TurnReport {
            public: text.clone(),
            private: Default::default(),
            detail: None,
        };
        tx.insert_turn_log(
            row.id,
            &TurnLogRow {
                turn: row.turn + 1,
                actions: serde_json::json!({ "takeover": [seat] }).to_string(),
                report: serde_json::to_string(&report).unwrap_or_default(),
                state_after: state,
                resolved_at: now,
            },
        )?;
        tx.clear_pending(row.id)?;
        for mut p in kept {
            p.turn = row.turn + 1;
            tx.upsert_pending(row.id, &p)?;
        }
        if let Some(d) = deadline {
            tx.set_deadline(
                row.id,
                &DeadlineRow {
                    turn: row.turn + 1,
                    ..d
                },
            )?;
        }
        let row = require_game(tx, row.id)?;
        // News of a running game, not a lobby change (front-ends edit the
        // lobby in place and close it at the start).
        self.announce_to_channel(tx, &row, AnnouncementKind::Moved, text)?;
        if let Occupant::User(user) = &new_seat.occupant
            && engine.awaiting().contains(&seat)
        {
            self.prompt(tx, &row, engine.as_ref(), seat, user)?;
        }
        // The log entry moved the turn on, so the others' prompts and
        // buttons of this phase (keyed on the turn) are stale now: the
        // players still to decide get them again.
        self.prompt_undecided(tx, &row, engine.as_ref(), seat)?;
        // The newcomer may have nothing to do this phase while every other
        // seat is done: then the phase is complete now.
        self.resolve_if_complete(tx, row.id)
    }

    /// Prompts again each person still to decide this phase (their prompts
    /// were keyed on the turn the takeover moved on), except `seat`'s.
    fn prompt_undecided(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seat: Seat,
    ) -> Result<(), HostError> {
        let decided: Vec<_> = tx
            .pending(row.id)?
            .into_iter()
            .filter(|p| p.is_final)
            .map(|p| p.seat)
            .collect();
        for s in engine.awaiting() {
            if s == seat || decided.contains(&s) {
                continue;
            }
            if let Some(Occupant::User(user)) = tx
                .seats(row.id)?
                .into_iter()
                .find(|r| r.seat == s)
                .map(|r| r.occupant)
            {
                self.prompt(tx, row, engine, s, &user)?;
            }
        }
        Ok(())
    }
}

/// The seat's terms (who held it until now keeps the turns they held it
/// for) and its new occupant.
pub(super) fn record_new_occupant(
    tx: &Tx<'_>,
    row: &GameRow,
    new_seat: &SeatRow,
) -> Result<(), HostError> {
    // Who held the seat until now keeps the turns they held it for
    // (reliability counts each turn against its holder then).
    let user_of = |o: &Occupant| match o {
        Occupant::User(u) => Some(u.clone()),
        Occupant::Ai(_) => None,
    };
    let previous = tx
        .seats(row.id)?
        .into_iter()
        .find(|r| r.seat == new_seat.seat)
        .and_then(|r| user_of(&r.occupant));
    tx.record_seat_term(
        row.id,
        new_seat.seat,
        row.turn + 1,
        user_of(&new_seat.occupant).as_deref(),
        previous.as_deref(),
    )?;
    tx.replace_seat(row.id, new_seat)?;
    Ok(())
}

/// A running game, or a user error saying why nothing can be taken over.
fn takeover_game(tx: &Tx<'_>, game_id: GameId) -> Result<GameRow, HostError> {
    let row = require_game(tx, game_id)?;
    match row.status {
        GameStatus::Running => Ok(row),
        GameStatus::Lobby => Err(HostError::user(format!(
            "{} has not started; take a free seat with `join` instead.",
            game_label(&row)
        ))),
        s => Err(HostError::user(format!(
            "{} is {}; there is no seat to take over.",
            game_label(&row),
            s.as_str()
        ))),
    }
}
