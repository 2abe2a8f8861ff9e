//! The operator's HTTP endpoint (`[metrics] listen`, off by default):
//! `GET /healthz` answers 200 while every gateway shard of this process is
//! connected and the database answers, 503 otherwise; `GET /metrics` shows
//! the host's counters, the REST traffic with Discord and what the
//! database holds in Prometheus's text format. Nothing here names a user, a channel, a game or a token.
//!
//! The server is small on purpose: HTTP/1 through hyper, requests without
//! bodies, headers bounded in size and time, a bounded number of
//! connections, each closed after its one answer.

use crate::RestMetrics;
use host::Host;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Method, Request, Response, StatusCode};
use poise::serenity_prelude as serenity;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::{Registry, Unit};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The longest a client may take to send its request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest one connection may stay open.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(15);
/// The longest the database may take to answer a health check or a scrape.
const DATABASE_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections served at once; more are closed at once.
const MAX_CONNECTIONS: usize = 16;
/// The most bytes of request head read (hyper's smallest buffer).
const MAX_HEAD_BYTES: usize = 8 * 1024;

/// The gateway shards of this process, once the bot has started them.
#[derive(Clone, Default)]
pub struct Gateway {
    manager: Arc<OnceLock<Arc<serenity::ShardManager>>>,
    /// How many shards this process runs.
    expected: u32,
}

impl Gateway {
    /// The gateway of a process that runs `expected` shards.
    pub fn new(expected: u32) -> Gateway {
        Gateway {
            manager: Arc::default(),
            expected: expected.max(1),
        }
    }

    /// Hands over the started bot's shard manager.
    pub(crate) fn started(&self, manager: Arc<serenity::ShardManager>) {
        let _ = self.manager.set(manager);
    }

    /// How many of this process's shards are connected now.
    async fn connected(&self) -> u32 {
        let Some(manager) = self.manager.get() else {
            return 0;
        };
        let runners = manager.runners.lock().await;
        runners
            .values()
            .filter(|r| r.stage == serenity::ConnectionStage::Connected)
            .count() as u32
    }
}

/// The labels of the games gauge: `kind` and `status`.
type GameLabels = Vec<(&'static str, String)>;

/// What the endpoint serves from.
struct Endpoint {
    host: Arc<Host>,
    gateway: Gateway,
    registry: Registry,
    games: Family<GameLabels, Gauge>,
    outbox_depth: Gauge,
    outbox_oldest: Gauge<f64, AtomicU64>,
    shards_connected: Gauge,
    database_up: Gauge,
}

impl Endpoint {
    fn new(host: Arc<Host>, gateway: Gateway, rest: &RestMetrics) -> Endpoint {
        let mut registry = Registry::with_prefix("gamehost");
        host.metrics().register(&mut registry);
        rest.register(&mut registry);
        let endpoint = Endpoint {
            host,
            gateway,
            registry: Registry::default(),
            games: Family::default(),
            outbox_depth: Gauge::default(),
            outbox_oldest: Gauge::default(),
            shards_connected: Gauge::default(),
            database_up: Gauge::default(),
        };
        registry.register(
            "games",
            "Games in the database, by kind and status",
            endpoint.games.clone(),
        );
        registry.register(
            "outbox_depth",
            "Announcements not yet delivered to Discord",
            endpoint.outbox_depth.clone(),
        );
        registry.register_with_unit(
            "outbox_oldest_age",
            "How long the oldest undelivered announcement has waited",
            Unit::Seconds,
            endpoint.outbox_oldest.clone(),
        );
        registry.register(
            "gateway_shards_connected",
            "Gateway shards of this process that are connected",
            endpoint.shards_connected.clone(),
        );
        registry.register(
            "database_up",
            "1 if the database answered the last scrape, else 0",
            endpoint.database_up.clone(),
        );
        Endpoint {
            registry,
            ..endpoint
        }
    }

    /// Whether the database answers a read in time.
    async fn database_answers(&self) -> bool {
        let host = self.host.clone();
        let read = tokio::task::spawn_blocking(move || host.store().schema_version().is_ok());
        matches!(
            tokio::time::timeout(DATABASE_TIMEOUT, read).await,
            Ok(Ok(true))
        )
    }

    /// `/healthz`: 200 when every shard is connected and the database
    /// answers; 503 naming what is down otherwise.
    async fn health(&self) -> (StatusCode, String) {
        let connected = self.gateway.connected().await;
        let mut down = Vec::new();
        if connected < self.gateway.expected {
            down.push(format!(
                "gateway: {connected} of {} shard(s) connected",
                self.gateway.expected
            ));
        }
        if !self.database_answers().await {
            down.push("database: not answering".to_string());
        }
        if down.is_empty() {
            (StatusCode::OK, "ok\n".into())
        } else {
            (StatusCode::SERVICE_UNAVAILABLE, down.join("\n") + "\n")
        }
    }

    /// `/metrics`: the gauges read now, then every metric as text.
    async fn metrics(&self) -> String {
        let host = self.host.clone();
        let census = tokio::task::spawn_blocking(move || host.census());
        match tokio::time::timeout(DATABASE_TIMEOUT, census).await {
            Ok(Ok(Ok(census))) => {
                self.games.clear();
                for (kind, status, count) in census.games {
                    self.games
                        .get_or_create(&vec![("kind", kind), ("status", status)])
                        .set(count);
                }
                self.outbox_depth.set(census.outbox_depth);
                self.outbox_oldest
                    .set(census.outbox_oldest_ms as f64 / 1000.0);
                self.database_up.set(1);
            }
            _ => {
                self.database_up.set(0);
            }
        }
        self.shards_connected
            .set(i64::from(self.gateway.connected().await));
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }

    /// Answers one request.
    async fn respond(&self, request: Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
        let reply = |status: StatusCode, content_type: &'static str, body: String| {
            let mut r = Response::new(Full::new(Bytes::from(body)));
            *r.status_mut() = status;
            r.headers_mut().insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static(content_type),
            );
            r
        };
        if !matches!(*request.method(), Method::GET | Method::HEAD) {
            return reply(
                StatusCode::METHOD_NOT_ALLOWED,
                "text/plain; charset=utf-8",
                "only GET\n".into(),
            );
        }
        match request.uri().path() {
            "/healthz" => {
                let (status, body) = self.health().await;
                reply(status, "text/plain; charset=utf-8", body)
            }
            "/metrics" => reply(
                StatusCode::OK,
                "application/openmetrics-text; version=1.0.0; charset=utf-8",
                self.metrics().await,
            ),
            _ => reply(
                StatusCode::NOT_FOUND,
                "text/plain; charset=utf-8",
                "not found; try /healthz or /metrics\n".into(),
            ),
        }
    }
}

/// Listens on `address` (refused at start-up with one line if it cannot)
/// and serves `/healthz` and `/metrics` until the runtime stops.
pub async fn serve(
    address: std::net::SocketAddr,
    host: Arc<Host>,
    gateway: Gateway,
    rest: &RestMetrics,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on `[metrics] listen` {address}: {e}"))?;
    let bound = listener.local_addr().unwrap_or(address);
    tracing::info!(address = %bound, "serving /healthz and /metrics");
    let endpoint = Arc::new(Endpoint::new(host, gateway, rest));
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                // Out of file descriptors, say: wait rather than spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            let Ok(slot) = slots.clone().try_acquire_owned() else {
                continue; // too many at once: dropped, closing it
            };
            let endpoint = endpoint.clone();
            tokio::spawn(async move {
                serve_connection(stream, endpoint).await;
                drop(slot);
            });
        }
    });
    Ok(())
}

/// One connection: one request, bounded in size and time.
async fn serve_connection(stream: tokio::net::TcpStream, endpoint: Arc<Endpoint>) {
    let service = hyper::service::service_fn(move |request| {
        let endpoint = endpoint.clone();
        async move { Ok::<_, std::convert::Infallible>(endpoint.respond(request).await) }
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(false)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
    let _ = tokio::time::timeout(CONNECTION_TIMEOUT, connection).await;
}
