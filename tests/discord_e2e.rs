//! The real bot (poise/serenity) against a fake Discord on 127.0.0.1:
//! slash commands, lobby buttons, moves by DM buttons and typed DMs, the
//! channel-move flow with the AI, deadlines, closed DMs, restarts, and
//! Discord's payload limits (the fake rejects what Discord would).

mod support;

use serde_json::json;
use support::commands::{command, opt, press, press_reply};
use support::fake_discord::FakeDiscord;
use support::messages::{channel_msg, channel_where, count_in_channel, count_in_dms, dm_with};
use support::setup::{against_ai, lobby_with_bob, start};
use support::*;

const CH: u64 = 2_000_000_000_000_001;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_registers_commands_once_with_minimal_intents() {
    let mut h = Harness::start().await;
    let cmds = h.fake.wait_commands().await;
    let names: Vec<&str> = cmds
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for n in ["game", "move", "orders", "settings"] {
        assert!(names.contains(&n), "{names:?}");
    }
    let game = cmds
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "game")
        .unwrap();
    let subs: Vec<&str> = game["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    for s in [
        "new", "join", "leave", "ai", "start", "abort", "forfeit", "status", "list", "history",
        "takeover", "extend", "pause", "resume", "away", "replay",
    ] {
        assert!(subs.contains(&s), "{subs:?}");
    }
    let intents = h.fake.state().identify.as_ref().unwrap()["intents"]
        .as_u64()
        .unwrap();
    // GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES, nothing privileged.
    assert_eq!(intents, 1 | (1 << 9) | (1 << 12));
    assert_eq!(h.fake.state().command_puts, 1);
    h.restart().await;
    // The second start finds the same commands and does not register again.
    let list = command(&h.fake, ALICE, CH, &["game", "list"], json!([])).await;
    assert!(list.contains("No games"));
    assert_eq!(h.fake.state().command_puts, 1);
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_duel_by_dm_buttons_and_typed_dms() {
    let h = Harness::start().await;
    let ch = CH + 1;
    let id = lobby_with_bob(&h, ch, "rps", vec![]).await;
    // Only the creator starts.
    let lobby = channel_msg(&h.fake, ch, "Bob joined").await;
    assert!(
        press_reply(&h.fake, BOB, &lobby, "Start")
            .await
            .contains("Only the creator")
    );
    assert!(
        press_reply(&h.fake, ALICE, &lobby, "Start")
            .await
            .contains("started")
    );
    channel_msg(&h.fake, ch, "started").await;

    // Both get a DM prompt with buttons and a link back to the channel.
    let pa = dm_with(&h.fake, ALICE, "Your move").await;
    let pb = dm_with(&h.fake, BOB, "Your move").await;
    assert!(pa.text().contains(&format!(
        "/channels/{}/{ch}",
        support::fake_discord::GUILD_ID
    )));
    assert_eq!(pa.buttons().len(), 3, "{:?}", pa.buttons());

    // Alice throws paper by button: a private receipt; the turn's message
    // says who it still waits for, without the content.
    let receipt = press_reply(&h.fake, ALICE, &pa, "paper").await;
    assert!(
        receipt.contains("paper") && receipt.contains("Waiting for Bob"),
        "{receipt}"
    );
    channel_msg(&h.fake, ch, "waiting for Bob · 1 of 2 ready").await;
    assert_eq!(
        count_in_channel(&h.fake, ch, "paper"),
        0,
        "the hidden move leaked:\n{}",
        h.fake.state().dump()
    );
    // Carol, who plays nothing, writes a DM: a clear answer.
    h.fake.dm(CAROL, "rock");
    let m = dm_with(&h.fake, CAROL, "not playing").await;
    assert!(m.text().contains("any running game"), "{}", m.text());

    // Bob answers by a typed DM with a mistake, then correctly.
    h.fake.dm(BOB, "stone");
    dm_with(&h.fake, BOB, "`stone` is not a throw").await;
    h.fake.dm(BOB, &format!("#{id} rock"));
    dm_with(&h.fake, BOB, "Recorded").await;
    channel_msg(&h.fake, ch, "Round 1: paper vs rock").await;
    // The private part of the report goes to Alice only.
    dm_with(&h.fake, ALICE, "You threw").await;
    assert_eq!(count_in_channel(&h.fake, ch, "You threw"), 0);

    // A button of turn 0 is stale now.
    assert!(
        press_reply(&h.fake, BOB, &pb, "rock")
            .await
            .contains("earlier turn")
    );

    // Round 2 by buttons: Alice wins 2-0.
    let pa2 = dm_with(&h.fake, ALICE, "Score 1-0").await;
    let pb2 = dm_with(&h.fake, BOB, "Score 1-0").await;
    press(&h.fake, ALICE, &pa2, "scissors");
    press(&h.fake, BOB, &pb2, "paper");
    channel_msg(&h.fake, ch, "is over").await;
    let over = channel_msg(&h.fake, ch, "is over").await;
    assert!(over.text().contains("Alice"), "{}", over.text());
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_get_a_channel_prompt_without_secrets() {
    let h = Harness::start().await;
    let ch = CH + 2;
    h.fake.close_dms(BOB);
    lobby_with_bob(&h, ch, "rps", vec![]).await;
    start(&h, ch).await;
    let notice = channel_msg(&h.fake, ch, "DMs are closed").await;
    assert!(notice.content().contains(&format!("<@{BOB}>")));
    assert!(
        !notice.text().contains("scissors"),
        "choices leaked into the channel"
    );
    let t = press(&h.fake, BOB, &notice, "Show my move");
    let replies = h.fake.replies(&t).await;
    let private = replies.last().unwrap().clone();
    assert!(private.ephemeral, "the private view must be ephemeral");
    assert_eq!(private.buttons().len(), 3);
    // Bob plays from the ephemeral message; Alice from her DM.
    assert!(
        press_reply(&h.fake, BOB, &private, "scissors")
            .await
            .contains("Recorded")
    );
    let pa = dm_with(&h.fake, ALICE, "Your move").await;
    press(&h.fake, ALICE, &pa, "paper");
    channel_msg(&h.fake, ch, "Round 1: paper vs scissors").await;
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn channel_moves_against_the_ai_within_discord_limits() {
    let h = Harness::start().await;
    let ch = CH + 3;
    against_ai(
        &h,
        ch,
        "nim",
        vec![opt("options", 3, json!("{\"stones\": 5, \"big\": true}"))],
    )
    .await;
    // The board is over 2000 characters: split into several messages.
    channel_msg(&h.fake, ch, "line 59").await;
    // The prompt is on the turn's message (its last part), mentioning
    // Alice, with buttons and two select menus (33 choices).
    let prompt = channel_msg(&h.fake, ch, "your move").await;
    assert!(
        prompt
            .content()
            .contains(&format!("<@{ALICE}>, your move."))
    );
    assert_eq!(prompt.buttons().len(), 3);
    let selects = prompt.selects();
    assert_eq!(selects.len(), 2);
    assert!(selects.iter().all(|(_, o)| o.len() <= 25));
    // Bob may not move for Alice.
    assert!(
        press_reply(&h.fake, BOB, &prompt, "Take 2")
            .await
            .contains("not playing")
    );
    // Alice takes 1 through the select menu; the AI (takes 1) answers by itself.
    let (sel_id, opts) = &selects[1];
    let t = h
        .fake
        .select(ALICE, prompt.id, sel_id, &[opts[0].1.as_str()]);
    assert!(h.fake.reply_text(&t).await.contains("take 1"));
    channel_msg(&h.fake, ch, "AI (one) takes 1; 3 left").await;
    // Alice: take 3, wins.
    channel_msg(&h.fake, ch, "3 left").await;
    let first = prompt.id;
    let prompt2 = channel_where(&h.fake, ch, "a second prompt", move |m| {
        m.text().contains("your move") && m.id != first
    })
    .await;
    // The resolved turn's message is its record now: no prompt, no buttons.
    let old = h
        .fake
        .wait_for("the first turn without its prompt", move |s| {
            s.messages
                .iter()
                .find(|m| m.id == first && !m.text().contains("your move"))
                .cloned()
        })
        .await;
    assert!(old.buttons().is_empty() && old.selects().is_empty());
    assert!(
        !old.text().contains(&format!("<@{ALICE}>")),
        "{}",
        old.text()
    );
    press_reply(&h.fake, ALICE, &prompt2, "Take 3").await;
    // So is the last one, once the game is over.
    let last = prompt2.id;
    let over = channel_msg(&h.fake, ch, "is over").await;
    assert!(over.text().contains("Alice"));
    h.fake
        .wait_for("the last prompt taken off", move |s| {
            s.messages
                .iter()
                .find(|m| m.id == last && m.buttons().is_empty() && m.selects().is_empty())
                .map(|_| ())
        })
        .await;
    assert_eq!(count_in_channel(&h.fake, ch, "your move"), 0);
    for m in h.fake.state().messages.iter() {
        assert!(m.content().chars().count() <= 2000);
    }
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_game_loses_nothing_and_posts_nothing_twice() {
    let mut h = Harness::start().await;
    let ch = CH + 4;
    lobby_with_bob(
        &h,
        ch,
        "rps",
        vec![opt("options", 3, json!("{\"wins\": 2}"))],
    )
    .await;
    start(&h, ch).await;
    let pa = dm_with(&h.fake, ALICE, "Your move").await;
    // Alice moves, then the bot goes down before Bob moves.
    press_reply(&h.fake, ALICE, &pa, "rock").await;
    channel_msg(&h.fake, ch, "waiting for Bob · 1 of 2 ready").await;
    h.delivered().await;
    h.restart().await;
    // Bob's move (a DM to the new bot) completes the turn with Alice's pending move.
    h.fake.dm(BOB, "scissors");
    channel_msg(&h.fake, ch, "Round 1: rock vs scissors").await;
    let pa2 = dm_with(&h.fake, ALICE, "Score 1-0").await;
    let pb2 = dm_with(&h.fake, BOB, "Score 1-0").await;
    press(&h.fake, ALICE, &pa2, "rock");
    press(&h.fake, BOB, &pb2, "scissors");
    channel_msg(&h.fake, ch, "is over").await;
    h.delivered().await;
    // Each round's status line was taken off when the round resolved.
    assert_eq!(
        count_in_channel(&h.fake, ch, "waiting for"),
        0,
        "{}",
        h.fake.state().dump()
    );
    for needle in [
        "rps #1 started",
        "Round 1:",
        "Round 2:",
        "is over",
        "Alice created",
    ] {
        assert_eq!(
            count_in_channel(&h.fake, ch, needle),
            1,
            "{needle:?} posted more than once\n{}",
            h.fake.state().dump()
        );
    }
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_send_and_mark_posts_nothing_twice() {
    let mut h = Harness::start().await;
    let ch = CH + 9;
    lobby_with_bob(
        &h,
        ch,
        "rps",
        vec![opt("options", 3, json!("{\"wins\": 1}"))],
    )
    .await;
    start(&h, ch).await;
    let pa = dm_with(&h.fake, ALICE, "Your move").await;
    let pb = dm_with(&h.fake, BOB, "Your move").await;
    press(&h.fake, ALICE, &pa, "paper");
    press(&h.fake, BOB, &pb, "rock");
    channel_msg(&h.fake, ch, "is over").await;
    h.delivered().await;
    let posted = |h: &Harness| -> Vec<(u64, String)> {
        h.fake
            .state()
            .messages
            .iter()
            .filter(|m| !m.from_interaction)
            .map(|m| (m.channel_id, m.content().to_string()))
            .collect()
    };
    let before = posted(&h);
    let rows = before.len();
    assert!(rows >= 6, "{}", h.fake.state().dump());
    // The bot dies after Discord took every message but before any row was
    // marked sent: the new bot delivers them all again.
    h.stop().await;
    let unmarked = h.sql("UPDATE outbox SET sent_at = NULL");
    assert!(unmarked >= 5, "{unmarked} rows");
    h.start_again().await;
    h.delivered().await;
    let hits = h.fake.state().dedupe_hits.clone();
    assert!(!hits.is_empty(), "no message was sent again");
    // Channel announcements posted again are all de-duplicated: every
    // channel message but the lobby (re-delivered as an edit, or skipped
    // once the game started) and the no-thread note (the decision is
    // stored, so it is not sent again).
    let in_channel = hits.iter().filter(|d| d.channel_id == ch).count();
    let channel_msgs = before.iter().filter(|(c, _)| *c == ch).count();
    assert_eq!(in_channel, channel_msgs - 2, "{hits:?}");
    assert_eq!(posted(&h), before, "a message was posted twice");
    for needle in [
        "rps #1 started",
        "Round 1:",
        "is over",
        "Alice created",
        "I may not open a thread",
    ] {
        assert_eq!(
            count_in_channel(&h.fake, ch, needle),
            1,
            "{needle:?}\n{}",
            h.fake.state().dump()
        );
    }
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_history_shows_each_turn_and_only_your_own_moves() {
    let h = Harness::start().await;
    let ch = CH + 10;
    lobby_with_bob(
        &h,
        ch,
        "rps",
        vec![opt("options", 3, json!("{\"wins\": 3}"))],
    )
    .await;
    let empty = command(&h.fake, ALICE, ch, &["game", "history"], json!([])).await;
    assert!(empty.contains("no resolved turns yet"));
    start(&h, ch).await;
    h.fake.dm(ALICE, "paper");
    h.fake.dm(BOB, "rock");
    channel_msg(&h.fake, ch, "Round 1:").await;
    let text = command(&h.fake, ALICE, ch, &["game", "history"], json!([])).await;
    assert!(text.contains("page 1 of 1"), "{text}");
    assert!(
        text.contains("**1.**") && text.contains("Round 1: paper vs rock"),
        "{text}"
    );
    assert!(text.contains("You: `paper`"), "{text}");
    assert!(!text.contains("`rock`"), "Bob's throw is his own: {text}");
    let text = command(&h.fake, BOB, ch, &["game", "history"], json!([])).await;
    assert!(
        text.contains("You: `rock`") && !text.contains("`paper`"),
        "{text}"
    );
    let page = json!([opt("page", 4, json!(2))]);
    let text = command(&h.fake, ALICE, ch, &["game", "history"], page).await;
    assert!(text.contains("from 1 to 1"));
    // Only the one asking sees it.
    assert_eq!(count_in_channel(&h.fake, ch, "**1.**"), 0);
    // Receipts name the game as the channel does.
    dm_with(&h.fake, ALICE, "Recorded for rps #").await;
    let status = command(&h.fake, ALICE, ch, &["game", "status"], json!([])).await;
    assert!(status.contains("(running, turn 2)"), "{status}");

    // Alice wins the next two rounds; the game stays reachable in its channel.
    for round in 2..=3 {
        h.fake.dm(ALICE, "paper");
        h.fake.dm(BOB, "rock");
        channel_msg(&h.fake, ch, &format!("Round {round}:")).await;
    }
    let over = channel_msg(&h.fake, ch, "is over").await;
    // Each player also hears of the end by DM, with the same result.
    for user in [ALICE, BOB] {
        let dm = dm_with(&h.fake, user, "A game you play has ended").await;
        assert!(dm.text().contains(over.text().trim()), "{}", dm.text());
    }
    let status = command(&h.fake, BOB, ch, &["game", "status"], json!([])).await;
    assert!(status.contains("(finished, 3 turns played)"), "{status}");
    // The history opens on its first page, oldest turn first.
    let text = command(&h.fake, BOB, ch, &["game", "history"], json!([])).await;
    assert!(text.contains("page 1 of 1"), "{text}");
    let (first, last) = (text.find("**1.**").unwrap(), text.find("**3.**").unwrap());
    assert!(first < last, "{text}");
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_resolves_the_turn_and_reminds_first() {
    let h = Harness::start().await;
    let ch = CH + 5;
    lobby_with_bob(&h, ch, "rps", vec![opt("deadline", 3, json!("10m"))]).await;
    start(&h, ch).await;
    let pa = dm_with(&h.fake, ALICE, "Your move").await;
    press(&h.fake, ALICE, &pa, "paper");
    channel_msg(&h.fake, ch, "waiting for Bob · 1 of 2 ready").await;
    // 80% of the time gone: Bob (only) is reminded.
    h.advance(8 * 60_000 + 1_000);
    dm_with(&h.fake, BOB, "left to move in").await;
    assert_eq!(count_in_dms(&h.fake, ALICE, "left to move in"), 0);
    // Past the deadline: Bob gets the default (rock) and the turn resolves.
    h.advance(2 * 60_000);
    channel_msg(&h.fake, ch, "Time is up").await;
    channel_msg(&h.fake, ch, "Round 1: paper vs rock").await;
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_creator_or_a_moderator_aborts_and_old_buttons_say_so() {
    let h = Harness::start().await;
    let ch = CH + 6;
    lobby_with_bob(&h, ch, "rps", vec![]).await;
    start(&h, ch).await;
    let pb = dm_with(&h.fake, BOB, "Your move").await;
    let refused = command(&h.fake, BOB, ch, &["game", "abort"], json!([])).await;
    assert!(refused.contains("Only the creator"));
    let t = h
        .fake
        .slash_as(MOD, ch, &["game", "abort"], json!([]), true, true);
    assert!(h.fake.reply_text(&t).await.contains("aborted"));
    channel_msg(&h.fake, ch, "The game master Mod aborted rps #1.").await;
    assert!(
        press_reply(&h.fake, BOB, &pb, "rock")
            .await
            .contains("aborted; this button no longer does anything")
    );
    // A command in a channel without a game, and an unknown kind: kind answers.
    let none = command(&h.fake, BOB, ch, &["game", "forfeit"], json!([])).await;
    assert!(none.contains("no game in this channel"));
    let t = h.fake.slash(
        BOB,
        ch,
        &["game", "new"],
        json!([opt("kind", 3, json!("chess"))]),
    );
    let r = h.fake.reply_text(&t).await;
    assert!(
        r.contains("no game called `chess`") && r.contains("rps"),
        "{r}"
    );
    let replies = h.fake.replies(&t).await;
    assert!(replies.iter().all(|m| m.ephemeral));
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_start_up_stops_the_bot_with_a_clear_message() {
    let fake = FakeDiscord::start().await;
    fake.state().fail_commands = true;
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(host::ManualClock::at(0));
    let host = std::sync::Arc::new(support::host_builder::host_on(
        &dir.path().join("g.db"),
        registry(),
        clock.clone(),
        host::HostSettings::default(),
    ));
    let settings = discord::BotSettings {
        token: support::fake_discord::TOKEN.into(),
        api_base: None,
        api_address: Some(fake.api_address),
        api_root_ca: Some(fake.root_ca.clone()),
        guild_id: None,
        ai_budget_ms: 20,
        turn_seconds: Default::default(),
        timeout_policy: host::TimeoutPolicy::Default,
        shards: None,
        delivery_lanes: 0,
        requests_per_second: 0,
    };
    let bot = discord::Bot::start(host, clock, settings).await.unwrap();
    let err = tokio::time::timeout(support::fake_discord::WAIT, bot.wait())
        .await
        .expect("the bot stops by itself")
        .expect_err("start-up failed");
    let msg = err.to_string();
    assert!(
        msg.contains("could not register the slash commands"),
        "{msg}"
    );
    assert!(
        !msg.contains(support::fake_discord::TOKEN),
        "the token leaked: {msg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_flood_gets_one_warning_not_a_reply_each() {
    let h = Harness::start().await;
    // The harness clock stands still, so the bucket never refills: 8 DMs are
    // answered, the 9th gets the one warning, the rest are dropped.
    for i in 0..12 {
        h.fake.dm(CAROL, &format!("hello {i}"));
    }
    let warning = dm_with(&h.fake, CAROL, "faster than I can take them").await;
    assert_eq!(
        warning.content(),
        "You are sending messages faster than I can take them; I will ignore your messages \
         for a few seconds. Diplomacy players: put all your orders in one message, one per line."
    );
    h.fake
        .wait_for("nine replies to the flood", |s| {
            (s.dms(CAROL).len() >= 9).then_some(())
        })
        .await;
    let replies = h.fake.state().dms(CAROL).len();
    let warnings = count_in_dms(&h.fake, CAROL, "faster than I can take them");
    assert_eq!(warnings, 1);
    assert_eq!(replies, 9, "{}", h.fake.state().dump());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_deadlines_are_refused_and_an_abandoned_game_is_ended() {
    let h = Harness::start().await;
    let ch = CH + 11;
    for (kind, deadline, min) in [
        ("battle", "1s", "30 s"),
        ("rps", "10s", "30 s"),
        ("diplomacy", "5m", "10 min"),
    ] {
        let t = h.fake.slash(
            ALICE,
            ch,
            &["game", "new"],
            json!([
                opt("kind", 3, json!(kind)),
                opt("deadline", 3, json!(deadline))
            ]),
        );
        let r = h.fake.reply_text(&t).await;
        assert!(
            r.contains(&format!("too short for {kind}: the minimum is {min}")),
            "{r}"
        );
    }
    assert_eq!(count_in_channel(&h.fake, ch, "created"), 0);

    // Nobody moves: two turns are played by the default action, the third
    // deadline ends the game.
    lobby_with_bob(&h, ch, "rps", vec![opt("deadline", 3, json!("30s"))]).await;
    start(&h, ch).await;
    for round in 1..=2 {
        h.advance(30_000);
        channel_msg(&h.fake, ch, &format!("Round {round}: rock vs rock")).await;
    }
    h.advance(30_000);
    let over = channel_msg(&h.fake, ch, "aborted as abandoned").await;
    assert!(
        over.text()
            .contains("no player moved before the last 3 deadlines"),
        "{}",
        over.text()
    );
    h.finish().await;
    assert_eq!(count_in_channel(&h.fake, ch, "Round 3:"), 0);
    let status = command(&h.fake, ALICE, ch, &["game", "list"], json!([])).await;
    assert!(!status.contains("running"), "{status}");
}
