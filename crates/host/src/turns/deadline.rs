//! Deadlines: reminders, and a turn whose time is up resolved with the
//! policy's stand-in actions.

use super::*;

impl Host {
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
                crate::CLAIM_LEASE_MS,
                crate::instances::CLAIM_DEADLINES,
            )
        })?;
        let mut events = Vec::new();
        let mut renewed_at = now;
        for d in due {
            // A long batch keeps its claims: the rest of it must not lapse
            // to another process while this one works through it.
            let at = self.now();
            if at - renewed_at >= crate::CLAIM_RENEW_EVERY_MS {
                self.store.write(|tx| {
                    tx.renew_claims(&self.instance_id, at.saturating_add(crate::CLAIM_LEASE_MS))
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
                                    crate::durations::time_left_words(d.due_at - self.now()),
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
