//! Ratings, game results, per-game rules and reliability events
//! (migration 0004). Scope and player keys are explained there.

use super::db::{Row, args};
use super::{StoreError, Tx};

/// A row of `ratings`: one player's rating in one scope and kind.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    /// Server id, or '' outside a server.
    pub scope: String,
    /// Engine kind.
    pub kind: String,
    /// User id, or `ai:<level>`.
    pub player: String,
    /// Rating on the Glicko scale.
    pub rating: f64,
    /// Its deviation on the same scale.
    pub deviation: f64,
    /// Glicko-2 volatility (0 for Weng-Lin).
    pub volatility: f64,
    /// Rated games counted.
    pub games: u32,
    /// Last change (ms).
    pub updated_at: i64,
}

impl RatingRow {
    fn from_row(r: &Row) -> Result<RatingRow, StoreError> {
        Ok(RatingRow {
            scope: r.get(0)?,
            kind: r.get(1)?,
            player: r.get(2)?,
            rating: r.get(3)?,
            deviation: r.get(4)?,
            volatility: r.get(5)?,
            games: r.get(6)?,
            updated_at: r.get(7)?,
        })
    }
}

const RATING_COLUMNS: &str =
    "scope, kind, player, rating, deviation, volatility, games, updated_at";

/// A row of `game_results`: what one seat of a finished game came to.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResultRow {
    /// The game.
    pub game_id: i64,
    /// The seat.
    pub seat: usize,
    /// User id, or `ai:<level>`.
    pub player: String,
    /// `win`, `draw`, `loss` or `forfeit`.
    pub result: String,
    /// Diplomacy scoring points, if the game was scored.
    pub score: Option<f64>,
    /// The rating before the game, if it was rated.
    pub rating_before: Option<f64>,
    /// The rating after it.
    pub rating_after: Option<f64>,
    /// The deviation after it.
    pub deviation_after: Option<f64>,
}

/// A player's result with where and when the game was played (for profiles).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerResultRow {
    /// The result itself.
    pub result: GameResultRow,
    /// The game's kind.
    pub kind: String,
    /// Its channel.
    pub channel_id: String,
    /// Its server, if any.
    pub guild_id: Option<String>,
    /// When it ended (ms).
    pub ended_at: i64,
}

/// How many results of one kind a player has (for profiles).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultCount {
    /// Engine kind.
    pub kind: String,
    /// `win`, `draw`, `loss` or `forfeit`.
    pub result: String,
    /// How many.
    pub count: u32,
}

/// A row of `game_rules`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRulesRow {
    /// Whether the game may change ratings.
    pub rated: bool,
    /// Diplomacy scoring system: `dss`, `sos` or `solo`.
    pub scoring: Option<String>,
    /// The least reliability (percent) a player needs to join.
    pub min_reliability: Option<u8>,
}

/// What a user's reliability is computed from, in one scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReliabilityCounts {
    /// Logged turns in which the user's seat had an action.
    pub turns_awaited: u32,
    /// Deadlines the user let pass without moving.
    pub missed_deadlines: u32,
    /// Times the user's seat fell into civil disorder.
    pub civil_disorders: u32,
}

impl Tx<'_> {
    /// One player's rating in a scope and kind.
    pub fn rating(
        &self,
        scope: &str,
        kind: &str,
        player: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE scope = ?1 AND kind = ?2 AND player = ?3"
        );
        self.conn
            .row(&sql, args![scope, kind, player])?
            .as_ref()
            .map(RatingRow::from_row)
            .transpose()
    }

    /// On PostgreSQL in a write transaction, locks the rating rows of
    /// `players` in `newcomer`'s scope and kind until the transaction ends,
    /// first creating each missing one as `newcomer` (its `player` ignored),
    /// so that two games ending at once between the same players rate one
    /// after the other instead of both reading the same rating. The rows are
    /// locked sorted by player: two transactions never wait for each other
    /// in a circle. SQLite's write transactions exclude each other already.
    pub fn lock_ratings(&self, newcomer: &RatingRow, players: &[&str]) -> Result<(), StoreError> {
        if !(self.write && self.conn.is_pg()) {
            return Ok(());
        }
        let mut sorted = players.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        for player in sorted {
            // A second transaction inserting the same key waits for the
            // first to end, then finds its row.
            self.conn.exec(
                "INSERT INTO ratings (scope, kind, player, rating, deviation, volatility, games, \
                 updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7) ON CONFLICT DO NOTHING",
                args![
                    newcomer.scope,
                    newcomer.kind,
                    player,
                    newcomer.rating,
                    newcomer.deviation,
                    newcomer.volatility,
                    newcomer.updated_at
                ],
            )?;
            self.conn.exec(
                "SELECT 1 FROM ratings WHERE scope = ?1 AND kind = ?2 AND player = ?3 FOR UPDATE",
                args![newcomer.scope, newcomer.kind, player],
            )?;
        }
        Ok(())
    }

    /// Writes (or replaces) a player's rating.
    pub fn upsert_rating(&self, r: &RatingRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO ratings (scope, kind, player, rating, deviation, volatility, games, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT (scope, kind, player) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             games = excluded.games, updated_at = excluded.updated_at",
            args![
                r.scope,
                r.kind,
                r.player,
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.updated_at
            ],
        )?;
        Ok(())
    }

    /// Every rating of a player in a scope, by kind.
    pub fn ratings_of_player(
        &self,
        scope: &str,
        player: &str,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE scope = ?1 AND player = ?2 ORDER BY kind"
        );
        self.conn
            .rows(&sql, args![scope, player])?
            .iter()
            .map(RatingRow::from_row)
            .collect()
    }

    /// A page of a kind's leaderboard in a scope, best first (ties by
    /// smaller deviation, then player, so pages never overlap).
    pub fn leaderboard(
        &self,
        scope: &str,
        kind: &str,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StoreError> {
        // `COLLATE "C"`-free: players are ids compared bytewise on SQLite;
        // PostgreSQL compares them by the database's collation, which for
        // ASCII ids and digits gives the same order.
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE scope = ?1 AND kind = ?2 \
             ORDER BY rating DESC, deviation ASC, player ASC LIMIT ?3 OFFSET ?4"
        );
        self.conn
            .rows(&sql, args![scope, kind, limit, offset])?
            .iter()
            .map(RatingRow::from_row)
            .collect()
    }

    /// How many players a kind's leaderboard has in a scope.
    pub fn leaderboard_len(&self, scope: &str, kind: &str) -> Result<u32, StoreError> {
        self.conn
            .one(
                "SELECT COUNT(*) FROM ratings WHERE scope = ?1 AND kind = ?2",
                args![scope, kind],
            )?
            .get(0)
    }

    /// A player's 1-based place on a kind's leaderboard (the order of
    /// [`Tx::leaderboard`]), if they are on it.
    pub fn leaderboard_place(
        &self,
        scope: &str,
        kind: &str,
        player: &str,
    ) -> Result<Option<u32>, StoreError> {
        let Some(me) = self.rating(scope, kind, player)? else {
            return Ok(None);
        };
        let ahead: u32 = self
            .conn
            .one(
                "SELECT COUNT(*) FROM ratings WHERE scope = ?1 AND kind = ?2 AND \
             (rating > ?3 OR (rating = ?3 AND (deviation < ?4 OR (deviation = ?4 AND player < ?5))))",
                args![scope, kind, me.rating, me.deviation, player],
            )?
            .get(0)?;
        Ok(Some(ahead + 1))
    }

    /// The kinds with at least one rating in a scope.
    pub fn rated_kinds(&self, scope: &str) -> Result<Vec<String>, StoreError> {
        self.conn
            .rows(
                "SELECT DISTINCT kind FROM ratings WHERE scope = ?1 ORDER BY kind",
                args![scope],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Records what one seat of a finished game came to.
    pub fn insert_game_result(&self, r: &GameResultRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO game_results (game_id, seat, player, result, score, rating_before, \
             rating_after, deviation_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            args![
                r.game_id,
                r.seat as i64,
                r.player,
                r.result,
                r.score,
                r.rating_before,
                r.rating_after,
                r.deviation_after
            ],
        )?;
        Ok(())
    }

    /// The results of a game, by seat (empty until it is recorded).
    pub fn game_results(&self, game_id: i64) -> Result<Vec<GameResultRow>, StoreError> {
        self.conn
            .rows(
                "SELECT game_id, seat, player, result, score, rating_before, rating_after, \
             deviation_after FROM game_results WHERE game_id = ?1 ORDER BY seat",
                args![game_id],
            )?
            .iter()
            .map(result_from_row)
            .collect()
    }

    /// A player's latest results in a scope, newest first, at most `limit`.
    pub fn results_of_player(
        &self,
        scope: &str,
        player: &str,
        limit: u32,
    ) -> Result<Vec<PlayerResultRow>, StoreError> {
        self.conn
            .rows(
                "SELECT r.game_id, r.seat, r.player, r.result, r.score, r.rating_before, \
             r.rating_after, r.deviation_after, g.kind, g.channel_id, g.guild_id, g.updated_at \
             FROM game_results r JOIN games g ON g.id = r.game_id \
             WHERE r.player = ?2 AND COALESCE(g.guild_id, '') = ?1 \
             ORDER BY g.updated_at DESC, g.id DESC LIMIT ?3",
                args![scope, player, limit],
            )?
            .iter()
            .map(|r| {
                Ok(PlayerResultRow {
                    result: result_from_row(r)?,
                    kind: r.get(8)?,
                    channel_id: r.get(9)?,
                    guild_id: r.get(10)?,
                    ended_at: r.get(11)?,
                })
            })
            .collect()
    }

    /// A player's result counts in a scope, by kind and result.
    pub fn result_counts(&self, scope: &str, player: &str) -> Result<Vec<ResultCount>, StoreError> {
        self.conn
            .rows(
                "SELECT g.kind, r.result, COUNT(*) FROM game_results r JOIN games g ON g.id = r.game_id \
             WHERE r.player = ?2 AND COALESCE(g.guild_id, '') = ?1 \
             GROUP BY g.kind, r.result ORDER BY g.kind, r.result",
                args![scope, player],
            )?
            .iter()
            .map(|r| {
                Ok(ResultCount {
                    kind: r.get(0)?,
                    result: r.get(1)?,
                    count: r.get(2)?,
                })
            })
            .collect()
    }

    /// A game's rules, if its creator set any.
    pub fn game_rules(&self, game_id: i64) -> Result<Option<GameRulesRow>, StoreError> {
        self.conn
            .row(
                "SELECT rated, scoring, min_reliability FROM game_rules WHERE game_id = ?1",
                args![game_id],
            )?
            .map(|r| {
                Ok(GameRulesRow {
                    rated: r.get(0)?,
                    scoring: r.get(1)?,
                    min_reliability: r.get(2)?,
                })
            })
            .transpose()
    }

    /// Sets (or replaces) a game's rules.
    pub fn set_game_rules(&self, game_id: i64, rules: &GameRulesRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO game_rules (game_id, rated, scoring, min_reliability) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (game_id) DO UPDATE SET rated = excluded.rated, scoring = excluded.scoring, \
             min_reliability = excluded.min_reliability",
            args![game_id, rules.rated, rules.scoring, rules.min_reliability],
        )?;
        Ok(())
    }

    /// Whether a scope rates games with AI seats.
    pub fn rate_ai_seats(&self, scope: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .row(
                "SELECT rate_ai_seats FROM rating_settings WHERE scope = ?1",
                args![scope],
            )?
            .map(|r| r.get::<bool>(0))
            .transpose()?
            .unwrap_or(false))
    }

    /// Sets whether a scope rates games with AI seats.
    pub fn set_rate_ai_seats(&self, scope: &str, on: bool) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO rating_settings (scope, rate_ai_seats) VALUES (?1, ?2) \
             ON CONFLICT (scope) DO UPDATE SET rate_ai_seats = excluded.rate_ai_seats",
            args![scope, on],
        )?;
        Ok(())
    }

    /// Records that a user missed a deadline (`missed_deadline`) or fell
    /// into civil disorder (`civil_disorder`) in a game's turn; once per
    /// turn, seat and kind.
    pub fn insert_player_event(
        &self,
        game_id: i64,
        turn: u32,
        seat: usize,
        user_id: &str,
        kind: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO player_events (game_id, turn, seat, user_id, kind, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
            args![game_id, turn, seat as i64, user_id, kind, at],
        )?;
        Ok(())
    }

    /// What a user's reliability in a scope is computed from. Turns awaited
    /// are the logged turns whose actions hold the seat the user sits in.
    pub fn reliability_counts(
        &self,
        scope: &str,
        user_id: &str,
    ) -> Result<ReliabilityCounts, StoreError> {
        // A logged turn `t` resolved game turn `t - 1`; its seat keys were
        // awaited then, held by the seat's term covering that turn (or, for
        // a seat never taken over, by its occupant). The JSON functions are
        // the one part written per dialect.
        const SQLITE: &str = "SELECT COUNT(*) FROM turn_log t JOIN games g ON g.id = t.game_id, \
             json_each(t.actions) j \
             WHERE COALESCE(g.guild_id, '') = ?1 \
             AND t.game_id IN (SELECT game_id FROM seats WHERE user_id = ?2 \
                               UNION SELECT game_id FROM seat_terms WHERE user_id = ?2) \
             AND j.key GLOB '[0-9]*' \
             AND ?2 IS (CASE WHEN EXISTS (SELECT 1 FROM seat_terms h \
                             WHERE h.game_id = t.game_id AND h.seat = CAST(j.key AS INTEGER)) \
                  THEN (SELECT h.user_id FROM seat_terms h WHERE h.game_id = t.game_id \
                        AND h.seat = CAST(j.key AS INTEGER) AND h.from_turn <= t.turn - 1 \
                        ORDER BY h.from_turn DESC LIMIT 1) \
                  ELSE (SELECT s.user_id FROM seats s WHERE s.game_id = t.game_id \
                        AND s.seat = CAST(j.key AS INTEGER)) END)";
        const POSTGRES: &str = "SELECT COUNT(*) FROM turn_log t JOIN games g ON g.id = t.game_id, \
             jsonb_object_keys(CASE WHEN jsonb_typeof(t.actions::jsonb) = 'object' \
                                    THEN t.actions::jsonb ELSE '{}'::jsonb END) AS j(key) \
             WHERE COALESCE(g.guild_id, '') = ?1 \
             AND t.game_id IN (SELECT game_id FROM seats WHERE user_id = ?2 \
                               UNION SELECT game_id FROM seat_terms WHERE user_id = ?2) \
             AND j.key ~ '^[0-9]+$' \
             AND ?2 IS NOT DISTINCT FROM (CASE WHEN EXISTS (SELECT 1 FROM seat_terms h \
                             WHERE h.game_id = t.game_id AND h.seat = CAST(j.key AS BIGINT)) \
                  THEN (SELECT h.user_id FROM seat_terms h WHERE h.game_id = t.game_id \
                        AND h.seat = CAST(j.key AS BIGINT) AND h.from_turn <= t.turn - 1 \
                        ORDER BY h.from_turn DESC LIMIT 1) \
                  ELSE (SELECT s.user_id FROM seats s WHERE s.game_id = t.game_id \
                        AND s.seat = CAST(j.key AS BIGINT)) END)";
        let sql = if self.conn.is_pg() { POSTGRES } else { SQLITE };
        let turns_awaited: u32 = self.conn.one(sql, args![scope, user_id])?.get(0)?;
        let count = |kind: &str| -> Result<u32, StoreError> {
            self.conn
                .one(
                    "SELECT COUNT(*) FROM player_events e JOIN games g ON g.id = e.game_id \
                 WHERE e.user_id = ?2 AND COALESCE(g.guild_id, '') = ?1 AND e.kind = ?3",
                    args![scope, user_id, kind],
                )?
                .get(0)
        };
        Ok(ReliabilityCounts {
            turns_awaited,
            missed_deadlines: count("missed_deadline")?,
            civil_disorders: count("civil_disorder")?,
        })
    }

    /// Records that `user_id` (`None`: an AI) holds a seat from game turn
    /// `from_turn` on. On a seat's first term the holder so far is recorded
    /// first (`previous`, from turn 0), so the turns before stay theirs.
    pub fn record_seat_term(
        &self,
        game_id: i64,
        seat: usize,
        from_turn: u32,
        user_id: Option<&str>,
        previous: Option<&str>,
    ) -> Result<(), StoreError> {
        let seat = seat as i64;
        let known: bool = self
            .conn
            .one(
                "SELECT EXISTS (SELECT 1 FROM seat_terms WHERE game_id = ?1 AND seat = ?2)",
                args![game_id, seat],
            )?
            .get(0)?;
        if !known {
            self.conn.exec(
                "INSERT INTO seat_terms (game_id, seat, from_turn, user_id) VALUES (?1, ?2, 0, ?3) \
                 ON CONFLICT DO NOTHING",
                args![game_id, seat, previous],
            )?;
        }
        self.conn.exec(
            "INSERT INTO seat_terms (game_id, seat, from_turn, user_id) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (game_id, seat, from_turn) DO UPDATE SET user_id = excluded.user_id",
            args![game_id, seat, from_turn, user_id],
        )?;
        Ok(())
    }

    /// The actions of a game's logged turns that were forfeits
    /// (`{"forfeit": [seats]}`), oldest first.
    pub fn forfeit_logs(&self, game_id: i64) -> Result<Vec<String>, StoreError> {
        const SQLITE: &str = "SELECT actions FROM turn_log WHERE game_id = ?1 \
             AND json_valid(actions) AND json_type(actions, '$.forfeit') = 'array' ORDER BY turn";
        // Only rows that look like a forfeit are parsed (the log's actions
        // are always JSON written by the host).
        const POSTGRES: &str = "SELECT actions FROM turn_log WHERE game_id = ?1 \
             AND actions LIKE '{\"forfeit\"%' \
             AND jsonb_typeof(actions::jsonb -> 'forfeit') = 'array' ORDER BY turn";
        let sql = if self.conn.is_pg() { POSTGRES } else { SQLITE };
        self.conn
            .rows(sql, args![game_id])?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Finished games still to be rated (from before ratings existed), in
    /// the order they ended.
    pub fn rating_backlog(&self) -> Result<Vec<i64>, StoreError> {
        self.conn
            .rows(
                "SELECT b.game_id FROM rating_backlog b JOIN games g ON g.id = b.game_id \
             ORDER BY g.updated_at, g.id",
                args![],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Takes a game off the rating backlog.
    pub fn remove_from_rating_backlog(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn.exec(
            "DELETE FROM rating_backlog WHERE game_id = ?1",
            args![game_id],
        )?;
        Ok(())
    }
}

fn result_from_row(r: &Row) -> Result<GameResultRow, StoreError> {
    Ok(GameResultRow {
        game_id: r.get(0)?,
        seat: r.get::<i64>(1)?.max(0) as usize,
        player: r.get(2)?,
        result: r.get(3)?,
        score: r.get(4)?,
        rating_before: r.get(5)?,
        rating_after: r.get(6)?,
        deviation_after: r.get(7)?,
    })
}
