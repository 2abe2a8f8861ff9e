//! Whom the bot's messages may ping, and names that cannot change a
//! message (issue 31): every message, edit and interaction reply carries
//! `allowed_mentions` that allow at most the users the bot means to ping,
//! and players named `@everyone`, `<@&1>` or ```` ``` ```` read as names in
//! every public message: no mention, no Markdown, no broken code block.
//! Edits that would change nothing are not sent. Through the real bot
//! against the fake Discord, which records every request body.

mod support;

use serde_json::{Value, json};
use support::commands::{command, opt, press_reply};
use support::fake_discord::{FakeDiscord, Msg, State};
use support::messages::{channel_msg, channel_where, dm_where};
use support::setup::{add_ai, new_game, start};
use support::*;

const CH: u64 = 3_000_000_000_000_301;

/// The message a request body creates or edits, if it is one: message
/// creates and edits in channels, interaction responses that carry a
/// message (types 4 and 7; not deferrals), follow-ups and their edits.
fn message_payload(request: &str, body: &Value) -> Option<Value> {
    let (method, path) = request.split_once(' ')?;
    let path = path.strip_prefix("/api/v10/")?;
    let seg: Vec<&str> = path.split('/').collect();
    match (method, seg.as_slice()) {
        ("POST", ["channels", _, "messages"])
        | ("PATCH", ["channels", _, "messages", _])
        | ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", _]) => Some(body.clone()),
        ("POST", ["interactions", _, _, "callback"]) => {
            matches!(body["type"].as_u64(), Some(4 | 7)).then(|| body["data"].clone())
        }
        _ => None,
    }
}

/// The user ids a text mentions as `<@id>` or `<@!id>`.
fn mentioned(text: &str) -> Vec<u64> {
    text.match_indices("<@")
        .filter_map(|(i, _)| {
            let rest = text[i + 2..].trim_start_matches('!');
            let end = rest.find('>')?;
            rest[..end].parse().ok()
        })
        .collect()
}

/// Checks every message the bot sent or edited: it carries
/// `allowed_mentions`, which parse nothing (no `@everyone`/`@here`, no
/// roles, not every user) and name only players the message itself
/// mentions. Returns how many payloads pinged someone.
fn assert_mentions_allowed_only_as_meant(s: &State, players: &[u64]) -> usize {
    let mut checked = 0;
    let mut pings = 0;
    for (request, body) in &s.bodies {
        let Some(p) = message_payload(request, body) else {
            continue;
        };
        checked += 1;
        let allowed = &p["allowed_mentions"];
        assert!(
            allowed.is_object(),
            "{request} has no allowed_mentions: {p:#}"
        );
        let parse = allowed["parse"].as_array().cloned().unwrap_or_default();
        assert!(parse.is_empty(), "{request} lets Discord parse {parse:?}");
        let roles = allowed["roles"].as_array().cloned().unwrap_or_default();
        assert!(roles.is_empty(), "{request} may ping roles {roles:?}");
        let content = p["content"].as_str().unwrap_or("");
        let users: Vec<u64> = allowed["users"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str().and_then(|u| u.parse().ok()).or(u.as_u64()))
            .collect();
        for u in &users {
            assert!(
                players.contains(u),
                "{request} may ping {u}, who does not play"
            );
            assert!(
                mentioned(content).contains(u),
                "{request} may ping {u} without mentioning them: {content}"
            );
        }
        pings += usize::from(!users.is_empty());
    }
    assert!(checked > 20, "only {checked} messages checked");
    pings
}

/// Picks the first offered move on the DM prompt `prompt` as `user`.
async fn pick_first(fake: &FakeDiscord, user: u64, prompt: &Msg) {
    let t = match prompt.buttons().into_iter().next() {
        Some((_, b)) => fake.click(user, prompt.id, &b),
        None => {
            let (sid, opts) = prompt.selects().into_iter().next().unwrap();
            fake.select(user, prompt.id, &sid, &[opts[0].1.as_str()])
        }
    };
    let reply = fake.reply_text(&t).await;
    assert!(reply.contains("Recorded"), "{reply}");
}

/// A DM prompt with something to pick, newer than message `after`.
async fn prompt_of(fake: &FakeDiscord, user: u64, after: u64) -> Msg {
    dm_where(fake, user, "a prompt", move |m| {
        m.id > after && (!m.buttons().is_empty() || !m.selects().is_empty())
    })
    .await
}

/// Creates a battle in `ch` as Alice, lets Carol join and leave and Bob
/// join (each an edit of the lobby), starts it and waits for its thread;
/// returns the game id and the thread.
async fn battle_with_seat_changes(h: &Harness, ch: u64) -> (i64, u64) {
    let id = new_game(h, ch, "battle", vec![opt("seed", 4, json!(3))]).await;
    let lobby = channel_where(&h.fake, ch, "the lobby", |m| m.button("Join").is_some()).await;
    assert!(
        press_reply(&h.fake, CAROL, &lobby, "Join")
            .await
            .contains("seat 2")
    );
    assert!(
        press_reply(&h.fake, CAROL, &lobby, "Leave")
            .await
            .contains("left")
    );
    assert!(
        press_reply(&h.fake, BOB, &lobby, "Join")
            .await
            .contains("seat 2")
    );
    start(h, ch).await;
    let thread = support::setup::thread_of(&h.fake, ch).await;
    (id, thread)
}

/// Plays one turn of the battle (Alice, then Bob), then Alice forfeits.
async fn one_turn_then_forfeit(h: &Harness, ch: u64, thread: u64) {
    let prompt = prompt_of(&h.fake, ALICE, 0).await;
    pick_first(&h.fake, ALICE, &prompt).await;
    channel_msg(&h.fake, thread, "1 of 2 ready").await;
    let prompt = prompt_of(&h.fake, BOB, 0).await;
    pick_first(&h.fake, BOB, &prompt).await;
    channel_msg(&h.fake, thread, "Turn 2 of").await;
    let reply = command(&h.fake, ALICE, thread, &["game", "forfeit"], json!([])).await;
    assert!(!reply.is_empty());
    h.delivered().await;
    let _ = ch;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_and_edit_pings_only_whom_it_means() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    // A card game against the AI, played in the channel's thread: each
    // turn's message pings Alice, and is edited once the turn resolves.
    let reply = command(
        &h.fake,
        ALICE,
        CH,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("cards")),
            opt("options", 3, json!("{\"n\": 4, \"m\": 4}")),
            opt("seed", 4, json!(5)),
        ]),
    )
    .await;
    assert!(reply.contains("Created cards"), "{reply}");
    add_ai(&h, CH, None).await;
    start(&h, CH).await;
    let thread = support::setup::thread_of(&h.fake, CH).await;
    support::setup::play_to_the_end(&h, thread).await;
    // A battle with DM moves: lobby edits, status lines, a forfeit.
    let ch = CH + 1;
    let (_, thread) = battle_with_seat_changes(&h, ch).await;
    one_turn_then_forfeit(&h, ch, thread).await;
    let list = command(&h.fake, BOB, ch, &["game", "history"], json!([])).await;
    assert!(!list.is_empty());
    h.delivered().await;
    {
        let s = h.fake.state();
        let pings = assert_mentions_allowed_only_as_meant(&s, &[ALICE, BOB, CAROL]);
        // The turns of the card game did ping Alice.
        assert!(pings > 0, "nothing pinged anyone\n{}", s.dump());
    }
    h.finish().await;
}

/// Names as Discord would parse them, and how they read in the bot's
/// messages: inert, yet the same to the eye.
const EVERYONE: (&str, &str) = ("@everyone", "@\u{200b}everyone");
const ROLE: (&str, &str) = ("<@&1>", "<\u{200b}@\u{200b}&1>");
const FENCE: (&str, &str) = ("```", "\u{02cb}\u{02cb}\u{02cb}");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_look_like_mentions_or_markdown_change_no_message() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    h.fake.user(ALICE, EVERYONE.0);
    h.fake.user(BOB, ROLE.0);
    h.fake.user(CAROL, FENCE.0);
    let ch = CH + 2;
    let (id, thread) = battle_with_seat_changes(&h, ch).await;
    one_turn_then_forfeit(&h, ch, thread).await;
    assert_names_inert(&h.fake.state(), ch, id, thread);
    h.finish().await;
}

/// The public messages of the game `id` with players named as [`EVERYONE`],
/// [`ROLE`] and [`FENCE`] (Carol joined and left) read the names inert.
fn assert_names_inert(s: &State, ch: u64, id: i64, thread: u64) {
    // The lobby names the seats and said who joined and left.
    let lobby = s
        .channel(ch)
        .into_iter()
        .find(|m| m.text().contains(&format!("battle #{id}")) && !m.from_interaction)
        .cloned()
        .expect("the lobby");
    let text = lobby.text();
    assert!(
        text.contains(&format!("1. {}", EVERYONE.1)) && text.contains(&format!("2. {}", ROLE.1)),
        "{text}"
    );
    let carol_named = s.bodies.iter().any(|(r, b)| {
        r.starts_with("PATCH") && b["content"].as_str().is_some_and(|c| c.contains(FENCE.1))
    });
    assert!(carol_named, "no lobby edit named Carol\n{}", s.dump());
    // The thread is named after the players, inert too.
    let t = s.threads.iter().find(|t| t.id == thread).unwrap();
    assert!(
        t.name.contains(EVERYONE.1) && t.name.contains(ROLE.1),
        "{}",
        t.name
    );
    // The status line named whom the turn waited for.
    assert!(
        s.bodies.iter().any(|(r, b)| r.starts_with("PATCH")
            && b["content"]
                .as_str()
                .is_some_and(|c| c.contains("waiting for"))),
        "no status line\n{}",
        s.dump()
    );
    // Nothing public, as posted or as edited, holds a raw name, and no code
    // block is left open.
    let mut public = 0;
    for (request, body) in &s.bodies {
        let Some(p) = message_payload(request, body) else {
            continue;
        };
        if p["flags"].as_u64().unwrap_or(0) & 64 != 0 {
            continue;
        }
        let content = p["content"].as_str().unwrap_or("");
        public += 1;
        for (raw, _) in [EVERYONE, ROLE] {
            assert!(!content.contains(raw), "{request} holds {raw}: {content}");
        }
        assert!(!content.contains("@here"), "{request}: {content}");
        assert_eq!(
            content.matches("```").count() % 2,
            0,
            "{request} leaves a code block open: {content}"
        );
    }
    assert!(public > 5, "only {public} public messages");
    assert_mentions_allowed_only_as_meant(s, &[ALICE, BOB, CAROL]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_that_changes_nothing_is_not_sent() {
    let mut h = Harness::start().await;
    h.fake.allow_threads();
    let ch = CH + 3;
    let (id, thread) = battle_with_seat_changes(&h, ch).await;
    let prompt = prompt_of(&h.fake, ALICE, 0).await;
    pick_first(&h.fake, ALICE, &prompt).await;
    let status = channel_msg(&h.fake, thread, "1 of 2 ready").await;
    h.delivered().await;
    let lobby = channel_msg(&h.fake, ch, &format!("created battle #{id}")).await;
    let edits = |h: &Harness| {
        let s = h.fake.state();
        (
            s.edits.get(&lobby.id).copied(),
            s.edits.get(&status.id).copied(),
        )
    };
    let before = edits(&h);
    // Joins, a leave and the start; one status line.
    assert_eq!(before, (Some(4), Some(1)), "{}", h.fake.state().dump());
    // The bot dies before it marks anything sent: every announcement is
    // delivered again, and the lobby's close and the status line would
    // read as they already do, so neither is edited again.
    h.stop().await;
    assert!(h.sql("UPDATE outbox SET sent_at = NULL") >= 5);
    h.start_again().await;
    h.delivered().await;
    assert!(
        !h.fake.state().dedupe_hits.is_empty(),
        "nothing was sent again"
    );
    assert_eq!(edits(&h), before, "{}", h.fake.state().dump());
    h.finish().await;
}
