//! `/privacy show` and `/privacy delete` through the real bot against the
//! fake Discord (issue 34): Alice has a finished game, a running one, a
//! lobby and a remembered DM channel; `/privacy show` lists them; `/privacy
//! delete` asks first, Cancel keeps everything, Delete forfeits the running
//! game (announced in its channel), closes her lobby, and afterwards
//! neither her id nor her name is in any column of any table of the bot's
//! database, while the finished game's history keeps its result under
//! "Former player".

mod support;

use serde_json::json;
use support::commands::{command, opt, press};
use support::fake_discord::Msg;
use support::messages::{channel_msg, dm_with};
use support::setup::{against_ai, battle_between, new_game, play_to_the_end};
use support::*;

const FINISHED: u64 = 3_000_000_000_000_701;
const RUNNING: u64 = 3_000_000_000_000_702;
const LOBBY: u64 = 3_000_000_000_000_703;
/// Alice's name for this test: found nowhere but where the bot stored it.
const NAME: &str = "Zephyrine Quill";

/// Prints what a person reads, so a run shows the whole conversation.
fn transcript(who: &str, text: &str) {
    eprintln!("--- {who}:\n{text}\n");
}

/// `/privacy <sub>` as Alice in `ch` (a server channel, or her DM): the reply.
async fn privacy(h: &Harness, ch: u64, sub: &str, in_guild: bool) -> Msg {
    let t = h
        .fake
        .slash_as(ALICE, ch, &["privacy", sub], json!([]), in_guild, false);
    let replies = h.fake.replies(&t).await;
    let reply = replies.into_iter().next().expect("a reply");
    assert!(reply.ephemeral, "/privacy answers only the asker");
    reply
}

/// Presses `label` on `/privacy delete`'s question and waits for the
/// question to be replaced by the answer (its buttons gone).
async fn answer(h: &Harness, question: &Msg, label: &str) -> Msg {
    press(&h.fake, ALICE, question, label);
    let id = question.id;
    h.fake
        .wait_for("the question answered in place", move |s| {
            s.message(id).filter(|m| m.buttons().is_empty()).cloned()
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn privacy_delete_forgets_alice_everywhere_after_asking() {
    let h = Harness::start().await;
    h.fake.user(ALICE, NAME);
    let alice = ALICE.to_string();

    // A finished cards game against the AI.
    against_ai(
        &h,
        FINISHED,
        "cards",
        vec![
            opt("options", 3, json!("{\"n\": 4, \"m\": 4}")),
            opt("seed", 4, json!(7)),
        ],
    )
    .await;
    play_to_the_end(&h, FINISHED).await;
    // A running battle against Bob, played by DM (her DM channel is remembered).
    let battle = battle_between(&h.fake, RUNNING, ALICE, BOB, 3).await;
    dm_with(&h.fake, ALICE, "battle").await;
    // A lobby she created.
    let lobby = new_game(&h, LOBBY, "cards", vec![]).await;
    h.delivered().await;

    let shown = privacy(&h, FINISHED, "show", true).await;
    transcript("Alice: /privacy show", &shown.text());
    let text = shown.text();
    for part in [
        format!("1 game running (battle #{battle})"),
        format!("lobbies you created: cards #{lobby}"),
        "1 finished game".to_string(),
        "your DM channel is remembered".to_string(),
        "/privacy delete".to_string(),
    ] {
        assert!(text.contains(&part), "{part}: {text}");
    }
    // The same in her DM.
    let dm = h.fake.dm_channel(ALICE);
    let in_dm = privacy(&h, dm, "show", false).await;
    assert!(in_dm.text().contains("1 finished game"), "{}", in_dm.text());

    // Cancel keeps everything.
    let question = privacy(&h, FINISHED, "delete", true).await;
    transcript("Alice: /privacy delete", &question.text());
    let q = question.text();
    assert!(
        q.contains(&format!("battle #{battle}")) && q.contains("forfeit"),
        "{q}"
    );
    assert!(q.contains(&format!("cards #{lobby}")), "{q}");
    assert!(q.contains("cannot be undone"), "{q}");
    assert!(
        q.contains("Your finished game keeps its result, under the name \"Former player\""),
        "{q}"
    );
    let cancelled = answer(&h, &question, "Cancel").await;
    transcript("Alice presses Cancel", &cancelled.text());
    assert!(cancelled.text().contains("nothing was deleted"));
    let again = privacy(&h, FINISHED, "show", true).await;
    assert_eq!(again.text(), shown.text(), "Cancel changed something");

    // Delete: the battle is forfeited in its channel, the lobby closed.
    let question = privacy(&h, FINISHED, "delete", true).await;
    let deleted = answer(&h, &question, "Delete my data").await;
    transcript("Alice presses Delete my data", &deleted.text());
    let d = deleted.text();
    assert!(
        d.contains("Deleted") && d.contains(&format!("forfeited battle #{battle}")),
        "{d}"
    );
    assert!(d.contains(&format!("Closed: cards #{lobby}")), "{d}");
    // The cards game and the battle she just forfeited.
    assert!(
        d.contains("Your 2 finished games keep their results"),
        "{d}"
    );
    let forfeit = channel_msg(&h.fake, RUNNING, "forfeits").await;
    transcript("#running", &forfeit.text());
    let closed = channel_msg(&h.fake, LOBBY, "aborted").await;
    transcript("#lobby", &closed.text());
    h.delivered().await;

    // Neither her id nor her name is left in any column of any table.
    let store = store::Store::open_read_only(&h.db).expect("open the bot's database");
    for needle in [alice.as_str(), NAME, "zephyrine"] {
        assert_eq!(
            store.columns_containing(needle).unwrap(),
            Vec::<(String, i64)>::new(),
            "{needle} is still stored"
        );
    }

    // The finished game still shows its result, under the anonymous name.
    let history = command(&h.fake, BOB, FINISHED, &["game", "history"], json!([])).await;
    transcript("Bob: /game history (the finished game)", &history);
    assert!(history.contains("Former player"), "{history}");
    assert!(!history.contains(NAME), "{history}");
    // And she has nothing stored now.
    let after = privacy(&h, FINISHED, "show", true).await;
    assert!(
        after.text().contains("**About you now:** nothing."),
        "{}",
        after.text()
    );
    h.finish().await;
}
