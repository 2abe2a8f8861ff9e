//! A channel that reads like a game table (issue 17): one thread per game,
//! the lobby edited in place with its buttons disabled at the start, one
//! message per turn, silent AI seats, the players' names in reports, and the
//! fallback to the channel when the bot may not open threads. Through the
//! real bot against the fake Discord.
//!
//! With `GAMEHOST_TRANSCRIPT` naming a file, the card game's channel and
//! thread are written there as docs/running.md shows them.

mod support;

use serde_json::json;
use support::commands::{command, game_id, opt};
use support::fake_discord::{Msg, State};
use support::setup::{add_ai, play_to_the_end, start};
use support::*;

const CH: u64 = 3_000_000_000_000_101;

/// The messages a game posted: in its channel (not replies to commands)
/// and in the thread opened from its lobby, oldest first.
fn game_messages(s: &State, ch: u64, thread: Option<u64>) -> Vec<Msg> {
    s.messages
        .iter()
        .filter(|m| !m.ephemeral && !m.from_interaction)
        .filter(|m| m.channel_id == ch || Some(m.channel_id) == thread)
        .cloned()
        .collect()
}

/// Creates a cards game by `/game new` as Alice in `ch`, seats an AI and
/// starts it; returns the game id.
async fn cards_against_ai(h: &Harness, ch: u64, seed: i64) -> i64 {
    let reply = command(
        &h.fake,
        ALICE,
        ch,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("cards")),
            opt("options", 3, json!("{\"n\": 4, \"m\": 4}")),
            opt("seed", 4, json!(seed)),
        ]),
    )
    .await;
    let id = game_id(&reply);
    add_ai(h, ch, None).await;
    let started = start(h, ch).await;
    assert!(started.contains(&format!("cards #{id}")), "{started}");
    id
}

/// Waits for the thread opened from the lobby of game `id`, and for the
/// game to have moved there.
async fn thread_of(h: &Harness, id: i64) -> support::fake_discord::Thread {
    let needle = format!("created cards #{id}.");
    let thread = h
        .fake
        .wait_for("the game's thread", move |s| {
            s.thread_from(&needle).cloned()
        })
        .await;
    h.delivered().await;
    assert_eq!(h.host().game(id).unwrap().channel_id, thread.id.to_string());
    thread
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_game_plays_in_its_thread_with_one_message_a_turn() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let id = cards_against_ai(&h, CH, 7).await;
    let thread = thread_of(&h, id).await;
    assert_eq!(thread.parent_id, CH);
    assert!(
        thread
            .name
            .starts_with(&format!("cards #{id}: Alice vs AI")),
        "{}",
        thread.name
    );
    let last = play_to_the_end(&h, thread.id).await;
    h.delivered().await;
    // The final message has the score with the players' names.
    let text = last.text();
    assert!(text.contains("Game over"), "{text}");
    assert!(
        text.contains("Alice") && !text.contains("Player 1"),
        "{text}"
    );
    let turns = h.host().game(id).unwrap().turn as usize;
    {
        let s = h.fake.state();
        let msgs = game_messages(&s, CH, Some(thread.id));
        // Lobby, start, one message per turn, the end: at most N + 3.
        assert!(
            msgs.len() <= turns + 3,
            "{} messages for {turns} turns:\n{}",
            msgs.len(),
            s.dump()
        );
        // The lobby stayed one message, edited in place, its buttons disabled.
        let lobby: Vec<&Msg> = msgs
            .iter()
            .filter(|m| m.text().contains("created cards"))
            .collect();
        assert_eq!(lobby.len(), 1, "{}", s.dump());
        assert_eq!(lobby[0].id, thread.id);
        assert!(
            s.edits.get(&lobby[0].id).copied().unwrap_or(0) >= 2,
            "{:?}",
            s.edits
        );
        assert!(
            lobby[0].buttons_disabled(),
            "{:?}",
            lobby[0].json["components"]
        );
        assert!(
            lobby[0].text().contains("It has started"),
            "{}",
            lobby[0].text()
        );
        // Everything after the lobby is in the thread; the AI never posts.
        assert!(msgs[1..].iter().all(|m| m.channel_id == thread.id));
        assert!(msgs.iter().all(|m| !m.text().contains("has moved")));
        assert!(
            msgs.iter().all(|m| !m.text().contains("Player 1")),
            "{}",
            s.dump()
        );
        // No separate prompt was posted: the turn's message carries it.
        assert!(
            msgs.iter()
                .all(|m| !m.content().starts_with(&format!("<@{ALICE}>"))),
            "{}",
            s.dump()
        );
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
        if let Ok(path) = std::env::var("GAMEHOST_TRANSCRIPT") {
            let mut out = format!("#{} (channel)\n", CH);
            for m in &msgs {
                if m.channel_id == thread.id && !out.contains("thread") {
                    out.push_str(&format!("\n#{} (thread)\n", thread.name));
                }
                out.push_str(&format!("{}\n\n", m.text()));
            }
            std::fs::write(path, out).unwrap();
        }
    }
    // `/game status` typed in the thread finds the game.
    let status = command(&h.fake, ALICE, thread.id, &["game", "status"], json!([])).await;
    assert!(status.contains(&format!("cards #{id}")), "{status}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_run_in_one_channel_each_in_its_thread() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let first = cards_against_ai(&h, CH, 7).await;
    let t1 = thread_of(&h, first).await;
    // The channel is free again: a second game starts there.
    let second = cards_against_ai(&h, CH, 8).await;
    let t2 = thread_of(&h, second).await;
    assert_ne!(t1.id, t2.id);
    assert_eq!(t2.parent_id, CH);
    // Each thread's commands find its own game.
    let s1 = command(&h.fake, ALICE, t1.id, &["game", "status"], json!([])).await;
    let s2 = command(&h.fake, ALICE, t2.id, &["game", "status"], json!([])).await;
    assert!(s1.contains(&format!("cards #{first}")), "{s1}");
    assert!(s2.contains(&format!("cards #{second}")), "{s2}");
    // In the channel they were created in, `/game status` still finds the
    // newest, and a command that needs the channel's own game points to
    // both threads instead of saying there is no game.
    let parent = command(&h.fake, ALICE, CH, &["game", "status"], json!([])).await;
    assert!(parent.contains(&format!("cards #{second}")), "{parent}");
    assert!(
        parent.starts_with(&format!("Played in <#{}>.", t2.id)),
        "{parent}"
    );
    let refused = command(&h.fake, ALICE, CH, &["game", "forfeit"], json!([])).await;
    for (id, thread) in [(first, t1.id), (second, t2.id)] {
        assert!(
            refused.contains(&format!("cards #{id} in <#{thread}>")),
            "{refused}"
        );
    }
    assert!(
        refused.contains("type a game's commands in its thread"),
        "{refused}"
    );
    // Both are played to the end, each in its thread.
    play_to_the_end(&h, t1.id).await;
    play_to_the_end(&h, t2.id).await;
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_thread_permission_the_game_stays_in_the_channel_with_a_note() {
    let h = Harness::start().await;
    // The harness's bot lacks the permission (as by default in these tests).
    let id = cards_against_ai(&h, CH, 7).await;
    let note = support::messages::channel_msg(&h.fake, CH, "I may not open a thread here").await;
    assert!(
        note.text().contains("Create Public Threads"),
        "{}",
        note.text()
    );
    assert!(h.fake.state().threads.is_empty());
    assert!(
        h.fake
            .state()
            .requests
            .iter()
            .any(|r| r.contains("/threads -> 403")),
        "{:?}",
        h.fake.state().requests
    );
    let last = play_to_the_end(&h, CH).await;
    assert!(
        last.text().contains(&format!("cards #{id} is over")),
        "{}",
        last.text()
    );
    // The note is posted once per game.
    assert_eq!(
        support::messages::count_in_channel(&h.fake, CH, "I may not open a thread"),
        1
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_moving_edits_the_turns_status_and_battle_reports_name_players() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 1;
    let id = support::setup::lobby_with_bob(&h, ch, "battle", vec![opt("seed", 4, json!(3))]).await;
    start(&h, ch).await;
    let thread = h
        .fake
        .wait_for("the battle's thread", |s| s.threads.first().cloned())
        .await;
    assert_eq!(thread.name, format!("battle #{id}: Alice vs Bob"));
    // Alice picks first: the start message (turn 1) says Bob is awaited.
    let prompt = support::messages::dm_where(&h.fake, ALICE, "Alice's prompt", |m| {
        !m.buttons().is_empty() || !m.selects().is_empty()
    })
    .await;
    let t = match prompt.buttons().into_iter().next() {
        Some((_, b)) => h.fake.click(ALICE, prompt.id, &b),
        None => {
            let (sid, opts) = prompt.selects().into_iter().next().unwrap();
            h.fake.select(ALICE, prompt.id, &sid, &[opts[0].1.as_str()])
        }
    };
    assert!(h.fake.reply_text(&t).await.contains("Recorded"));
    let started = h
        .fake
        .wait_for("the start message's status line", move |s| {
            s.channel(thread.id)
                .into_iter()
                .find(|m| m.text().contains("waiting for Bob · 1 of 2 ready"))
                .cloned()
        })
        .await;
    assert!(
        started.text().contains(&format!("battle #{id} started")),
        "{}",
        started.text()
    );
    assert!(h.fake.state().edits.contains_key(&started.id));
    // Names, not seat labels, in the start message.
    assert!(!started.text().contains("Player 1"), "{}", started.text());
    // Bob picks too: the turn's report names whose monster did what.
    let prompt = support::messages::dm_where(&h.fake, BOB, "Bob's prompt", |m| {
        !m.buttons().is_empty() || !m.selects().is_empty()
    })
    .await;
    // Bob's own board names the players too.
    assert!(
        prompt.text().contains("Alice:")
            && prompt.text().contains("Bob:")
            && !prompt.text().contains("Player 1"),
        "{}",
        prompt.text()
    );
    let t = match prompt.buttons().into_iter().next() {
        Some((_, b)) => h.fake.click(BOB, prompt.id, &b),
        None => {
            let (sid, opts) = prompt.selects().into_iter().next().unwrap();
            h.fake.select(BOB, prompt.id, &sid, &[opts[0].1.as_str()])
        }
    };
    assert!(h.fake.reply_text(&t).await.contains("Recorded"));
    let turn = support::messages::channel_msg(&h.fake, thread.id, "Turn 2 of").await;
    // The resolved turn's message no longer says whom it waits for: it
    // reads as posted again (one edit added the line, one took it off).
    let start_id = started.id;
    let cleared = h
        .fake
        .wait_for("the start message without its status line", move |s| {
            s.messages
                .iter()
                .find(|m| m.id == start_id && !m.text().contains("waiting for"))
                .cloned()
        })
        .await;
    assert!(
        cleared.text().contains(&format!("battle #{id} started")),
        "{}",
        cleared.text()
    );
    assert_eq!(h.fake.state().edits.get(&start_id), Some(&2));
    let text = turn.text();
    assert!(
        text.contains("Alice's ") && text.contains("Bob's "),
        "{text}"
    );
    assert!(
        !text.contains("Player 1") && !text.contains("Player 2"),
        "{text}"
    );
    if let Ok(path) = std::env::var("GAMEHOST_TRANSCRIPT_BATTLE") {
        let s = h.fake.state();
        let out: Vec<String> = s.channel(thread.id).iter().map(|m| m.text()).collect();
        std::fs::write(path, out.join("\n\n")).unwrap();
    }
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_still_edited_in_place_after_a_restart() {
    let mut h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 2;
    let id = support::setup::new_game(&h, ch, "battle", vec![]).await;
    let lobby = support::messages::channel_msg(&h.fake, ch, "Alice created").await;
    h.delivered().await;
    h.restart().await;
    // Bob joins with the button of the lobby posted before the restart.
    let t = support::commands::press(&h.fake, BOB, &lobby, "Join");
    let reply = h.fake.reply_text(&t).await;
    assert_eq!(reply, format!("You sit in seat 2 of battle #{id}."));
    let lobby_id = lobby.id;
    let edited = h
        .fake
        .wait_for("the lobby edited with Bob", move |s| {
            s.message(lobby_id)
                .filter(|m| m.text().contains("2. Bob"))
                .cloned()
        })
        .await;
    assert!(
        edited.text().contains("Latest: Bob joined"),
        "{}",
        edited.text()
    );
    assert!(!edited.buttons_disabled());
    h.delivered().await;
    assert_eq!(
        support::messages::count_in_channel(&h.fake, ch, "Alice created"),
        1,
        "{}",
        h.fake.state().dump()
    );
    // Started: the same message, its buttons disabled; the thread is named
    // after the players.
    let started = start(&h, ch).await;
    assert_eq!(started, format!("battle #{id} has started."));
    let thread = h
        .fake
        .wait_for("the thread", |s| s.threads.first().cloned())
        .await;
    assert_eq!(thread.id, lobby_id);
    assert_eq!(thread.name, format!("battle #{id}: Alice vs Bob"));
    h.delivered().await;
    assert!(h.fake.state().message(lobby_id).unwrap().buttons_disabled());
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_opened_before_a_crash_is_found_again() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 3;
    let id = support::setup::lobby_with_bob(&h, ch, "battle", vec![]).await;
    let lobby = support::messages::channel_msg(&h.fake, ch, "Alice created").await;
    // Discord already has the thread (the bot died before noting it).
    h.fake.thread_already_opened(lobby.id, "earlier");
    start(&h, ch).await;
    support::messages::channel_msg(&h.fake, lobby.id, &format!("battle #{id} started")).await;
    h.delivered().await;
    assert!(
        h.fake
            .state()
            .requests
            .iter()
            .any(|r| r.contains("/threads -> 400")),
        "{:?}",
        h.fake.state().requests
    );
    // The game moved into that thread: no note, no second thread.
    assert_eq!(h.host().game(id).unwrap().channel_id, lobby.id.to_string());
    assert_eq!(h.fake.state().threads.len(), 1);
    assert_eq!(
        support::messages::count_in_channel(&h.fake, ch, "may not open"),
        0
    );
    h.finish().await;
}
