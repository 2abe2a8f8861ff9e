//! The bot's own pace for Discord's global rate limit (50 requests a
//! second per bot, interaction replies aside).
//!
//! serenity's rate limiter learns of the global limit only from a 429, and
//! requests already past its check when the 429 arrives still go out: with
//! a hundred games starting at once the bot met 198 global 429s in 40 s and
//! sent 8 requests before their `retry_after` was over. Every REST request
//! the bot starts on its own (deliveries, edits, threads, DM channels)
//! first takes a token here, so the bot stays under the limit instead of
//! learning it. Interaction replies do not count against the global limit
//! and do not wait.

use std::time::Duration;
use tokio::sync::Mutex;
use tokio::time::Instant;

/// Requests a second the bot allows itself: with [`BURST`], at most 45 in
/// any second, under Discord's 50 whichever way its windows fall.
const PER_SECOND: f64 = 40.0;

/// Requests that may go at once after a quiet spell.
const BURST: f64 = 5.0;

/// A token bucket shared by every task that sends to Discord.
pub struct GlobalRate {
    bucket: Mutex<Bucket>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Default for GlobalRate {
    fn default() -> Self {
        GlobalRate {
            bucket: Mutex::new(Bucket {
                tokens: BURST,
                at: Instant::now(),
            }),
        }
    }
}

impl GlobalRate {
    /// Waits until one more request fits in the global limit. Waiters go
    /// in the order they came (the lock is fair and held while waiting).
    pub async fn wait(&self) {
        let mut bucket = self.bucket.lock().await;
        loop {
            let now = Instant::now();
            let earned = now.saturating_duration_since(bucket.at).as_secs_f64() * PER_SECOND;
            bucket.tokens = (bucket.tokens + earned).min(BURST);
            bucket.at = now;
            if bucket.tokens >= 1.0 {
                bucket.tokens -= 1.0;
                return;
            }
            let short = (1.0 - bucket.tokens) / PER_SECOND;
            tokio::time::sleep(Duration::from_secs_f64(short)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn no_second_holds_more_than_45_requests() {
        let rate = GlobalRate::default();
        let start = Instant::now();
        let mut sent = Vec::new();
        for _ in 0..200 {
            rate.wait().await;
            sent.push(start.elapsed());
        }
        // Every window of one second, wherever it starts.
        for (i, first) in sent.iter().enumerate() {
            let within = sent[i..]
                .iter()
                .take_while(|t| **t < *first + Duration::from_secs(1))
                .count();
            assert!(
                within <= 45,
                "{within} requests in the second after {first:?}"
            );
        }
        // And it is not slower than it needs to be: 200 requests in about
        // (200 - 5) / 40 s.
        let took = sent.last().unwrap().as_secs_f64();
        assert!((4.8..5.0).contains(&took), "{took}");
    }
}
