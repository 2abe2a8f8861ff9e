//! Ratings per server and per kind, leaderboards, profiles and reliability.
//!
//! A game's results and its rating change are written in the transaction
//! that ends it ([`Host::record_results`], called from `finish`), so a crash
//! leaves both or neither. Two-seat games use Glicko-2; games with more
//! seats (Diplomacy) use Weng-Lin, a Bayesian multiplayer model whose values
//! are stored on the Glicko scale (× [`WENG_LIN_SCALE`] around 1500), so
//! every leaderboard reads the same way: the scale makes a rating
//! difference mean the same expected score in both models. The maths is
//! `skillratings`'.

use super::scoring::{FinishedGame, Scoring, SeatResult, seat_results};
use super::shared::{is_forgotten, seat_display};
use super::skill::{Skill, update_duel, update_multi};
use super::{AnyGame, GameId, Host, HostError, game_label, require_game};
use games::seam::{Outcome, Seat};
use store::{GameResultRow, GameRow, GameRulesRow, Occupant, RatingRow, SeatRow, Tx};

/// Players per leaderboard page.
pub const LEADERBOARD_PAGE: u32 = 10;
/// Recent games shown on a profile.
pub const PROFILE_RECENT: usize = 5;
/// Reliability points a civil disorder costs.
pub const CIVIL_DISORDER_PENALTY: u32 = 10;

/// What a game's creator chose about rating, scoring and who may join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRules {
    /// Whether the game may change ratings (default yes).
    pub rated: bool,
    /// The scoring system of a game with more than two seats (default draw-size).
    pub scoring: Option<Scoring>,
    /// The least reliability (percent) a player needs to join.
    pub min_reliability: Option<u8>,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            rated: true,
            scoring: None,
            min_reliability: None,
        }
    }
}

impl GameRules {
    fn from_row(r: GameRulesRow) -> GameRules {
        GameRules {
            rated: r.rated,
            scoring: r.scoring.as_deref().and_then(Scoring::parse),
            min_reliability: r.min_reliability,
        }
    }
}

/// A player's reliability in one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reliability {
    /// Turns the player's seats were awaited in (logged turns).
    pub turns_awaited: u32,
    /// Deadlines they let pass without moving.
    pub missed_deadlines: u32,
    /// Times their seat fell into civil disorder.
    pub civil_disorders: u32,
    /// The share of awaited turns moved in time, less
    /// [`CIVIL_DISORDER_PENALTY`] points per civil disorder; 100 for a
    /// newcomer.
    pub percent: u8,
}

impl Reliability {
    fn from_counts(c: store::ReliabilityCounts) -> Reliability {
        let base = if c.turns_awaited == 0 {
            100
        } else {
            let on_time = c.turns_awaited.saturating_sub(c.missed_deadlines);
            on_time * 100 / c.turns_awaited
        };
        let percent = base.saturating_sub(c.civil_disorders * CIVIL_DISORDER_PENALTY);
        Reliability {
            turns_awaited: c.turns_awaited,
            missed_deadlines: c.missed_deadlines,
            civil_disorders: c.civil_disorders,
            percent: percent.min(100) as u8,
        }
    }
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardEntry {
    /// 1-based place.
    pub place: u32,
    /// User id, or `ai:<level>`.
    pub player: String,
    /// Rating.
    pub rating: f64,
    /// Deviation.
    pub deviation: f64,
    /// Rated games played.
    pub games: u32,
}

/// A page of a kind's leaderboard in one server.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    /// The kind.
    pub kind: String,
    /// This page, from 1.
    pub page: u32,
    /// How many pages there are (at least 1).
    pub pages: u32,
    /// How many players are rated.
    pub total: u32,
    /// The page's players, best first.
    pub entries: Vec<LeaderboardEntry>,
    /// The viewer's own line, if they are rated.
    pub viewer: Option<LeaderboardEntry>,
}

/// A player's standing in one kind.
#[derive(Debug, Clone, PartialEq)]
pub struct KindProfile {
    /// The kind.
    pub kind: String,
    /// Rating and deviation, once rated.
    pub rating: Option<(f64, f64)>,
    /// Place on the kind's leaderboard, once rated.
    pub place: Option<u32>,
    /// Finished games (rated or not).
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses (forfeits not included).
    pub losses: u32,
    /// Forfeits and civil disorders.
    pub forfeits: u32,
    /// Wins in a row (positive) or losses in a row (negative) up to now.
    pub streak: i32,
    /// Mean scoring points of scored games, if any.
    pub mean_score: Option<f64>,
    /// Where the player stands against each AI level of the kind (the AI
    /// ladder), from their rating or a newcomer's.
    pub ai_ladder: Vec<super::LevelStanding>,
}

/// One finished game on a profile.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentGame {
    /// The game.
    pub game_id: GameId,
    /// Its kind.
    pub kind: String,
    /// Its server, if any.
    pub guild_id: Option<String>,
    /// Its channel.
    pub channel_id: String,
    /// `win`, `draw`, `loss` or `forfeit`.
    pub result: String,
    /// Scoring points, if scored.
    pub score: Option<f64>,
    /// Rating before and after, if rated.
    pub change: Option<(f64, f64)>,
    /// When it ended (ms).
    pub ended_at: i64,
}

/// What `/game profile` shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// The user.
    pub user_id: String,
    /// One entry per kind played, by kind.
    pub kinds: Vec<KindProfile>,
    /// Reliability in this server.
    pub reliability: Reliability,
    /// The latest finished games, newest first.
    pub recent: Vec<RecentGame>,
}

/// The scope key of a server (or of games outside one).
fn scope_key(guild_id: Option<&str>) -> String {
    guild_id.unwrap_or("").to_string()
}

/// The player key of a seat's occupant.
fn player_key(o: &Occupant) -> String {
    match o {
        Occupant::User(u) => u.clone(),
        Occupant::Ai(level) => format!("ai:{level}"),
    }
}

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
    fn backlog_rated(&self) -> Result<(), HostError> {
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
    pub(super) fn record_results(
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

    /// A page (from 1; past the end: the last) of a kind's leaderboard in a
    /// server, with the viewer's own place.
    pub fn leaderboard(
        &self,
        guild_id: Option<&str>,
        kind: &str,
        page: u32,
        viewer: Option<&str>,
    ) -> Result<Leaderboard, HostError> {
        let kind = self.registry.get(kind)?.name.to_string();
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        self.store.read(|tx| {
            let total = tx.leaderboard_len(&scope, &kind)?;
            let pages = total.div_ceil(LEADERBOARD_PAGE).max(1);
            let page = page.clamp(1, pages);
            let offset = (page - 1) * LEADERBOARD_PAGE;
            let entries = tx
                .leaderboard(&scope, &kind, offset, LEADERBOARD_PAGE)?
                .into_iter()
                .enumerate()
                .map(|(i, r)| LeaderboardEntry {
                    place: offset + i as u32 + 1,
                    player: r.player,
                    rating: r.rating,
                    deviation: r.deviation,
                    games: r.games,
                })
                .collect();
            let viewer = match viewer {
                Some(v) => match (
                    tx.rating(&scope, &kind, v)?,
                    tx.leaderboard_place(&scope, &kind, v)?,
                ) {
                    (Some(r), Some(place)) => Some(LeaderboardEntry {
                        place,
                        player: r.player,
                        rating: r.rating,
                        deviation: r.deviation,
                        games: r.games,
                    }),
                    _ => None,
                },
                None => None,
            };
            Ok(Leaderboard {
                kind: kind.clone(),
                page,
                pages,
                total,
                entries,
                viewer,
            })
        })
    }

    /// One player's line on a kind's leaderboard in a server (a user id,
    /// or `ai:<level>`), if they are rated.
    pub fn rating_of(
        &self,
        guild_id: Option<&str>,
        kind: &str,
        player: &str,
    ) -> Result<Option<LeaderboardEntry>, HostError> {
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        self.store.read(|tx| {
            let (Some(r), Some(place)) = (
                tx.rating(&scope, kind, player)?,
                tx.leaderboard_place(&scope, kind, player)?,
            ) else {
                return Ok(None);
            };
            Ok(Some(LeaderboardEntry {
                place,
                player: r.player,
                rating: r.rating,
                deviation: r.deviation,
                games: r.games,
            }))
        })
    }

    /// The kinds rated in a server, by name.
    pub fn rated_kinds(&self, guild_id: Option<&str>) -> Result<Vec<String>, HostError> {
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        Ok(self.store.read(|tx| tx.rated_kinds(&scope))?)
    }

    /// A user's reliability in a server.
    pub fn reliability(
        &self,
        guild_id: Option<&str>,
        user_id: &str,
    ) -> Result<Reliability, HostError> {
        let scope = scope_key(guild_id);
        Ok(Reliability::from_counts(
            self.store
                .read(|tx| tx.reliability_counts(&scope, user_id))?,
        ))
    }

    /// A user's ratings, results, reliability and latest games in a server.
    pub fn profile(&self, guild_id: Option<&str>, user_id: &str) -> Result<Profile, HostError> {
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        self.store.read(|tx| {
            let ratings = tx.ratings_of_player(&scope, user_id)?;
            let counts = tx.result_counts(&scope, user_id)?;
            // Enough to find any streak a profile shows and the mean score.
            let history = tx.results_of_player(&scope, user_id, 500)?;
            let mut kinds: Vec<String> = counts.iter().map(|c| c.kind.clone()).collect();
            kinds.extend(ratings.iter().map(|r| r.kind.clone()));
            kinds.sort();
            kinds.dedup();
            let mut out = Vec::new();
            for kind in kinds {
                let count = |result: &str| {
                    counts
                        .iter()
                        .filter(|c| c.kind == kind && c.result == result)
                        .map(|c| c.count)
                        .sum::<u32>()
                };
                let mine: Vec<&store::PlayerResultRow> =
                    history.iter().filter(|h| h.kind == kind).collect();
                let mut streak: i32 = 0;
                for h in &mine {
                    match h.result.result.as_str() {
                        "win" if streak >= 0 => streak += 1,
                        "loss" | "forfeit" if streak <= 0 => streak -= 1,
                        _ => break,
                    }
                }
                let scores: Vec<f64> = mine.iter().filter_map(|h| h.result.score).collect();
                let rating = ratings.iter().find(|r| r.kind == kind);
                let (wins, draws, losses, forfeits) =
                    (count("win"), count("draw"), count("loss"), count("forfeit"));
                let skill = rating
                    .map(|r| Skill {
                        rating: r.rating,
                        deviation: r.deviation,
                        volatility: r.volatility,
                    })
                    .unwrap_or_else(|| self.ai_ladder.newcomer(&kind));
                let offered = self.registry.get(&kind).map(|e| e.ai_levels).unwrap_or(&[]);
                let ai_ladder = self.ai_ladder.standings(&kind, offered, skill);
                out.push(KindProfile {
                    rating: rating.map(|r| (r.rating, r.deviation)),
                    place: match rating {
                        Some(_) => tx.leaderboard_place(&scope, &kind, user_id)?,
                        None => None,
                    },
                    games: wins + draws + losses + forfeits,
                    wins,
                    draws,
                    losses,
                    forfeits,
                    streak,
                    mean_score: (!scores.is_empty())
                        .then(|| scores.iter().sum::<f64>() / scores.len() as f64),
                    ai_ladder,
                    kind,
                });
            }
            let recent = history
                .iter()
                .take(PROFILE_RECENT)
                .map(|h| RecentGame {
                    game_id: h.result.game_id,
                    kind: h.kind.clone(),
                    guild_id: h.guild_id.clone(),
                    channel_id: h.channel_id.clone(),
                    result: h.result.result.clone(),
                    score: h.result.score,
                    change: h.result.rating_before.zip(h.result.rating_after),
                    ended_at: h.ended_at,
                })
                .collect();
            Ok(Profile {
                user_id: user_id.to_string(),
                kinds: out,
                reliability: Reliability::from_counts(tx.reliability_counts(&scope, user_id)?),
                recent,
            })
        })
    }

    /// Refuses a user below the game's minimum reliability.
    pub(super) fn check_join_reliability(
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
    pub(super) fn note_missed_deadlines(
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
    pub(super) fn note_civil_disorder(
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

/// One seat's result with the key of the player (or AI level) holding it.
type KeyedResult<'a> = (&'a SeatRow, String, SeatResult);

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::SeatOutcome;
    use crate::skill::{START_DEVIATION, START_RATING, START_VOLATILITY, WENG_LIN_SCALE};
    use skillratings::MultiTeamOutcome;
    use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

    /// skillratings' published Glicko-2 example: two new players, one win.
    #[test]
    fn glicko2_matches_the_crates_published_example() {
        let (a, b) = update_duel(Skill::default(), Skill::default(), SeatOutcome::Win);
        assert_eq!(a.rating.round(), 1662.0);
        assert_eq!(a.deviation.round(), 290.0);
        assert!((a.volatility - 0.05999967537233814).abs() < 1e-12);
        assert_eq!(b.rating.round(), 1338.0);
        assert_eq!(b.deviation.round(), 290.0);
        // A forfeit is the same loss.
        let (_, f) = update_duel(Skill::default(), Skill::default(), SeatOutcome::Forfeit);
        let (_, l) = update_duel(Skill::default(), Skill::default(), SeatOutcome::Loss);
        assert_eq!(f, l);
    }

    /// skillratings' published Weng-Lin example (three players of three
    /// teams: 1st, 3rd, 2nd) through the Glicko-scale conversion: with one
    /// player per team the conversion must give the crate's numbers back.
    #[test]
    fn weng_lin_matches_the_crate_through_the_scale_conversion() {
        let to_skill = |mu: f64, sigma: f64| Skill {
            rating: START_RATING + (mu - 25.0) * WENG_LIN_SCALE,
            deviation: sigma * WENG_LIN_SCALE,
            volatility: 0.0,
        };
        let players = [
            (to_skill(25.1, 5.0), 1),
            (to_skill(44.0, 1.2), 3),
            (to_skill(25.0, 25.0 / 3.0), 2),
        ];
        let ours = update_multi(&players);
        let wl = |mu: f64, sigma: f64| {
            [WengLinRating {
                rating: mu,
                uncertainty: sigma,
            }]
        };
        let (t1, t2, t3) = (wl(25.1, 5.0), wl(44.0, 1.2), wl(25.0, 25.0 / 3.0));
        let theirs = weng_lin_multi_team(
            &[
                (&t1[..], MultiTeamOutcome::new(1)),
                (&t2[..], MultiTeamOutcome::new(3)),
                (&t3[..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        for (o, t) in ours.iter().zip(&theirs) {
            let back = 25.0 + (o.rating - START_RATING) / WENG_LIN_SCALE;
            assert!(
                (back - t[0].rating).abs() < 1e-9,
                "{back} vs {}",
                t[0].rating
            );
            assert!((o.deviation / WENG_LIN_SCALE - t[0].uncertainty).abs() < 1e-9);
        }
        // The winner gains, the favourite who came last loses.
        assert!(ours[0].rating > players[0].0.rating);
        assert!(ours[1].rating < players[1].0.rating);
    }

    /// The crate's published multi-team example, first team's first player:
    /// 25.1 ± 5.0 in a team taking 1st of 3 rises to about 28.
    #[test]
    fn weng_lin_published_multi_team_example() {
        let t1 = [
            WengLinRating {
                rating: 25.1,
                uncertainty: 5.0,
            },
            WengLinRating {
                rating: 24.0,
                uncertainty: 1.2,
            },
            WengLinRating {
                rating: 18.0,
                uncertainty: 6.5,
            },
        ];
        let t2 = [
            WengLinRating {
                rating: 44.0,
                uncertainty: 1.2,
            },
            WengLinRating {
                rating: 32.0,
                uncertainty: 2.0,
            },
            WengLinRating {
                rating: 12.0,
                uncertainty: 3.2,
            },
        ];
        let t3 = [WengLinRating::new(); 3];
        let new = weng_lin_multi_team(
            &[
                (&t1[..], MultiTeamOutcome::new(1)),
                (&t2[..], MultiTeamOutcome::new(3)),
                (&t3[..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        assert_eq!(new[0][0].rating.round(), 28.0);
    }

    /// The display scale: a Weng-Lin difference means the Glicko-2
    /// expected score of the same difference (settled players), and a
    /// newcomer's first seven-player win is about Glicko-2's six wins.
    #[test]
    fn weng_lin_differences_mean_what_glicko_differences_mean() {
        let settled = |rating: f64| Skill {
            rating,
            deviation: 1e-6,
            volatility: START_VOLATILITY,
        };
        for d in [50.0, 200.0, 400.0] {
            let g = crate::expected_score(
                crate::LadderModel::Glicko2,
                settled(1500.0 + d),
                settled(1500.0),
            );
            let w = crate::expected_score(
                crate::LadderModel::WengLin,
                settled(1500.0 + d),
                settled(1500.0),
            );
            // Logistic in both; the same slope to a part in a thousand.
            assert!((g - w).abs() < 0.001, "{d}: glicko {g}, weng-lin {w}");
        }
        // 400 points ahead: about 10 to 1, in both.
        let w = crate::expected_score(
            crate::LadderModel::WengLin,
            settled(1900.0),
            settled(1500.0),
        );
        assert!((w - 10.0 / 11.0).abs() < 0.001, "{w}");
    }

    #[test]
    fn a_first_seven_player_win_gains_about_six_glicko_wins() {
        let new = Skill::newcomer(7);
        assert_eq!(new.deviation.round(), 246.0);
        assert_eq!(Skill::newcomer(2).deviation, START_DEVIATION);
        // A solo: the winner first, the six others share second place.
        let players: Vec<(Skill, usize)> =
            (0..7).map(|s| (new, if s == 0 { 1 } else { 2 })).collect();
        let after = update_multi(&players);
        let gain = after[0].rating - START_RATING;
        assert_eq!(gain.round(), 466.0, "{gain}");
        // On the old scale (×42) the same game gave +660.
        assert_eq!((gain * 42.0 / WENG_LIN_SCALE).round(), 664.0);
        // Glicko-2: a newcomer winning six games against newcomers in one
        // rating period.
        let six =
            crate::update_period(Skill::default(), &[(Skill::default(), SeatOutcome::Win); 6]);
        let glicko_gain = six.rating - START_RATING;
        println!(
            "first seven-player win: weng-lin {gain:+.1}, glicko-2 six wins {glicko_gain:+.1}"
        );
        assert!(
            (350.0..420.0).contains(&glicko_gain) && gain < 1.3 * glicko_gain,
            "weng-lin {gain}, glicko-2 {glicko_gain}"
        );
        // Each loser drops by a sixth as much (one lost comparison to the
        // winner; the ties among them move nothing).
        let loss = START_RATING - after[1].rating;
        assert!((loss - gain / 6.0).abs() < 1.0, "{loss} {gain}");
    }

    #[test]
    fn reliability_counts_missed_turns_and_civil_disorders() {
        let r = |t, m, c| {
            Reliability::from_counts(store::ReliabilityCounts {
                turns_awaited: t,
                missed_deadlines: m,
                civil_disorders: c,
            })
            .percent
        };
        assert_eq!(r(0, 0, 0), 100);
        assert_eq!(r(20, 2, 0), 90);
        assert_eq!(r(20, 2, 1), 80);
        assert_eq!(r(10, 10, 3), 0);
    }
}
