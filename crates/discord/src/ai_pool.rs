//! The AI pool: AI seats think in parallel on a bounded number of AI
//! threads (below the rest of the bot, see `ai_threads`), so one game's AI
//! never waits for another's, and each move is submitted to the host as
//! soon as it is decided.

use crate::Data;
use games::seam::Seat;
use host::{AiTask, GameId};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use tokio::task::JoinSet;

/// The longest the pool sleeps without asking the host for AI seats to
/// move (catches changes made by another process on the same database).
const MAX_SLEEP: Duration = Duration::from_secs(10);

/// How long an AI move that could not be submitted waits before it is tried
/// again (a busy database, a game changed meanwhile), so a failing move is
/// not recomputed in a tight loop.
const AI_RETRY_AFTER: Duration = Duration::from_secs(5);

/// One AI decision: a seat's move in one turn of one game.
type DecisionKey = (GameId, u32, Seat);

/// AI decisions that run at once: four per core, at least 16, at most 64.
/// Every AI level thinks against a wall-clock deadline (the AI budget), so
/// more decisions than cores make each search shallower while the machine
/// is busy but never make a prompt later than the budget; with one worker
/// per core, the twelfth of twelve games started together waited for five
/// decisions before its own. The cap keeps a flood of games from starting
/// unbounded threads: decisions beyond it wait for a free worker.
pub fn ai_workers() -> usize {
    std::thread::available_parallelism().map_or(16, |n| (n.get() * 4).clamp(16, 64))
}
/// Runs the AI pool until the bot stops: every AI seat that must act gets a
/// worker as soon as one is free, each decision once, and the pool is woken
/// whenever a game changes. Decisions in hand when the bot stops finish
/// (each is bounded by the AI budget) and are submitted.
pub async fn run(data: Data) {
    let workers = ai_workers();
    let mut running: JoinSet<(DecisionKey, bool)> = JoinSet::new();
    let mut in_flight: HashSet<DecisionKey> = HashSet::new();
    let mut retry_at: HashMap<DecisionKey, Instant> = HashMap::new();
    while !data.wake.stopping() {
        if running.len() < workers {
            match data.host(|h| h.ai_tasks()).await {
                Ok(tasks) => {
                    let now = Instant::now();
                    retry_at.retain(|_, at| *at > now);
                    for task in tasks {
                        if running.len() >= workers {
                            break;
                        }
                        let key = (task.game_id, task.turn, task.seat);
                        if retry_at.contains_key(&key) || !in_flight.insert(key) {
                            continue;
                        }
                        let data = data.clone();
                        running.spawn(async move { (key, decide_and_submit(&data, task).await) });
                    }
                }
                Err(e) => tracing::error!(error = %e, "listing the AI seats to move failed"),
            }
        }
        let next_retry = retry_at.values().min().copied();
        let retry_sleep = next_retry.map_or(MAX_SLEEP, |at| {
            at.saturating_duration_since(Instant::now()).min(MAX_SLEEP)
        });
        tokio::select! {
            Some(done) = running.join_next(), if !running.is_empty() => {
                if let Ok((key, submitted)) = done {
                    in_flight.remove(&key);
                    if submitted {
                        data.wake.outbox.notify_one();
                        data.wake.scheduler.notify_one();
                    } else {
                        retry_at.insert(key, Instant::now() + AI_RETRY_AFTER);
                    }
                }
            }
            _ = data.wake.ai.notified() => {}
            _ = tokio::time::sleep(retry_sleep) => {}
        }
    }
    while running.join_next().await.is_some() {}
}

/// Lets one AI seat think on a blocking worker and submits its move;
/// returns whether the move was taken (or was no longer wanted: the turn
/// moved on, so there is nothing to retry).
async fn decide_and_submit(data: &Data, task: AiTask) -> bool {
    let budget = data.settings.ai_budget_ms;
    let game_id = task.game_id;
    let asked = std::time::Instant::now();
    let thought = data
        .ai_threads
        .run(move || {
            let started = std::time::Instant::now();
            let action = task.think(budget);
            (task, action, started.elapsed())
        })
        .await;
    let (task, action) = match thought {
        Ok((task, action, took)) => {
            data.host.metrics().ai_decision(task.engine.kind(), took);
            // Beside the budget: a decision much longer than its thinking
            // time was starved of the CPU on its niced thread.
            tracing::debug!(
                game_id,
                turn = task.turn,
                ms = took.as_millis() as u64,
                answered_after_ms = asked.elapsed().as_millis() as u64,
                budget_ms = budget,
                "AI decided"
            );
            (task, action)
        }
        Err(e) => {
            tracing::error!(game_id, error = %e, "an AI decision failed");
            return false;
        }
    };
    match data.host(move |h| h.submit_ai(&task, action)).await {
        Ok(_) => true,
        Err(e) => {
            tracing::error!(game_id, error = %e, "AI move failed");
            false
        }
    }
}
