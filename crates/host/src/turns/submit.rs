//! A person's action: recorded, announced as waiting, and the turn resolved
//! once it completes; and what a person may ask of their own pending action.

use super::*;

impl Host {
    /// Submits a player's typed action. With no game id, the game is the one
    /// of the user's running games awaiting them (a user in several games
    /// awaiting them must name one).
    pub fn submit(
        &self,
        game_id: Option<GameId>,
        user_id: &str,
        text: &str,
    ) -> Result<Receipt, HostError> {
        let game_id = match game_id {
            Some(id) => id,
            None => self.game_awaiting_user(user_id)?,
        };
        let started = std::time::Instant::now();
        let mut kind = String::new();
        let receipt = self.store.write(|tx| {
            let row = running_game(tx, game_id)?;
            kind.clone_from(&row.kind);
            let entry = self.registry.get(&row.kind)?;
            crate::limits::check_message_size(entry, text).map_err(HostError::user)?;
            let seats = tx.seats(game_id)?;
            let seat = seat_of_user(&seats, user_id).ok_or_else(|| {
                HostError::user(format!(
                    "You are not playing in {}; only its players can move.",
                    game_label(&row)
                ))
            })?;
            let engine = self.engine_of(&row)?;
            let awaiting = engine.awaiting();
            if !awaiting.contains(&seat) {
                let names: Vec<String> =
                    awaiting.iter().map(|s| seat_display(&seats, *s)).collect();
                return Err(HostError::user(format!(
                    "It is not your turn in {}; waiting for {}.",
                    game_label(&row),
                    names.join(", ")
                )));
            }
            let action = engine.parse_action(seat, text)?;
            self.record_action(tx, &row, engine, &seats, seat, action, true)
        })?;
        // Counted once committed: a transaction retried is one move.
        self.metrics
            .action(&kind, receipt.resolved, started.elapsed());
        Ok(receipt)
    }

    /// The Diplomacy game and phase a typed draw vote of `user` would go
    /// to (`game`, or the one awaiting them), for the front-end to confirm
    /// before sending it: a draw ends the game for everyone, at once when
    /// every other power has voted (AI powers accept). `None` when `text`
    /// is not a draw vote or goes to no such game (sending it then says
    /// why).
    pub fn draw_vote_to_confirm(
        &self,
        game: Option<GameId>,
        user: &str,
        text: &str,
    ) -> Result<Option<(GameId, u32)>, HostError> {
        // Asked of every kind first: most messages are no vote, and finding
        // the game awaiting the user costs a read of each of their games.
        if !self.registry.is_draw_vote_of_any_kind(text) {
            return Ok(None);
        }
        let Ok(id) = game.map_or_else(|| self.game_awaiting_user(user), Ok) else {
            return Ok(None);
        };
        let row = self.game(id)?;
        let vote = self
            .registry
            .get(&row.kind)
            .is_ok_and(|kind| (kind.is_draw_vote)(text));
        Ok((vote && row.status == GameStatus::Running).then_some((row.id, row.turn)))
    }

    /// The one running game of a user that awaits them.
    fn game_awaiting_user(&self, user_id: &str) -> Result<GameId, HostError> {
        let games = self.games_of_user(user_id)?;
        let mut waiting = Vec::new();
        let mut running = Vec::new();
        for g in games.iter().filter(|g| g.status == GameStatus::Running) {
            running.push(g);
            // Awaited and not yet final this turn; an unreadable game is
            // skipped here and reported when named explicitly.
            if let Ok(view) = self.view(g.id, Some(user_id)) {
                let waits = view
                    .seats
                    .iter()
                    .any(|s| Some(s.seat) == view.viewer_seat && s.awaited && !s.acted);
                if waits {
                    waiting.push(g);
                }
            }
        }
        match (waiting.as_slice(), running.as_slice()) {
            ([one], _) => Ok(one.id),
            ([], []) => Err(HostError::user(
                "You are not playing in any running game. Join one in its channel first.",
            )),
            ([], [one]) => Ok(one.id),
            ([], _) => Err(HostError::user(
                "None of your games is waiting for you right now.",
            )),
            (many, _) => Err(HostError::user(format!(
                "You have moves to make in several games ({}); say which, e.g. `#{} <your move>`.",
                many.iter()
                    .map(|g| game_label(g))
                    .collect::<Vec<_>>()
                    .join(", "),
                many[0].id
            ))),
        }
    }

    /// Stores one seat's action (merged with what it already sent this
    /// turn), announces that the seat moved, and resolves the turn if it was
    /// the last one awaited.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_action(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: Box<dyn AnyGame>,
        seats: &[SeatRow],
        seat: Seat,
        action: Value,
        from_person: bool,
    ) -> Result<Receipt, HostError> {
        let corrupt = |source| HostError::Corrupt {
            game_id: row.id,
            source,
        };
        let pending = current_pending(tx, row)?;
        let before = pending.get(&seat);
        let merged = match before {
            Some((prev, _)) if from_person => {
                engine.combine(seat, prev, &action).map_err(corrupt)?
            }
            _ => action,
        };
        let is_final = engine.is_final(seat, &merged).map_err(corrupt)?;
        let was_final = before.is_some_and(|(_, f)| *f);
        // The receipt below answers this message; what stays pending drops
        // the parts that only answered it.
        let kept = engine.settled(seat, &merged).map_err(corrupt)?;
        tx.upsert_pending(
            row.id,
            &PendingRow {
                seat,
                turn: row.turn,
                action: kept.to_string(),
                is_final,
                submitted_at: self.now(),
            },
        )?;
        let recorded = engine.describe_action(seat, &merged).map_err(corrupt)?;
        let mut finals: BTreeMap<Seat, Value> = pending
            .into_iter()
            .filter(|(_, (_, f))| *f)
            .map(|(s, (a, _))| (s, a))
            .collect();
        if is_final {
            finals.insert(seat, kept);
        } else {
            finals.remove(&seat);
        }
        let awaiting = engine.awaiting();
        let missing: Vec<Seat> = awaiting
            .iter()
            .copied()
            .filter(|s| !finals.contains_key(s))
            .collect();
        if missing.is_empty() {
            self.resolve_turn(tx, row, engine, seats, finals)?;
            return Ok(Receipt {
                game_id: row.id,
                game_label: game_label(row),
                channel_id: row.channel_id.clone(),
                seat,
                recorded,
                is_final,
                resolved: true,
                waiting_for: Vec::new(),
            });
        }
        // AI seats move silently: at the start of a Diplomacy phase six AIs
        // would post six near-identical lines. A person's move updates the
        // turn's status ("Waiting for: Bob, Turkey · 5 of 7 ready"), which
        // front-ends show by editing one message per turn.
        if is_final && !was_final && from_person {
            self.announce_waiting(tx, row, engine.as_ref(), seats, &awaiting, &missing)?;
        }
        Ok(Receipt {
            game_id: row.id,
            game_label: game_label(row),
            channel_id: row.channel_id.clone(),
            seat,
            recorded,
            is_final,
            resolved: false,
            waiting_for: missing
                .iter()
                .filter(|s| !is_ai_seat(seats, **s))
                .map(|s| seat_display(seats, *s))
                .collect(),
        })
    }

    /// Updates the turn's status after a person's final move: who is still
    /// awaited and how many are ready.
    fn announce_waiting(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        awaiting: &[Seat],
        missing: &[Seat],
    ) -> Result<(), HostError> {
        // With many seats the players' names alone do not say which
        // power is late ("AI (hold), AI (hold)"): name the seat too.
        let many = awaiting.len() > 2;
        let who = |s: Seat| {
            if many {
                format!("{} ({})", engine.seat_name(s), seat_display(seats, s))
            } else {
                seat_display(seats, s)
            }
        };
        // AI seats move on their own: they count as ready, never awaited.
        let people: Vec<Seat> = missing
            .iter()
            .copied()
            .filter(|s| !is_ai_seat(seats, *s))
            .collect();
        let waiting = if people.is_empty() {
            "the AI is moving".to_string()
        } else {
            let names: Vec<String> = people.iter().map(|s| who(*s)).collect();
            format!("waiting for {}", names.join(", "))
        };
        let text = format!(
            "{}: {waiting} · {} of {} ready",
            game_label(row),
            awaiting.len() - people.len(),
            awaiting.len()
        );
        let deadline = tx
            .deadline(row.id)?
            .filter(|d| d.turn == row.turn)
            .map(|d| d.due_at);
        self.announce(
            tx,
            row,
            Target::Channel(row.channel_id.clone()),
            Announcement {
                deadline,
                ..Announcement::of_game(row, AnnouncementKind::Waiting, text)
            },
        )?;
        Ok(())
    }

    /// What a user has sent this turn in a game (their own hidden action).
    pub fn own_pending(&self, game_id: GameId, user_id: &str) -> Result<Option<String>, HostError> {
        self.store.read(|tx| {
            let row = running_game(tx, game_id)?;
            let seats = tx.seats(game_id)?;
            let Some(seat) = seat_of_user(&seats, user_id) else {
                return Ok(None);
            };
            let engine = self.engine_of(&row)?;
            let pending = current_pending(tx, &row)?;
            match pending.get(&seat) {
                Some((a, _)) => {
                    Ok(Some(engine.describe_action(seat, a).map_err(|source| {
                        HostError::Corrupt { game_id, source }
                    })?))
                }
                None => Ok(None),
            }
        })
    }
}
