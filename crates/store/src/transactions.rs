//! Running a transaction: the SQLite connection's lock, PostgreSQL's
//! attempts (a lost transaction is run again), read and write.

use super::*;

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

impl Store {
    pub(crate) fn lock_sqlite(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
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
}
