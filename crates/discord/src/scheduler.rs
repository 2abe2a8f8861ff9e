//! The deadline and AI loop: sleeps until the host's next deadline or
//! reminder (or until woken by a change), fires what is due, and lets AI
//! seats think off the async workers.

use super::Data;
use std::time::Duration;

/// The longest the loop sleeps without looking (catches changes made by
/// another process on the same database).
const MAX_SLEEP: Duration = Duration::from_secs(30);
/// AI moves made before the loop looks at deadlines again.
const AI_BATCH: usize = 64;

/// Runs until the bot stops (seen between two steps, so a deadline being
/// fired is finished first).
pub async fn run(data: Data) {
    while !data.wake.stopping() {
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

/// Fires due deadlines and runs one batch of AI moves; returns how much happened.
async fn step(data: &Data) -> Result<usize, super::BotError> {
    let fired = data.host(|h| h.fire_due_deadlines()).await?;
    for e in &fired {
        tracing::info!(event = ?e, "deadline");
    }
    let mut made = 0;
    let tasks = data.host(|h| h.ai_tasks()).await?;
    for task in tasks.into_iter().take(AI_BATCH) {
        if data.wake.stopping() {
            break;
        }
        let budget = data.settings.ai_budget_ms;
        let (task, action) = tokio::task::spawn_blocking(move || {
            let a = task.think(budget);
            (task, a)
        })
        .await
        .map_err(|e| super::BotError::Internal(format!("AI task failed: {e}")))?;
        let game_id = task.game_id;
        let r = data.host(move |h| h.submit_ai(&task, action)).await;
        match r {
            Ok(Some(_)) => made += 1,
            Ok(None) => {}
            Err(e) => tracing::error!(game_id, error = %e, "AI move failed"),
        }
    }
    Ok(fired.len() + made)
}
