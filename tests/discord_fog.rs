//! One Fog of War phase through the real bot and the fake Discord (issue
//! 36): each power's DM prompt carries its own map and board, its results
//! DM holds only the orders it could see, and the game's thread gets the
//! public part only (no map of the units, no orders); the replay stays
//! closed, and its refusal is private.

mod support;

use serde_json::json;
use support::commands::{command, opt};
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

/// Issue 46: an aborted Fog of War game is over for every reader. Its
/// status, history and replay show the whole board and every order, as
/// after an ending by the rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_abort_status_history_and_replay_show_the_whole_board() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 1;
    lobby_with_bob(
        &h,
        ch,
        "diplomacy",
        vec![opt(
            "options",
            3,
            json!("variant=fog powers=\"austria,italy\""),
        )],
    )
    .await;
    start(&h, ch).await;
    let thread = thread_of(&h.fake, ch).await;
    dm_with(&h.fake, ALICE, "Your move").await;
    dm_with(&h.fake, BOB, "Your move").await;
    h.fake
        .dm(ALICE, "A Vie - Gal\nF Tri - Alb\nA Bud - Ser\ndone");
    h.fake
        .dm(BOB, "A Ven - Pie\nF Nap - Ion\nA Rom - Apu\ndone");
    dm_where(&h.fake, ALICE, "the Fall prompt", |m| {
        m.text().contains("Fall 1901") && m.file("my_orders.png").is_some()
    })
    .await;
    // While it runs, Alice's status hides Italy's army in Piedmont.
    let status = command(&h.fake, ALICE, thread, &["game", "status"], json!([])).await;
    assert!(status.contains("Fog of War"), "{status}");
    assert!(!status.contains("A Pie"), "{status}");
    // Alice created the game and aborts it.
    let aborted = command(&h.fake, ALICE, thread, &["game", "abort"], json!([])).await;
    assert!(aborted.contains("aborted"), "{aborted}");
    h.delivered().await;
    // Status: every unit of both powers, no fog line.
    let status = command(&h.fake, ALICE, thread, &["game", "status"], json!([])).await;
    for unit in ["A Gal", "F Alb", "A Ser", "A Pie", "F Ion", "A Apu"] {
        assert!(status.contains(unit), "{unit} not in the status:\n{status}");
    }
    assert!(!status.contains("you see"), "{status}");
    // History: every order of the phase, Italy's included, for Alice.
    let history = command(&h.fake, ALICE, thread, &["game", "history"], json!([])).await;
    for order in ["A Vie - Gal", "A Ven - Pie", "F Nap - Ion", "A Rom - Apu"] {
        assert!(
            history.contains(order),
            "{order} not in the history:\n{history}"
        );
    }
    // Replay: it opens, with a frame per position.
    let t = h.fake.slash(ALICE, thread, &["game", "replay"], json!([]));
    let tok = t.clone();
    let answer = h
        .fake
        .wait_for("the replay reply", move |s| {
            s.messages
                .iter()
                .find(|m| {
                    m.token.as_deref() == Some(tok.as_str())
                        && (m.files.iter().any(|f| f.filename.ends_with(".gif"))
                            || m.text().contains("Fog of War"))
                })
                .cloned()
        })
        .await;
    assert!(
        answer
            .files
            .iter()
            .any(|f| f.filename.ends_with("-replay.gif")),
        "the replay opens after the abort: {}",
        answer.text()
    );
    h.finish().await;
}
