//! Where the host gets the time: the system clock, or a hand-moved one in
//! tests, and the AI's thinking deadline it hands engines through the seam.

use games::seam::Stopwatch;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A source of "now" in Unix milliseconds.
pub trait Clock: Send + Sync {
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// The real clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

/// A clock that only moves when told to, for deadline tests.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    /// A clock standing at `ms`.
    pub fn at(ms: i64) -> ManualClock {
        ManualClock(AtomicI64::new(ms))
    }

    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// The time an AI may think, on the machine's monotonic clock: the
/// [`Stopwatch`] the host hands an engine in its `AiBudget`, so engines
/// never read a clock themselves.
///
/// Thinking time is real time even under a [`ManualClock`] (a search runs
/// on the CPU, not in game time), so this is the one place besides
/// [`SystemClock`] that reads the machine's clock.
#[derive(Debug, Clone, Copy)]
pub struct ThinkingDeadline(Instant);

impl ThinkingDeadline {
    /// Time is up `ms` milliseconds from now.
    pub fn after_ms(ms: u64) -> ThinkingDeadline {
        ThinkingDeadline::at(Instant::now() + Duration::from_millis(ms))
    }

    /// Time is up at `at`.
    pub fn at(at: Instant) -> ThinkingDeadline {
        ThinkingDeadline(at)
    }

    /// This deadline as the stopwatch an `AiBudget` carries.
    pub fn stopwatch(self) -> Arc<dyn Stopwatch> {
        Arc::new(self)
    }
}

impl Stopwatch for ThinkingDeadline {
    fn expired(&self) -> bool {
        Instant::now() >= self.0
    }
}
