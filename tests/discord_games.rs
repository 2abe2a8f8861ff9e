//! The real engines through the real bot against the fake Discord: a card
//! game from `/game new` to the final score against the AI, a battle played
//! by DM buttons, and a Diplomacy phase with orders by DM resolved at the
//! deadline.

mod support;

use serde_json::json;
use support::fake_discord::{FakeDiscord, Msg};
use support::*;

const CH: u64 = 3_000_000_000_000_001;

fn opt(name: &str, kind: u8, value: serde_json::Value) -> serde_json::Value {
    json!({"name": name, "type": kind, "value": value})
}

async fn channel_msg(fake: &FakeDiscord, ch: u64, needle: &str) -> Msg {
    let n = needle.to_string();
    fake.wait_for(
        &format!("a channel message containing {needle:?}"),
        move |s| {
            s.channel(ch)
                .into_iter()
                .rev()
                .find(|m| m.text().contains(&n))
                .cloned()
        },
    )
    .await
}

/// The newest message (channel or DM) after `after` that either matches
/// `prompt` or contains `end`.
async fn next(fake: &FakeDiscord, after: u64, prompt: impl Fn(&Msg) -> bool, end: &str) -> Msg {
    let end = end.to_string();
    fake.wait_for("the next prompt or the end", move |s| {
        s.messages
            .iter()
            .filter(|m| m.id > after && !m.ephemeral)
            .find(|m| prompt(m) || m.text().contains(&end))
            .cloned()
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_game_from_game_new_to_the_final_score() {
    let h = Harness::start().await;
    let ch = CH;
    let t = h.fake.slash(
        ALICE,
        ch,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("cards")),
            opt("options", 3, json!("{\"n\": 4, \"m\": 4}")),
            opt("seed", 4, json!(7))
        ]),
    );
    assert!(h.fake.reply_text(&t).await.contains("Created cards"));
    let t = h.fake.slash(ALICE, ch, &["game", "ai"], json!([]));
    assert!(h.fake.reply_text(&t).await.contains("AI"));
    let t = h.fake.slash(ALICE, ch, &["game", "start"], json!([]));
    h.fake.reply_text(&t).await;
    channel_msg(&h.fake, ch, "started").await;
    let mut after = 0;
    let mut clicks = 0;
    loop {
        let m = next(
            &h.fake,
            after,
            |m| m.content().starts_with(&format!("<@{ALICE}>")) && !m.buttons().is_empty(),
            "is over",
        )
        .await;
        if m.text().contains("is over") {
            assert!(
                m.text().contains("wins") || m.text().contains("draw"),
                "{}",
                m.text()
            );
            break;
        }
        after = m.id;
        let (label, id) = m.buttons().into_iter().next().unwrap();
        assert!(
            label.starts_with("Play") || label.starts_with("Pass"),
            "{label}"
        );
        let t = h.fake.click(ALICE, m.id, &id);
        assert!(h.fake.reply_text(&t).await.contains("Recorded"));
        clicks += 1;
        assert!(clicks < 40, "the game does not end");
    }
    // The final score is in the channel.
    channel_msg(&h.fake, ch, "Game over").await;
    h.delivered().await;
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_turn_by_dm_buttons_reaches_the_channel() {
    let h = Harness::start().await;
    let ch = CH + 1;
    let t = h.fake.slash(
        ALICE,
        ch,
        &["game", "new"],
        json!([opt("kind", 3, json!("battle")), opt("seed", 4, json!(3))]),
    );
    let r = h.fake.reply_text(&t).await;
    assert!(r.contains("Created battle"), "{r}");
    let lobby = channel_msg(&h.fake, ch, "Alice created").await;
    let t = h.fake.click(BOB, lobby.id, &lobby.button("Join").unwrap());
    h.fake.reply_text(&t).await;
    let t = h.fake.slash(ALICE, ch, &["game", "start"], json!([]));
    h.fake.reply_text(&t).await;
    // Both play whatever their newest DM offers until a turn is posted.
    let mut handled = std::collections::HashSet::new();
    let mut rounds = 0;
    loop {
        // A resolved turn shows the next turn's board ("Turn 1 of 100" is
        // already in the start message).
        let turn_posted = h
            .fake
            .state()
            .channel(ch)
            .iter()
            .any(|m| m.text().contains("Turn 2 of") || m.text().contains("is over"));
        if turn_posted {
            break;
        }
        let seen = handled.clone();
        let m = h
            .fake
            .wait_for("a DM prompt with choices", move |s| {
                s.messages
                    .iter()
                    .find(|m| {
                        m.dm_user.is_some()
                            && !seen.contains(&m.id)
                            && (!m.buttons().is_empty() || !m.selects().is_empty())
                    })
                    .cloned()
            })
            .await;
        handled.insert(m.id);
        let user = m.dm_user.unwrap();
        let t = match m.buttons().into_iter().next() {
            Some((_, id)) => h.fake.click(user, m.id, &id),
            None => {
                let (sid, opts) = m.selects().into_iter().next().unwrap();
                h.fake.select(user, m.id, &sid, &[opts[0].1.as_str()])
            }
        };
        let r = h.fake.reply_text(&t).await;
        rounds += 1;
        assert!(
            rounds < 30,
            "no turn after 30 choices: {r}\n{}",
            h.fake.state().dump()
        );
        // Wait until this choice's consequences are delivered.
        h.delivered().await;
    }
    // The channel saw who moved, never a DM's content.
    assert!(
        h.fake
            .state()
            .channel(ch)
            .iter()
            .any(|m| m.text().contains("has moved"))
    );
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_phase_with_orders_by_dm_resolves_at_the_deadline() {
    let h = Harness::start().await;
    let ch = CH + 2;
    let t = h.fake.slash(
        ALICE,
        ch,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("diplomacy")),
            opt("deadline", 3, json!("1d"))
        ]),
    );
    assert!(h.fake.reply_text(&t).await.contains("Created diplomacy"));
    for _ in 0..6 {
        let t = h.fake.slash(
            ALICE,
            ch,
            &["game", "ai"],
            json!([opt("level", 3, json!("hold"))]),
        );
        assert!(h.fake.reply_text(&t).await.contains("AI"));
    }
    let t = h.fake.slash(ALICE, ch, &["game", "start"], json!([]));
    h.fake.reply_text(&t).await;
    channel_msg(&h.fake, ch, "started").await;
    let prompt = h
        .fake
        .wait_for("Alice's DM prompt", |s| {
            s.dms(ALICE)
                .into_iter()
                .find(|m| m.text().contains("Your move"))
                .cloned()
        })
        .await;
    // A mistyped order is refused with a hint; the correction is echoed canonically.
    h.fake.dm(ALICE, "A Vie - Tyx");
    let after = prompt.id;
    let err = h
        .fake
        .wait_for("the error reply", move |s| {
            s.dms(ALICE).into_iter().find(|m| m.id > after).cloned()
        })
        .await;
    assert!(
        !err.text().starts_with("Recorded") && err.text().contains("Tyrolia"),
        "{}",
        err.text()
    );
    h.fake.dm(ALICE, "A Vie - Tyr\nF Tri - Alb");
    let after = err.id;
    let ok = h
        .fake
        .wait_for("the receipt", move |s| {
            s.dms(ALICE).into_iter().find(|m| m.id > after).cloned()
        })
        .await;
    assert!(ok.text().starts_with("Recorded"), "{}", ok.text());
    assert!(
        ok.text().contains("Tyr") || ok.text().contains("tyr"),
        "{}",
        ok.text()
    );
    // `/orders` in the DM lists them; the channel does not see them.
    let dm = h.fake.dm_channel(ALICE);
    let t = h
        .fake
        .slash_as(ALICE, dm, &["orders"], json!([]), false, false);
    let listed = h.fake.reply_text(&t).await;
    assert!(listed.to_lowercase().contains("alb"), "{listed}");
    assert!(
        h.fake
            .state()
            .channel(ch)
            .iter()
            .all(|m| !m.text().contains("Vie - Tyr"))
    );
    // The deadline passes: the phase resolves with the orders as sent.
    h.delivered().await;
    let before = h.fake.state().channel(ch).len();
    h.advance(86_400_000 + 1_000);
    channel_msg(&h.fake, ch, "Time is up").await;
    h.fake
        .wait_for("the phase result", move |s| {
            (s.channel(ch).len() > before + 1).then_some(())
        })
        .await;
    h.delivered().await;
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_power_left_by_its_player_is_taken_over_and_the_deadline_extended() {
    let h = Harness::start().await;
    let ch = CH + 3;
    let t = h.fake.slash(
        ALICE,
        ch,
        &["game", "new"],
        json!([opt("kind", 3, json!("diplomacy"))]),
    );
    assert!(h.fake.reply_text(&t).await.contains("Created diplomacy"));
    for _ in 0..6 {
        let t = h.fake.slash(
            ALICE,
            ch,
            &["game", "ai"],
            json!([opt("level", 3, json!("hold"))]),
        );
        h.fake.reply_text(&t).await;
    }
    let t = h.fake.slash(ALICE, ch, &["game", "start"], json!([]));
    h.fake.reply_text(&t).await;
    channel_msg(&h.fake, ch, "started").await;
    // Nothing is open yet: the refusal says why.
    let t = h.fake.slash(BOB, ch, &["game", "takeover"], json!([]));
    let refused = h.fake.reply_text(&t).await;
    assert!(refused.contains("No seat"), "{refused}");
    // Alice leaves: Austria is in civil disorder and Bob takes it.
    let t = h.fake.slash(ALICE, ch, &["game", "forfeit"], json!([]));
    h.fake.reply_text(&t).await;
    let t = h.fake.slash(
        BOB,
        ch,
        &["game", "takeover"],
        json!([opt("power", 3, json!("aus"))]),
    );
    let reply = h.fake.reply_text(&t).await;
    assert!(reply.contains("You now play Austria"), "{reply}");
    channel_msg(&h.fake, ch, "Bob takes over Austria").await;
    h.fake
        .wait_for("Bob's DM prompt", |s| {
            s.dms(BOB)
                .into_iter()
                .find(|m| m.text().contains("Your move") && m.text().contains("Austria"))
                .cloned()
        })
        .await;
    // Bob asks for more time; the channel is told.
    let t = h.fake.slash(BOB, ch, &["game", "extend"], json!([]));
    let reply = h.fake.reply_text(&t).await;
    assert!(reply.contains("The deadline of"), "{reply}");
    channel_msg(&h.fake, ch, "Bob (Austria) asked for more time").await;
    let t = h.fake.slash(BOB, ch, &["game", "extend"], json!([]));
    let reply = h.fake.reply_text(&t).await;
    assert!(reply.contains("already extended"), "{reply}");
    h.delivered().await;
    h.assert_clean();
}
