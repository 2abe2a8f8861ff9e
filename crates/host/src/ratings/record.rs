//! Recording a finished game: its results, the ratings they move, the
//! game's rating rules, and the backlog rated after a restart.

use super::*;

impl Host {
    /// Checks rules for a new game of `kind` with `options` before it is
    /// created: scoring only where more than two seats play.
    pub fn check_game_rules(
        &self,
        kind: &str,
        options: &serde_json::Value,
        rules: &GameRules,
    ) -> Result<(), HostError> {
        if let Some(m) = rules.min_reliability
            && m > 100
        {
            return Err(HostError::user(format!(
                "A minimum reliability is a percentage: {m} is more than 100."
            )));
        }
        if rules.scoring.is_some() {
            let seats = self
                .registry
                .seat_count(kind, options)
                .map_err(|e| HostError::user(e.to_string()))?;
            if seats <= 2 {
                return Err(HostError::user(format!(
                    "A scoring system shares points among many players; {kind} has {seats} seats \
                     and no scoring to choose (it is won, drawn or lost)."
                )));
            }
        }
        Ok(())
    }

    /// Sets a game's rules while it is in the lobby (its creator only).
    pub fn set_game_rules(
        &self,
        game_id: GameId,
        by_user: &str,
        rules: GameRules,
    ) -> Result<(), HostError> {
        self.store.write(|tx| {
            let row = require_game(tx, game_id)?;
            if row.status != store::GameStatus::Lobby {
                return Err(HostError::user(format!(
                    "{}'s rules are fixed once it has started.",
                    game_label(&row)
                )));
            }
            if row.creator_id != by_user {
                return Err(HostError::user(format!(
                    "Only the creator of {} sets its rules.",
                    game_label(&row)
                )));
            }
            let options: serde_json::Value =
                serde_json::from_str(&row.options).unwrap_or(serde_json::Value::Null);
            self.check_game_rules(&row.kind, &options, &rules)?;
            tx.set_game_rules(
                game_id,
                &GameRulesRow {
                    rated: rules.rated,
                    scoring: rules.scoring.map(|s| s.as_str().to_string()),
                    min_reliability: rules.min_reliability,
                },
            )?;
            Ok(())
        })
    }

    /// A game's rules (the defaults if its creator set none).
    pub fn game_rules(&self, game_id: GameId) -> Result<GameRules, HostError> {
        Ok(self
            .store
            .read(|tx| tx.game_rules(game_id))?
            .map(GameRules::from_row)
            .unwrap_or_default())
    }

    /// Sets whether a server rates games with AI seats (and the AIs in them).
    pub fn set_rate_ai_seats(&self, guild_id: Option<&str>, on: bool) -> Result<(), HostError> {
        let scope = scope_key(guild_id);
        Ok(self.store.write(|tx| tx.set_rate_ai_seats(&scope, on))?)
    }

    /// Rates the games that finished before ratings existed, oldest end
    /// first; returns how many. Also done before any newly finished game is
    /// rated, so the order holds even if nobody calls this.
    pub fn rate_backlog(&self) -> Result<usize, HostError> {
        self.store.write(|tx| self.rate_backlog_in(tx))
    }

    /// Rates the backlog first if it has anything (a read when it has not),
    /// so a board read right after the upgrade already counts old games.
    pub(super) fn backlog_rated(&self) -> Result<(), HostError> {
        if !self.store.read(|tx| tx.rating_backlog())?.is_empty() {
            self.rate_backlog()?;
        }
        Ok(())
    }

    fn rate_backlog_in(&self, tx: &Tx<'_>) -> Result<usize, HostError> {
        let ids = tx.rating_backlog()?;
        for &id in &ids {
            let row = require_game(tx, id)?;
            tx.remove_from_rating_backlog(id)?;
            if !tx.game_results(id)?.is_empty() {
                continue;
            }
            let Ok(engine) = self.engine_of(&row) else {
                // A kind this build no longer runs cannot be re-read.
                continue;
            };
            let Some(outcome) = engine.outcome() else {
                continue;
            };
            let seats = tx.seats(id)?;
            self.record_results_now(tx, &row, engine.as_ref(), &seats, &outcome)?;
        }
        Ok(ids.len())
    }

    /// Records a finished game's results and, if it is rated, its rating
    /// changes, in the caller's transaction (the one that ends the game).
    /// Returns lines for the final message.
    pub(crate) fn record_results(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        outcome: &Outcome,
    ) -> Result<String, HostError> {
        self.rate_backlog_in(tx)?;
        self.record_results_now(tx, row, engine, seats, outcome)
    }

    fn record_results_now(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        engine: &dyn AnyGame,
        seats: &[SeatRow],
        outcome: &Outcome,
    ) -> Result<String, HostError> {
        let scope = scope_key(row.guild_id.as_deref());
        let rules = tx
            .game_rules(row.id)?
            .map(GameRules::from_row)
            .unwrap_or_default();
        let n = seats.iter().map(|s| s.seat + 1).max().unwrap_or(0);
        let forfeited = forfeited_seats(tx, row.id)?;
        // In a draw, a seat still listed but no longer in play was left in
        // civil disorder: that is a loss, not a share of the draw.
        let mut gave_up = forfeited.clone();
        if let Outcome::Draw(v) = outcome {
            gave_up.extend(v.iter().copied().filter(|s| !engine.seat_in_play(*s)));
        }
        let multi = n > 2;
        let scoring = multi.then(|| rules.scoring.unwrap_or(Scoring::DrawSize));
        let strengths: Vec<u32> = (0..n).map(|s| engine.strength(s)).collect();
        let results = seat_results(&FinishedGame {
            outcome,
            seats: n,
            gave_up: &gave_up,
            forfeited: &forfeited,
            strengths: &strengths,
            scoring,
        });
        let keyed: Vec<KeyedResult<'_>> = seats
            .iter()
            .filter_map(|s| {
                results
                    .get(s.seat)
                    .map(|r| (s, player_key(&s.occupant), *r))
            })
            .collect();
        let why_unrated = why_unrated(tx, &rules, &scope, seats, &keyed)?;
        let after = match why_unrated {
            None => self.update_ratings(tx, row, &scope, &keyed)?,
            Some(_) => vec![None; keyed.len()],
        };
        for (i, (seat, key, r)) in keyed.iter().enumerate() {
            tx.insert_game_result(&GameResultRow {
                game_id: row.id,
                seat: seat.seat,
                player: key.clone(),
                result: r.outcome.as_str().to_string(),
                score: r.score,
                rating_before: after[i].map(|(b, _)| b),
                rating_after: after[i].map(|(_, s)| s.rating),
                deviation_after: after[i].map(|(_, s)| s.deviation),
            })?;
        }
        Ok(final_message_lines(
            engine,
            seats,
            &keyed,
            scoring,
            why_unrated,
            &after,
        ))
    }

    /// Rates a rated game: each player's rating before (newcomers start
    /// fresh), updated by the duel or multi-player model and stored.
    /// Returns per keyed seat the rating before and the skill after.
    fn update_ratings(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        scope: &str,
        keyed: &[KeyedResult<'_>],
    ) -> Result<Vec<Option<(f64, Skill)>>, HostError> {
        let scope = scope.to_string();
        let now = self.now();
        let mut after: Vec<Option<(f64, Skill)>> = vec![None; keyed.len()];
        let newcomer = Skill::newcomer(keyed.len());
        let players: Vec<&str> = keyed.iter().map(|(_, k, _)| k.as_str()).collect();
        tx.lock_ratings(
            &RatingRow {
                scope: scope.clone(),
                kind: row.kind.clone(),
                player: String::new(),
                rating: newcomer.rating,
                deviation: newcomer.deviation,
                volatility: newcomer.volatility,
                games: 0,
                updated_at: now,
            },
            &players,
        )?;
        let before: Vec<(Skill, u32)> = keyed
            .iter()
            .map(|(_, k, _)| {
                Ok(tx
                    .rating(&scope, &row.kind, k)?
                    .map(|r| {
                        (
                            Skill {
                                rating: r.rating,
                                deviation: r.deviation,
                                volatility: r.volatility,
                            },
                            r.games,
                        )
                    })
                    .unwrap_or((Skill::newcomer(keyed.len()), 0)))
            })
            .collect::<Result<_, HostError>>()?;
        let new: Vec<Skill> = if keyed.len() == 2 {
            let (a, b) = update_duel(before[0].0, before[1].0, keyed[0].2.outcome);
            vec![a, b]
        } else {
            update_multi(
                &keyed
                    .iter()
                    .zip(&before)
                    .map(|((_, _, r), (s, _))| (*s, r.rank))
                    .collect::<Vec<_>>(),
            )
        };
        for (i, ((_, key, _), (old, games))) in keyed.iter().zip(&before).enumerate() {
            let s = new[i];
            after[i] = Some((old.rating, s));
            // A forgotten person asked for their ratings to go; none comes back.
            if is_forgotten(key) {
                continue;
            }
            tx.upsert_rating(&RatingRow {
                scope: scope.clone(),
                kind: row.kind.clone(),
                player: key.clone(),
                rating: s.rating,
                deviation: s.deviation,
                volatility: s.volatility,
                games: games + 1,
                updated_at: now,
            })?;
        }
        Ok(after)
    }
}

/// The seats forfeited during the game, from its turn log.
fn forfeited_seats(tx: &Tx<'_>, game_id: GameId) -> Result<Vec<Seat>, HostError> {
    let mut forfeited: Vec<Seat> = Vec::new();
    for log in tx.forfeit_logs(game_id)? {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&log)
            && let Some(list) = v.get("forfeit").and_then(|l| l.as_array())
        {
            forfeited.extend(list.iter().filter_map(|s| s.as_u64()).map(|s| s as Seat));
        }
    }
    Ok(forfeited)
}

/// Why a finished game is not rated, if it is not: made unrated, an AI
/// played where only people are rated, or one player held two seats.
fn why_unrated(
    tx: &Tx<'_>,
    rules: &GameRules,
    scope: &str,
    seats: &[SeatRow],
    keyed: &[KeyedResult<'_>],
) -> Result<Option<&'static str>, HostError> {
    let all_human = seats
        .iter()
        .all(|s| matches!(s.occupant, Occupant::User(_)));
    let mut distinct: Vec<&str> = keyed.iter().map(|(_, k, _)| k.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    Ok(if !rules.rated {
        Some("its creator made it unrated")
    } else if !all_human && !tx.rate_ai_seats(scope)? {
        Some("an AI played in it, and this server rates only games between people")
    } else if distinct.len() < 2 || distinct.len() != keyed.len() {
        Some("the same player or AI level held more than one seat")
    } else {
        None
    })
}

/// The lines added to the final message: the scores (multi-player), then
/// the rating changes or why the game is not rated.
fn final_message_lines(
    engine: &dyn AnyGame,
    seats: &[SeatRow],
    keyed: &[KeyedResult<'_>],
    scoring: Option<Scoring>,
    why_unrated: Option<&str>,
    after: &[Option<(f64, Skill)>],
) -> String {
    // The lines added to the final message.
    let mut text = String::new();
    if let Some(scoring) = scoring {
        let mut by_rank: Vec<&KeyedResult<'_>> = keyed.iter().collect();
        by_rank.sort_by_key(|(s, _, r)| (r.rank, s.seat));
        text.push_str(&format!(
            "\nScores ({}): {}.",
            scoring.name(),
            by_rank
                .iter()
                .map(|(s, _, r)| format!(
                    "{} ({}) {:.1}",
                    engine.seat_name(s.seat),
                    s.display_name,
                    r.score.unwrap_or(0.0)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match why_unrated {
        Some(why) => text.push_str(&format!("\nNot rated: {why}.")),
        None => {
            let parts: Vec<String> = keyed
                .iter()
                .zip(after)
                .filter_map(|((seat, _, _), a)| {
                    a.map(|(b, s)| {
                        format!(
                            "{} {:.0} → {:.0} ({:+.0})",
                            seat_display(seats, seat.seat),
                            b,
                            s.rating,
                            s.rating.round() - b.round()
                        )
                    })
                })
                .collect();
            text.push_str(&format!("\nRatings: {}.", parts.join(", ")));
        }
    }
    text
}
