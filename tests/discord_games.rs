//! The real engines through the real bot against the fake Discord: a card
//! game from `/game new` to the final score against the AI, a battle played
//! by DM buttons, and a Diplomacy phase with orders by DM resolved at the
//! deadline.

mod support;

use serde_json::json;
use support::commands::{command, opt};
use support::messages::{channel_msg, count_in_channel, dm_after, dm_where, dm_with};
use support::setup::{against_ai, diplomacy_against_holding_ais, lobby_with_bob, start};
use support::*;

const CH: u64 = 3_000_000_000_000_001;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_game_from_game_new_to_the_final_score() {
    let h = Harness::start().await;
    let ch = CH;
    against_ai(
        &h,
        ch,
        "cards",
        vec![
            opt("options", 3, json!("{\"n\": 4, \"m\": 4}")),
            opt("seed", 4, json!(7)),
        ],
    )
    .await;
    channel_msg(&h.fake, ch, "started").await;
    // Alice plays her first offered move (Play or Pass) on the living
    // board each turn until the end.
    let end = support::setup::play_to_the_end(&h, ch).await;
    assert!(
        end.text().contains("wins") || end.text().contains("draw"),
        "{}",
        end.text()
    );
    // The final score is in the channel.
    channel_msg(&h.fake, ch, "Game over").await;
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_turn_by_dm_buttons_reaches_the_channel() {
    let h = Harness::start().await;
    let ch = CH + 1;
    lobby_with_bob(&h, ch, "battle", vec![opt("seed", 4, json!(3))]).await;
    start(&h, ch).await;
    // Both play whatever their newest DM offers until a turn is posted.
    let mut handled = std::collections::HashSet::new();
    let mut rounds = 0;
    // Whether the channel said whom the turn waited for (the line is taken
    // off again once the turn resolves).
    let mut saw_waiting = false;
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
        saw_waiting |= count_in_channel(&h.fake, ch, "waiting for") > 0;
    }
    // The channel saw who the turn waited for, never a DM's content.
    assert!(saw_waiting);
    // Reports name the players, not the engine's seat labels.
    assert_eq!(
        count_in_channel(&h.fake, ch, "Player 1"),
        0,
        "{}",
        h.fake.state().dump()
    );
    h.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_phase_with_orders_by_dm_resolves_at_the_deadline() {
    let h = Harness::start().await;
    let ch = CH + 2;
    diplomacy_against_holding_ais(&h, ch, vec![opt("deadline", 3, json!("1d"))]).await;
    channel_msg(&h.fake, ch, "started").await;
    // The first phase has one prompt, so the newest is the only one.
    let prompt = dm_with(&h.fake, ALICE, "Your move").await;
    // A mistyped order is refused with a hint; the correction is echoed canonically.
    h.fake.dm(ALICE, "A Vie - Tyx");
    let err = dm_after(&h.fake, ALICE, prompt.id, "the error reply").await;
    assert!(
        !err.text().starts_with("Recorded") && err.text().contains("Tyrolia"),
        "{}",
        err.text()
    );
    h.fake.dm(ALICE, "A Vie - Tyr\nF Tri - Alb");
    let ok = dm_after(&h.fake, ALICE, err.id, "the receipt").await;
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
    assert_eq!(count_in_channel(&h.fake, ch, "Vie - Tyr"), 0);
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
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_power_left_by_its_player_is_taken_over_and_the_deadline_extended() {
    let h = Harness::start().await;
    let ch = CH + 3;
    diplomacy_against_holding_ais(&h, ch, vec![]).await;
    channel_msg(&h.fake, ch, "started").await;
    // Nothing is open yet: the refusal says why.
    let refused = command(&h.fake, BOB, ch, &["game", "takeover"], json!([])).await;
    assert!(refused.contains("No seat"), "{refused}");
    // Alice leaves: Austria is in civil disorder and Bob takes it.
    command(&h.fake, ALICE, ch, &["game", "forfeit"], json!([])).await;
    let austria = json!([opt("power", 3, json!("aus"))]);
    let reply = command(&h.fake, BOB, ch, &["game", "takeover"], austria).await;
    assert!(reply.contains("You now play Austria"), "{reply}");
    channel_msg(&h.fake, ch, "Bob takes over Austria").await;
    dm_where(&h.fake, BOB, "Bob's DM prompt", |m| {
        m.text().contains("Your move") && m.text().contains("Austria")
    })
    .await;
    // Bob asks for more time; the channel is told.
    let reply = command(&h.fake, BOB, ch, &["game", "extend"], json!([])).await;
    assert!(reply.contains("The deadline of"), "{reply}");
    channel_msg(&h.fake, ch, "Bob (Austria) asked for more time").await;
    let reply = command(&h.fake, BOB, ch, &["game", "extend"], json!([])).await;
    assert!(reply.contains("already extended"), "{reply}");
    h.finish().await;
}
