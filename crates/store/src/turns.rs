//! A game's turn state: its seats, pending actions, turn log and deadline.

use super::*;

fn turn_log_row(r: &Row) -> Result<TurnLogRow, StoreError> {
    Ok(TurnLogRow {
        turn: r.get(0)?,
        actions: r.get(1)?,
        report: r.get(2)?,
        state_after: r.get(3)?,
        resolved_at: r.get(4)?,
    })
}

impl<'a> Tx<'a> {
    /// The seats of a game, by seat number.
    pub fn seats(&self, game_id: i64) -> Result<Vec<SeatRow>, StoreError> {
        if let Some(seats) = self.seats_seen.borrow().get(&game_id) {
            return Ok(seats.clone());
        }
        let seats = self
            .per_game(&prefetch::SEATS, game_id)?
            .iter()
            .map(|r| SeatRow::from_parts(game_id, r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            .collect::<Result<Vec<_>, _>>()?;
        if self.seats_are_stable(game_id) {
            self.seats_seen.borrow_mut().insert(game_id, seats.clone());
        }
        Ok(seats)
    }

    /// Puts a user or an AI in a seat.
    pub fn insert_seat(&self, game_id: i64, seat: &SeatRow) -> Result<(), StoreError> {
        self.seats_seen.borrow_mut().remove(&game_id);
        let (user, ai) = match &seat.occupant {
            Occupant::User(id) => (Some(id.as_str()), None),
            Occupant::Ai(level) => (None, Some(level.as_str())),
        };
        self.conn.exec(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?1, ?2, ?3, ?4, ?5)",
            args![game_id, seat.seat as i64, user, ai, seat.display_name],
        )?;
        Ok(())
    }

    /// Gives an existing seat to another user or an AI (a takeover in a
    /// running game); fails if the seat does not exist.
    pub fn replace_seat(&self, game_id: i64, seat: &SeatRow) -> Result<(), StoreError> {
        self.seats_seen.borrow_mut().remove(&game_id);
        let (user, ai) = match &seat.occupant {
            Occupant::User(id) => (Some(id.as_str()), None),
            Occupant::Ai(level) => (None, Some(level.as_str())),
        };
        let n = self.conn.exec(
            "UPDATE seats SET user_id = ?3, ai_level = ?4, display_name = ?5 \
             WHERE game_id = ?1 AND seat = ?2",
            args![game_id, seat.seat as i64, user, ai, seat.display_name],
        )?;
        if n == 1 {
            Ok(())
        } else {
            Err(StoreError::Corrupt {
                table: "seats",
                key: format!("game {game_id} seat {}", seat.seat),
                reason: "the seat to replace does not exist".into(),
            })
        }
    }

    /// Frees a seat.
    pub fn delete_seat(&self, game_id: i64, seat: usize) -> Result<(), StoreError> {
        self.seats_seen.borrow_mut().remove(&game_id);
        self.conn.exec(
            "DELETE FROM seats WHERE game_id = ?1 AND seat = ?2",
            args![game_id, seat as i64],
        )?;
        Ok(())
    }

    /// The pending hidden actions of a game's current turn.
    pub fn pending(&self, game_id: i64) -> Result<Vec<PendingRow>, StoreError> {
        self.per_game(&prefetch::PENDING, game_id)?
            .iter()
            .map(|r| {
                Ok(PendingRow {
                    seat: r.get::<i64>(0)? as usize,
                    turn: r.get(1)?,
                    action: r.get(2)?,
                    is_final: r.get(3)?,
                    submitted_at: r.get(4)?,
                })
            })
            .collect()
    }

    /// Records (or replaces) a seat's pending action for the current turn.
    pub fn upsert_pending(&self, game_id: i64, p: &PendingRow) -> Result<(), StoreError> {
        self.conn.exec_later(
            "INSERT INTO pending_actions (game_id, turn, seat, action, final, submitted_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (game_id, seat) DO UPDATE SET turn = excluded.turn, \
             action = excluded.action, final = excluded.final, submitted_at = excluded.submitted_at",
            args![
                game_id,
                p.turn,
                p.seat as i64,
                p.action,
                p.is_final,
                p.submitted_at
            ],
        )?;
        Ok(())
    }

    /// Clears every pending action of a game (after its turn resolved).
    pub fn clear_pending(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn.exec_later(
            "DELETE FROM pending_actions WHERE game_id = ?1",
            args![game_id],
        )?;
        Ok(())
    }

    /// Appends a resolved turn to the log; fails if that turn was logged already.
    pub fn insert_turn_log(&self, game_id: i64, t: &TurnLogRow) -> Result<(), StoreError> {
        self.conn.exec_later(
            "INSERT INTO turn_log (game_id, turn, actions, report, state_after, resolved_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![
                game_id,
                t.turn,
                t.actions,
                t.report,
                t.state_after,
                t.resolved_at
            ],
        )?;
        Ok(())
    }

    /// A page of a game's turn log, oldest first.
    pub fn turn_log(
        &self,
        game_id: i64,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<TurnLogRow>, StoreError> {
        self.conn
            .rows(
                "SELECT turn, actions, report, state_after, resolved_at FROM turn_log \
             WHERE game_id = ?1 ORDER BY turn LIMIT ?2 OFFSET ?3",
                args![game_id, limit, offset],
            )?
            .iter()
            .map(turn_log_row)
            .collect()
    }

    /// One logged turn of a game (1-based), if it was logged.
    pub fn turn_log_entry(
        &self,
        game_id: i64,
        turn: u32,
    ) -> Result<Option<TurnLogRow>, StoreError> {
        self.conn
            .row(
                "SELECT turn, actions, report, state_after, resolved_at FROM turn_log \
                 WHERE game_id = ?1 AND turn = ?2",
                args![game_id, turn],
            )?
            .as_ref()
            .map(turn_log_row)
            .transpose()
    }

    /// How many turns a game has logged.
    pub fn turn_log_len(&self, game_id: i64) -> Result<u32, StoreError> {
        self.conn
            .one(
                "SELECT COUNT(*) FROM turn_log WHERE game_id = ?1",
                args![game_id],
            )?
            .get(0)
    }

    /// Sets (or replaces) the deadline of a game's current turn; a claim on
    /// the earlier one ends with it.
    pub fn set_deadline(&self, game_id: i64, d: &DeadlineRow) -> Result<(), StoreError> {
        self.conn.exec_later(
            "INSERT INTO deadlines (game_id, turn, due_at, remind_at, extensions_used, idle_deadlines) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, due_at = excluded.due_at, \
             remind_at = excluded.remind_at, extensions_used = excluded.extensions_used, \
             idle_deadlines = excluded.idle_deadlines, claimed_by = NULL, claimed_until = NULL",
            args![
                game_id,
                d.turn,
                d.due_at,
                d.remind_at,
                d.extensions_used,
                d.idle_deadlines
            ],
        )?;
        Ok(())
    }

    /// Sets how many deadlines in a row passed without a person acting, on
    /// the game's current deadline (nothing if it has none).
    pub fn set_idle_deadlines(&self, game_id: i64, n: u32) -> Result<(), StoreError> {
        self.conn.exec(
            "UPDATE deadlines SET idle_deadlines = ?2 WHERE game_id = ?1",
            args![game_id, n],
        )?;
        Ok(())
    }

    /// Removes a game's deadline.
    pub fn clear_deadline(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn
            .exec_later("DELETE FROM deadlines WHERE game_id = ?1", args![game_id])
    }

    /// A game's current deadline.
    pub fn deadline(&self, game_id: i64) -> Result<Option<DeadlineRow>, StoreError> {
        self.per_game(&prefetch::DEADLINE, game_id)?
            .first()
            .map(DeadlineRow::from_row)
            .transpose()
    }

    /// Deadlines or reminders that are due at `now`.
    pub fn due_deadlines(&self, now: i64) -> Result<Vec<DeadlineRow>, StoreError> {
        self.conn
            .rows(
                "SELECT game_id, turn, due_at, remind_at, extensions_used, idle_deadlines FROM deadlines \
             WHERE due_at <= ?1 OR (remind_at IS NOT NULL AND remind_at <= ?1) ORDER BY due_at",
                args![now],
            )?
            .iter()
            .map(DeadlineRow::from_row)
            .collect()
    }

    /// The earliest moment any deadline or reminder falls due.
    pub fn next_wakeup(&self) -> Result<Option<i64>, StoreError> {
        self.conn
            .one(
                "SELECT MIN(CASE WHEN remind_at IS NOT NULL AND remind_at < due_at \
                 THEN remind_at ELSE due_at END) FROM deadlines",
                args![],
            )?
            .get(0)
    }

    /// Marks a deadline's reminder as done.
    pub fn clear_reminder(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn.exec(
            "UPDATE deadlines SET remind_at = NULL WHERE game_id = ?1",
            args![game_id],
        )?;
        Ok(())
    }

    /// Every game's turn counter beside what its turn log holds:
    /// `(game id, turn, log rows, lowest logged turn, highest logged turn)`.
    pub fn turn_log_spans(&self) -> Result<Vec<TurnLogSpan>, StoreError> {
        self.conn
            .rows(
                "SELECT g.id, g.turn, COUNT(t.turn), MIN(t.turn), MAX(t.turn) \
             FROM games g LEFT JOIN turn_log t ON t.game_id = g.id GROUP BY g.id ORDER BY g.id",
                args![],
            )?
            .iter()
            .map(|r| {
                Ok(TurnLogSpan {
                    game_id: r.get(0)?,
                    turn: r.get(1)?,
                    rows: r.get(2)?,
                    first: r.get(3)?,
                    last: r.get(4)?,
                })
            })
            .collect()
    }
}
