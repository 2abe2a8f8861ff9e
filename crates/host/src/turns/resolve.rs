//! Resolving a turn exactly once: the engine's report committed and
//! announced, the game finished or the next turn begun with its prompts.

use super::*;

impl Host {
    /// Applies a turn: new state, turn log, cleared pending actions and the
    /// announcements, all in the caller's transaction. The turn guard in
    /// `advance_game` makes a second resolution of the same turn fail.
    pub(super) fn resolve_turn(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        mut engine: Box<dyn AnyGame>,
        seats: &[SeatRow],
        mut actions: BTreeMap<Seat, Value>,
    ) -> Result<(), HostError> {
        let awaiting = engine.awaiting();
        actions.retain(|s, _| awaiting.contains(s));
        for seat in &awaiting {
            let action = actions
                .get(seat)
                .ok_or_else(|| HostError::user("A seat's action is missing."))?;
            // Positions cannot change between submit and resolve (both run in
            // this transaction), but actions read back from storage are checked
            // anyway: a stale one becomes the seat's default action.
            if engine.validate(*seat, action).is_err() {
                actions.insert(*seat, engine.default_action(*seat));
            }
        }
        let report = engine
            .resolve(&actions)
            .map_err(|source| HostError::Corrupt {
                game_id: row.id,
                source,
            })?;
        let log_actions: BTreeMap<String, Value> = actions
            .iter()
            .map(|(s, a)| (s.to_string(), a.clone()))
            .collect();
        self.commit_turn(
            tx,
            row,
            engine.as_ref(),
            seats,
            &report,
            serde_json::to_string(&log_actions).unwrap_or_default(),
        )
    }

    /// Stores a changed position as the next turn and announces it.
    pub(super) fn commit_turn(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        report: &TurnReport,
        log_actions: String,
    ) -> Result<(), HostError> {
        let now = self.now();
        let state = engine.state_json();
        tx.advance_game(row.id, row.turn, &state, now)?;
        tx.insert_turn_log(
            row.id,
            &TurnLogRow {
                turn: row.turn + 1,
                actions: log_actions,
                report: serde_json::to_string(report).unwrap_or_default(),
                state_after: state,
                resolved_at: now,
            },
        )?;
        tx.clear_pending(row.id)?;
        tx.clear_deadline(row.id)?;
        let row = require_game(tx, row.id)?;
        let view = engine.view(None);
        let named = |t: &str| name_seats(t, seats, |s| engine.seat_name(s));
        // The game's final status (the score) is the final message's, not
        // repeated in the last turn's (engines end their last report with
        // it, for a reader of the report alone).
        let public = report.public.trim_end();
        let public = match engine.outcome() {
            Some(_) => public
                .strip_suffix(view.status.trim())
                .map(str::trim_end)
                .filter(|r| !r.is_empty())
                .unwrap_or(public),
            None => public,
        };
        let text = if engine.outcome().is_some() {
            public.to_string()
        } else {
            let status = status_of_people(&view.status, seats, |s| engine.seat_name(s));
            format!("{public}\n{status}")
        };
        self.announce(
            tx,
            &row,
            Target::Channel(row.channel_id.clone()),
            Announcement {
                board: Some(named(&view.board)),
                report: Some(named(public)),
                ..Announcement::of_game(&row, AnnouncementKind::Turn, named(&text))
            },
        )?;
        for (seat, text) in &report.private {
            if let Some(Occupant::User(user)) =
                seats.iter().find(|s| s.seat == *seat).map(|s| &s.occupant)
            {
                self.tell_user(tx, &row, user, named(text))?;
            }
        }
        match engine.outcome() {
            Some(outcome) => self.finish(tx, &row, engine, seats, &outcome),
            None => self.begin_turn(tx, &row, engine, seats),
        }
    }

    /// Records the end of a game and announces the result.
    fn finish(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        outcome: &Outcome,
    ) -> Result<(), HostError> {
        let text = match outcome {
            Outcome::Win(s) => format!(
                "{} is over: {} wins.",
                game_label(row),
                name_with_role(&seat_display(seats, *s), &engine.seat_name(*s))
            ),
            Outcome::Draw(v) => format!(
                "{} is over: a draw between {}.",
                game_label(row),
                v.iter()
                    .map(|s| seat_display(seats, *s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        tx.finish_game(
            row.id,
            GameStatus::Finished,
            Some(&serde_json::to_string(outcome).unwrap_or_default()),
            self.now(),
        )?;
        // Results and ratings commit with the end of the game, or neither does.
        let results = self.record_results(tx, row, engine, seats, outcome)?;
        // The final position's status carries the score ("Alice wins 5 to
        // 3"), with the players' names.
        let summary = name_seats(engine.view(None).status.trim(), seats, |s| {
            engine.seat_name(s)
        });
        let text = if summary.is_empty() {
            text + &results
        } else {
            format!("{text}\n{summary}{results}")
        };
        self.announce_to_channel(tx, row, AnnouncementKind::Finished, text.clone())?;
        // Every person who played hears of the end where they play: by DM,
        // not only in a channel they may not be watching.
        for seat in seats {
            if let Occupant::User(user) = &seat.occupant {
                self.tell_user(tx, row, user, format!("A game you play has ended. {text}"))?;
            }
        }
        Ok(())
    }

    /// A private note for one user about a game, delivered by DM.
    fn tell_user(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        user: &str,
        text: String,
    ) -> Result<(), HostError> {
        self.announce(
            tx,
            row,
            Target::User(user.to_string()),
            Announcement::of_game(row, AnnouncementKind::Private, text),
        )
    }

    /// Sets the new turn's deadline and prompts the people it awaits.
    pub(crate) fn begin_turn(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
    ) -> Result<(), HostError> {
        let now = self.now();
        let configured = row.turn_seconds.filter(|s| *s > 0).map(|s| s as u64);
        // A game with a fixed daily deadline ends each phase at that time
        // of day; others a turn span after the turn opens.
        let span = match self.daily_deadline_of(tx, row.id)? {
            Some(daily) => Some(daily.deadline_after(now) - now),
            None => engine
                .turn_seconds(configured)
                .filter(|s| *s > 0)
                .map(|s| s.min(i64::MAX as u64 / 1000) as i64 * 1000),
        };
        if let Some(span) = span {
            let pct = i64::from(self.settings.reminder_percent);
            let remind_at = (pct > 0 && pct < 100).then(|| now + span - span * pct / 100);
            tx.set_deadline(
                row.id,
                &DeadlineRow {
                    game_id: row.id,
                    turn: row.turn,
                    due_at: now + span,
                    remind_at,
                    extensions_used: 0,
                    idle_deadlines: 0,
                },
            )?;
            self.freeze_if_paused(tx, row)?;
        }
        for seat in engine.awaiting() {
            if let Some(Occupant::User(user)) =
                seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
            {
                self.prompt(tx, row, engine, seat, user)?;
            }
        }
        Ok(())
    }

    /// Tells a user it is their move, with the board from their seat.
    pub(crate) fn prompt(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seat: Seat,
        user: &str,
    ) -> Result<(), HostError> {
        let view = engine.view(Some(seat));
        // The board in a DM names the players as the channel does.
        let seats = tx.seats(row.id)?;
        let named = |t: &str| name_seats(t, &seats, |s| engine.seat_name(s));
        let status = named(&status_of_people(&view.status, &seats, |s| {
            engine.seat_name(s)
        }));
        self.announce(
            tx,
            row,
            Target::User(user.to_string()),
            Announcement {
                board: Some(named(&view.board)),
                choices: view.choices,
                ..Announcement::of_game(
                    row,
                    AnnouncementKind::Prompt,
                    match engine.seat_name(seat) {
                        // "as Player 1" tells a player nothing they know.
                        label if crate::announce::is_generic_label(&label) => {
                            format!("Your move in {}. {status}", game_label(row))
                        }
                        label => format!("Your move in {} as {label}. {status}", game_label(row)),
                    },
                )
            },
        )
    }

    /// Resolves the current turn when nothing is left to wait for: every
    /// seat it awaits already has a final action in, or it awaits no seat
    /// at all though the game goes on. A forfeit, a takeover or an AI put
    /// in a seat can leave a turn like that, and no submit would ever come
    /// to resolve it. Repeats while the next turn is the same (bounded).
    pub(crate) fn resolve_if_complete(
        &self,
        tx: &Tx<'_>,
        game_id: GameId,
    ) -> Result<(), HostError> {
        // Enough for any real chain (a retreat and an adjustment phase
        // nobody has to act in); an engine awaiting nobody forever stops here.
        for _ in 0..MAX_CHAINED_RESOLUTIONS {
            let row = require_game(tx, game_id)?;
            if row.status != GameStatus::Running {
                return Ok(());
            }
            let engine = self.engine_of(&row)?;
            if engine.outcome().is_some() {
                return Ok(());
            }
            let finals: BTreeMap<Seat, Value> = current_pending(tx, &row)?
                .into_iter()
                .filter(|(_, (_, f))| *f)
                .map(|(s, (a, _))| (s, a))
                .collect();
            if !engine.awaiting().iter().all(|s| finals.contains_key(s)) {
                return Ok(());
            }
            let seats = tx.seats(game_id)?;
            self.resolve_turn(tx, &row, engine, &seats, finals)?;
        }
        Ok(())
    }
}
