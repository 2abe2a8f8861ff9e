//! Reliability: missed deadlines and civil disorders noted, and a game's
//! minimum reliability checked when someone joins.

use super::*;

impl Host {
    /// Refuses a user below the game's minimum reliability.
    pub(crate) fn check_join_reliability(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        user_id: &str,
    ) -> Result<(), HostError> {
        let Some(min) = tx.game_rules(row.id)?.and_then(|r| r.min_reliability) else {
            return Ok(());
        };
        let scope = scope_key(row.guild_id.as_deref());
        let r = Reliability::from_counts(tx.reliability_counts(&scope, user_id)?);
        if r.percent >= min {
            return Ok(());
        }
        Err(HostError::user(format!(
            "{} asks for a reliability of at least {min}%; yours is {}% ({} missed deadline(s) in \
             {} turn(s), {} civil disorder(s)). Move before deadlines and play games to their end \
             to raise it.",
            game_label(row),
            r.percent,
            r.missed_deadlines,
            r.turns_awaited,
            r.civil_disorders
        )))
    }

    /// Records the people among `missing` as having missed this turn's
    /// deadline; returns which of them were open seats before (so
    /// [`Host::note_civil_disorder`] can tell who fell into disorder).
    pub(crate) fn note_missed_deadlines(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        seats: &[SeatRow],
        missing: &[Seat],
        engine: &dyn AnyGame,
    ) -> Result<Vec<(Seat, bool)>, HostError> {
        let mut out = Vec::new();
        for &seat in missing {
            if let Some(Occupant::User(user)) =
                seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
            {
                tx.insert_player_event(
                    row.id,
                    row.turn,
                    seat,
                    user,
                    "missed_deadline",
                    self.now(),
                )?;
                out.push((seat, engine.seat_open(seat)));
            }
        }
        Ok(out)
    }

    /// After a deadline's turn: records a civil disorder for each person's
    /// seat that was not open before it and is now (left to the engine's
    /// civil disorder, e.g. a second missed Diplomacy movement phase).
    pub(crate) fn note_civil_disorder(
        &self,
        tx: &Tx<'_>,
        game_id: GameId,
        turn: u32,
        seats: &[SeatRow],
        open_before: &[(Seat, bool)],
    ) -> Result<(), HostError> {
        let row = require_game(tx, game_id)?;
        let Ok(engine) = self.engine_of(&row) else {
            return Ok(());
        };
        for &(seat, was_open) in open_before {
            if !was_open
                && (engine.seat_open(seat)
                    || (engine.outcome().is_some() && !engine.seat_in_play(seat)))
                && let Some(Occupant::User(user)) =
                    seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
            {
                tx.insert_player_event(game_id, turn, seat, user, "civil_disorder", self.now())?;
            }
        }
        Ok(())
    }
}
