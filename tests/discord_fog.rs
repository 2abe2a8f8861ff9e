//! One Fog of War phase through the real bot and the fake Discord (issue
//! 36): each power's DM prompt carries its own map and board, its results
//! DM holds only the orders it could see, and the game's thread gets the
//! public part only (no map of the units, no orders); the replay stays
//! closed, and its refusal is private.

mod support;

use serde_json::json;
use support::commands::opt;
use support::messages::{dm_where, dm_with};
use support::setup::{lobby_with_bob, start, thread_of};
use support::*;

const CH: u64 = 3_600_000_000_000_001;

/// Every message of `ch` as one text, with the names of its files.
fn channel_text(h: &Harness, ch: u64) -> String {
    h.fake
        .state()
        .channel(ch)
        .iter()
        .map(|m| {
            let files: Vec<&str> = m.files.iter().map(|f| f.filename.as_str()).collect();
            format!("{}\n[files: {}]\n", m.text(), files.join(", "))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fogged_phase_tells_each_power_what_it_saw_and_the_thread_only_what_all_know() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    // Alice plays Austria, Bob Italy, under Fog of War.
    lobby_with_bob(
        &h,
        CH,
        "diplomacy",
        vec![opt(
            "options",
            3,
            json!("variant=fog powers=\"austria,italy\""),
        )],
    )
    .await;
    start(&h, CH).await;
    let thread = thread_of(&h.fake, CH).await;
    let alice = dm_with(&h.fake, ALICE, "Your move").await;
    let bob = dm_with(&h.fake, BOB, "Your move").await;
    // Each prompt shows the power's units and those next to them (Venice
    // and Trieste border each other), nobody else's.
    let (a, b) = (alice.text(), bob.text());
    assert!(a.contains("A Vie") && a.contains("A Ven"), "{a}");
    assert!(!a.contains("A Rom") && !a.contains("F Nap"), "{a}");
    assert!(b.contains("A Ven") && b.contains("F Tri"), "{b}");
    assert!(!b.contains("A Vie") && !b.contains("A Bud"), "{b}");
    let (a_map, b_map) = (
        alice.file("my_orders.png").expect("Alice's map"),
        bob.file("my_orders.png").expect("Bob's map"),
    );
    assert_ne!(a_map.data, b_map.data, "each power has its own map");
    h.fake
        .dm(ALICE, "A Vie - Tyr\nF Tri - Alb\nA Bud - Ser\ndone");
    h.fake
        .dm(BOB, "A Ven - Tyr\nF Nap - Ion\nA Rom - Apu\ndone");
    // Alice saw Italy's move into Tyrolia, nothing else of Italy's.
    let seen = dm_where(&h.fake, ALICE, "Austria's results", |m| {
        m.text().contains("what Austria saw")
    })
    .await;
    let text = seen.text();
    for order in ["A Vie - Tyr", "F Tri - Alb", "A Bud - Ser", "A Ven - Tyr"] {
        assert!(text.contains(order), "{order} not in {text}");
    }
    assert!(!text.contains("F Nap") && !text.contains("A Rom"), "{text}");
    // Bob saw Austria's orders next to Italy, not Budapest's.
    let seen = dm_where(&h.fake, BOB, "Italy's results", |m| {
        m.text().contains("what Italy saw")
    })
    .await;
    let text = seen.text();
    for order in ["A Ven - Tyr", "F Nap - Ion", "A Vie - Tyr", "F Tri - Alb"] {
        assert!(text.contains(order), "{order} not in {text}");
    }
    assert!(!text.contains("A Bud"), "{text}");
    // The next phase's prompt: Alice still sees Venice, not Apulia.
    let next = dm_where(&h.fake, ALICE, "the Fall prompt", |m| {
        m.text().contains("Fall 1901") && m.file("my_orders.png").is_some()
    })
    .await;
    assert!(next.text().contains("A Ven"), "{}", next.text());
    assert!(!next.text().contains("A Apu"), "{}", next.text());
    h.delivered().await;
    // The thread: the phase and the centre counts, no unit, no order, no map.
    let posted = channel_text(&h, thread) + &channel_text(&h, CH);
    assert!(posted.contains("Spring 1901 movement"), "{posted}");
    assert!(posted.contains("Fall 1901 movement"), "{posted}");
    for secret in [
        "A Vie",
        "F Tri",
        "A Bud",
        "A Ven",
        "F Nap",
        "A Rom",
        "Tyr",
        "Alb",
        "Apu",
        "Ion",
        "map.png",
        "orders.png",
    ] {
        assert!(
            !posted.contains(secret),
            "{secret} in the thread:\n{posted}"
        );
    }
    // The replay stays closed while the fog is on, and the refusal is
    // Bob's alone: an ephemeral reply, nothing posted in the thread.
    let before = h.fake.state().channel(thread).len();
    let t = h.fake.slash(BOB, thread, &["game", "replay"], json!([]));
    let replies = h.fake.replies(&t).await;
    assert_eq!(replies.len(), 1, "one answer: {replies:?}");
    assert!(replies[0].ephemeral, "the refusal is private");
    let text = replies[0].text();
    assert!(text.contains("Fog of War"), "{text}");
    h.delivered().await;
    assert_eq!(
        h.fake.state().channel(thread).len(),
        before,
        "nothing public in the thread"
    );
    h.finish().await;
}
