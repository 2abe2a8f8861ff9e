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
    let s = h.fake.state();
    for user in [ALICE, BOB] {
        let prompts = s
            .dms(user)
            .iter()
            .filter(|m| !m.buttons().is_empty())
            .count();
        assert!(prompts >= 5, "{user} got {prompts} prompts\n{}", s.dump());
    }
    drop(s);
    h.finish().await;
}
