//! The SQLite store: the only module that speaks SQL.
//!
//! The schema lives in `migrations/NNNN_name.sql` and is applied when the
//! store opens. Every change the host makes runs inside one
//! `BEGIN IMMEDIATE` transaction ([`Store::write`]), so concurrent writers
//! (tasks or processes) are serialised by SQLite itself and a crash before
//! commit leaves nothing half done.

mod messages;
mod pauses;
mod press;
mod ratings;
mod rows;

pub use messages::PostedMessage;
pub use pauses::{AbsenceRow, LeaveRulesRow, PauseRow};
pub use press::{NewPressRow, PressRow};
pub use ratings::{
    GameResultRow, GameRulesRow, PlayerResultRow, RatingRow, ReliabilityCounts, ResultCount,
};
pub use rows::{
    DeadlineRow, GameRow, GameStatus, NewGameRow, Occupant, OutboxRow, PendingRow, SeatRow, Target,
    TimeoutPolicy, TurnLogRow, TurnLogSpan,
};

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use rusqlite_migration::{M, Migrations};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The migrations, in order; the schema version is their count.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/0001_initial.sql"),
    include_str!("../../../migrations/0002_deadline_extensions.sql"),
    include_str!("../../../migrations/0003_idle_deadlines.sql"),
    include_str!("../../../migrations/0004_ratings.sql"),
    include_str!("../../../migrations/0005_press.sql"),
    include_str!("../../../migrations/0006_seat_terms.sql"),
    include_str!("../../../migrations/0007_weng_lin_scale.sql"),
    include_str!("../../../migrations/0008_pauses.sql"),
    include_str!("../../../migrations/0010_posted_messages.sql"),
];

/// Everything that can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite itself failed (I/O, lock timeout, constraint).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Applying the schema migrations failed.
    #[error("could not apply the database schema: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// The file was written by a newer gamehost.
    #[error(
        "the database {path} has schema version {found}, newer than the {known} this gamehost knows; \
         upgrade gamehost or use another database file"
    )]
    SchemaTooNew {
        /// The database file.
        path: String,
        /// The version found in the file.
        found: i64,
        /// The latest version this build knows.
        known: i64,
    },
    /// There is no database file where one was expected (read-only opens never create one).
    #[error("no database at {path}")]
    NotFound {
        /// The path looked at.
        path: String,
    },
    /// A stored row holds a value the code cannot read.
    #[error("corrupt row in {table} ({key}): {reason}")]
    Corrupt {
        /// The table.
        table: &'static str,
        /// Which row, e.g. `game 12`.
        key: String,
        /// What was wrong with it.
        reason: String,
    },
}

/// A handle on one SQLite database file.
pub struct Store {
    conn: Mutex<Connection>,
    path: PathBuf,
}

/// The latest schema version this build knows.
pub fn schema_version_known() -> i64 {
    MIGRATIONS.len() as i64
}

impl Store {
    /// Opens (creating if needed) the database at `path`, turns on WAL and
    /// applies any migrations not yet applied.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut conn = Connection::open(path)?;
        // WAL lets readers run beside the writer; NORMAL sync keeps every
        // committed transaction across a process crash (not across power loss).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(10))?;

        let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if found > schema_version_known() {
            return Err(StoreError::SchemaTooNew {
                path: path.display().to_string(),
                found,
                known: schema_version_known(),
            });
        }
        let migrations = Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect());
        migrations.to_latest(&mut conn)?;
        Ok(Store {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing database for reading only (`SQLITE_OPEN_READ_ONLY`):
    /// never creates the file, applies no migration and changes no setting
    /// in it, so `gamehost check` and `backup` leave it as they found it. A
    /// missing file is [`StoreError::NotFound`]; a schema version other than
    /// this build's is left for the caller to report.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        // `metadata` rather than `exists`: a dangling symlink or a directory
        // is no database either.
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Err(StoreError::NotFound {
                path: path.display().to_string(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        // A read-only connection to a WAL database creates its `-wal` and
        // `-shm` files when they are missing (and leaves them). They are
        // missing only when no connection has the file open, and then the
        // file alone is the whole database: read it as immutable, touching
        // nothing. With a `-wal` present (the bot is running, or crashed),
        // read through it to see every committed change.
        let mut wal = PathBuf::from(path);
        wal.as_mut_os_string().push("-wal");
        let conn = if is_wal_file(path) && !wal.exists() {
            Connection::open_with_flags(
                format!("file:{}?immutable=1", uri_path(path)),
                flags | OpenFlags::SQLITE_OPEN_URI,
            )?
        } else {
            Connection::open_with_flags(path, flags)?
        };
        // Belt and braces: even a statement that would write is refused.
        conn.pragma_update(None, "query_only", "ON")?;
        conn.busy_timeout(Duration::from_secs(10))?;
        Ok(Store {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing database to copy it ([`Store::backup_to`] needs a
    /// connection that may write the copy): never creates the file, applies
    /// no migration. A missing file is [`StoreError::NotFound`].
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Err(StoreError::NotFound {
                path: path.display().to_string(),
            });
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(10))?;
        Ok(Store {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        })
    }

    /// Checks the file below the level of rows: SQLite's own
    /// `PRAGMA integrity_check` (pages, indexes), `PRAGMA foreign_key_check`
    /// (rows of games that do not exist), and the schema against the one the
    /// migrations build for the file's version (a dropped or altered table).
    /// Each problem is one line; an empty list means none was found.
    pub fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.lock();
        let mut problems = Vec::new();
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let objects = schema_objects(&conn)?;
        if version == 0 && objects.is_empty() {
            let empty = std::fs::metadata(&self.path).is_ok_and(|m| m.len() == 0);
            problems.push(if empty {
                "the file is empty: it is not a gamehost database".to_string()
            } else {
                "the file has no gamehost tables (schema version 0): it is not a gamehost database"
                    .to_string()
            });
            return Ok(problems);
        }
        // At most 100 messages: a badly damaged file must not flood the report.
        let mut stmt = conn.prepare("PRAGMA integrity_check(100)")?;
        let lines = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        drop(stmt);
        problems.extend(
            lines
                .into_iter()
                .filter(|l| l != "ok")
                .map(|l| format!("integrity_check: {l}")),
        );
        if (1..=schema_version_known()).contains(&version) {
            let expected = expected_schema(version)?;
            for (name, sql) in &expected {
                match objects.get(name) {
                    None => problems.push(format!("{name} is missing from the schema")),
                    Some(found) if found != sql => problems.push(format!(
                        "{name} differs from the schema of version {version}"
                    )),
                    Some(_) => {}
                }
            }
        }
        if problems.is_empty() {
            let mut stmt = conn.prepare("PRAGMA foreign_key_check")?;
            let orphans = stmt
                .query_map([], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(1)?))
                })?
                .take(100)
                .collect::<Result<Vec<_>, _>>()?;
            for (table, rowid) in orphans {
                problems.push(format!(
                    "{table} row {} belongs to a game that does not exist",
                    rowid.map_or("?".to_string(), |r| r.to_string())
                ));
            }
        }
        Ok(problems)
    }

    /// The database file this store is on.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .lock()
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction open
        // (rusqlite rolls back on drop), so the connection is still sound.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` inside one `BEGIN IMMEDIATE` transaction and commits when it
    /// returns `Ok`; any `Err` rolls everything back.
    pub fn write<T, E>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let out = f(&Tx { tx: &tx })?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// Runs read-only queries in one deferred transaction (a consistent snapshot).
    pub fn read<T, E>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Deferred)
            .map_err(StoreError::from)?;
        let out = f(&Tx { tx: &tx })?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// Copies the live database to `dest` (which must not exist yet) with
    /// `VACUUM INTO`: one consistent, compacted snapshot even while games are
    /// being played.
    pub fn backup_to(&self, dest: &Path) -> Result<(), StoreError> {
        let conn = self.lock();
        conn.execute("VACUUM INTO ?1", [dest.to_string_lossy()])?;
        Ok(())
    }
}

/// Whether the file's header says it is in WAL mode (read and write
/// versions 2 at offsets 18 and 19).
fn is_wal_file(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .is_ok()
        && header.starts_with(b"SQLite format 3\0")
        && header[18] == 2
        && header[19] == 2
}

/// A path for a `file:` URI: the characters a URI gives a meaning
/// (`%`, `?`, `#`) and anything not printable ASCII, percent-encoded.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            0x21..=0x7e => out.push(*b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The tables and indexes of a database by "table NAME" / "index NAME",
/// with their SQL, leaving out SQLite's own.
fn schema_objects(
    conn: &Connection,
) -> Result<std::collections::BTreeMap<String, String>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT type, name, COALESCE(sql, '') FROM sqlite_master \
         WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'index', 'view', 'trigger')",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                format!("{} {}", r.get::<_, String>(0)?, r.get::<_, String>(1)?),
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// The schema the migrations build up to `version`, in a scratch in-memory
/// database (never the file being checked).
fn expected_schema(version: i64) -> Result<std::collections::BTreeMap<String, String>, StoreError> {
    // The migrations' SQL run directly: rusqlite_migration would log a
    // "migrated" line that reads as if the checked file had been changed.
    let conn = Connection::open_in_memory()?;
    for sql in MIGRATIONS.iter().take(version.max(0) as usize) {
        conn.execute_batch(sql)?;
    }
    schema_objects(&conn)
}

/// Typed queries inside one transaction.
pub struct Tx<'a> {
    tx: &'a rusqlite::Transaction<'a>,
}

const GAME_COLUMNS: &str = "id, kind, guild_id, channel_id, creator_id, status, options, seed, \
     state, turn, outcome, turn_seconds, timeout_policy, created_at, updated_at";

impl Tx<'_> {
    /// Inserts a new game in the lobby and returns its id.
    pub fn insert_game(&self, g: &NewGameRow, now: i64) -> Result<i64, StoreError> {
        self.tx.execute(
            "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, options, seed, \
             turn_seconds, timeout_policy, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, 'lobby', ?5, ?6, ?7, ?8, ?9, ?9)",
            params![
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
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// One game by id.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
        let raw = self
            .tx
            .query_row(&sql, [id], rows::RawGame::from_row)
            .optional()?;
        raw.map(rows::RawGame::into_row).transpose()
    }

    /// The game in the lobby or running in a channel, if any.
    pub fn active_game_in_channel(&self, channel_id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?1 AND status IN ('lobby', 'running')"
        );
        let raw = self
            .tx
            .query_row(&sql, [channel_id], rows::RawGame::from_row)
            .optional()?;
        raw.map(rows::RawGame::into_row).transpose()
    }

    /// The game a channel shows: its lobby or running game, else the game
    /// that ended there last.
    pub fn latest_game_in_channel(&self, channel_id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?1 \
             ORDER BY status IN ('lobby', 'running') DESC, id DESC LIMIT 1"
        );
        let raw = self
            .tx
            .query_row(&sql, [channel_id], rows::RawGame::from_row)
            .optional()?;
        raw.map(rows::RawGame::into_row).transpose()
    }

    /// Games matching a status filter, newest first; `guild_id` narrows to one server.
    pub fn games(
        &self,
        guild_id: Option<&str>,
        statuses: &[GameStatus],
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let wanted: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE (?1 IS NULL OR guild_id = ?1) \
             AND instr(?2, ',' || status || ',') > 0 ORDER BY id DESC LIMIT ?3"
        );
        let list = format!(",{},", wanted.join(","));
        let mut stmt = self.tx.prepare(&sql)?;
        let raws = stmt
            .query_map(params![guild_id, list, limit], rows::RawGame::from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        raws.into_iter().map(rows::RawGame::into_row).collect()
    }

    /// The ids of every game, with its kind and status (for `gamehost check`).
    pub fn all_game_ids(&self) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self.tx.prepare("SELECT id FROM games ORDER BY id")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<i64>, _>>()?;
        Ok(ids)
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
        let mut stmt = self.tx.prepare(&sql)?;
        let raws = stmt
            .query_map([user_id], rows::RawGame::from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        raws.into_iter().map(rows::RawGame::into_row).collect()
    }

    /// Running games with at least one AI seat (candidates for an AI move).
    pub fn running_games_with_ai(&self) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' AND EXISTS \
             (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.ai_level IS NOT NULL) \
             ORDER BY id"
        );
        let mut stmt = self.tx.prepare(&sql)?;
        let raws = stmt
            .query_map([], rows::RawGame::from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        raws.into_iter().map(rows::RawGame::into_row).collect()
    }

    /// Moves a game from the lobby to running with its first state.
    pub fn start_game(&self, id: i64, state: &str, now: i64) -> Result<(), StoreError> {
        let n = self.tx.execute(
            "UPDATE games SET status = 'running', state = ?2, updated_at = ?3 \
             WHERE id = ?1 AND status = 'lobby'",
            params![id, state, now],
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
        let n = self.tx.execute(
            "UPDATE games SET state = ?2, turn = turn + 1, updated_at = ?3 \
             WHERE id = ?1 AND turn = ?4 AND status = 'running'",
            params![id, state, now, expected_turn],
        )?;
        expect_one(n, "games", id)
    }

    /// Replaces the state without advancing the turn (e.g. after a forfeit).
    pub fn set_state(&self, id: i64, state: &str, now: i64) -> Result<(), StoreError> {
        let n = self.tx.execute(
            "UPDATE games SET state = ?2, updated_at = ?3 WHERE id = ?1",
            params![id, state, now],
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
        let n = self.tx.execute(
            "UPDATE games SET status = ?2, outcome = ?3, updated_at = ?4 WHERE id = ?1",
            params![id, status.as_str(), outcome, now],
        )?;
        self.tx
            .execute("DELETE FROM deadlines WHERE game_id = ?1", [id])?;
        self.tx
            .execute("DELETE FROM pending_actions WHERE game_id = ?1", [id])?;
        // A finished game is no longer paused, nor waiting for a pause.
        self.clear_pause(id)?;
        expect_one(n, "games", id)
    }

    /// The seats of a game, by seat number.
    pub fn seats(&self, game_id: i64) -> Result<Vec<SeatRow>, StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT seat, user_id, ai_level, display_name FROM seats WHERE game_id = ?1 ORDER BY seat",
        )?;
        let raws = stmt
            .query_map([game_id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        raws.into_iter()
            .map(|(seat, user, ai, name)| SeatRow::from_parts(game_id, seat, user, ai, name))
            .collect()
    }

    /// Puts a user or an AI in a seat.
    pub fn insert_seat(&self, game_id: i64, seat: &SeatRow) -> Result<(), StoreError> {
        let (user, ai) = match &seat.occupant {
            Occupant::User(id) => (Some(id.as_str()), None),
            Occupant::Ai(level) => (None, Some(level.as_str())),
        };
        self.tx.execute(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, seat.seat as i64, user, ai, seat.display_name],
        )?;
        Ok(())
    }

    /// Gives an existing seat to another user or an AI (a takeover in a
    /// running game); fails if the seat does not exist.
    pub fn replace_seat(&self, game_id: i64, seat: &SeatRow) -> Result<(), StoreError> {
        let (user, ai) = match &seat.occupant {
            Occupant::User(id) => (Some(id.as_str()), None),
            Occupant::Ai(level) => (None, Some(level.as_str())),
        };
        let n = self.tx.execute(
            "UPDATE seats SET user_id = ?3, ai_level = ?4, display_name = ?5 \
             WHERE game_id = ?1 AND seat = ?2",
            params![game_id, seat.seat as i64, user, ai, seat.display_name],
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
        self.tx.execute(
            "DELETE FROM seats WHERE game_id = ?1 AND seat = ?2",
            params![game_id, seat as i64],
        )?;
        Ok(())
    }

    /// The pending hidden actions of a game's current turn.
    pub fn pending(&self, game_id: i64) -> Result<Vec<PendingRow>, StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT seat, turn, action, final, submitted_at FROM pending_actions \
             WHERE game_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt
            .query_map([game_id], |r| {
                Ok(PendingRow {
                    seat: r.get::<_, i64>(0)? as usize,
                    turn: r.get(1)?,
                    action: r.get(2)?,
                    is_final: r.get::<_, i64>(3)? != 0,
                    submitted_at: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Records (or replaces) a seat's pending action for the current turn.
    pub fn upsert_pending(&self, game_id: i64, p: &PendingRow) -> Result<(), StoreError> {
        self.tx.execute(
            "INSERT INTO pending_actions (game_id, turn, seat, action, final, submitted_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (game_id, seat) DO UPDATE SET turn = excluded.turn, \
             action = excluded.action, final = excluded.final, submitted_at = excluded.submitted_at",
            params![
                game_id,
                p.turn,
                p.seat as i64,
                p.action,
                p.is_final as i64,
                p.submitted_at
            ],
        )?;
        Ok(())
    }

    /// Clears every pending action of a game (after its turn resolved).
    pub fn clear_pending(&self, game_id: i64) -> Result<(), StoreError> {
        self.tx
            .execute("DELETE FROM pending_actions WHERE game_id = ?1", [game_id])?;
        Ok(())
    }

    /// Appends a resolved turn to the log; fails if that turn was logged already.
    pub fn insert_turn_log(&self, game_id: i64, t: &TurnLogRow) -> Result<(), StoreError> {
        self.tx.execute(
            "INSERT INTO turn_log (game_id, turn, actions, report, state_after, resolved_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
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
        let mut stmt = self.tx.prepare(
            "SELECT turn, actions, report, state_after, resolved_at FROM turn_log \
             WHERE game_id = ?1 ORDER BY turn LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt
            .query_map(params![game_id, limit, offset], |r| {
                Ok(TurnLogRow {
                    turn: r.get(0)?,
                    actions: r.get(1)?,
                    report: r.get(2)?,
                    state_after: r.get(3)?,
                    resolved_at: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// One logged turn of a game (1-based), if it was logged.
    pub fn turn_log_entry(
        &self,
        game_id: i64,
        turn: u32,
    ) -> Result<Option<TurnLogRow>, StoreError> {
        Ok(self
            .tx
            .query_row(
                "SELECT turn, actions, report, state_after, resolved_at FROM turn_log \
                 WHERE game_id = ?1 AND turn = ?2",
                params![game_id, turn],
                |r| {
                    Ok(TurnLogRow {
                        turn: r.get(0)?,
                        actions: r.get(1)?,
                        report: r.get(2)?,
                        state_after: r.get(3)?,
                        resolved_at: r.get(4)?,
                    })
                },
            )
            .optional()?)
    }

    /// How many turns a game has logged.
    pub fn turn_log_len(&self, game_id: i64) -> Result<u32, StoreError> {
        Ok(self.tx.query_row(
            "SELECT COUNT(*) FROM turn_log WHERE game_id = ?1",
            [game_id],
            |r| r.get(0),
        )?)
    }

    /// Sets (or replaces) the deadline of a game's current turn.
    pub fn set_deadline(&self, game_id: i64, d: &DeadlineRow) -> Result<(), StoreError> {
        self.tx.execute(
            "INSERT INTO deadlines (game_id, turn, due_at, remind_at, extensions_used, idle_deadlines) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, due_at = excluded.due_at, \
             remind_at = excluded.remind_at, extensions_used = excluded.extensions_used, \
             idle_deadlines = excluded.idle_deadlines",
            params![
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
        self.tx.execute(
            "UPDATE deadlines SET idle_deadlines = ?2 WHERE game_id = ?1",
            params![game_id, n],
        )?;
        Ok(())
    }

    /// Removes a game's deadline.
    pub fn clear_deadline(&self, game_id: i64) -> Result<(), StoreError> {
        self.tx
            .execute("DELETE FROM deadlines WHERE game_id = ?1", [game_id])?;
        Ok(())
    }

    /// A game's current deadline.
    pub fn deadline(&self, game_id: i64) -> Result<Option<DeadlineRow>, StoreError> {
        Ok(self
            .tx
            .query_row(
                "SELECT game_id, turn, due_at, remind_at, extensions_used, idle_deadlines FROM deadlines \
                 WHERE game_id = ?1",
                [game_id],
                DeadlineRow::from_row,
            )
            .optional()?)
    }

    /// Deadlines or reminders that are due at `now`.
    pub fn due_deadlines(&self, now: i64) -> Result<Vec<DeadlineRow>, StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT game_id, turn, due_at, remind_at, extensions_used, idle_deadlines FROM deadlines \
             WHERE due_at <= ?1 OR (remind_at IS NOT NULL AND remind_at <= ?1) ORDER BY due_at",
        )?;
        let rows = stmt
            .query_map([now], DeadlineRow::from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The earliest moment any deadline or reminder falls due.
    pub fn next_wakeup(&self) -> Result<Option<i64>, StoreError> {
        Ok(self.tx.query_row(
            "SELECT MIN(MIN(due_at, COALESCE(remind_at, due_at))) FROM deadlines",
            [],
            |r| r.get(0),
        )?)
    }

    /// Marks a deadline's reminder as done.
    pub fn clear_reminder(&self, game_id: i64) -> Result<(), StoreError> {
        self.tx.execute(
            "UPDATE deadlines SET remind_at = NULL WHERE game_id = ?1",
            [game_id],
        )?;
        Ok(())
    }

    /// Queues an announcement for delivery.
    pub fn push_outbox(
        &self,
        game_id: i64,
        target: &Target,
        payload: &str,
        now: i64,
    ) -> Result<i64, StoreError> {
        let (kind, id) = target.parts();
        self.tx.execute(
            "INSERT INTO outbox (game_id, target_kind, target_id, payload, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, kind, id, payload, now],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Announcements not yet delivered, oldest first.
    pub fn unsent_outbox(&self, limit: u32) -> Result<Vec<OutboxRow>, StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE sent_at IS NULL ORDER BY id LIMIT ?1",
        )?;
        let raws = stmt
            .query_map([limit], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        raws.into_iter()
            .map(|(id, game_id, kind, target, payload, created_at)| {
                Ok(OutboxRow {
                    id,
                    game_id,
                    target: Target::from_parts(&kind, target).ok_or_else(|| {
                        StoreError::Corrupt {
                            table: "outbox",
                            key: format!("row {id}"),
                            reason: format!("unknown target kind `{kind}`"),
                        }
                    })?,
                    payload,
                    created_at,
                })
            })
            .collect()
    }

    /// Undelivered announcements of one game, oldest first.
    pub fn unsent_outbox_of_game(&self, game_id: i64) -> Result<Vec<OutboxRow>, StoreError> {
        Ok(self
            .unsent_outbox(u32::MAX)?
            .into_iter()
            .filter(|r| r.game_id == game_id)
            .collect())
    }

    /// Every game's turn counter beside what its turn log holds:
    /// `(game id, turn, log rows, lowest logged turn, highest logged turn)`.
    pub fn turn_log_spans(&self) -> Result<Vec<TurnLogSpan>, StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT g.id, g.turn, COUNT(t.turn), MIN(t.turn), MAX(t.turn) \
             FROM games g LEFT JOIN turn_log t ON t.game_id = g.id GROUP BY g.id ORDER BY g.id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok(TurnLogSpan {
                    game_id: r.get(0)?,
                    turn: r.get(1)?,
                    rows: r.get(2)?,
                    first: r.get(3)?,
                    last: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Calls `f` on every outbox row of a game, sent or not, oldest first,
    /// without holding them all in memory. A row whose target kind is unknown
    /// is passed as an `Err` naming it.
    pub fn each_outbox_row_of_game(
        &self,
        game_id: i64,
        mut f: impl FnMut(Result<OutboxRow, StoreError>),
    ) -> Result<(), StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE game_id = ?1 ORDER BY id",
        )?;
        let mut rows = stmt.query([game_id])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let kind: String = r.get(2)?;
            let row = match Target::from_parts(&kind, r.get(3)?) {
                Some(target) => Ok(OutboxRow {
                    id,
                    game_id: r.get(1)?,
                    target,
                    payload: r.get(4)?,
                    created_at: r.get(5)?,
                }),
                None => Err(StoreError::Corrupt {
                    table: "outbox",
                    key: format!("row {id}"),
                    reason: format!("unknown target kind `{kind}`"),
                }),
            };
            f(row);
        }
        Ok(())
    }

    /// Marks an announcement as delivered; false if it was already marked.
    pub fn mark_sent(&self, id: i64, now: i64) -> Result<bool, StoreError> {
        let n = self.tx.execute(
            "UPDATE outbox SET sent_at = ?2 WHERE id = ?1 AND sent_at IS NULL",
            params![id, now],
        )?;
        Ok(n == 1)
    }

    /// Deletes at most `limit` announcements delivered before `sent_before`
    /// (oldest first); returns how many. Undelivered rows are never touched.
    pub fn prune_sent_outbox(&self, sent_before: i64, limit: u32) -> Result<usize, StoreError> {
        Ok(self.tx.execute(
            "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox \
             WHERE sent_at IS NOT NULL AND sent_at < ?1 ORDER BY id LIMIT ?2)",
            params![sent_before, limit],
        )?)
    }
}

fn expect_one(n: usize, table: &'static str, id: i64) -> Result<(), StoreError> {
    if n == 1 {
        Ok(())
    } else {
        Err(StoreError::Corrupt {
            table,
            key: format!("game {id}"),
            reason: "the row was not in the expected state (changed concurrently?)".into(),
        })
    }
}
