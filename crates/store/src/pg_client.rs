//! The store's own PostgreSQL client: tokio-postgres driven on a private
//! single-threaded runtime, so the synchronous store can *pipeline*: send a
//! transaction's `BEGIN`, and the writes whose answers it does not wait for,
//! together with its next statement or its `COMMIT` (one round trip for
//! all). The synchronous `postgres` crate (kept for tools and
//! tests, [`crate::connect_postgres`]) waits for every answer before it sends
//! the next message, and its client hides the asynchronous one.

use super::StoreError;
use postgres::types::ToSql;
use postgres::{Error, Row, Statement};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use tokio::runtime::Runtime;

/// A connection: the asynchronous client and the runtime its connection task
/// runs on (polled whenever the store waits for an answer).
pub(crate) struct PgClient {
    runtime: Runtime,
    client: tokio_postgres::Client,
}

impl PgClient {
    /// Connects with `config` over `tls` (plain when `None`); a driver's
    /// error is turned into the store's by `failed` (which names the TLS
    /// handshake's faults).
    pub(crate) fn connect<T>(
        config: &tokio_postgres::Config,
        tls: Option<T>,
        failed: impl FnOnce(Error) -> StoreError,
    ) -> Result<PgClient, StoreError>
    where
        T: tokio_postgres::tls::MakeTlsConnect<tokio_postgres::Socket> + Send + 'static,
        T::Stream: Send + 'static,
        T::TlsConnect: Send,
        <T::TlsConnect as tokio_postgres::tls::TlsConnect<tokio_postgres::Socket>>::Future: Send,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(StoreError::ClientRuntime)?;
        let client = match tls {
            None => {
                let (client, connection) = runtime
                    .block_on(config.connect(tokio_postgres::NoTls))
                    .map_err(failed)?;
                runtime.spawn(drive(connection));
                client
            }
            Some(tls) => {
                let (client, connection) = runtime.block_on(config.connect(tls)).map_err(failed)?;
                runtime.spawn(drive(connection));
                client
            }
        };
        Ok(PgClient { runtime, client })
    }

    /// Waits for `f`, serving the connection meanwhile.
    fn wait<T>(&self, f: impl Future<Output = T>) -> T {
        self.runtime.block_on(f)
    }

    /// Whether the client saw the connection close.
    pub(crate) fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// Prepares a statement (one round trip).
    pub(crate) fn prepare(&self, sql: &str) -> Result<Statement, Error> {
        self.wait(self.client.prepare(sql))
    }

    /// Runs statements in the simple protocol (no parameters, no rows).
    pub(crate) fn batch_execute(&self, sql: &str) -> Result<(), Error> {
        self.wait(self.client.batch_execute(sql))
    }

    /// The rows of a query.
    pub(crate) fn query(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
        self.wait(self.client.query(sql, args))
    }

    /// The one row of a query, if any (an error if several).
    pub(crate) fn query_opt(
        &self,
        sql: &str,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, Error> {
        self.wait(self.client.query_opt(sql, args))
    }

    /// Runs a statement; how many rows it changed.
    pub(crate) fn execute(&self, sql: &str, args: &[&(dyn ToSql + Sync)]) -> Result<u64, Error> {
        self.wait(self.client.execute(sql, args))
    }

    /// Sends `begin` (when given), then every statement of `writes`, then
    /// `last`, all before reading an answer (one round trip), and returns
    /// `last`'s answer, or the first error in that order: a write that
    /// failed aborted the transaction, so what follows it failed or did
    /// nothing (a `COMMIT` then rolls back).
    pub(crate) fn pipeline<'a, T>(
        &'a self,
        begin: Option<&str>,
        writes: &[(&Statement, Vec<&(dyn ToSql + Sync)>)],
        last: impl FnOnce(&'a tokio_postgres::Client) -> Pending<'a, T>,
    ) -> Result<T, Error> {
        let client = &self.client;
        self.wait(async {
            let mut first: Vec<Pending<'_, ()>> = Vec::with_capacity(writes.len() + 1);
            if let Some(begin) = begin {
                first.push(Box::pin(client.batch_execute(begin)));
            }
            for (stmt, args) in writes {
                first.push(Box::pin(async move {
                    client.execute(*stmt, args).await.map(|_| ())
                }));
            }
            let mut last = last(client);
            let mut answers: Vec<Option<Result<(), Error>>> = first.iter().map(|_| None).collect();
            let mut answer = None;
            // Polled in order: a request is sent when its future is first
            // polled, so they reach the server in this order.
            std::future::poll_fn(|cx| {
                for (future, out) in first.iter_mut().zip(answers.iter_mut()) {
                    if out.is_none()
                        && let Poll::Ready(r) = future.as_mut().poll(cx)
                    {
                        *out = Some(r);
                    }
                }
                if answer.is_none()
                    && let Poll::Ready(r) = last.as_mut().poll(cx)
                {
                    answer = Some(r);
                }
                if answer.is_some() && answers.iter().all(Option::is_some) {
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            })
            .await;
            for out in answers.into_iter().flatten() {
                out?;
            }
            answer.unwrap_or_else(|| unreachable!("the pipeline ends when every answer is in"))
        })
    }
}

/// A request sent on its first poll, answered later.
pub(crate) type Pending<'a, T> = Pin<Box<dyn Future<Output = Result<T, Error>> + 'a>>;

/// Serves a connection until it closes (its errors reach the client's next
/// request as a closed connection).
async fn drive<S, T>(connection: tokio_postgres::Connection<S, T>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    if let Err(e) = connection.await {
        tracing::debug!(error = %e, "PostgreSQL connection ended");
    }
}
