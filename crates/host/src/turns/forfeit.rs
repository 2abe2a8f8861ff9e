//! A person gives up their seat.

use super::*;

impl Host {
    /// A player gives up. In a duel the opponent wins; in larger games the
    /// engine decides (e.g. civil disorder).
    pub fn forfeit(&self, game_id: GameId, user_id: &str) -> Result<(), HostError> {
        self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            let seats = tx.seats(game_id)?;
            let seat = seat_of_user(&seats, user_id).ok_or_else(|| {
                HostError::user(format!("You are not playing in {}.", game_label(&row)))
            })?;
            let mut engine = self.engine_of(&row)?;
            // A seat already out (left, in civil disorder, eliminated) has
            // nothing to give up; forfeiting again would only restart the turn.
            if !engine.seat_in_play(seat) {
                return Err(HostError::user(format!(
                    "{} is already out of {}; there is nothing to forfeit.",
                    engine.seat_name(seat),
                    game_label(&row)
                )));
            }
            let mut report = engine.forfeit(seat);
            // An engine that says "Player 1 forfeits" already tells it (the
            // label becomes the player's name); otherwise say who.
            let label = engine.seat_name(seat);
            let said = format!("{label} forfeits");
            if !(crate::announce::is_generic_label(&label) && report.public.contains(&said)) {
                report.public =
                    format!("{} forfeits. {}", seat_display(&seats, seat), report.public);
            }
            self.commit_forfeit(tx, &row, engine.as_ref(), &seats, &report, &[seat])
        })
    }

    /// Records forfeits as a turn. In a game that goes on (Diplomacy), the
    /// other seats keep what they already sent this turn, if still legal:
    /// one player giving up must not wipe everyone else's orders.
    pub(super) fn commit_forfeit(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        report: &TurnReport,
        forfeited: &[Seat],
    ) -> Result<(), HostError> {
        let kept: Vec<PendingRow> = tx
            .pending(row.id)?
            .into_iter()
            .filter(|p| p.turn == row.turn && !forfeited.contains(&p.seat))
            .collect();
        let log = serde_json::json!({ "forfeit": forfeited }).to_string();
        self.commit_turn(tx, row, engine, seats, report, log)?;
        let after = require_game(tx, row.id)?;
        if after.status != GameStatus::Running {
            return Ok(());
        }
        let awaiting = engine.awaiting();
        for mut p in kept {
            let still_legal = serde_json::from_str::<Value>(&p.action)
                .ok()
                .is_some_and(|a| engine.validate(p.seat, &a).is_ok());
            if awaiting.contains(&p.seat) && still_legal {
                p.turn = after.turn;
                tx.upsert_pending(row.id, &p)?;
            }
        }
        self.resolve_if_complete(tx, row.id)
    }
}
