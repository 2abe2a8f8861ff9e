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
use std::collections::HashSet;
use support::commands::{command, game_id, opt, press};
use support::fake_discord::{FakeDiscord, Msg, State};
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

/// How many messages the bot created in `ch` and `thread` (not replies to
/// commands), counted from its requests: a message deleted since counts.
fn created(s: &State, ch: u64, thread: Option<u64>) -> usize {
    let posts_to = |c: u64| format!("POST /api/v10/channels/{c}/messages -> 200");
    s.requests
        .iter()
        .filter(|r| **r == posts_to(ch) || thread.is_some_and(|t| **r == posts_to(t)))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_game_against_the_ai_is_one_living_board_in_its_thread() {
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
    assert!(turns >= 6, "{turns} turns");
    {
        let s = h.fake.state();
        let msgs = game_messages(&s, CH, Some(thread.id));
        // The lobby, the living board, the result: a whole game of many
        // turns in at most four messages.
        let n = created(&s, CH, Some(thread.id));
        assert!(n <= 4, "{n} messages for {turns} turns:\n{}", s.dump());
        assert_eq!(msgs.len(), n, "{}", s.dump());
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
        // The board: edited every turn, it reads as the record of the game
        // now (no prompt, no buttons), with the last moves listed once
        // (no "Last:" line repeating them) and each stacked card's owner
        // by name.
        let board = msgs
            .iter()
            .find(|m| m.text().contains(&format!("cards #{id} started")))
            .unwrap_or_else(|| panic!("no board\n{}", s.dump()));
        let b = board.text();
        assert!(
            s.edits.get(&board.id).copied().unwrap_or(0) >= turns,
            "{:?}",
            s.edits
        );
        assert!(b.contains("Last moves:"), "{b}");
        assert!(!b.contains("\nLast: "), "{b}");
        assert!(
            !b.contains("your move") && board.buttons().is_empty(),
            "{b}"
        );
        assert!(!b.contains("P1:") && !b.contains("P2:"), "{b}");
        assert!(b.contains("passes too: the game is over."), "{b}");
        // The result is posted once: the board does not repeat the score.
        let results: Vec<&Msg> = msgs
            .iter()
            .filter(|m| m.text().contains("Game over"))
            .collect();
        assert_eq!(results.len(), 1, "{}", s.dump());
        assert_eq!(results[0].id, last.id);
        println!(
            "The final board as a player reads it:\n{b}\n\nThe result:\n{}",
            last.text()
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
    // `/game status` typed in the thread finds the game, with names.
    let status = command(&h.fake, ALICE, thread.id, &["game", "status"], json!([])).await;
    assert!(status.contains(&format!("cards #{id}")), "{status}");
    assert!(!status.contains("Player 1"), "{status}");
    // From the channel it started in, `/game history` and `/game watch`
    // say where it was played.
    let history = command(&h.fake, BOB, CH, &["game", "history"], json!([])).await;
    assert!(
        history.starts_with(&format!("Played in <#{}>.", thread.id)),
        "{history}"
    );
    assert!(!history.contains("Player 1"), "{history}");
    let watch = command(&h.fake, BOB, CH, &["game", "watch"], json!([])).await;
    assert!(
        watch.starts_with(&format!("Played in <#{}>.", thread.id)),
        "{watch}"
    );
    assert!(watch.contains(&format!("cards #{id}")), "{watch}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_game_against_the_ai_is_one_living_board_with_its_image() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 7;
    let id = support::setup::against_ai(&h, ch, "puzzle", vec![opt("seed", 4, json!(11))]).await;
    let thread = support::setup::thread_of(&h.fake, ch).await;
    let board =
        support::messages::channel_msg(&h.fake, thread, &format!("puzzle #{id} started")).await;
    let first_image = board
        .file("board.png")
        .expect("the board image")
        .data
        .clone();
    let last = play_to_the_end(&h, thread).await;
    h.delivered().await;
    assert!(
        last.text().contains(&format!("puzzle #{id} is over")),
        "{}",
        last.text()
    );
    let turns = h.host().game(id).unwrap().turn as usize;
    {
        let s = h.fake.state();
        let n = created(&s, ch, Some(thread));
        assert!(n <= 4, "{n} messages for {turns} turns:\n{}", s.dump());
        // The board was edited in place, its image replaced by the position now.
        let now = s.message(board.id).expect("the board");
        assert!(
            s.edits.get(&board.id).copied().unwrap_or(0) >= turns,
            "{:?}",
            s.edits
        );
        let image = now
            .file("board.png")
            .expect("the board image after the edits");
        assert_ne!(image.data, first_image);
        let b = now.text();
        assert!(
            b.contains("Last moves:") && now.buttons().is_empty() && now.selects().is_empty(),
            "{b}"
        );
        assert!(!b.contains("your move"), "{b}");
        println!("The final puzzle board as a player reads it:\n{b}");
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
    }
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_thread_names_its_people_counts_its_ai_and_never_awaits_them() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 8;
    let id =
        support::setup::lobby_with_bob(&h, ch, "diplomacy", vec![opt("deadline", 3, json!("1d"))])
            .await;
    for _ in 0..5 {
        add_ai(&h, ch, Some("hold")).await;
    }
    start(&h, ch).await;
    let thread = support::setup::thread_of(&h.fake, ch).await;
    let name = h
        .fake
        .state()
        .threads
        .iter()
        .find(|t| t.id == thread)
        .unwrap()
        .name
        .clone();
    // The people by name, the AI seats counted, nothing cut.
    assert_eq!(name, format!("diplomacy #{id}: Alice, Bob + 5 AI"));
    // The start message waits for the two people's powers only.
    let started =
        support::messages::channel_msg(&h.fake, thread, &format!("diplomacy #{id} started")).await;
    let text = started.text();
    assert!(
        text.contains("Spring 1901 movement: waiting for Austria and England."),
        "{text}"
    );
    let waiting = text.lines().find(|l| l.contains("waiting for")).unwrap();
    assert!(!waiting.contains("France"), "{text}");
    // Alice finishes her orders: the status counts every AI as ready and
    // waits for Bob alone.
    support::messages::dm_with(&h.fake, ALICE, "Your move").await;
    h.fake
        .dm(ALICE, "A Vie - Tyr\nF Tri - Alb\nA Bud - Ser\ndone");
    let status = h
        .fake
        .wait_for("the start message's status line", move |s| {
            s.channel(thread)
                .into_iter()
                .find(|m| m.text().contains(" · 6 of 7 ready"))
                .cloned()
        })
        .await;
    let text = status.text();
    assert!(
        text.contains("waiting for England (Bob) · 6 of 7 ready"),
        "{text}"
    );
    // `/game status` marks only Bob's power as still to move, and its
    // status line no longer waits for Alice's Austria either.
    let shown = command(&h.fake, BOB, thread, &["game", "status"], json!([])).await;
    assert_eq!(shown.matches("to move").count(), 1, "{shown}");
    assert!(shown.contains("waiting for England."), "{shown}");
    assert!(!shown.contains("Austria and England"), "{shown}");
    // A draw vote typed by Bob is asked about first: nothing is recorded
    // until he confirms with the button.
    support::messages::dm_with(&h.fake, BOB, "Your move").await;
    h.fake.dm(BOB, "draw");
    let question = support::messages::dm_where(&h.fake, BOB, "the draw question", |m| {
        m.text().contains("Vote for a draw?")
    })
    .await;
    assert!(
        question.text().contains("the AI powers always accept"),
        "{}",
        question.text()
    );
    let pending = h.host().own_pending(id, &BOB.to_string()).unwrap();
    assert!(
        pending.as_ref().is_none_or(|p| !p.contains("draw")),
        "{pending:?}"
    );
    let yes = question
        .button("Yes, vote for a draw")
        .expect("the confirm button");
    let t = h.fake.click(BOB, question.id, &yes);
    let reply = h.fake.reply_text(&t).await;
    assert!(reply.contains("Recorded"), "{reply}");
    let pending = h.host().own_pending(id, &BOB.to_string()).unwrap();
    assert!(
        pending.as_ref().is_some_and(|p| p.contains("draw")),
        "{reply} {pending:?}"
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_people_the_player_whose_move_it_became_is_pinged_once() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 9;
    let id = support::setup::lobby_with_bob(
        &h,
        ch,
        "cards",
        vec![opt("options", 3, json!("{\"n\": 4, \"m\": 4}"))],
    )
    .await;
    start(&h, ch).await;
    let thread = support::setup::thread_of(&h.fake, ch).await;
    let mut pings = Vec::new();
    for (mover, next) in [(ALICE, BOB), (BOB, ALICE), (ALICE, BOB)] {
        let board = support::messages::channel_where(&h.fake, thread, "the board", move |m| {
            m.content().contains(&format!("<@{mover}>, your move")) && !m.buttons().is_empty()
        })
        .await;
        let (_, b) = board.buttons().into_iter().next().unwrap();
        let t = h.fake.click(mover, board.id, &b);
        assert!(h.fake.reply_text(&t).await.contains("Recorded"));
        // An edit pings nobody: the next player gets a one-line ping.
        let needle = format!("<@{next}>: your move in cards #{id} (the board above).");
        let after = pings.last().copied().unwrap_or(0);
        let wanted = needle.clone();
        let ping = support::messages::channel_where(&h.fake, thread, "the ping", move |m| {
            m.id > after && m.content() == wanted
        })
        .await;
        // It pings them, and only them.
        let body = h
            .fake
            .state()
            .bodies
            .iter()
            .find(|(_, b)| b["content"] == json!(needle))
            .map(|(_, b)| b.clone())
            .unwrap();
        assert_eq!(
            body["allowed_mentions"]["users"],
            json!([next.to_string()]),
            "{body}"
        );
        pings.push(ping.id);
    }
    h.delivered().await;
    // Each ping replaced the one before: only the newest is left.
    {
        let s = h.fake.state();
        let left: Vec<u64> = pings
            .iter()
            .copied()
            .filter(|p| s.message(*p).is_some())
            .collect();
        assert_eq!(left, vec![pings[2]], "{}", s.dump());
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
    }
    h.finish().await;
}

/// The outbox row a message was posted for and how (`p`: where the row is
/// addressed, `f`: the note for a player whose DMs are closed), from its
/// nonce `o{row}q{queued}{route}{part}`.
fn row_of(m: &Msg) -> Option<(i64, char)> {
    let nonce = m.json["nonce"].as_str()?.strip_prefix('o')?;
    let (row, rest) = nonce.split_once('q')?;
    let route = rest.chars().find(|c| c.is_ascii_alphabetic())?;
    Some((row.parse().ok()?, route))
}

/// Answers the note that replaces each of Alice's DM prompts in `thread`
/// (her DMs are closed) through its "Show my move" button, `turns` times
/// or until the game is over; returns how many she answered.
async fn answer_closed_dm_notes(fake: &FakeDiscord, thread: u64, turns: usize) -> usize {
    let mut answered = HashSet::new();
    for turn in 0..turns {
        let seen = answered.clone();
        let note = fake
            .wait_for("the next closed-DM note or the end", move |s| {
                let msgs = s.channel(thread);
                if msgs.iter().any(|m| m.text().contains(" is over: ")) {
                    return Some(None);
                }
                msgs.into_iter()
                    .find(|m| m.button("Show my move").is_some() && !seen.contains(&m.id))
                    .map(|m| Some(Msg::clone(m)))
            })
            .await;
        let Some(note) = note else {
            return turn;
        };
        answered.insert(note.id);
        let t = press(fake, ALICE, &note, "Show my move");
        let private = fake
            .wait_for("Alice's private prompt", |s| {
                s.messages
                    .iter()
                    .rev()
                    .find(|m| {
                        m.token.as_deref() == Some(t.as_str())
                            && (!m.buttons().is_empty() || !m.selects().is_empty())
                    })
                    .cloned()
            })
            .await;
        let t = match private.buttons().into_iter().next() {
            Some((_, b)) => fake.click(ALICE, private.id, &b),
            None => {
                let (sid, opts) = private.selects().into_iter().next().unwrap();
                fake.select(ALICE, private.id, &sid, &[opts[0].1.as_str()])
            }
        };
        let reply = fake.reply_text(&t).await;
        assert!(reply.contains("Recorded"), "{reply}");
    }
    turns
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_dm_note_comes_after_the_report_of_its_turn_in_the_thread() {
    // Battles against the AI whose player's DMs are closed: each prompt is
    // replaced by a note in the game's thread, sent from the player's DM
    // stream beside the thread's own. Over many turns and a few seeds, no
    // note may come above the report that opens its turn.
    let h = Harness::start().await;
    h.fake.allow_threads();
    h.fake.close_dms(ALICE);
    let seeds = [3, 5, 8];
    let mut threads = Vec::new();
    for (i, seed) in seeds.into_iter().enumerate() {
        let ch = CH + 20 + i as u64;
        support::setup::against_ai(&h, ch, "battle", vec![opt("seed", 4, json!(seed))]).await;
        threads.push(support::setup::thread_of(&h.fake, ch).await);
    }
    let played = futures_util::future::join_all(
        threads
            .iter()
            .map(|thread| answer_closed_dm_notes(&h.fake, *thread, 12)),
    )
    .await;
    h.finish().await;
    let s = h.fake.state();
    for (thread, played) in threads.iter().zip(played) {
        let msgs = s.channel(*thread);
        let notes: Vec<(usize, i64)> = msgs
            .iter()
            .enumerate()
            .filter_map(|(at, m)| match row_of(m) {
                Some((row, 'f')) if m.text().contains("DMs are closed") => Some((at, row)),
                _ => None,
            })
            .collect();
        // A note for every prompt she answered, none posted twice.
        let rows: HashSet<i64> = notes.iter().map(|(_, row)| *row).collect();
        assert_eq!(rows.len(), notes.len(), "{}", s.dump());
        assert!(
            notes.len() >= played,
            "{} notes, {played} turns",
            notes.len()
        );
        assert!(played >= 5, "too few turns to test: {played}");
        for (note_at, note_row) in notes {
            // Every message of a row queued before the note's (the report
            // that opens its turn among them) is above it.
            for (at, m) in msgs.iter().enumerate() {
                if let Some((row, 'p')) = row_of(m)
                    && row < note_row
                {
                    assert!(
                        at < note_at,
                        "the note of row {note_row} is above the message of row {row}:\n{}",
                        msgs.iter()
                            .map(|m| format!("{:?} {}", row_of(m), m.text()))
                            .collect::<Vec<_>>()
                            .join("\n")
                    );
                }
            }
        }
    }
}
