//! Setting games up through the bot as the tests begin them: Alice creates
//! the game in a channel, seats Bob or AIs, and starts it.

use super::commands::{command, game_id, opt, press};
use super::fake_discord::{FakeDiscord, Msg};
use super::messages::{channel_msg, channel_where};
use super::{ALICE, BOB, Harness};
use serde_json::{Value, json};

/// Creates a game of `kind` in `ch` by `/game new` as Alice with the `extra`
/// options; checks the reply says so and returns the game id.
pub async fn new_game(h: &Harness, ch: u64, kind: &str, extra: Vec<Value>) -> i64 {
    let mut options = vec![opt("kind", 3, json!(kind))];
    options.extend(extra);
    let reply = command(&h.fake, ALICE, ch, &["game", "new"], json!(options)).await;
    assert!(reply.contains(&format!("Created {kind}")), "{reply}");
    game_id(&reply)
}

/// Seats an AI by `/game ai` as Alice (at `level`, or the kind's default)
/// and checks the reply says so.
pub async fn add_ai(h: &Harness, ch: u64, level: Option<&str>) {
    let options = match level {
        Some(l) => json!([opt("level", 3, json!(l))]),
        None => json!([]),
    };
    let reply = command(&h.fake, ALICE, ch, &["game", "ai"], options).await;
    assert!(reply.contains("AI"), "{reply}");
}

/// Starts the game in `ch` by `/game start` as Alice and waits for the reply
/// (what it says is each test's business).
pub async fn start(h: &Harness, ch: u64) -> String {
    command(&h.fake, ALICE, ch, &["game", "start"], json!([])).await
}

/// Creates a game by slash command and seats Bob with the lobby's Join
/// button; returns the game id (the game is not started).
pub async fn lobby_with_bob(h: &Harness, ch: u64, kind: &str, extra: Vec<Value>) -> i64 {
    let id = new_game(h, ch, kind, extra).await;
    let lobby = channel_msg(&h.fake, ch, "Alice created").await;
    let t = press(&h.fake, BOB, &lobby, "Join");
    let reply = h.fake.reply_text(&t).await;
    assert!(reply.contains("seat 2"), "{reply}");
    id
}

/// Creates a game of `kind`, seats one AI at its default level and starts
/// it; returns the game id.
pub async fn against_ai(h: &Harness, ch: u64, kind: &str, extra: Vec<Value>) -> i64 {
    let id = new_game(h, ch, kind, extra).await;
    add_ai(h, ch, None).await;
    start(h, ch).await;
    id
}

/// Creates a Diplomacy game where Alice plays Austria against six AIs that
/// only hold, and starts it.
pub async fn diplomacy_against_holding_ais(h: &Harness, ch: u64, extra: Vec<Value>) {
    new_game(h, ch, "diplomacy", extra).await;
    for _ in 0..6 {
        add_ai(h, ch, Some("hold")).await;
    }
    start(h, ch).await;
}

/// Creates a two-player battle (seed `seed`) in `ch` by `/game new` as `a`,
/// seats `b` with the lobby's Join button and starts it as `a`; returns the
/// game id. Works on any fake (one shard or several, any guild).
pub async fn battle_between(fake: &FakeDiscord, ch: u64, a: u64, b: u64, seed: i64) -> i64 {
    let reply = command(
        fake,
        a,
        ch,
        &["game", "new"],
        json!([opt("kind", 3, json!("battle")), opt("seed", 4, json!(seed))]),
    )
    .await;
    assert!(reply.contains("Created battle"), "{reply}");
    let id = game_id(&reply);
    let lobby = channel_where(fake, ch, "the lobby", |m| m.button("Join").is_some()).await;
    let t = press(fake, b, &lobby, "Join");
    let joined = fake.reply_text(&t).await;
    assert!(joined.contains("seat 2"), "{joined}");
    command(fake, a, ch, &["game", "start"], json!([])).await;
    id
}

/// The thread a game started in `ch` plays in (waits for it to open).
pub async fn thread_of(fake: &FakeDiscord, ch: u64) -> u64 {
    fake.wait_for("the game's thread", move |s| {
        s.threads.iter().find(|t| t.parent_id == ch).map(|t| t.id)
    })
    .await
}

/// Plays Alice's first offered move (a button, or a select menu's first
/// option) on the game's living board in `home` until the game is over;
/// returns the final message (the result). Each turn is an edit of the
/// board, or a new message where the board is posted a turn at a time.
pub async fn play_to_the_end(h: &Harness, home: u64) -> Msg {
    play_board_to_the_end(&h.fake, home).await
}

/// [`play_to_the_end`] on any fake (one started without the harness).
pub async fn play_board_to_the_end(fake: &FakeDiscord, home: u64) -> Msg {
    let mut seen: (u64, String) = (0, String::new());
    for _ in 0..200 {
        let (last_id, last_content) = seen.clone();
        let m = fake
            .wait_for("the next turn's board or the end", move |s| {
                s.channel(home)
                    .into_iter()
                    .filter(|m| !m.from_interaction)
                    .filter(|m| m.id > last_id || (m.id == last_id && m.content() != last_content))
                    .find(|m| {
                        m.text().contains(" is over: ")
                            || m.content().contains(&format!("<@{ALICE}>, your move"))
                    })
                    .cloned()
            })
            .await;
        if m.text().contains(" is over: ") {
            return m;
        }
        seen = (m.id, m.content().to_string());
        let t = match m.buttons().into_iter().next() {
            Some((_, id)) => fake.click(ALICE, m.id, &id),
            None => {
                let (sid, opts) = m.selects().into_iter().next().expect("a move to pick");
                fake.select(ALICE, m.id, &sid, &[opts[0].1.as_str()])
            }
        };
        let reply = fake.reply_text(&t).await;
        assert!(reply.contains("Recorded"), "{reply}");
    }
    panic!("the game does not end\n{}", fake.state().dump());
}
