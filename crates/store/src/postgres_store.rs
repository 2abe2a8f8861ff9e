//! The PostgreSQL connection: migrations (`migrations/postgres/`, one per
//! SQLite migration, same number and meaning), the schema version, the
//! integrity check, and transactions for [`crate::Store`].

use super::StoreError;
use super::db::PgTx;
use super::pg_client::PgClient;
use super::pg_tls::{PgTarget, TlsHandshakeError};
use super::redact::redact_url;
use postgres::{Client, NoTls};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The PostgreSQL migrations, in the order and with the numbers of the
/// SQLite ones ([`super::open::MIGRATIONS`]).
pub(crate) const PG_MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/postgres/0001_initial.sql"),
    include_str!("../../../migrations/postgres/0002_deadline_extensions.sql"),
    include_str!("../../../migrations/postgres/0003_idle_deadlines.sql"),
    include_str!("../../../migrations/postgres/0004_ratings.sql"),
    include_str!("../../../migrations/postgres/0005_press.sql"),
    include_str!("../../../migrations/postgres/0006_seat_terms.sql"),
    include_str!("../../../migrations/postgres/0007_weng_lin_scale.sql"),
    include_str!("../../../migrations/postgres/0008_pauses.sql"),
    include_str!("../../../migrations/postgres/0009_claims_and_instances.sql"),
    include_str!("../../../migrations/postgres/0010_posted_messages.sql"),
    include_str!("../../../migrations/postgres/0011_dm_channels.sql"),
    include_str!("../../../migrations/postgres/0012_greeted_guilds.sql"),
    include_str!("../../../migrations/postgres/0013_server_settings.sql"),
    include_str!("../../../migrations/postgres/0014_languages.sql"),
];

// Each back end has one migration per schema version.
const _: () = assert!(PG_MIGRATIONS.len() == super::open::MIGRATIONS.len());

/// The table recording the schema version (PostgreSQL has no `user_version`).
const VERSION_TABLE: &str = "gamehost_schema";

/// Serialises migrations across processes starting at once.
const MIGRATION_LOCK: i64 = 0x6761_6d65_686f_7374; // "gamehost"

/// Prepared statements kept per connection before the cache starts over
/// (the store's queries are a few hundred fixed texts).
const STATEMENT_CACHE_MAX: usize = 1000;

/// How long a lost connection is tried again before the action fails: a
/// server restart (fast shutdown, recovery, start) takes a few seconds.
const RECONNECT_WITHIN: Duration = Duration::from_secs(15);

/// The pause between two attempts to connect again.
const RECONNECT_PAUSE: Duration = Duration::from_millis(250);

/// Whether an error means the connection itself is gone (the server shut
/// down, restarted or ended this backend; the network failed), so the same
/// work can succeed on a new connection: the client saw it closed, an I/O
/// error, or SQLSTATE class 08 (connection exception) or 57P (the server
/// shutting down, ending this session, or still starting up).
pub(crate) fn connection_lost(e: &postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    if let Some(code) = e.code() {
        let code = code.code();
        return code.starts_with("08") || code.starts_with("57P");
    }
    std::error::Error::source(e).is_some_and(|cause| cause.is::<std::io::Error>())
}

/// A PostgreSQL error as one line with the server's reason: its message,
/// SQLSTATE, and the detail and constraint when present (the client's own
/// text for a server error is only "db error").
pub(crate) fn reason(e: &postgres::Error) -> String {
    let Some(db) = e.as_db_error() else {
        // A client-side fault (connection, protocol): its cause says what.
        return match std::error::Error::source(e) {
            Some(cause) if !e.to_string().contains(&cause.to_string()) => format!("{e}: {cause}"),
            _ => e.to_string(),
        };
    };
    let mut line = format!("{} (SQLSTATE {})", db.message(), db.code().code());
    if let Some(detail) = db.detail() {
        line.push_str(&format!("; {detail}"));
    }
    if let Some(constraint) = db.constraint() {
        line.push_str(&format!("; constraint {constraint}"));
    }
    line
}

/// A bare connection (the synchronous driver) to the server `url` names,
/// with TLS as its `sslmode` and `sslrootcert` ask ([`super::pg_tls`]), for
/// tools and tests.
pub(crate) fn connect_client(url: &str) -> Result<Client, StoreError> {
    let target = PgTarget::parse(url)?;
    let config = postgres::Config::from(target.config.clone());
    let connected = match target.connector()? {
        None => config.connect(NoTls),
        Some(tls) => config.connect(tls),
    };
    connected.map_err(|e| connect_failed(url, &target, e))
}

/// The store's connection to the server `url` names (pipelining, see
/// [`PgClient`]), with TLS as for [`connect_client`].
fn connect_store_client(url: &str) -> Result<PgClient, StoreError> {
    let target = PgTarget::parse(url)?;
    tracing::debug!(
        sslmode = %target.mode,
        check = target.check(),
        "connecting to PostgreSQL"
    );
    PgClient::connect(&target.config, target.connector()?, |e| {
        connect_failed(url, &target, e)
    })
}

/// The driver's error from connecting to `url`, with a TLS handshake's
/// fault named and what to do about it.
fn connect_failed(url: &str, target: &PgTarget, e: postgres::Error) -> StoreError {
    let Some(handshake) =
        std::error::Error::source(&e).and_then(|cause| cause.downcast_ref::<TlsHandshakeError>())
    else {
        return StoreError::Postgres(e);
    };
    let reason = handshake.reason.clone();
    let hint = if reason.contains("UnknownIssuer") || reason.contains("unknown issuer") {
        "; the server's certificate is not signed by a trusted root: give its CA's \
         certificate with sslrootcert=<file>"
    } else if reason.contains("NotValidForName") || reason.contains("not valid for name") {
        "; the certificate does not name the host connected to: connect by a name it \
         carries, or check the chain only with sslmode=verify-ca"
    } else if reason.contains("Expired") || reason.contains("expired") {
        "; the server's certificate has expired: the server needs a new one"
    } else {
        ""
    };
    StoreError::TlsHandshake {
        target: redact_url(url),
        mode: target.mode,
        check: target.check(),
        reason,
        hint,
    }
}

/// Connects to `url`, trying for [`RECONNECT_WITHIN`] while the server is
/// unreachable or starting up (a restart takes a few seconds).
fn connect_patiently(url: &str) -> Result<PgClient, StoreError> {
    let started = Instant::now();
    let mut attempts = 1u32;
    loop {
        match connect_store_client(url) {
            Ok(client) => {
                if attempts > 1 {
                    tracing::info!(
                        attempts,
                        waited_ms = started.elapsed().as_millis() as u64,
                        "PostgreSQL reachable again"
                    );
                }
                return Ok(client);
            }
            Err(StoreError::Postgres(e))
                if connection_lost(&e) && started.elapsed() < RECONNECT_WITHIN =>
            {
                tracing::debug!(attempts, error = %reason(&e), "PostgreSQL not reachable yet");
                std::thread::sleep(RECONNECT_PAUSE);
                attempts += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// The connections a PostgreSQL store keeps open per process, at most: the
/// host's threads (player actions, the ticker, the outbox, the Discord
/// handlers) each take one for a transaction, so they no longer queue
/// behind one connection, and the server commits their transactions
/// together (one WAL flush for several commits).
pub const POOL_SIZE: usize = 8;

/// A small pool of [`PgConn`]s: each keeps its own prepared statements, and
/// one is opened only when every open one is busy (up to a maximum).
///
/// Its own rather than `r2d2`: a pooled connection here is a client *and*
/// its statement cache *and* the URL to reconnect it in place (which the
/// store's retry of a lost connection relies on), and the TLS connector is
/// chosen per URL at run time; `r2d2_postgres` pools bare clients of one
/// connector type, and `r2d2` alone would add a background thread pool and
/// a test query per checkout (a round trip per transaction) to what is a
/// mutex, a list and a condition variable.
pub(crate) struct PgPool {
    url: String,
    max: usize,
    state: Mutex<PoolState>,
    freed: Condvar,
}

struct PoolState {
    idle: Vec<PgConn>,
    /// Connections open or being opened, idle or lent.
    open: usize,
}

impl PgPool {
    /// A pool of at most `max` connections to `url`, starting with `first`.
    pub(crate) fn new(first: PgConn, max: usize) -> PgPool {
        PgPool {
            url: first.url.clone(),
            max: max.max(1),
            state: Mutex::new(PoolState {
                idle: vec![first],
                open: 1,
            }),
            freed: Condvar::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, PoolState> {
        // The state is a list and a count, sound even if a holder panicked.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An idle connection, a new one if all are busy and the pool is not
    /// full, else the next one given back.
    pub(crate) fn get(&self) -> Result<Pooled<'_>, StoreError> {
        let mut state = self.state();
        loop {
            if let Some(conn) = state.idle.pop() {
                return Ok(Pooled {
                    pool: self,
                    conn: Some(conn),
                });
            }
            if state.open < self.max {
                state.open += 1;
                drop(state);
                return match connect_patiently(&self.url) {
                    Ok(client) => {
                        tracing::debug!(max = self.max, "opened another PostgreSQL connection");
                        Ok(Pooled {
                            pool: self,
                            conn: Some(PgConn {
                                client,
                                cache: HashMap::new(),
                                url: self.url.clone(),
                            }),
                        })
                    }
                    Err(e) => {
                        self.state().open -= 1;
                        self.freed.notify_one();
                        Err(e)
                    }
                };
            }
            state = self.freed.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// A connection lent by a [`PgPool`], given back when dropped (or closed
/// and counted out if the client saw it closed: the next `get` opens one).
pub(crate) struct Pooled<'a> {
    pool: &'a PgPool,
    conn: Option<PgConn>,
}

impl std::ops::Deref for Pooled<'_> {
    type Target = PgConn;
    fn deref(&self) -> &PgConn {
        self.conn
            .as_ref()
            .expect("a lent connection is present until dropped")
    }
}

impl std::ops::DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut PgConn {
        self.conn
            .as_mut()
            .expect("a lent connection is present until dropped")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else { return };
        let mut state = self.pool.state();
        if conn.client.is_closed() {
            state.open -= 1;
        } else {
            state.idle.push(conn);
        }
        drop(state);
        self.pool.freed.notify_one();
    }
}

/// One connection to a PostgreSQL database with its prepared statements.
pub(crate) struct PgConn {
    client: PgClient,
    cache: HashMap<String, postgres::Statement>,
    url: String,
}

impl PgConn {
    /// Connects without touching the schema.
    pub(crate) fn connect(url: &str) -> Result<PgConn, StoreError> {
        Ok(PgConn {
            client: connect_store_client(url)?,
            cache: HashMap::new(),
            url: url.to_string(),
        })
    }

    /// Connects and applies every migration not yet applied.
    pub(crate) fn open(url: &str) -> Result<PgConn, StoreError> {
        let mut conn = PgConn::connect(url)?;
        conn.migrate()?;
        Ok(conn)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let known = PG_MIGRATIONS.len() as i64;
        let url = &self.url;
        in_transaction(&self.client, "COMMIT", |client| {
            client.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
            client.batch_execute(&format!(
                "CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version BIGINT NOT NULL)"
            ))?;
            let found: Option<i64> = client
                .query_opt(&format!("SELECT version FROM {VERSION_TABLE}"), &[])?
                .map(|r| r.get(0));
            if found.is_none() {
                client.execute(&format!("INSERT INTO {VERSION_TABLE} VALUES (0)"), &[])?;
            }
            let found = found.unwrap_or(0);
            if found > known {
                return Err(StoreError::SchemaTooNew {
                    path: redact_url(url),
                    found,
                    known,
                });
            }
            for sql in PG_MIGRATIONS.iter().skip(found.max(0) as usize) {
                client.batch_execute(sql)?;
            }
            client.execute(
                &format!("UPDATE {VERSION_TABLE} SET version = $1"),
                &[&known],
            )?;
            Ok(())
        })
    }

    /// Replaces the connection with a new one (its prepared statements go
    /// with the old), trying for [`RECONNECT_WITHIN`] while the server is
    /// unreachable or starting up.
    pub(crate) fn reconnect(&mut self) -> Result<(), StoreError> {
        self.client = connect_patiently(&self.url)?;
        self.cache.clear();
        tracing::info!("connected to PostgreSQL again");
        Ok(())
    }

    /// Runs statements that PostgreSQL refuses inside a transaction block
    /// (`VACUUM`), on this connection as it is.
    pub(crate) fn execute_outside_transaction(&mut self, sql: &str) -> Result<(), StoreError> {
        self.client.batch_execute(sql)?;
        Ok(())
    }

    /// Starts a transaction: a write one at READ COMMITTED (each game row it
    /// reads is locked, so it sees the latest committed game), a read one as
    /// a READ ONLY, REPEATABLE READ snapshot. A connection the client knows
    /// closed is opened again first (one the `BEGIN` finds lost is the
    /// caller's to open again: see `Store::attempt_postgres`).
    pub(crate) fn begin(&mut self, write: bool) -> Result<PgTx<'_>, StoreError> {
        if self.client.is_closed() {
            tracing::warn!("the PostgreSQL connection was closed; connecting again");
            self.reconnect()?;
        }
        if self.cache.len() > STATEMENT_CACHE_MAX {
            self.cache.clear();
        }
        let PgConn { client, cache, .. } = self;
        Ok(PgTx {
            client,
            // Sent with the transaction's first statement (one round trip).
            begin: Some(if write {
                "START TRANSACTION ISOLATION LEVEL READ COMMITTED"
            } else {
                "START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
            }),
            finished: false,
            deferred: Vec::new(),
            cache,
            lost_to: None,
            disconnected: false,
            per_game: HashMap::new(),
        })
    }

    /// The schema version recorded in the database (0: none).
    pub(crate) fn schema_version(&mut self) -> Result<i64, StoreError> {
        let exists = self
            .client
            .query_opt("SELECT to_regclass($1) IS NOT NULL", &[&VERSION_TABLE])?
            .is_some_and(|r| r.get::<_, bool>(0));
        if !exists {
            return Ok(0);
        }
        Ok(self
            .client
            .query_opt(&format!("SELECT version FROM {VERSION_TABLE}"), &[])?
            .map_or(0, |r| r.get(0)))
    }

    /// Every table of the current schema with its columns in order.
    pub(crate) fn tables(&mut self) -> Result<BTreeMap<String, Vec<String>>, StoreError> {
        Ok(columns_of(&self.client, None)?
            .into_iter()
            .map(|(t, cols)| (t, cols.into_iter().map(|c| c.0).collect()))
            .collect())
    }

    /// The schema's tables, columns (type, nullability) and indexes
    /// compared with those the migrations build for its version, in a
    /// scratch schema that is rolled back.
    pub(crate) fn integrity_problems(&mut self) -> Result<Vec<String>, StoreError> {
        let version = self.schema_version()?;
        let found = columns_of(&self.client, None)?;
        if version == 0 {
            return Ok(vec![
                "the database has no gamehost tables (schema version 0): it is not a gamehost \
                 database"
                    .into(),
            ]);
        }
        let mut problems = Vec::new();
        if !(1..=PG_MIGRATIONS.len() as i64).contains(&version) {
            return Ok(problems);
        }
        let found_indexes = indexes_of(&self.client, None)?;
        let scratch = format!("gamehost_expected_{}", std::process::id());
        let (expected, expected_indexes) = in_transaction(&self.client, "ROLLBACK", |client| {
            client.batch_execute(&format!(
                "CREATE SCHEMA {scratch}; SET LOCAL search_path TO {scratch}"
            ))?;
            for sql in PG_MIGRATIONS.iter().take(version as usize) {
                client.batch_execute(sql)?;
            }
            let expected = columns_of(client, Some(&scratch))?;
            let indexes = indexes_of(client, Some(&scratch))?;
            Ok((expected, indexes))
        })?;
        for (table, cols) in &expected {
            let Some(have) = found.get(table) else {
                problems.push(format!("table {table} is missing from the schema"));
                continue;
            };
            if have != cols {
                problems.push(format!(
                    "table {table} differs from the schema of version {version}"
                ));
            }
        }
        for (name, def) in &expected_indexes {
            match found_indexes.get(name) {
                None => problems.push(format!("index {name} is missing from the schema")),
                Some(have) if have != def => problems.push(format!(
                    "index {name} differs from the schema of version {version}"
                )),
                Some(_) => {}
            }
        }
        Ok(problems)
    }
}

type Columns = BTreeMap<String, Vec<(String, String, String)>>;

const COLUMNS_SQL: &str = "SELECT table_name::text, column_name::text, data_type::text, \
     is_nullable::text FROM information_schema.columns \
     WHERE table_schema = COALESCE($1, current_schema()) AND table_name <> 'gamehost_schema' \
     ORDER BY table_name, ordinal_position";

const INDEXES_SQL: &str = "SELECT indexname::text, \
     replace(indexdef, schemaname || '.', '') FROM pg_indexes \
     WHERE schemaname = COALESCE($1, current_schema())";

fn collect_columns(rows: Vec<postgres::Row>) -> Columns {
    let mut out = Columns::new();
    for r in rows {
        out.entry(r.get(0))
            .or_default()
            .push((r.get(1), r.get(2), r.get(3)));
    }
    out
}

fn columns_of(client: &PgClient, schema: Option<&str>) -> Result<Columns, StoreError> {
    Ok(collect_columns(client.query(COLUMNS_SQL, &[&schema])?))
}

fn indexes_of(
    client: &PgClient,
    schema: Option<&str>,
) -> Result<BTreeMap<String, String>, StoreError> {
    Ok(client
        .query(INDEXES_SQL, &[&schema])?
        .into_iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
}

/// Runs `f` between `BEGIN` and `end` (`COMMIT` or `ROLLBACK`); an error
/// of `f` always rolls back.
fn in_transaction<T>(
    client: &PgClient,
    end: &str,
    f: impl FnOnce(&PgClient) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    client.batch_execute("BEGIN")?;
    let out = f(client);
    let ended = client.batch_execute(if out.is_ok() { end } else { "ROLLBACK" });
    let out = out?;
    ended?;
    Ok(out)
}

#[cfg(test)]
mod tests {

    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(
            super::super::db::pg_placeholders("a = ?1 AND b = ?12 AND c ~ '^x$'"),
            "a = $1 AND b = $12 AND c ~ '^x$'"
        );
    }
}
