//! What the host counts for the operator's `/metrics`: moves, resolved
//! turns and how long resolving took, AI decision times and how late
//! deadlines fire. Labelled by kind of game only: nothing names a user, a
//! channel or a game.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

/// The labels of a per-kind metric: `kind="battle"`.
type KindLabel = Vec<(&'static str, String)>;

/// The host's counters and histograms (cheap to clone: every metric is
/// shared).
#[derive(Clone)]
pub struct HostMetrics {
    actions: Family<KindLabel, Counter>,
    turns: Family<KindLabel, Counter>,
    resolution: Family<KindLabel, Histogram, fn() -> Histogram>,
    ai_decision: Family<KindLabel, Histogram, fn() -> Histogram>,
    deadline_lag: Histogram,
}

/// Buckets from 1 ms to about 33 s (doubling), for everything timed here.
fn seconds_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

impl Default for HostMetrics {
    fn default() -> Self {
        HostMetrics {
            actions: Family::default(),
            turns: Family::default(),
            resolution: Family::new_with_constructor(seconds_histogram),
            ai_decision: Family::new_with_constructor(seconds_histogram),
            deadline_lag: seconds_histogram(),
        }
    }
}

fn kind_label(kind: &str) -> KindLabel {
    vec![("kind", kind.to_string())]
}

impl HostMetrics {
    /// Adds every metric to `registry` (names get the registry's prefix).
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "actions",
            "Moves recorded (players and AI seats), by kind of game",
            self.actions.clone(),
        );
        registry.register(
            "turns_resolved",
            "Turns resolved by a move or a deadline, by kind of game",
            self.turns.clone(),
        );
        registry.register_with_unit(
            "turn_resolution",
            "Time of the transaction that resolved a turn, by kind of game",
            Unit::Seconds,
            self.resolution.clone(),
        );
        registry.register_with_unit(
            "ai_decision",
            "Time an AI seat took to decide, by kind of game",
            Unit::Seconds,
            self.ai_decision.clone(),
        );
        registry.register_with_unit(
            "deadline_lag",
            "How late a turn's deadline was handled after it fell due",
            Unit::Seconds,
            self.deadline_lag.clone(),
        );
    }

    /// A move was recorded in a game of `kind`; `resolved` when it completed
    /// the turn, which took `took` to resolve and commit.
    pub(crate) fn action(&self, kind: &str, resolved: bool, took: Duration) {
        self.actions.get_or_create(&kind_label(kind)).inc();
        if resolved {
            self.turn(kind, took);
        }
    }

    /// A turn of a game of `kind` resolved, taking `took`.
    pub(crate) fn turn(&self, kind: &str, took: Duration) {
        let label = kind_label(kind);
        self.turns.get_or_create(&label).inc();
        self.resolution
            .get_or_create(&label)
            .observe(took.as_secs_f64());
    }

    /// An AI seat in a game of `kind` took `took` to decide.
    pub fn ai_decision(&self, kind: &str, took: Duration) {
        self.ai_decision
            .get_or_create(&kind_label(kind))
            .observe(took.as_secs_f64());
    }

    /// A deadline was handled `lag_ms` after it fell due.
    pub(crate) fn deadline_lag(&self, lag_ms: i64) {
        self.deadline_lag.observe(lag_ms.max(0) as f64 / 1000.0);
    }
}

/// What the database holds now, read when `/metrics` is scraped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Census {
    /// `(kind, status, count)` of every kind and status with a game.
    pub games: Vec<(String, String, i64)>,
    /// Announcements not yet delivered.
    pub outbox_depth: i64,
    /// How long the oldest of them has waited, in milliseconds (0: none).
    pub outbox_oldest_ms: i64,
}

impl crate::Host {
    /// Counts the games by kind and status and the undelivered
    /// announcements (one read transaction).
    pub fn census(&self) -> Result<Census, crate::HostError> {
        let now = self.now();
        let (games, (depth, oldest)) = self
            .store()
            .read(|tx| Ok::<_, store::StoreError>((tx.game_counts()?, tx.outbox_backlog()?)))?;
        Ok(Census {
            games,
            outbox_depth: depth,
            outbox_oldest_ms: oldest.map_or(0, |t| (now - t).max(0)),
        })
    }
}
