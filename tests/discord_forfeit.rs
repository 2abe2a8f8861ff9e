//! A Diplomacy forfeit through the real bot against the fake Discord: when
//! the player who leaves was the last one the phase waited for, the phase
//! resolves at once instead of freezing until a deadline that never comes.

mod support;

use serde_json::json;
use support::commands::command;
use support::messages::{channel_msg, dm_after, dm_with};
use support::setup::{add_ai, lobby_with_bob, start};
use support::*;

const CH: u64 = 3_000_000_000_000_101;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forfeit_by_the_last_power_awaited_resolves_the_phase() {
    let h = Harness::start().await;
    let ch = CH;
    // No deadline: only a resolution on the forfeit can move the game on.
    lobby_with_bob(&h, ch, "diplomacy", vec![]).await;
    for _ in 0..5 {
        add_ai(&h, ch, Some("hold")).await;
    }
    start(&h, ch).await;
    channel_msg(&h.fake, ch, "started").await;
    // Bob (England) is done; the five AIs hold at once; only Alice
    // (Austria) is left.
    let prompt = dm_with(&h.fake, BOB, "Your move").await;
    h.fake.dm(BOB, "done");
    let receipt = dm_after(&h.fake, BOB, prompt.id, "Bob's receipt").await;
    assert!(receipt.text().starts_with("Recorded"), "{}", receipt.text());
    channel_msg(&h.fake, ch, "· 6 of 7 ready").await;
    let reply = command(&h.fake, ALICE, ch, &["game", "forfeit"], json!([])).await;
    assert!(!reply.to_lowercase().contains("bug"), "{reply}");
    channel_msg(&h.fake, ch, "Austria has left the game").await;
    // Spring 1901 resolves without anyone else acting; Fall 1901 waits for
    // Bob and the AIs, not for Austria.
    let fall = channel_msg(&h.fake, ch, "Fall 1901").await;
    dm_where_fall(&h).await;
    assert!(
        !fall.text().contains("waiting for Austria"),
        "{}",
        fall.text()
    );
    h.finish().await;
}

/// Bob is prompted for Fall 1901.
async fn dm_where_fall(h: &Harness) {
    support::messages::dm_where(&h.fake, BOB, "Bob's Fall 1901 prompt", |m| {
        m.text().contains("Your move") && m.text().contains("Fall 1901")
    })
    .await;
}
