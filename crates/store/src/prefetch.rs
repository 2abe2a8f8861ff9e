//! Fewer round trips on PostgreSQL: a game's small per-game tables (seats,
//! pending actions, deadline, pause, votes, absences) read in one query the
//! first time a transaction needs any of them, and answered from what it
//! read until it writes that table.
//!
//! A player's action reads a game's view (the game and six per-game
//! tables) and then moves (the game locked, its seats, pending actions and
//! pause): one query each was a round trip each. On SQLite a query is no
//! round trip, so there every read still runs its own query.
//!
//! The rows read stay true while the transaction lasts: a read-only
//! transaction is one snapshot, and a write transaction prefetches only a
//! game whose row it holds locked, which every change to a game's rows
//! takes first (as for [`Tx::seats`]). Its own writes drop what they touch
//! (see `PgTx::forget_written`).

use super::db::{Row, Value, args};
use super::rows::{GAME_COLUMN_COUNT, GAME_COLUMNS};
use super::{StoreError, Tx};
use std::sync::LazyLock;

/// A query of one per-game table by `game_id = ?1`, and the same rows as
/// one JSON array of positional arrays, for a combined query.
pub(crate) struct PerGame {
    /// The table, as the store's write statements name it.
    pub table: &'static str,
    /// The query on its own.
    pub sql: &'static str,
    /// A scalar subquery giving its rows as JSON text (NULL: none).
    json: &'static str,
}

macro_rules! per_game {
    ($table:literal, $cols:literal, $order:literal) => {
        PerGame {
            table: $table,
            sql: concat!(
                "SELECT ",
                $cols,
                " FROM ",
                $table,
                " WHERE game_id = ?1",
                $order
            ),
            json: concat!(
                "(SELECT json_agg(json_build_array(",
                $cols,
                ")",
                $order,
                ")::text FROM ",
                $table,
                " WHERE game_id = ?1)"
            ),
        }
    };
}

pub(crate) const SEATS: PerGame = per_game!(
    "seats",
    "seat, user_id, ai_level, display_name",
    " ORDER BY seat"
);
pub(crate) const PENDING: PerGame = per_game!(
    "pending_actions",
    "seat, turn, action, final, submitted_at",
    " ORDER BY seat"
);
pub(crate) const DEADLINE: PerGame = per_game!(
    "deadlines",
    "game_id, turn, due_at, remind_at, extensions_used, idle_deadlines",
    ""
);
pub(crate) const PAUSE: PerGame = per_game!(
    "pauses",
    "since, due_left_ms, remind_left_ms, extensions_used, idle_deadlines",
    ""
);
pub(crate) const PAUSE_VOTES: PerGame = per_game!("pause_votes", "user_id", " ORDER BY user_id");
pub(crate) const ABSENCES: PerGame = per_game!(
    "absences",
    "id, user_id, starts_at, ends_at",
    " ORDER BY starts_at, id"
);

/// What a read-only transaction prefetches: everything a game's view reads.
const READ_SET: &[&PerGame] = &[&SEATS, &PENDING, &DEADLINE, &PAUSE, &PAUSE_VOTES, &ABSENCES];

/// What a write transaction prefetches once it holds a game's lock: what a
/// move reads (its deadline is only replaced, never read).
const WRITE_SET: &[&PerGame] = &[&SEATS, &PENDING, &PAUSE];

fn subqueries(set: &[&PerGame]) -> String {
    set.iter().map(|q| q.json).collect::<Vec<_>>().join(", ")
}

/// A game and every per-game table a view reads, in one query.
static GAME_AND_READ_SET: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {GAME_COLUMNS}, {} FROM games WHERE id = ?1",
        subqueries(READ_SET)
    )
});

static READ_SET_ONLY: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {}", subqueries(READ_SET)));

static WRITE_SET_ONLY: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {}", subqueries(WRITE_SET)));

/// A JSON value of a prefetched row as the value its column would give.
fn value_of(v: serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Int(b.into()),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => Value::Text(s),
        other => Value::Text(other.to_string()),
    }
}

impl Tx<'_> {
    /// The rows of one per-game query: remembered, or prefetched with the
    /// others now if this transaction may (PostgreSQL, the game's rows
    /// stable), else the query on its own.
    pub(crate) fn per_game(&self, q: &PerGame, game_id: i64) -> Result<Vec<Row>, StoreError> {
        if !self.conn.is_pg() {
            return self.conn.rows(q.sql, args![game_id]);
        }
        if let Some(rows) = self.conn.remembered(q.table, game_id) {
            return Ok(rows);
        }
        let (set, sql) = if self.write {
            (WRITE_SET, &*WRITE_SET_ONLY)
        } else {
            (READ_SET, &*READ_SET_ONLY)
        };
        if set.iter().any(|p| p.table == q.table)
            && self.seats_are_stable(game_id)
            && self.prefetched.borrow_mut().insert(game_id)
        {
            let row = self.conn.one(sql, args![game_id])?;
            self.remember_json(set, &row, 0, game_id)?;
            if let Some(rows) = self.conn.remembered(q.table, game_id) {
                return Ok(rows);
            }
        }
        self.conn.rows(q.sql, args![game_id])
    }

    /// A game read in a read-only PostgreSQL transaction, with everything
    /// else its view reads, in one query; `None` elsewhere (or if done).
    pub(crate) fn game_with_view_rows(&self, id: i64) -> Result<Option<Vec<Row>>, StoreError> {
        if self.write || !self.conn.is_pg() || !self.prefetched.borrow_mut().insert(id) {
            return Ok(None);
        }
        let rows = self.conn.rows(&GAME_AND_READ_SET, args![id])?;
        if let Some(r) = rows.first() {
            self.remember_json(READ_SET, r, GAME_COLUMN_COUNT, id)?;
        }
        Ok(Some(rows))
    }

    /// Remembers the rows of `set` from the JSON columns of `row` starting
    /// at `first`.
    fn remember_json(
        &self,
        set: &[&PerGame],
        row: &Row,
        first: usize,
        game_id: i64,
    ) -> Result<(), StoreError> {
        for (i, q) in set.iter().enumerate() {
            let column = first + i;
            let rows = match row.get::<Option<String>>(column)? {
                None => Vec::new(),
                Some(text) => serde_json::from_str::<Vec<Vec<serde_json::Value>>>(&text)
                    .map_err(|e| StoreError::Value {
                        column,
                        reason: format!("prefetched {} rows: {e}", q.table),
                    })?
                    .into_iter()
                    .map(|r| Row(r.into_iter().map(value_of).collect()))
                    .collect(),
            };
            self.conn.remember(q.table, game_id, rows);
        }
        Ok(())
    }
}
