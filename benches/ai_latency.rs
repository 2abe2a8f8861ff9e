//! AI latency under load: the real `gamehost run` binary against the fake
//! Discord, with many battles against the AI at once (one person each).
//!
//! Each person presses their prompt's first button as soon as it arrives;
//! the figure is the time from that press to the next prompt of the same
//! game (the AI had the whole turn to think, so the wait is the part of its
//! budget it still needed, plus resolution and delivery). `cargo bench
//! --bench ai_latency` prints p50 / p95 / max with the budget; the goal is
//! p95 within the AI budget plus 200 ms. Settings: `AI_LATENCY_GAMES` (12),
//! `AI_LATENCY_TURNS` (6 moves a game at most), `AI_LATENCY_BUDGET_MS`
//! (1000, the configured default).

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::commands::{command, opt};
use support::fake_discord::{FakeDiscord, Msg, TOKEN};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The first person's id; person `i` is `PEOPLE + i`, in channel `CHANNELS + i`.
const PEOPLE: u64 = 1_100_000_000_000_001;
const CHANNELS: u64 = 2_700_000_000_000_001;

/// What came after a press: the next prompt, or the end of the game.
enum Next {
    Prompt(Msg),
    Ended,
}

/// Waits for the next DM prompt to `user` after message `after`, or the DM
/// that says the game has ended. Polls every 5 ms (the fake's own waits give
/// up after 20 s, which a queue of AI decisions can exceed), for at most
/// two minutes.
async fn next_of(fake: &FakeDiscord, user: u64, after: u64) -> Next {
    let give_up = Instant::now() + Duration::from_secs(120);
    loop {
        let found = fake
            .state()
            .dms(user)
            .into_iter()
            .filter(|m| m.id > after)
            .find_map(|m| {
                if m.content().contains("has ended") {
                    Some(Next::Ended)
                } else if !m.buttons().is_empty() || !m.selects().is_empty() {
                    Some(Next::Prompt(m.clone()))
                } else {
                    None
                }
            });
        if let Some(next) = found {
            return next;
        }
        assert!(
            Instant::now() < give_up,
            "no prompt for two minutes\n{}",
            fake.state().dump()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Plays one battle against the AI in channel `ch` as `user`; returns the
/// waits from each press to the next prompt.
async fn play(fake: Arc<FakeDiscord>, user: u64, ch: u64, seed: u64, turns: u64) -> Vec<Duration> {
    let new = [opt("kind", 3, json!("battle")), opt("seed", 4, json!(seed))];
    let reply = command(&fake, user, ch, &["game", "new"], json!(new)).await;
    assert!(reply.contains("Created battle"), "{reply}");
    let reply = command(&fake, user, ch, &["game", "ai"], json!([])).await;
    assert!(reply.contains("AI"), "{reply}");
    command(&fake, user, ch, &["game", "start"], json!([])).await;
    let mut waits = Vec::new();
    let mut prompt = match next_of(&fake, user, 0).await {
        Next::Prompt(p) => p,
        Next::Ended => return waits,
    };
    for _ in 0..turns {
        // A move is a button; sending in a replacement is a select menu.
        let pressed = Instant::now();
        match prompt.buttons().first() {
            Some((_, id)) => {
                fake.click(user, prompt.id, id);
            }
            None => {
                let (id, choices) = prompt.selects()[0].clone();
                fake.select(user, prompt.id, &id, &[choices[0].1.as_str()]);
            }
        }
        match next_of(&fake, user, prompt.id).await {
            Next::Prompt(p) => {
                waits.push(pressed.elapsed());
                prompt = p;
            }
            Next::Ended => break,
        }
    }
    waits
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test
    // --all-targets`) this is a quick smoke run.
    let full = std::env::args().any(|a| a == "--bench");
    let games = env_or("AI_LATENCY_GAMES", if full { 12 } else { 2 });
    let turns = env_or("AI_LATENCY_TURNS", if full { 6 } else { 1 });
    let budget = env_or("AI_LATENCY_BUDGET_MS", if full { 1000 } else { 50 });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let fake = Arc::new(FakeDiscord::start().await);
        for i in 0..games {
            fake.user(PEOPLE + i, &format!("Player{i}"));
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("latency.db");
        let budget_text = budget.to_string();
        let bin = support::process::spawn_with(
            dir.path(),
            &db,
            TOKEN,
            &fake.base_url,
            &[("GAMEHOST_AI_BUDGET_MS", budget_text.as_str())],
            &[],
        );
        fake.wait_ready(1).await;
        fake.wait_commands().await;
        let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let started = Instant::now();
        let mut players = tokio::task::JoinSet::new();
        for i in 0..games {
            players.spawn(play(fake.clone(), PEOPLE + i, CHANNELS + i, 100 + i, turns));
        }
        let mut waits: Vec<Duration> = Vec::new();
        while let Some(w) = players.join_next().await {
            waits.extend(w.expect("a player task"));
        }
        let took = started.elapsed();
        waits.sort();
        bin.signal("INT");
        let _ = bin.exit().await;
        if waits.is_empty() {
            println!("ai_latency: no turn was played");
            return;
        }
        let (p50, p95, max) = (
            percentile(&waits, 0.5),
            percentile(&waits, 0.95),
            waits[waits.len() - 1],
        );
        let goal = Duration::from_millis(budget + 200);
        println!(
            "ai_latency: {games} battles against the AI at once, budget {budget} ms, {} moves in {:.1} s",
            waits.len(),
            took.as_secs_f64()
        );
        println!(
            "  press -> next prompt: p50 {} ms, p95 {} ms, max {} ms (goal: p95 <= {} ms: {})",
            p50.as_millis(),
            p95.as_millis(),
            max.as_millis(),
            goal.as_millis(),
            if p95 <= goal { "met" } else { "NOT met" }
        );
        println!("  load average before: {}", load_before.trim());
    });
}
