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
mod games;

mod guilds;
mod languages;

mod messages;
mod open;
mod outbox;

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
mod transactions;
mod turns;

pub use claims::{INSTANCE_LIVE_MS, InstanceRow};

pub use messages::PostedMessage;

pub use pauses::{AbsenceRow, LeaveRulesRow, PauseRow};

pub use pg_tls::{RootCerts, SslMode, TlsConfigError};

pub use press::{NewPressRow, PressRow};

pub use languages::UserLanguageRow;
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

/// A bare connection to the PostgreSQL server `url` names, with TLS as its
/// `sslmode` and `sslrootcert` ask, for tools and tests that need SQL the
/// store does not offer (creating databases, looking at the server).
pub fn connect_postgres(url: &str) -> Result<postgres::Client, StoreError> {
    postgres_store::connect_client(url)
}

/// The latest schema version this build knows.
pub fn schema_version_known() -> i64 {
    open::MIGRATIONS.len() as i64
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
