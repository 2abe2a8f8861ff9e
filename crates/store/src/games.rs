//! The `games` table: creating, finding, advancing and finishing games.

use super::rows::{GAME_COLUMN_COUNT, GAME_COLUMNS};
use super::*;

/// The ids of the games whose lobby message was posted in channel `?1`:
/// the games created there, wherever they are played now.
const LOBBIES_POSTED_IN: &str =
    "SELECT game_id FROM posted_messages WHERE key = 'lobby' AND channel_id = ?1";

fn games_of(rows: Vec<Row>) -> Result<Vec<GameRow>, StoreError> {
    rows.iter()
        .map(|r| rows::RawGame::from_row(r)?.into_row())
        .collect()
}

/// A list of statuses as SQL text (the enum's own constant names, never input).
fn status_list(statuses: &[GameStatus]) -> String {
    if statuses.is_empty() {
        return "NULL".into();
    }
    statuses
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<'a> Tx<'a> {
    /// Inserts a new game in the lobby and returns its id.
    pub fn insert_game(&self, g: &NewGameRow, now: i64) -> Result<i64, StoreError> {
        self.conn
            .one(
                "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, options, seed, \
             turn_seconds, timeout_policy, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, 'lobby', ?5, ?6, ?7, ?8, ?9, ?9) RETURNING id",
                args![
                    g.kind,
                    g.guild_id,
                    g.channel_id,
                    g.creator_id,
                    g.options,
                    g.seed as i64,
                    g.turn_seconds,
                    g.timeout_policy.as_str(),
                    now
                ],
            )?
            .get(0)
    }

    /// One game by id. In a write transaction on PostgreSQL the game's row
    /// stays locked until the transaction ends, so concurrent changes to one
    /// game (from this or another process) happen one after the other.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        if let Some(rows) = self.conn.remembered("games", id) {
            return Ok(games_of(rows)?.into_iter().next());
        }
        let rows = match self.game_with_view_rows(id)? {
            Some(rows) => rows,
            None => {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE id = ?1{}",
                    self.game_lock()
                );
                self.conn.rows(&sql, args![id])?
            }
        };
        let games = games_of(rows.clone())?;
        self.note_locked(&games);
        self.remember_game(id, rows);
        Ok(games.into_iter().next())
    }

    /// Keeps a game's row as read (or as an update returned it) while it
    /// cannot change under this transaction (see [`Tx::seats_are_stable`]);
    /// a write naming `games` forgets it.
    fn remember_game(&self, id: i64, mut rows: Vec<Row>) {
        if self.conn.is_pg() && self.seats_are_stable(id) {
            for r in &mut rows {
                r.0.truncate(GAME_COLUMN_COUNT);
            }
            self.conn.remember("games", id, rows);
        }
    }

    /// Runs an `UPDATE games ... WHERE id = ?1` and returns how many rows it
    /// changed; on PostgreSQL, for a game this transaction holds locked, the
    /// updated row comes back with it (`RETURNING`) and is remembered, so
    /// reading the game again is no round trip.
    fn update_game(&self, id: i64, sql: &str, args: &[db::Value]) -> Result<usize, StoreError> {
        if !(self.conn.is_pg() && self.seats_are_stable(id)) {
            return self.conn.exec(sql, args);
        }
        let rows = self
            .conn
            .rows(&format!("{sql} RETURNING {GAME_COLUMNS}"), args)?;
        let n = rows.len();
        self.remember_game(id, rows);
        Ok(n)
    }

    /// The game in the lobby or running in a channel, if any (locked like
    /// [`Tx::game`] in a write transaction).
    pub fn active_game_in_channel(&self, channel_id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?1 AND status IN ('lobby', 'running'){}",
            self.game_lock()
        );
        let games = games_of(self.conn.rows(&sql, args![channel_id])?)?;
        self.note_locked(&games);
        Ok(games.into_iter().next())
    }

    /// The game a channel shows: its lobby or running game, else the game
    /// that ended there last. A game that started in the channel and moved
    /// to its thread counts as the channel's too (its lobby message was
    /// posted there), so the channel a player knows still finds it; of
    /// several, the newest.
    pub fn latest_game_in_channel(&self, channel_id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?1 OR id IN ({LOBBIES_POSTED_IN}) \
             ORDER BY CASE WHEN status IN ('lobby', 'running') THEN 1 ELSE 0 END DESC, id DESC LIMIT 1"
        );
        Ok(games_of(self.conn.rows(&sql, args![channel_id])?)?
            .into_iter()
            .next())
    }

    /// Games in the lobby or running that were created in a channel but are
    /// played elsewhere now (each in its thread), newest first.
    pub fn active_games_moved_from_channel(
        &self,
        channel_id: &str,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE channel_id <> ?1 AND id IN ({LOBBIES_POSTED_IN}) \
             AND status IN ('lobby', 'running') ORDER BY id DESC LIMIT ?2"
        );
        games_of(self.conn.rows(&sql, args![channel_id, limit])?)
    }

    /// Games matching a status filter, newest first; `guild_id` narrows to one server.
    pub fn games(
        &self,
        guild_id: Option<&str>,
        statuses: &[GameStatus],
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE (CAST(?1 AS TEXT) IS NULL OR guild_id = ?1) \
             AND status IN ({}) ORDER BY id DESC LIMIT ?2",
            status_list(statuses)
        );
        games_of(self.conn.rows(&sql, args![guild_id, limit])?)
    }

    /// The ids of every game, with its kind and status (for `gamehost check`).
    pub fn all_game_ids(&self) -> Result<Vec<i64>, StoreError> {
        self.conn
            .rows("SELECT id FROM games ORDER BY id", args![])?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Games in the lobby or running in which a user holds a seat.
    pub fn active_games_of_user(&self, user_id: &str) -> Result<Vec<GameRow>, StoreError> {
        let cols = GAME_COLUMNS
            .split(", ")
            .map(|c| format!("g.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT {cols} FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.user_id = ?1 AND g.status IN ('lobby', 'running') ORDER BY g.id"
        );
        games_of(self.conn.rows(&sql, args![user_id])?)
    }

    /// Running games with at least one AI seat (candidates for an AI move).
    pub fn running_games_with_ai(&self) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' AND EXISTS \
             (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.ai_level IS NOT NULL) \
             ORDER BY id"
        );
        games_of(self.conn.rows(&sql, args![])?)
    }

    /// Moves a game from the lobby to running with its first state.
    pub fn start_game(&self, id: i64, state: &str, now: i64) -> Result<(), StoreError> {
        let n = self.conn.exec(
            "UPDATE games SET status = 'running', state = ?2, updated_at = ?3 \
             WHERE id = ?1 AND status = 'lobby'",
            args![id, state, now],
        )?;
        expect_one(n, "games", id)
    }

    /// Stores the state after a resolved turn, guarded by the turn number so
    /// that a stale writer can never resolve the same turn twice.
    pub fn advance_game(
        &self,
        id: i64,
        expected_turn: u32,
        state: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let n = self.update_game(
            id,
            "UPDATE games SET state = ?2, turn = turn + 1, updated_at = ?3 \
             WHERE id = ?1 AND turn = ?4 AND status = 'running'",
            args![id, state, now, expected_turn],
        )?;
        expect_one(n, "games", id)
    }

    /// Replaces the state without advancing the turn (e.g. after a forfeit).
    pub fn set_state(&self, id: i64, state: &str, now: i64) -> Result<(), StoreError> {
        let n = self.update_game(
            id,
            "UPDATE games SET state = ?2, updated_at = ?3 WHERE id = ?1",
            args![id, state, now],
        )?;
        expect_one(n, "games", id)
    }

    /// Ends a game as finished (with its outcome) or aborted.
    pub fn finish_game(
        &self,
        id: i64,
        status: GameStatus,
        outcome: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        let n = self.conn.exec(
            "UPDATE games SET status = ?2, outcome = ?3, updated_at = ?4 WHERE id = ?1",
            args![id, status.as_str(), outcome, now],
        )?;
        self.conn
            .exec("DELETE FROM deadlines WHERE game_id = ?1", args![id])?;
        self.conn
            .exec("DELETE FROM pending_actions WHERE game_id = ?1", args![id])?;
        // A finished game is no longer paused, nor waiting for a pause.
        self.clear_pause(id)?;
        expect_one(n, "games", id)
    }

    /// How many games there are of each kind and status:
    /// `(kind, status, count)`, for the operator's metrics.
    pub fn game_counts(&self) -> Result<Vec<(String, String, i64)>, StoreError> {
        self.conn
            .rows(
                "SELECT kind, status, COUNT(*) FROM games GROUP BY kind, status ORDER BY kind, status",
                args![],
            )?
            .iter()
            .map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .collect()
    }
}
