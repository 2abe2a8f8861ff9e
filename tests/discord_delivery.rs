//! Delivery as players feel it on a real server: each user's DM channel is
//! opened once and remembered, games are delivered in parallel, each in
//! order, and a restart loses and doubles nothing.

mod support;

use support::messages::channel_msg;
use support::setup::{lobby_with_bob, start};
use support::{ALICE, BOB, Harness};

const CH: u64 = 2_000_000_000_000_901;

/// How many times the bot opened a DM channel.
fn dm_opens(h: &Harness) -> usize {
    h.fake
        .state()
        .requests
        .iter()
        .filter(|r| r.starts_with("POST /api/v10/users/@me/channels"))
        .count()
}

/// Both players move by DM (a draw: the round is played again).
async fn play_round(h: &Harness, id: i64, round: u32) {
    h.fake.dm(ALICE, &format!("#{id} rock"));
    h.fake.dm(BOB, &format!("#{id} rock"));
    channel_msg(&h.fake, CH, &format!("Round {round}: rock vs rock")).await;
    h.delivered().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_users_dm_channel_is_opened_once_and_remembered_across_restarts() {
    let mut h = Harness::start().await;
    let id = lobby_with_bob(&h, CH, "rps", vec![]).await;
    start(&h, CH).await;
    h.delivered().await;
    for round in 1..=3 {
        play_round(&h, id, round).await;
    }
    // Four prompts each so far, and one channel opened per player.
    assert_eq!(dm_opens(&h), 2, "{}", h.fake.state().requests.join("\n"));
    h.restart().await;
    play_round(&h, id, 4).await;
    assert_eq!(
        dm_opens(&h),
        2,
        "a restart opened the DM channels again:\n{}",
        h.fake.state().requests.join("\n")
    );
    // Every prompt still reached its player's one DM channel.
    for user in [ALICE, BOB] {
        let (prompts, dump) = {
            let s = h.fake.state();
            let n = s
                .dms(user)
                .iter()
                .filter(|m| !m.buttons().is_empty())
                .count();
            (n, s.dump())
        };
        assert!(prompts >= 5, "{user} got {prompts} prompts\n{dump}");
    }
    h.finish().await;
}

/// Plays `rounds` drawn rounds of game `id` with the bot down, so that
/// its announcements wait in the outbox.
fn queue_rounds(h: &Harness, id: i64, rounds: u32) {
    let host = h.offline_host();
    for _ in 0..rounds {
        for user in [ALICE, BOB] {
            host.submit(Some(id), &user.to_string(), "rock").unwrap();
        }
    }
}

/// The ids of the messages in `ch` whose text contains `needle`, in order.
fn ids_with(h: &Harness, ch: u64, needle: &str) -> Vec<u64> {
    h.fake
        .state()
        .channel(ch)
        .iter()
        .filter(|m| m.text().contains(needle))
        .map(|m| m.id)
        .collect()
}

/// Each round's message of `ch` appears once, in the order of the rounds.
fn assert_rounds_once_in_order(h: &Harness, ch: u64, rounds: u32) {
    let mut last = 0;
    for round in 1..=rounds {
        let found = ids_with(h, ch, &format!("Round {round}: rock vs rock"));
        assert_eq!(
            found.len(),
            1,
            "round {round} posted {} times\n{}",
            found.len(),
            h.fake.state().dump()
        );
        assert!(found[0] > last, "round {round} out of order");
        last = found[0];
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooded_channel_does_not_hold_back_another_game() {
    let mut h = Harness::start().await;
    let (busy, quiet) = (CH + 1, CH + 2);
    let flooded = lobby_with_bob(&h, busy, "rps", vec![]).await;
    start(&h, busy).await;
    let other = lobby_with_bob(&h, quiet, "rps", vec![]).await;
    start(&h, quiet).await;
    h.finish().await;
    // With the bot down, the busy game plays many rounds (more channel
    // messages than Discord takes in one channel for several seconds),
    // then the quiet game one.
    h.stop().await;
    let rounds = 12;
    queue_rounds(&h, flooded, rounds);
    queue_rounds(&h, other, 1);
    h.start_again().await;
    // The quiet game's round arrives while the busy channel is still
    // waiting out its rate limit...
    channel_msg(&h.fake, quiet, "Round 1: rock vs rock").await;
    let quiet_at = ids_with(&h, quiet, "Round 1: rock vs rock")[0];
    let busy_done = ids_with(&h, busy, &format!("Round {rounds}: rock vs rock"));
    assert!(
        busy_done.is_empty() || busy_done[0] > quiet_at,
        "the quiet game waited for the flooded channel\n{}",
        h.fake.state().dump()
    );
    // ... and the busy channel still gets every round, once and in order,
    // with every rate limit honoured.
    channel_msg(&h.fake, busy, &format!("Round {rounds}: rock vs rock")).await;
    h.finish().await;
    assert_rounds_once_in_order(&h, busy, rounds);
    h.fake.assert_rate_limits_honoured();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_a_backlog_loses_and_doubles_nothing() {
    let mut h = Harness::start().await;
    let id = lobby_with_bob(&h, CH + 3, "rps", vec![]).await;
    start(&h, CH + 3).await;
    h.finish().await;
    h.stop().await;
    let rounds = 10;
    queue_rounds(&h, id, rounds);
    h.start_again().await;
    // Stop once part of the backlog is out, then start again.
    channel_msg(&h.fake, CH + 3, "Round 3: rock vs rock").await;
    h.restart().await;
    channel_msg(&h.fake, CH + 3, &format!("Round {rounds}: rock vs rock")).await;
    h.finish().await;
    assert_rounds_once_in_order(&h, CH + 3, rounds);
    h.fake.assert_rate_limits_honoured();
}
