//! The store: the only crate that speaks SQL, on SQLite (the default, one
//! file, one process) or PostgreSQL (a shared server, several processes).
//!
//! The schema lives in `migrations/NNNN_name.sql` (SQLite) and
//! `migrations/postgres/NNNN_name.sql` (the same tables, column for column)
//! and is applied when the store opens. Every change the host makes runs
//! inside one transaction ([`Store::write`]): `BEGIN IMMEDIATE` on SQLite,
//! which serialises writers; on PostgreSQL a write transaction locks the row
//! of each game it reads ([`Tx::game`]), so two processes changing one game
//! take turns, and the rating rows of a game's players ([`Tx::lock_ratings`],
//! sorted by player); a transaction PostgreSQL aborts for a deadlock or a
//! serialization failure is run again ([`WRITE_ATTEMPTS`]). A crash before
//! commit leaves nothing half done. The host never
//! knows which back end it is on: each query is written once (portable SQL)
//! and run on either connection by the small layer in `db`.

mod claims;
mod copy;
mod db;
mod dm_channels;
mod guilds;
mod messages;
mod pauses;
mod pg_client;
mod pg_tls;
mod postgres_store;
mod prefetch;
mod press;
mod privacy;
mod ratings;
mod redact;
mod rows;
mod server_settings;

pub use claims::{INSTANCE_LIVE_MS, InstanceRow};
pub use messages::PostedMessage;
pub use pauses::{AbsenceRow, LeaveRulesRow, PauseRow};
pub use pg_tls::{RootCerts, SslMode, TlsConfigError};
pub use press::{NewPressRow, PressRow};
pub use privacy::{FORMER_PLAYER, ForgetReport, UserDataCounts};
pub use ratings::{
    GameResultRow, GameRulesRow, PlayerResultRow, RatingRow, ReliabilityCounts, ResultCount,
};
pub use redact::{is_keyword_connection_string, redact_url};
pub use rows::{
    DeadlineRow, GameRow, GameStatus, NewGameRow, Occupant, OutboxRow, PendingRow, SeatRow, Target,
    TimeoutPolicy, TurnLogRow, TurnLogSpan,
};
pub use server_settings::{KindDefaultsRow, ScheduleRow, ServerSettingsRow};

use db::{Conn, Row, args};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use rusqlite_migration::{M, Migrations};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
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
    include_str!("../../../migrations/0009_claims_and_instances.sql"),
    include_str!("../../../migrations/0010_posted_messages.sql"),
    include_str!("../../../migrations/0011_dm_channels.sql"),
    include_str!("../../../migrations/0012_greeted_guilds.sql"),
    include_str!("../../../migrations/0013_server_settings.sql"),
];

/// Everything that can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite itself failed (I/O, lock timeout, constraint).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL failed (connection, constraint, deadlock); the line
    /// carries the server's message, SQLSTATE and detail.
    #[error("PostgreSQL error: {}", postgres_store::reason(.0))]
    Postgres(#[from] postgres::Error),
    /// The PostgreSQL client's runtime (an event loop per connection) could
    /// not be started: the process is out of file descriptors or memory.
    #[error("could not start the PostgreSQL client: {0}")]
    ClientRuntime(std::io::Error),
    /// A PostgreSQL connection string's TLS settings (or the rest of it)
    /// cannot be used.
    #[error("{0}")]
    ConnectionString(#[from] pg_tls::TlsConfigError),
    /// The TLS handshake with a PostgreSQL server failed.
    #[error("could not connect to {target} over TLS (sslmode={mode}: {check}): {reason}{hint}")]
    TlsHandshake {
        /// The connection string without its password.
        target: String,
        /// The mode asked for.
        mode: SslMode,
        /// What that mode checks.
        check: &'static str,
        /// rustls's reason.
        reason: String,
        /// What to do about it, when the reason suggests something.
        hint: &'static str,
    },
    /// Applying the schema migrations failed.
    #[error("could not apply the database schema: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// The database was written by a newer gamehost.
    #[error(
        "the database {path} has schema version {found}, newer than the {known} this gamehost knows; \
         upgrade gamehost or use another database"
    )]
    SchemaTooNew {
        /// The database file (or the server's URL without its password).
        path: String,
        /// The version found in the database.
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
    /// A column held a value of another type than the query expects.
    #[error("unexpected value in column {column}: {reason}")]
    Value {
        /// The column's index in the query.
        column: usize,
        /// What was wrong.
        reason: String,
    },
    /// Another gamehost version is running on this database.
    #[error(
        "the database is in use by gamehost {theirs} (process `{instance}`, alive {age_s} s ago); \
         this is gamehost {ours}. Stop every process of the other version first (or wait {live_s} s \
         after one was killed)"
    )]
    VersionInUse {
        /// This build's version.
        ours: String,
        /// The running version.
        theirs: String,
        /// The running process's instance id.
        instance: String,
        /// Seconds since its last heartbeat.
        age_s: i64,
        /// How long a silent process counts as alive, in seconds.
        live_s: i64,
    },
    /// The operation exists on the other back end only.
    #[error("{0}")]
    Unsupported(String),
    /// A PostgreSQL transaction kept being aborted by concurrent ones
    /// (deadlock, serialization failure) after every attempt.
    #[error(
        "PostgreSQL error: the transaction was aborted by a concurrent one (SQLSTATE {sqlstate})"
    )]
    TransactionLost {
        /// The last SQLSTATE that aborted it.
        sqlstate: String,
    },
}

/// The unique index that allows one game in the lobby or running per channel.
const ONE_ACTIVE_GAME_PER_CHANNEL: &str = "games_one_active_per_channel";

impl StoreError {
    /// Whether this is the PostgreSQL connection being lost (the server
    /// restarted or ended the session, the network failed).
    pub fn is_connection_lost(&self) -> bool {
        matches!(self, StoreError::Postgres(e) if postgres_store::connection_lost(e))
    }

    /// Whether this is PostgreSQL refusing a second game in the lobby or
    /// running in one channel: two processes created one there at once
    /// (the check before the insert cannot see the other's uncommitted
    /// game; SQLite's exclusive write transactions never race so).
    pub fn is_second_active_game_in_channel(&self) -> bool {
        match self {
            StoreError::Postgres(e) => e.as_db_error().is_some_and(|db| {
                *db.code() == postgres::error::SqlState::UNIQUE_VIOLATION
                    && db.constraint() == Some(ONE_ACTIVE_GAME_PER_CHANNEL)
            }),
            _ => false,
        }
    }
}

/// Where a store lives: a SQLite file or a PostgreSQL server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user@host:port/db`).
    Postgres(String),
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            Location::Postgres(url) => f.write_str(&redact_url(url)),
        }
    }
}

/// The connection a store holds.
enum Backend {
    Sqlite(Mutex<Connection>),
    // Boxed: a pool is several times a SQLite connection's size.
    Postgres(Box<postgres_store::PgPool>),
}

/// A handle on one database: a SQLite file or a PostgreSQL database.
pub struct Store {
    backend: Backend,
    path: PathBuf,
}

/// How many times a PostgreSQL write transaction runs before a deadlock or
/// serialization failure is given up on and returned.
pub const WRITE_ATTEMPTS: u32 = 5;

/// What one run of a PostgreSQL transaction came to.
struct PgAttempt<T, E> {
    /// Its result (an error if it was lost).
    result: Result<T, E>,
    /// The SQLSTATE that lost it to a concurrent transaction, if one did.
    lost_to: Option<String>,
    /// Whether it failed because the connection was lost before the commit
    /// (nothing was committed; worth running again on a new connection).
    disconnected: bool,
}

impl<T, E> PgAttempt<T, E> {
    fn failed(e: E, lost_to: Option<String>) -> Self {
        PgAttempt {
            result: Err(e),
            lost_to,
            disconnected: false,
        }
    }
}

/// The pause before running a lost transaction again: up to 10 ms, doubled
/// each attempt, a random part of it so the two losers do not meet again.
fn retry_pause(attempt: u32) -> Duration {
    use std::hash::{BuildHasher, Hasher};
    let ceiling_us = 10_000u64 << attempt.min(6);
    // A fresh `RandomState` is randomly keyed: jitter without a crate.
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    Duration::from_micros(ceiling_us / 2 + random % (ceiling_us / 2))
}

/// A bare connection to the PostgreSQL server `url` names, with TLS as its
/// `sslmode` and `sslrootcert` ask, for tools and tests that need SQL the
/// store does not offer (creating databases, looking at the server).
pub fn connect_postgres(url: &str) -> Result<postgres::Client, StoreError> {
    postgres_store::connect_client(url)
}

/// The latest schema version this build knows.
pub fn schema_version_known() -> i64 {
    MIGRATIONS.len() as i64
}

impl Store {
    /// Opens the store at `location` (creating the SQLite file if needed)
    /// and applies any migrations not yet applied.
    pub fn open_at(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::Sqlite(path) => Store::open(path),
            Location::Postgres(url) => Store::open_postgres(url),
        }
    }

    /// Connects to the PostgreSQL database at `url` and applies any
    /// migrations not yet applied (one process at a time: an advisory lock).
    pub fn open_postgres(url: &str) -> Result<Store, StoreError> {
        let conn = postgres_store::PgConn::open(url)?;
        Ok(Store {
            backend: Backend::Postgres(Box::new(postgres_store::PgPool::new(
                conn,
                postgres_store::POOL_SIZE,
            ))),
            path: PathBuf::from(redact_url(url)),
        })
    }

    /// Whether this store is on PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Opens (creating if needed) the database at `path`, turns on WAL and
    /// applies any migrations not yet applied.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut conn = Connection::open(path)?;
        // WAL lets readers run beside the writer; NORMAL sync keeps every
        // committed transaction across a process crash (not across power loss).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // What is deleted is overwritten with zeros, so a deleted person's
        // rows leave nothing readable in the file's free space.
        conn.pragma_update(None, "secure_delete", "ON")?;
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
        Ok(Store::on_sqlite(conn, path))
    }

    /// Makes every SQLite commit wait for its flush to disk (`synchronous =
    /// FULL`, as PostgreSQL's default `synchronous_commit = on` does), for
    /// comparing the two back ends at the same durability; the store opens
    /// with `NORMAL` (see [`Store::open`]). PostgreSQL: unsupported.
    pub fn sqlite_flush_every_commit(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => {
                Store::lock_sqlite(c).pragma_update(None, "synchronous", "FULL")?;
                Ok(())
            }
            Backend::Postgres(_) => Err(StoreError::Unsupported(
                "synchronous is a SQLite setting; PostgreSQL's is synchronous_commit".into(),
            )),
        }
    }

    fn on_sqlite(conn: Connection, path: &Path) -> Store {
        Store {
            backend: Backend::Sqlite(Mutex::new(conn)),
            path: path.to_path_buf(),
        }
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
        Ok(Store::on_sqlite(conn, path))
    }

    /// Opens an existing store for reading: a SQLite file read-only
    /// ([`Store::open_read_only`]); a PostgreSQL database without applying
    /// any migration.
    pub fn open_read_only_at(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::Sqlite(path) => Store::open_read_only(path),
            Location::Postgres(url) => Ok(Store {
                backend: Backend::Postgres(Box::new(postgres_store::PgPool::new(
                    postgres_store::PgConn::connect(url)?,
                    postgres_store::POOL_SIZE,
                ))),
                path: PathBuf::from(redact_url(url)),
            }),
        }
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
        Ok(Store::on_sqlite(conn, path))
    }

    /// Checks the database below the level of rows. On SQLite: its own
    /// `PRAGMA integrity_check` (pages, indexes), `PRAGMA foreign_key_check`
    /// (rows of games that do not exist), and the schema against the one the
    /// migrations build for the file's version (a dropped or altered table).
    /// On PostgreSQL (which enforces its constraints itself): the tables and
    /// columns against those the migrations build for its version.
    /// Each problem is one line; an empty list means none was found.
    pub fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        let conn = match &self.backend {
            Backend::Sqlite(c) => c.lock().unwrap_or_else(|p| p.into_inner()),
            Backend::Postgres(pool) => return pool.get()?.integrity_problems(),
        };
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

    /// The database file this store is on (for PostgreSQL: its URL without
    /// the password, for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version recorded in the database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => Ok(c
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pragma_query_value(None, "user_version", |r| r.get(0))?),
            Backend::Postgres(pool) => pool.get()?.schema_version(),
        }
    }

    /// Every table of the schema with its columns, in column order (to
    /// compare the two back ends' schemas and to copy one into the other).
    pub fn tables(&self) -> Result<std::collections::BTreeMap<String, Vec<String>>, StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => {
                let conn = c.lock().unwrap_or_else(|p| p.into_inner());
                sqlite_tables(&conn)
            }
            Backend::Postgres(pool) => pool.get()?.tables(),
        }
    }

    fn lock_sqlite(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction open
        // (rusqlite rolls back on drop), so the connection is still sound.
        conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` inside one write transaction and commits when it returns
    /// `Ok`; any `Err` rolls everything back. On SQLite the transaction is
    /// `BEGIN IMMEDIATE`; on PostgreSQL each game it reads is locked, and a
    /// transaction lost to a concurrent one (a deadlock, a serialization
    /// failure) is rolled back and `f` run again, up to
    /// [`WRITE_ATTEMPTS`] times: `f` must do nothing outside the
    /// transaction that a second run would repeat wrongly.
    pub fn write<T, E>(&self, f: impl FnMut(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        match &self.backend {
            Backend::Sqlite(c) => Store::run_sqlite(c, true, f),
            Backend::Postgres(pool) => Store::write_postgres(pool, f),
        }
    }

    /// Runs read-only queries in one transaction (a consistent snapshot).
    /// On PostgreSQL, `f` runs once more on a new connection when the first
    /// was found lost (a server restart): it must only read.
    pub fn read<T, E>(&self, mut f: impl FnMut(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        match &self.backend {
            Backend::Sqlite(c) => Store::run_sqlite(c, false, f),
            Backend::Postgres(pool) => {
                // A READ ONLY snapshot takes no lock and cannot be lost to
                // another transaction, only with its connection.
                let mut conn = pool.get()?;
                let attempt = Store::attempt_postgres(&mut conn, false, &mut f);
                if !attempt.disconnected {
                    return attempt.result;
                }
                tracing::warn!(
                    "the PostgreSQL connection was lost during a read; connecting again"
                );
                conn.reconnect()?;
                Store::attempt_postgres(&mut conn, false, f).result
            }
        }
    }

    fn run_sqlite<T, E>(
        c: &Mutex<Connection>,
        write: bool,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let mut conn = Store::lock_sqlite(c);
        let behavior = if write {
            TransactionBehavior::Immediate
        } else {
            TransactionBehavior::Deferred
        };
        let tx = conn
            .transaction_with_behavior(behavior)
            .map_err(StoreError::from)?;
        let out = f(&Tx::new(Conn::Lite(&tx), write))?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// A PostgreSQL write transaction, run again (after a jittered pause,
    /// the connection given back to the pool meanwhile) while it is lost to
    /// a concurrent one and attempts remain.
    fn write_postgres<T, E>(
        pool: &postgres_store::PgPool,
        mut f: impl FnMut(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let mut attempt = 1;
        let mut reconnected = false;
        loop {
            let mut conn = pool.get()?;
            let PgAttempt {
                result,
                lost_to,
                disconnected,
            } = Store::attempt_postgres(&mut conn, true, &mut f);
            if disconnected && !reconnected {
                // Lost mid-transaction, before the commit: nothing was
                // written, so it runs once more on a new connection (a
                // commit whose answer was lost is not run again: it may
                // have been written).
                reconnected = true;
                tracing::warn!(
                    attempt,
                    "the PostgreSQL connection was lost during a write; connecting again to run it once more"
                );
                if let Err(e) = conn.reconnect() {
                    return Err(e.into());
                }
                continue;
            }
            match lost_to {
                Some(sqlstate) if attempt < WRITE_ATTEMPTS => {
                    let pause = retry_pause(attempt);
                    tracing::warn!(
                        attempt,
                        sqlstate = %sqlstate,
                        pause_ms = pause.as_millis() as u64,
                        "a PostgreSQL write transaction was lost to a concurrent one; running it again"
                    );
                    drop(conn);
                    std::thread::sleep(pause);
                    attempt += 1;
                }
                _ => return result,
            }
        }
    }

    /// One PostgreSQL transaction: `f`, then a commit if `f` succeeded and
    /// the transaction was not lost (else a rollback, when it is dropped).
    fn attempt_postgres<T, E>(
        conn: &mut postgres_store::PgConn,
        write: bool,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> PgAttempt<T, E>
    where
        E: From<StoreError>,
    {
        // A connection lost since the last transaction (the server
        // restarted or ended it) shows at the first statement, which carries
        // the `BEGIN`: nothing ran, and the attempt says `disconnected` so
        // the caller runs `f` again on a new connection.
        match conn.begin(write) {
            Ok(pg) => Store::run_postgres(pg, write, f),
            Err(e) => PgAttempt::failed(e.into(), None),
        }
    }

    /// `f` in the transaction `pg`, then a commit if `f` succeeded and the
    /// transaction was not lost.
    fn run_postgres<T, E>(
        pg: db::PgTx<'_>,
        write: bool,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> PgAttempt<T, E>
    where
        E: From<StoreError>,
    {
        let tx = Tx::new(Conn::Pg(RefCell::new(pg)), write);
        let out = f(&tx);
        let Conn::Pg(cell) = tx.conn else {
            unreachable!("a PostgreSQL store runs PostgreSQL transactions")
        };
        let mut pg = cell.into_inner();
        if let Some(sqlstate) = pg.lost_to.take() {
            // Even an `Ok` (an error the closure swallowed) cannot commit:
            // the server aborted the transaction.
            let e = out.err().unwrap_or_else(|| {
                StoreError::TransactionLost {
                    sqlstate: sqlstate.clone(),
                }
                .into()
            });
            return PgAttempt::failed(e, Some(sqlstate));
        }
        let out = match out {
            Ok(out) => out,
            Err(e) => {
                return PgAttempt {
                    result: Err(e),
                    lost_to: None,
                    disconnected: pg.disconnected,
                };
            }
        };
        match pg.commit() {
            Ok(()) => PgAttempt {
                result: Ok(out),
                lost_to: None,
                disconnected: false,
            },
            Err(e) => {
                // A commit whose answer was lost may have been written: it
                // is not run again (every write transaction reads first, so
                // a connection lost while idle shows before the commit).
                let lost_to = db::retryable_sqlstate(&e);
                PgAttempt::failed(StoreError::from(e).into(), lost_to)
            }
        }
    }

    /// Copies the live database to `dest` (which must not exist yet) with
    /// `VACUUM INTO`: one consistent, compacted snapshot even while games are
    /// being played. SQLite only: a PostgreSQL database is backed up with
    /// `pg_dump`.
    pub fn backup_to(&self, dest: &Path) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => {
                let conn = Store::lock_sqlite(c);
                conn.execute("VACUUM INTO ?1", [dest.to_string_lossy()])?;
                Ok(())
            }
            Backend::Postgres(_) => Err(StoreError::Unsupported(
                "`gamehost backup` copies a SQLite file; back a PostgreSQL database up with \
                 `pg_dump`"
                    .into(),
            )),
        }
    }
}

/// Every table of a SQLite database with its columns in order.
fn sqlite_tables(
    conn: &Connection,
) -> Result<std::collections::BTreeMap<String, Vec<String>>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid",
    )?;
    let mut out = std::collections::BTreeMap::<String, Vec<String>>::new();
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    for (table, column) in rows {
        out.entry(table).or_default().push(column);
    }
    Ok(out)
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
    conn: Conn<'a>,
    /// A write transaction (on PostgreSQL it locks the games it reads).
    write: bool,
    /// Seats already read in this transaction, by game: the host reads a
    /// game's seats several times per action, and on PostgreSQL each read
    /// is a round trip. Kept only while they cannot change under it (see
    /// [`Tx::seats_are_stable`]); this transaction's own seat writes drop
    /// the game's entry.
    seats_seen: RefCell<HashMap<i64, Vec<SeatRow>>>,
    /// Games whose row this transaction has locked (PostgreSQL writes).
    locked: RefCell<HashSet<i64>>,
    /// Games whose per-game rows this transaction has prefetched (see
    /// [`prefetch`]).
    prefetched: RefCell<HashSet<i64>>,
}

const GAME_COLUMNS: &str = "id, kind, guild_id, channel_id, creator_id, status, options, seed, \
     state, turn, outcome, turn_seconds, timeout_policy, created_at, updated_at";

/// The number of columns of [`GAME_COLUMNS`].
const GAME_COLUMN_COUNT: usize = 15;

/// The ids of the games whose lobby message was posted in channel `?1`:
/// the games created there, wherever they are played now.
const LOBBIES_POSTED_IN: &str =
    "SELECT game_id FROM posted_messages WHERE key = 'lobby' AND channel_id = ?1";

fn games_of(rows: Vec<Row>) -> Result<Vec<GameRow>, StoreError> {
    rows.iter()
        .map(|r| rows::RawGame::from_row(r)?.into_row())
        .collect()
}

fn outbox_row(r: &Row) -> Result<OutboxRow, StoreError> {
    let id: i64 = r.get(0)?;
    let kind: String = r.get(2)?;
    Ok(OutboxRow {
        id,
        game_id: r.get(1)?,
        target: Target::from_parts(&kind, r.get(3)?).ok_or_else(|| StoreError::Corrupt {
            table: "outbox",
            key: format!("row {id}"),
            reason: format!("unknown target kind `{kind}`"),
        })?,
        payload: r.get(4)?,
        created_at: r.get(5)?,
    })
}

fn turn_log_row(r: &Row) -> Result<TurnLogRow, StoreError> {
    Ok(TurnLogRow {
        turn: r.get(0)?,
        actions: r.get(1)?,
        report: r.get(2)?,
        state_after: r.get(3)?,
        resolved_at: r.get(4)?,
    })
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
    /// Whether this transaction runs on PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.conn.is_pg()
    }

    /// The row-locking clause a query reading a game takes in a write
    /// transaction on PostgreSQL: `FOR NO KEY UPDATE` (not `FOR UPDATE`,
    /// which would also wait for every transaction merely inserting a row
    /// that references the game). SQLite's `BEGIN IMMEDIATE` already
    /// serialises writers.
    fn new(conn: Conn<'a>, write: bool) -> Tx<'a> {
        Tx {
            conn,
            write,
            seats_seen: RefCell::new(HashMap::new()),
            locked: RefCell::new(HashSet::new()),
            prefetched: RefCell::new(HashSet::new()),
        }
    }

    /// Whether a game's seats read now stay what this transaction sees
    /// until it ends: always on SQLite (one writer at a time) and in a
    /// PostgreSQL read-only snapshot; in a PostgreSQL write (READ
    /// COMMITTED) once it holds the game's row lock, which every seat
    /// change takes first.
    fn seats_are_stable(&self, game_id: i64) -> bool {
        !self.write || !self.conn.is_pg() || self.locked.borrow().contains(&game_id)
    }

    /// Notes the games a locking read returned (see [`Tx::game_lock`]).
    fn note_locked(&self, games: &[GameRow]) {
        if self.write && self.conn.is_pg() {
            self.locked.borrow_mut().extend(games.iter().map(|g| g.id));
        }
    }

    fn game_lock(&self) -> &'static str {
        if self.write && self.conn.is_pg() {
            " FOR NO KEY UPDATE"
        } else {
            ""
        }
    }

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

    /// The seats of a game, by seat number.
    pub fn seats(&self, game_id: i64) -> Result<Vec<SeatRow>, StoreError> {
        if let Some(seats) = self.seats_seen.borrow().get(&game_id) {
            return Ok(seats.clone());
        }
        let seats = self
            .per_game(&prefetch::SEATS, game_id)?
            .iter()
            .map(|r| SeatRow::from_parts(game_id, r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            .collect::<Result<Vec<_>, _>>()?;
        if self.seats_are_stable(game_id) {
            self.seats_seen.borrow_mut().insert(game_id, seats.clone());
        }
        Ok(seats)
    }

    /// Puts a user or an AI in a seat.
    pub fn insert_seat(&self, game_id: i64, seat: &SeatRow) -> Result<(), StoreError> {
        self.seats_seen.borrow_mut().remove(&game_id);
        let (user, ai) = match &seat.occupant {
            Occupant::User(id) => (Some(id.as_str()), None),
            Occupant::Ai(level) => (None, Some(level.as_str())),
        };
        self.conn.exec(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?1, ?2, ?3, ?4, ?5)",
            args![game_id, seat.seat as i64, user, ai, seat.display_name],
        )?;
        Ok(())
    }

    /// Gives an existing seat to another user or an AI (a takeover in a
    /// running game); fails if the seat does not exist.
    pub fn replace_seat(&self, game_id: i64, seat: &SeatRow) -> Result<(), StoreError> {
        self.seats_seen.borrow_mut().remove(&game_id);
        let (user, ai) = match &seat.occupant {
            Occupant::User(id) => (Some(id.as_str()), None),
            Occupant::Ai(level) => (None, Some(level.as_str())),
        };
        let n = self.conn.exec(
            "UPDATE seats SET user_id = ?3, ai_level = ?4, display_name = ?5 \
             WHERE game_id = ?1 AND seat = ?2",
            args![game_id, seat.seat as i64, user, ai, seat.display_name],
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
        self.seats_seen.borrow_mut().remove(&game_id);
        self.conn.exec(
            "DELETE FROM seats WHERE game_id = ?1 AND seat = ?2",
            args![game_id, seat as i64],
        )?;
        Ok(())
    }

    /// The pending hidden actions of a game's current turn.
    pub fn pending(&self, game_id: i64) -> Result<Vec<PendingRow>, StoreError> {
        self.per_game(&prefetch::PENDING, game_id)?
            .iter()
            .map(|r| {
                Ok(PendingRow {
                    seat: r.get::<i64>(0)? as usize,
                    turn: r.get(1)?,
                    action: r.get(2)?,
                    is_final: r.get(3)?,
                    submitted_at: r.get(4)?,
                })
            })
            .collect()
    }

    /// Records (or replaces) a seat's pending action for the current turn.
    pub fn upsert_pending(&self, game_id: i64, p: &PendingRow) -> Result<(), StoreError> {
        self.conn.exec_later(
            "INSERT INTO pending_actions (game_id, turn, seat, action, final, submitted_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (game_id, seat) DO UPDATE SET turn = excluded.turn, \
             action = excluded.action, final = excluded.final, submitted_at = excluded.submitted_at",
            args![
                game_id,
                p.turn,
                p.seat as i64,
                p.action,
                p.is_final,
                p.submitted_at
            ],
        )?;
        Ok(())
    }

    /// Clears every pending action of a game (after its turn resolved).
    pub fn clear_pending(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn.exec_later(
            "DELETE FROM pending_actions WHERE game_id = ?1",
            args![game_id],
        )?;
        Ok(())
    }

    /// Appends a resolved turn to the log; fails if that turn was logged already.
    pub fn insert_turn_log(&self, game_id: i64, t: &TurnLogRow) -> Result<(), StoreError> {
        self.conn.exec_later(
            "INSERT INTO turn_log (game_id, turn, actions, report, state_after, resolved_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![
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
        self.conn
            .rows(
                "SELECT turn, actions, report, state_after, resolved_at FROM turn_log \
             WHERE game_id = ?1 ORDER BY turn LIMIT ?2 OFFSET ?3",
                args![game_id, limit, offset],
            )?
            .iter()
            .map(turn_log_row)
            .collect()
    }

    /// One logged turn of a game (1-based), if it was logged.
    pub fn turn_log_entry(
        &self,
        game_id: i64,
        turn: u32,
    ) -> Result<Option<TurnLogRow>, StoreError> {
        self.conn
            .row(
                "SELECT turn, actions, report, state_after, resolved_at FROM turn_log \
                 WHERE game_id = ?1 AND turn = ?2",
                args![game_id, turn],
            )?
            .as_ref()
            .map(turn_log_row)
            .transpose()
    }

    /// How many turns a game has logged.
    pub fn turn_log_len(&self, game_id: i64) -> Result<u32, StoreError> {
        self.conn
            .one(
                "SELECT COUNT(*) FROM turn_log WHERE game_id = ?1",
                args![game_id],
            )?
            .get(0)
    }

    /// Sets (or replaces) the deadline of a game's current turn; a claim on
    /// the earlier one ends with it.
    pub fn set_deadline(&self, game_id: i64, d: &DeadlineRow) -> Result<(), StoreError> {
        self.conn.exec_later(
            "INSERT INTO deadlines (game_id, turn, due_at, remind_at, extensions_used, idle_deadlines) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, due_at = excluded.due_at, \
             remind_at = excluded.remind_at, extensions_used = excluded.extensions_used, \
             idle_deadlines = excluded.idle_deadlines, claimed_by = NULL, claimed_until = NULL",
            args![
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
        self.conn.exec(
            "UPDATE deadlines SET idle_deadlines = ?2 WHERE game_id = ?1",
            args![game_id, n],
        )?;
        Ok(())
    }

    /// Removes a game's deadline.
    pub fn clear_deadline(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn
            .exec_later("DELETE FROM deadlines WHERE game_id = ?1", args![game_id])
    }

    /// A game's current deadline.
    pub fn deadline(&self, game_id: i64) -> Result<Option<DeadlineRow>, StoreError> {
        self.per_game(&prefetch::DEADLINE, game_id)?
            .first()
            .map(DeadlineRow::from_row)
            .transpose()
    }

    /// Deadlines or reminders that are due at `now`.
    pub fn due_deadlines(&self, now: i64) -> Result<Vec<DeadlineRow>, StoreError> {
        self.conn
            .rows(
                "SELECT game_id, turn, due_at, remind_at, extensions_used, idle_deadlines FROM deadlines \
             WHERE due_at <= ?1 OR (remind_at IS NOT NULL AND remind_at <= ?1) ORDER BY due_at",
                args![now],
            )?
            .iter()
            .map(DeadlineRow::from_row)
            .collect()
    }

    /// The earliest moment any deadline or reminder falls due.
    pub fn next_wakeup(&self) -> Result<Option<i64>, StoreError> {
        self.conn
            .one(
                "SELECT MIN(CASE WHEN remind_at IS NOT NULL AND remind_at < due_at \
                 THEN remind_at ELSE due_at END) FROM deadlines",
                args![],
            )?
            .get(0)
    }

    /// Marks a deadline's reminder as done.
    pub fn clear_reminder(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn.exec(
            "UPDATE deadlines SET remind_at = NULL WHERE game_id = ?1",
            args![game_id],
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
    ) -> Result<(), StoreError> {
        let (kind, id) = target.parts();
        self.conn.exec_later(
            "INSERT INTO outbox (game_id, target_kind, target_id, payload, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            args![game_id, kind, id, payload, now],
        )
    }

    /// Announcements not yet delivered, oldest first.
    pub fn unsent_outbox(&self, limit: u32) -> Result<Vec<OutboxRow>, StoreError> {
        self.conn
            .rows(
                "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE sent_at IS NULL ORDER BY id LIMIT ?1",
                args![limit],
            )?
            .iter()
            .map(outbox_row)
            .collect()
    }

    /// Undelivered announcements of one game, oldest first.
    pub fn unsent_outbox_of_game(&self, game_id: i64) -> Result<Vec<OutboxRow>, StoreError> {
        self.conn
            .rows(
                "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE sent_at IS NULL AND game_id = ?1 ORDER BY id",
                args![game_id],
            )?
            .iter()
            .map(outbox_row)
            .collect()
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

    /// The undelivered announcements: how many, and when the oldest was
    /// written (milliseconds of the host's clock), for the operator's metrics.
    pub fn outbox_backlog(&self) -> Result<(i64, Option<i64>), StoreError> {
        let row = self.conn.one(
            "SELECT COUNT(*), MIN(created_at) FROM outbox WHERE sent_at IS NULL",
            args![],
        )?;
        Ok((row.get(0)?, row.get(1)?))
    }

    /// Every game's turn counter beside what its turn log holds:
    /// `(game id, turn, log rows, lowest logged turn, highest logged turn)`.
    pub fn turn_log_spans(&self) -> Result<Vec<TurnLogSpan>, StoreError> {
        self.conn
            .rows(
                "SELECT g.id, g.turn, COUNT(t.turn), MIN(t.turn), MAX(t.turn) \
             FROM games g LEFT JOIN turn_log t ON t.game_id = g.id GROUP BY g.id ORDER BY g.id",
                args![],
            )?
            .iter()
            .map(|r| {
                Ok(TurnLogSpan {
                    game_id: r.get(0)?,
                    turn: r.get(1)?,
                    rows: r.get(2)?,
                    first: r.get(3)?,
                    last: r.get(4)?,
                })
            })
            .collect()
    }

    /// Calls `f` on every outbox row of a game, sent or not, oldest first,
    /// without holding them all in memory. A row whose target kind is unknown
    /// is passed as an `Err` naming it.
    pub fn each_outbox_row_of_game(
        &self,
        game_id: i64,
        mut f: impl FnMut(Result<OutboxRow, StoreError>),
    ) -> Result<(), StoreError> {
        self.conn.each(
            "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE game_id = ?1 ORDER BY id",
            args![game_id],
            |r| {
                f(outbox_row(&r));
                Ok(())
            },
        )
    }

    /// Marks an announcement as delivered; false if it was already marked.
    pub fn mark_sent(&self, id: i64, now: i64) -> Result<bool, StoreError> {
        let n = self.conn.exec(
            "UPDATE outbox SET sent_at = ?2 WHERE id = ?1 AND sent_at IS NULL",
            args![id, now],
        )?;
        Ok(n == 1)
    }

    /// Deletes at most `limit` announcements delivered before `sent_before`
    /// (oldest first); returns how many. Undelivered rows are never touched.
    pub fn prune_sent_outbox(&self, sent_before: i64, limit: u32) -> Result<usize, StoreError> {
        self.conn.exec(
            "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox \
             WHERE sent_at IS NOT NULL AND sent_at < ?1 ORDER BY id LIMIT ?2)",
            args![sent_before, limit],
        )
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
