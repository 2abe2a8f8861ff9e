//! The deadline loop, which moves games on without a player: it sleeps
//! until the host's next deadline or reminder (or until woken by a change)
//! and fires what is due, keeps this process's heartbeat in the database,
//! and deletes delivered announcements older than a week. AI seats think
//! elsewhere (`ai_pool`), so a deadline never waits for any AI.

use crate::Data;
use std::time::{Duration, Instant};

/// The longest the loop sleeps without looking (catches changes made by
/// another process on the same database); within the heartbeat interval
/// (`host::HEARTBEAT_EVERY_MS`, 10 s) so the heartbeat is never late.
const MAX_SLEEP: Duration = Duration::from_secs(10);

/// How often delivered announcements older than a week are deleted (and
/// once at start).
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Runs until the bot stops (seen between two steps, so a deadline being
/// fired is finished first).
pub async fn run(data: Data) {
    let mut pruned_at: Option<Instant> = None;
    let mut heartbeat_at: Option<Instant> = None;
    let heartbeat_every = Duration::from_millis(host::HEARTBEAT_EVERY_MS as u64);
    while !data.wake.stopping() {
        // Other processes on the database see this one alive (start-up of
        // another version is refused meanwhile).
        if heartbeat_at.is_none_or(|at| at.elapsed() >= heartbeat_every) {
            heartbeat_at = Some(Instant::now());
            if let Err(e) = data.host(|h| h.heartbeat()).await {
                tracing::error!(error = %e, "heartbeat failed");
            }
        }
        if pruned_at.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
            pruned_at = Some(Instant::now());
            match data.host(|h| h.prune_delivered()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(
                    rows = n,
                    "deleted delivered announcements older than a week"
                ),
                Err(e) => tracing::error!(error = %e, "pruning the outbox failed"),
            }
        }
        let worked = match step(&data).await {
            Ok(n) => n > 0,
            Err(e) => {
                tracing::error!(error = %e, "scheduler step failed");
                false
            }
        };
        if worked {
            data.wake.outbox.notify_one();
            continue;
        }
        let next = {
            let host = data.host.clone();
            tokio::task::spawn_blocking(move || host.next_wakeup())
                .await
                .ok()
                .and_then(Result::ok)
                .flatten()
        };
        let sleep = match next {
            Some(at) => {
                Duration::from_millis((at - data.clock.now_ms()).max(0) as u64).min(MAX_SLEEP)
            }
            None => MAX_SLEEP,
        };
        if sleep.is_zero() {
            // Due now, but nothing fired (e.g. a stale row): do not spin.
            tokio::select! {
                _ = data.wake.scheduler.notified() => {}
                _ = tokio::time::sleep(Duration::from_millis(200)) => {}
            }
            continue;
        }
        tokio::select! {
            _ = data.wake.scheduler.notified() => {}
            _ = tokio::time::sleep(sleep) => {}
        }
    }
}

/// Fires due deadlines; returns how many fired.
async fn step(data: &Data) -> Result<usize, crate::BotError> {
    let fired = data.host(|h| h.fire_due_deadlines()).await?;
    for e in &fired {
        tracing::info!(event = ?e, "deadline");
    }
    if !fired.is_empty() {
        // A deadline may hand a seat to the AI or start a turn with AI seats.
        data.wake.ai.notify_one();
    }
    Ok(fired.len())
}
