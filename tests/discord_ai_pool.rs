//! AI seats think in parallel on the bot's worker pool: one game's AI never
//! waits for another's, and deadlines fire while AIs are still thinking.
//! The `gated` AI of the test engine holds its decision at a gate the test
//! opens, so "at the same time" is observed, not timed.

mod support;

use serde_json::json;
use std::time::Duration;
use support::commands::opt;
use support::messages::channel_msg;
use support::rps::gate;
use support::setup::{add_ai, lobby_with_bob, new_game, start};
use support::{ALICE, Harness};

const CH: u64 = 2_000_000_000_000_301;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_seats_of_different_games_think_at_once_and_deadlines_do_not_wait_for_them() {
    let h = Harness::start().await;
    assert!(discord::ai_workers() >= 2);
    // Two games against the gated AI: both AIs must act in round 1.
    let (ch1, ch2, ch3) = (CH, CH + 1, CH + 2);
    let mut ids = Vec::new();
    for ch in [ch1, ch2] {
        ids.push(new_game(&h, ch, "rps", vec![]).await);
        add_ai(&h, ch, Some("gated")).await;
        start(&h, ch).await;
    }
    let at_once =
        tokio::task::spawn_blocking(|| gate::wait_for_thinking(2, Duration::from_secs(20)))
            .await
            .unwrap();
    assert_eq!(
        at_once, 2,
        "the two games' AIs did not think at the same time"
    );

    // A third game, between people, with a deadline: it passes and is
    // played by the default action while both AIs are still thinking.
    lobby_with_bob(&h, ch3, "rps", vec![opt("deadline", 3, json!("30s"))]).await;
    start(&h, ch3).await;
    h.advance(30_000);
    channel_msg(&h.fake, ch3, "Round 1: rock vs rock").await;
    assert_eq!(gate::thinking(), 2, "the deadline waited for the AIs");

    // Open the gate: both AIs move (rock), and Alice's paper ends each round.
    gate::open();
    for (ch, id) in [ch1, ch2].into_iter().zip(ids) {
        h.fake.dm(ALICE, &format!("#{id} paper"));
        channel_msg(&h.fake, ch, "Round 1: paper vs rock").await;
    }
    h.finish().await;
}
