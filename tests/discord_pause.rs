//! Pauses and absences through the real bot against the fake Discord: who
//! may pause, what the channel reads, a deadline that does not fire while
//! paused, and a declared absence shown in the status.

mod support;

use serde_json::json;
use support::commands::{command, opt};
use support::messages::{channel_msg, count_in_channel};
use support::setup::{lobby_with_bob, start};
use support::*;

const CH: u64 = 7_100_000_000_000_001;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_pause_resume_and_declare_an_absence_through_the_bot() {
    let h = Harness::start().await;
    lobby_with_bob(&h, CH, "rps", vec![opt("deadline", 3, json!("1h"))]).await;
    start(&h, CH).await;
    channel_msg(&h.fake, CH, "started").await;

    let reply = command(&h.fake, CAROL, CH, &["game", "pause"], json!([])).await;
    assert!(reply.contains("Only the players"), "{reply}");
    let reply = command(&h.fake, ALICE, CH, &["game", "pause"], json!([])).await;
    assert!(reply.contains("It pauses when Bob asks too"), "{reply}");
    channel_msg(&h.fake, CH, "Alice asks to pause").await;
    let reply = command(&h.fake, BOB, CH, &["game", "pause"], json!([])).await;
    assert!(reply.contains("is paused"), "{reply}");
    channel_msg(&h.fake, CH, "is paused at the request of every player").await;
    let status = command(&h.fake, ALICE, CH, &["game", "status"], json!([])).await;
    assert!(
        status.contains("Paused since") && status.contains("resumes with 1 h left"),
        "{status}"
    );
    assert!(!status.contains("Deadline:"), "{status}");

    // Hours past the deadline: nothing times out while paused.
    h.advance(3 * 3_600_000);
    h.delivered().await;
    assert_eq!(count_in_channel(&h.fake, CH, "Time is up"), 0);

    let reply = command(&h.fake, BOB, CH, &["game", "resume"], json!([])).await;
    assert!(reply.contains("runs again; the deadline is <t:"), "{reply}");
    channel_msg(&h.fake, CH, "Bob resumed").await;

    let days = json!([opt("days", 4, json!(2))]);
    let reply = command(&h.fake, BOB, CH, &["game", "away"], days).await;
    assert!(
        reply.contains("You are away from") && reply.contains("<t:"),
        "{reply}"
    );
    channel_msg(&h.fake, CH, "Bob is away from").await;
    let status = command(&h.fake, ALICE, CH, &["game", "status"], json!([])).await;
    assert!(status.contains("Bob is away until <t:"), "{status}");
    // The deadline waits for Bob, who has not moved.
    command(
        &h.fake,
        ALICE,
        CH,
        &["move"],
        json!([opt("text", 3, json!("rock"))]),
    )
    .await;
    h.advance(3_600_000 + 1_000);
    channel_msg(&h.fake, CH, "waits for Bob").await;
    h.finish().await;
}
