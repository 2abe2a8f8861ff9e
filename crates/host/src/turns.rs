//! Turns: hidden actions, resolution exactly once, AI seats, deadlines and
//! forfeits.

use super::announce::{name_seats, name_with_role, status_of_people};
use super::clock::ThinkingDeadline;
use super::leave_rules::AwayMode;
use super::registry::derive_seed;
use super::shared::{current_pending, running_game, seat_display};
use super::{
    Announcement, AnnouncementKind, AnyGame, GameId, Host, HostError, game_label, require_game,
    seat_of_user,
};
use games::seam::{AiBudget, Outcome, Outstanding, Seat, TurnReport};
use serde_json::Value;
use std::collections::BTreeMap;
use store::{
    DeadlineRow, GameRow, GameStatus, Occupant, PendingRow, SeatRow, Target, TimeoutPolicy,
    TurnLogRow, Tx,
};

/// What a player is told after submitting an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// The game.
    pub game_id: GameId,
    /// The game as players name it (`battle #12`).
    pub game_label: String,
    /// Where the game lives, and its results are posted (its thread once
    /// it has one).
    pub channel_id: String,
    /// The player's seat.
    pub seat: Seat,
    /// The action as the engine understood it (canonical text).
    pub recorded: String,
    /// Whether the seat is done for this turn.
    pub is_final: bool,
    /// Whether this action completed the turn and it resolved.
    pub resolved: bool,
    /// Names of the seats still awaited (empty once resolved).
    pub waiting_for: Vec<String>,
}

/// An AI seat that must act: think on `engine` (a copy; no lock is held)
/// and hand the result to [`Host::submit_ai`].
pub struct AiTask {
    /// The game.
    pub game_id: GameId,
    /// The turn the action is for.
    pub turn: u32,
    /// The AI's seat.
    pub seat: Seat,
    /// Its level.
    pub level: String,
    /// Seed of this decision.
    pub seed: u64,
    /// A copy of the position.
    pub engine: Box<dyn AnyGame>,
}

/// The part of an AI decision's budget its search may use: three quarters.
/// The rest is left for resolving the turn and posting it, because levels
/// that think until the stopwatch (the battle's default since issue 21)
/// otherwise made a player wait the whole budget plus delivery: with 12
/// battles against the AI on 2 cores, the AI latency bench (now
/// `benches/discord_latency.rs`) measured a
/// p95 of 1,383 ms for a 1,000 ms budget.
pub fn thinking_ms(budget_ms: u64) -> u64 {
    budget_ms - budget_ms / 4
}

impl AiTask {
    /// Computes the AI's action within `budget_ms` of wall-clock time
    /// (searching for [`thinking_ms`] of it).
    pub fn think(&self, budget_ms: u64) -> Value {
        let budget = AiBudget {
            iterations: None,
            deadline: Some(ThinkingDeadline::after_ms(thinking_ms(budget_ms)).stopwatch()),
        };
        self.engine
            .ai_action(self.seat, &self.level, budget, self.seed)
    }
}

/// The most turns [`Host::resolve_if_complete`] resolves in a row without
/// anyone acting.
const MAX_CHAINED_RESOLUTIONS: usize = 8;

/// What happened when a deadline or reminder fell due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeadlineEvent {
    /// The seats still to act were reminded.
    Reminded(GameId),
    /// The turn was resolved with timeout actions for the missing seats.
    Resolved(GameId),
    /// Missing seats forfeited.
    Forfeited(GameId, Vec<Seat>),
    /// No person had acted for the host's limit of deadlines in a row: the
    /// game was aborted as abandoned.
    Abandoned(GameId),
    /// The deadline was for a turn already resolved; it was dropped.
    Stale(GameId),
    /// A player who had not moved is away: the deadline moved to their return.
    Postponed(GameId),
}

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
            super::limits::check_message_size(entry, text).map_err(HostError::user)?;
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
    fn record_action(
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

    /// Applies a turn: new state, turn log, cleared pending actions and the
    /// announcements, all in the caller's transaction. The turn guard in
    /// `advance_game` makes a second resolution of the same turn fail.
    fn resolve_turn(
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
    fn commit_turn(
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
    pub(super) fn begin_turn(
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
    pub(super) fn prompt(
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
                        label if super::announce::is_generic_label(&label) => {
                            format!("Your move in {}. {status}", game_label(row))
                        }
                        label => format!("Your move in {} as {label}. {status}", game_label(row)),
                    },
                )
            },
        )
    }

    /// AI seats that must act now, with a copy of their position each.
    pub fn ai_tasks(&self) -> Result<Vec<AiTask>, HostError> {
        let games = self.store.read(|tx| tx.running_games_with_ai())?;
        let mut tasks = Vec::new();
        for g in games {
            tasks.extend(self.ai_tasks_for(g.id)?);
        }
        Ok(tasks)
    }

    /// The AI seats of one game that must act now.
    pub fn ai_tasks_for(&self, game_id: GameId) -> Result<Vec<AiTask>, HostError> {
        self.store.read(|tx| {
            let row = require_game(tx, game_id)?;
            if row.status != GameStatus::Running {
                return Ok(Vec::new());
            }
            let seats = tx.seats(game_id)?;
            let engine = self.engine_of(&row)?;
            let pending = current_pending(tx, &row)?;
            let mut out = Vec::new();
            for seat in engine.awaiting() {
                let Some(Occupant::Ai(level)) =
                    seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
                else {
                    continue;
                };
                if pending.get(&seat).is_some_and(|(_, f)| *f) {
                    continue;
                }
                out.push(AiTask {
                    game_id,
                    turn: row.turn,
                    seat,
                    level: level.clone(),
                    seed: derive_seed(row.seed, row.turn, seat),
                    engine: engine.boxed_clone(),
                });
            }
            Ok(out)
        })
    }

    /// Records an AI's action; ignored (Ok(None)) if the turn moved on meanwhile.
    pub fn submit_ai(&self, task: &AiTask, action: Value) -> Result<Option<Receipt>, HostError> {
        let started = std::time::Instant::now();
        let receipt = self.store.write(|tx| {
            let row = require_game(tx, task.game_id)?;
            if row.status != GameStatus::Running || row.turn != task.turn {
                return Ok(None);
            }
            let engine = self.engine_of(&row)?;
            if !engine.awaiting().contains(&task.seat) {
                return Ok(None);
            }
            // Cloned: a write lost to a concurrent one runs this again.
            let action = match engine.validate(task.seat, &action) {
                Ok(()) => action.clone(),
                Err(e) => {
                    tracing::error!(game_id = row.id, seat = task.seat, level = %task.level, error = %e,
                        "AI produced an illegal action; using the default action");
                    engine.default_action(task.seat)
                }
            };
            let seats = tx.seats(row.id)?;
            self.record_action(tx, &row, engine, &seats, task.seat, action, false)
                .map(Some)
        })?;
        if let Some(r) = &receipt {
            self.metrics
                .action(task.engine.kind(), r.resolved, started.elapsed());
        }
        Ok(receipt)
    }

    /// Lets every AI seat that must act do so, until none must (bounded, so
    /// an engine that keeps awaiting AIs cannot loop forever). Returns the
    /// number of AI actions made.
    pub fn run_ai_turns(
        &self,
        game_id: Option<GameId>,
        max_actions: usize,
    ) -> Result<usize, HostError> {
        let mut made = 0;
        while made < max_actions {
            let tasks = match game_id {
                Some(id) => self.ai_tasks_for(id)?,
                None => self.ai_tasks()?,
            };
            if tasks.is_empty() {
                break;
            }
            for task in tasks {
                let action = task.think(self.settings.ai_budget_ms);
                self.submit_ai(&task, action)?;
                made += 1;
            }
        }
        Ok(made)
    }

    /// Handles every deadline and reminder due now.
    pub fn fire_due_deadlines(&self) -> Result<Vec<DeadlineEvent>, HostError> {
        let now = self.now();
        // Claimed, so that of several processes on one database each
        // deadline is handled by one; the claim ends once it is handled (a
        // new turn's deadline replaces the row anyway) or, if this process
        // dies first, when its lease runs out.
        let due = self.store.write(|tx| {
            tx.claim_due_deadlines(
                &self.instance_id,
                now,
                super::CLAIM_LEASE_MS,
                super::instances::CLAIM_DEADLINES,
            )
        })?;
        let mut events = Vec::new();
        let mut renewed_at = now;
        for d in due {
            // A long batch keeps its claims: the rest of it must not lapse
            // to another process while this one works through it.
            let at = self.now();
            if at - renewed_at >= super::CLAIM_RENEW_EVERY_MS {
                self.store.write(|tx| {
                    tx.renew_claims(&self.instance_id, at.saturating_add(super::CLAIM_LEASE_MS))
                })?;
                renewed_at = at;
            }
            let event = if d.due_at <= now {
                self.metrics.deadline_lag(self.now() - d.due_at);
                let started = std::time::Instant::now();
                let event = self.expire_turn(&d)?;
                if let DeadlineEvent::Resolved(id) | DeadlineEvent::Forfeited(id, _) = &event
                    && let Ok(row) = self.game(*id)
                {
                    self.metrics.turn(&row.kind, started.elapsed());
                }
                event
            } else {
                self.remind(&d)?
            };
            self.store
                .write(|tx| tx.release_deadline(d.game_id, &self.instance_id))?;
            events.push(event);
        }
        Ok(events)
    }

    /// Reminds each person whose seat still owes something: the engine says
    /// what ([`AnyGame::outstanding`]); a seat owing nothing is not reminded,
    /// for what it sent stands at the deadline (except under the forfeit
    /// policy, where only a final action counts). The deadline goes along as
    /// data for front-ends to show in each reader's time zone.
    fn remind(&self, d: &DeadlineRow) -> Result<DeadlineEvent, HostError> {
        self.store.write(|tx| {
            // The game's row first, as every write locks it: taking the
            // deadline's row before it could deadlock with a move.
            let row = require_game(tx, d.game_id)?;
            tx.clear_reminder(d.game_id)?;
            if row.status != GameStatus::Running || row.turn != d.turn {
                return Ok(DeadlineEvent::Stale(d.game_id));
            }
            let engine = self.engine_of(&row)?;
            let seats = tx.seats(row.id)?;
            let pending = current_pending(tx, &row)?;
            for seat in engine.awaiting() {
                let sent = pending.get(&seat);
                if sent.is_some_and(|(_, f)| *f) {
                    continue;
                }
                let owed = engine
                    .outstanding(seat, sent.map(|(a, _)| a))
                    .map_err(|source| HostError::Corrupt {
                        game_id: row.id,
                        source,
                    })?;
                let missing = match owed {
                    Outstanding::Nothing if row.timeout_policy != TimeoutPolicy::Forfeit => {
                        continue;
                    }
                    Outstanding::Missing(what) => format!(" {what}"),
                    Outstanding::Nothing | Outstanding::Unknown => String::new(),
                };
                if let Some(Occupant::User(user)) =
                    seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
                {
                    let view = engine.view(Some(seat));
                    self.announce(
                        tx,
                        &row,
                        Target::User(user.clone()),
                        Announcement {
                            choices: view.choices,
                            deadline: Some(d.due_at),
                            ..Announcement::of_game(
                                &row,
                                AnnouncementKind::Reminder,
                                format!(
                                    "About {} left to move in {} ({}).{missing}",
                                    super::durations::time_left_words(d.due_at - self.now()),
                                    game_label(&row),
                                    timeout_words(row.timeout_policy)
                                ),
                            )
                        },
                    )?;
                }
            }
            Ok(DeadlineEvent::Reminded(d.game_id))
        })
    }

    /// The deadline passed: missing seats get the policy's action.
    fn expire_turn(&self, d: &DeadlineRow) -> Result<DeadlineEvent, HostError> {
        // AI stand-ins think before the write lock is taken.
        let Some(expired) = self.read_expired_turn(d)? else {
            self.store.write(|tx| -> Result<(), HostError> {
                if tx.deadline(d.game_id)?.is_some_and(|x| x.turn == d.turn) {
                    tx.clear_deadline(d.game_id)?;
                }
                Ok(())
            })?;
            return Ok(DeadlineEvent::Stale(d.game_id));
        };
        // A player who declared an absence: the deadline waits for them, or
        // the AI moves for them (see `pause.rs`).
        if expired.away_mode == AwayMode::Extend && !expired.away.is_empty() {
            return self.store.write(|tx| {
                let row = require_game(tx, d.game_id)?;
                match tx.deadline(d.game_id)? {
                    Some(now_d) if row.status == GameStatus::Running && now_d == *d => {
                        self.postpone_for_absence(tx, &row, d, &expired.away)?;
                        Ok(DeadlineEvent::Postponed(d.game_id))
                    }
                    _ => Ok(DeadlineEvent::Stale(d.game_id)),
                }
            });
        }
        let away_for_ai: Vec<Seat> = if expired.away_mode == AwayMode::Ai {
            expired.away.keys().copied().collect()
        } else {
            Vec::new()
        };
        let missing: Vec<Seat> = expired
            .missing
            .iter()
            .copied()
            .filter(|s| !away_for_ai.contains(s))
            .collect();
        let stand_ins = self.stand_in_actions(&expired, &missing, &away_for_ai);
        let stood_in = StoodIn {
            missing,
            away_for_ai,
            actions: stand_ins,
        };
        self.store
            .write(|tx| self.commit_expired_turn(tx, d, &stood_in))
    }

    /// The turn a due deadline ends, read without the write lock: `None`
    /// when the game moved on (the deadline is stale).
    fn read_expired_turn(&self, d: &DeadlineRow) -> Result<Option<ExpiredTurn>, HostError> {
        self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, d.game_id)?;
            if row.status != GameStatus::Running || row.turn != d.turn {
                return Ok(None);
            }
            let engine = self.engine_of(&row)?;
            let pending = current_pending(tx, &row)?;
            let not_final: Vec<Seat> = engine
                .awaiting()
                .into_iter()
                .filter(|s| !pending.get(s).is_some_and(|(_, f)| *f))
                .collect();
            let (complete, missing) = split_complete(&row, engine.as_ref(), &pending, not_final)?;
            let (away_mode, away) = self.away_seats(tx, &row, &missing)?;
            let ai_level = self.default_ai_level(tx, row.guild_id.as_deref(), &row.kind)?;
            Ok(Some(ExpiredTurn {
                ai_level,
                row,
                engine,
                pending,
                complete,
                missing,
                away_mode,
                away,
            }))
        })
    }

    /// The action each seat is given: what a complete seat sent, and for a
    /// missing or away seat its policy's action (the AI thinks here,
    /// outside the write lock).
    fn stand_in_actions(
        &self,
        expired: &ExpiredTurn,
        missing: &[Seat],
        away_for_ai: &[Seat],
    ) -> BTreeMap<Seat, Value> {
        let ExpiredTurn {
            row,
            engine,
            pending,
            complete,
            ai_level,
            ..
        } = expired;
        let mut stand_ins: BTreeMap<Seat, Value> = BTreeMap::new();
        for &seat in complete {
            if let Some((sent, _)) = pending.get(&seat) {
                stand_ins.insert(seat, sent.clone());
            }
        }
        for &seat in missing.iter().chain(away_for_ai) {
            let policy = if away_for_ai.contains(&seat) {
                TimeoutPolicy::Ai
            } else {
                row.timeout_policy
            };
            let action = match (policy, pending.get(&seat)) {
                // A seat that sent part of its action (e.g. some Diplomacy
                // orders) keeps what it sent.
                (TimeoutPolicy::Default | TimeoutPolicy::Ai, Some((partial, _))) => partial.clone(),
                (TimeoutPolicy::Ai, None) => {
                    let task = AiTask {
                        game_id: row.id,
                        turn: row.turn,
                        seat,
                        level: ai_level.clone(),
                        seed: derive_seed(row.seed, row.turn, seat),
                        engine: engine.boxed_clone(),
                    };
                    task.think(self.settings.ai_budget_ms)
                }
                _ => engine.default_action(seat),
            };
            stand_ins.insert(seat, action);
        }
        stand_ins
    }

    /// Inside the write lock, if the turn is still the deadline's: ends an
    /// abandoned game, or forfeits the missing seats (forfeit policy), or
    /// resolves the turn with the stand-ins' actions.
    fn commit_expired_turn(
        &self,
        tx: &Tx<'_>,
        d: &DeadlineRow,
        stood_in: &StoodIn,
    ) -> Result<DeadlineEvent, HostError> {
        let StoodIn {
            missing,
            away_for_ai,
            actions: stand_ins,
        } = stood_in;
        let row = require_game(tx, d.game_id)?;
        if row.status != GameStatus::Running || row.turn != d.turn {
            return Ok(DeadlineEvent::Stale(d.game_id));
        }
        let mut engine = self.engine_of(&row)?;
        let seats = tx.seats(row.id)?;
        // A game nobody plays any more is ended rather than resolved
        // turn after turn by stand-ins, filling its channel.
        let idle = if people_acted(&seats, &current_pending(tx, &row)?) {
            0
        } else {
            d.idle_deadlines.saturating_add(1)
        };
        let open_before = self.note_missed_deadlines(tx, &row, &seats, missing, engine.as_ref())?;
        let has_people = seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::User(_)));
        if self.abandon_after > 0 && has_people && idle >= self.abandon_after {
            tx.finish_game(row.id, GameStatus::Aborted, None, self.now())?;
            self.announce_to_channel(
                tx,
                &row,
                AnnouncementKind::Aborted,
                format!(
                    "{} was aborted as abandoned: no player moved before the last {idle} \
                     deadlines.",
                    game_label(&row)
                ),
            )?;
            return Ok(DeadlineEvent::Abandoned(row.id));
        }
        let names = missing
            .iter()
            .map(|s| seat_display(&seats, *s))
            .collect::<Vec<_>>()
            .join(", ");
        if row.timeout_policy == TimeoutPolicy::Forfeit && !missing.is_empty() {
            let mut report = TurnReport::default();
            for &seat in missing {
                let r = engine.forfeit(seat);
                report.public.push_str(&r.public);
                report.public.push('\n');
                report.private.extend(r.private);
            }
            report.public = format!(
                "Time is up in {}: {names} forfeit(s).\n{}",
                game_label(&row),
                report.public
            );
            self.commit_forfeit(tx, &row, engine.as_ref(), &seats, &report, missing)?;
            self.note_civil_disorder(tx, row.id, row.turn, &seats, &open_before)?;
            tx.set_idle_deadlines(row.id, idle)?;
            return Ok(DeadlineEvent::Forfeited(row.id, missing.clone()));
        }
        let mut actions: BTreeMap<Seat, Value> = current_pending(tx, &row)?
            .into_iter()
            .filter(|(_, (_, f))| *f)
            .map(|(s, (a, _))| (s, a))
            .collect();
        for (seat, a) in stand_ins {
            actions.entry(*seat).or_insert_with(|| a.clone());
        }
        let text = time_is_up_text(&row, &seats, missing, &names, away_for_ai);
        self.announce_to_channel(tx, &row, AnnouncementKind::Moved, text)?;
        self.resolve_turn(tx, &row, engine, &seats, actions)?;
        self.note_civil_disorder(tx, row.id, row.turn, &seats, &open_before)?;
        // The next turn's deadline (if the game goes on) carries the count.
        tx.set_idle_deadlines(row.id, idle)?;
        Ok(DeadlineEvent::Resolved(row.id))
    }

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
            if !(super::announce::is_generic_label(&label) && report.public.contains(&said)) {
                report.public =
                    format!("{} forfeits. {}", seat_display(&seats, seat), report.public);
            }
            self.commit_forfeit(tx, &row, engine.as_ref(), &seats, &report, &[seat])
        })
    }

    /// Records forfeits as a turn. In a game that goes on (Diplomacy), the
    /// other seats keep what they already sent this turn, if still legal:
    /// one player giving up must not wipe everyone else's orders.
    fn commit_forfeit(
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

    /// Resolves the current turn when nothing is left to wait for: every
    /// seat it awaits already has a final action in, or it awaits no seat
    /// at all though the game goes on. A forfeit, a takeover or an AI put
    /// in a seat can leave a turn like that, and no submit would ever come
    /// to resolve it. Repeats while the next turn is the same (bounded).
    pub(super) fn resolve_if_complete(
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

/// A due deadline's turn as read before the write lock.
struct ExpiredTurn {
    row: GameRow,
    engine: Box<dyn AnyGame>,
    pending: BTreeMap<Seat, (Value, bool)>,
    /// Seats whose sent action is complete though not marked final.
    complete: Vec<Seat>,
    /// Seats with nothing complete sent.
    missing: Vec<Seat>,
    away_mode: AwayMode,
    /// Missing seats whose player declared an absence, with when each is back.
    away: BTreeMap<Seat, i64>,
    /// The level of an AI standing in (the server's default for the kind).
    ai_level: String,
}

/// Who the deadline's stand-ins act for, and their actions.
struct StoodIn {
    /// Missing seats, their policy applied (away ones played by the AI excepted).
    missing: Vec<Seat>,
    /// Seats of absent players the AI moves for.
    away_for_ai: Vec<Seat>,
    actions: BTreeMap<Seat, Value>,
}

/// "Time is up in ...": the policy applied for the missing seats, and whom
/// the AI moved for during an absence.
fn time_is_up_text(
    row: &GameRow,
    seats: &[SeatRow],
    missing: &[Seat],
    names: &str,
    away_for_ai: &[Seat],
) -> String {
    let mut text = format!("Time is up in {}:", game_label(row));
    if !missing.is_empty() {
        text.push_str(&format!(
            " {} for {names}.",
            timeout_words(row.timeout_policy)
        ));
    }
    if !away_for_ai.is_empty() {
        let away_names = away_for_ai
            .iter()
            .map(|s| seat_display(seats, *s))
            .collect::<Vec<_>>()
            .join(", ");
        text.push_str(&format!(
            " The AI moved for {away_names}, who declared an absence."
        ));
    }
    text
}

/// Splits the seats without a final action at a deadline into those whose
/// sent action leaves nothing owed (every Diplomacy unit ordered, `done`
/// not said) and those that missed the deadline. The first have moved:
/// their action stands as sent, and neither the reliability record nor the
/// announcement counts them, as the reminders promised ("a power with every
/// unit ordered loses nothing by not saying `done`"). Under the forfeit
/// policy every seat without a final action forfeits, as its reminder
/// warned, so none is split off.
fn split_complete(
    row: &GameRow,
    engine: &dyn AnyGame,
    pending: &BTreeMap<Seat, (Value, bool)>,
    not_final: Vec<Seat>,
) -> Result<(Vec<Seat>, Vec<Seat>), HostError> {
    if row.timeout_policy == TimeoutPolicy::Forfeit {
        return Ok((Vec::new(), not_final));
    }
    let mut complete = Vec::new();
    let mut missing = Vec::new();
    for seat in not_final {
        let sent = pending.get(&seat).map(|(a, _)| a);
        let owed = engine
            .outstanding(seat, sent)
            .map_err(|source| HostError::Corrupt {
                game_id: row.id,
                source,
            })?;
        if sent.is_some() && owed == Outstanding::Nothing {
            complete.push(seat);
        } else {
            missing.push(seat);
        }
    }
    Ok((complete, missing))
}

/// Whether any seat held by a person sent something this turn (even a
/// partial action): the game is not abandoned.
fn people_acted(seats: &[SeatRow], pending: &BTreeMap<Seat, (Value, bool)>) -> bool {
    pending.keys().any(|seat| {
        seats
            .iter()
            .any(|s| s.seat == *seat && matches!(s.occupant, Occupant::User(_)))
    })
}

fn timeout_words(p: TimeoutPolicy) -> &'static str {
    match p {
        TimeoutPolicy::Default => "a seat that has not moved gets the default action",
        TimeoutPolicy::Ai => "an AI moves for a seat that has not moved",
        TimeoutPolicy::Forfeit => "a seat that has not moved forfeits",
    }
}

/// Whether an AI sits in `seat` (it moves on its own: never awaited).
fn is_ai_seat(seats: &[SeatRow], seat: Seat) -> bool {
    seats
        .iter()
        .any(|s| s.seat == seat && matches!(s.occupant, Occupant::Ai(_)))
}
