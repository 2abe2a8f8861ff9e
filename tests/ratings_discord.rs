//! Ratings through the real bot against the fake Discord: the final
//! message, `/game leaderboard`, `/game profile` and the rating options of
//! `/game new`, read as a player reads them.

mod support;

use serde_json::json;
use support::commands::{command, opt};
use support::messages::channel_msg;
use support::setup::{lobby_with_bob, new_game, start};
use support::*;

const CH: u64 = 3_000_000_000_000_181;
const CH2: u64 = 3_000_000_000_000_182;

fn at(user: u64) -> String {
    format!("<@{user}>")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_shows_on_the_final_message_the_leaderboard_and_the_profiles() {
    let h = Harness::start().await;
    lobby_with_bob(&h, CH, "rps", vec![]).await;
    start(&h, CH).await;
    channel_msg(&h.fake, CH, "started").await;
    command(&h.fake, BOB, CH, &["game", "forfeit"], json!([])).await;
    let end = channel_msg(&h.fake, CH, "Ratings:").await;
    assert!(
        end.text()
            .contains("Ratings: Alice 1500 → 1662 (+162), Bob 1500 → 1338 (-162)."),
        "{}",
        end.text()
    );

    let board = command(
        &h.fake,
        ALICE,
        CH,
        &["game", "leaderboard"],
        json!([opt("kind", 3, json!("rps"))]),
    )
    .await;
    assert_eq!(
        board,
        format!(
            "**rps leaderboard** (page 1 of 1, 2 rated players)\n\
             1. {} 1662 ± 290 (1 game)\n\
             2. {} 1338 ± 290 (1 game)\n\
             You: place 1 of 2, 1662 ± 290.",
            at(ALICE),
            at(BOB)
        )
    );
    // Without a kind: every rated game; Carol is not on it.
    let board = command(&h.fake, CAROL, CH, &["game", "leaderboard"], json!([])).await;
    assert!(board.starts_with("**rps leaderboard**"), "{board}");
    assert!(
        board.ends_with("You are not rated in rps here yet."),
        "{board}"
    );

    let mine = command(&h.fake, BOB, CH, &["game", "profile"], json!([])).await;
    let lines: Vec<&str> = mine.lines().collect();
    assert_eq!(
        lines[0],
        format!("**Profile of {}** in this server", at(BOB))
    );
    assert_eq!(
        lines[1],
        "**rps**: 1338 ± 290, place 2 · 1 game: 0 wins, 0 draws, 0 losses, 1 forfeit · \
         streak: 1 loss"
    );
    assert_eq!(
        lines[2],
        "Reliability: 100% (0 missed deadlines in 0 turns, 0 civil disorders)"
    );
    assert_eq!(lines[3], "Recent games:");
    assert!(
        lines[4].starts_with("• [rps #1](https://discord.com/channels/")
            && lines[4].ends_with(": forfeit, 1500 → 1338 (-162)"),
        "{}",
        lines[4]
    );
    // Another player's profile, by the user option.
    let hers = command(
        &h.fake,
        BOB,
        CH,
        &["game", "profile"],
        json!([opt("user", 6, json!(ALICE.to_string()))]),
    )
    .await;
    assert!(
        hers.starts_with(&format!("**Profile of {}**", at(ALICE))),
        "{hers}"
    );
    assert!(
        hers.contains("1 game: 1 win, 0 draws, 0 losses, 0 forfeits · streak: 1 win"),
        "{hers}"
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_takes_rated_scoring_and_a_minimum_reliability() {
    let h = Harness::start().await;
    // Scoring is for games of many players; a percentage is at most 100.
    let reply = command(
        &h.fake,
        ALICE,
        CH2,
        &["game", "new"],
        json!([opt("kind", 3, json!("rps")), opt("scoring", 4, json!(1))]),
    )
    .await;
    assert!(reply.contains("no scoring to choose"), "{reply}");
    let reply = command(
        &h.fake,
        ALICE,
        CH2,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("rps")),
            opt("min_reliability", 4, json!(101))
        ]),
    )
    .await;
    assert!(reply.contains("from 0 to 100, not 101"), "{reply}");
    // Nothing was created by either.
    assert!(
        h.host()
            .game_in_channel(&CH2.to_string())
            .unwrap()
            .is_none()
    );

    // An unrated game between people.
    new_game(&h, CH2, "rps", vec![opt("rated", 5, json!(false))]).await;
    let lobby = channel_msg(&h.fake, CH2, "Alice created").await;
    support::commands::press_reply(&h.fake, BOB, &lobby, "Join").await;
    start(&h, CH2).await;
    command(&h.fake, BOB, CH2, &["game", "forfeit"], json!([])).await;
    let end = channel_msg(&h.fake, CH2, "Not rated").await;
    assert!(
        end.text()
            .contains("Not rated: its creator made it unrated."),
        "{}",
        end.text()
    );
    let board = command(&h.fake, ALICE, CH2, &["game", "leaderboard"], json!([])).await;
    assert!(
        board.starts_with("Nobody is rated in this server yet."),
        "{board}"
    );
    let mine = command(&h.fake, ALICE, CH2, &["game", "profile"], json!([])).await;
    assert!(mine.contains("**rps**: unrated · 1 game: 1 win"), "{mine}");
    assert!(mine.contains(": win, unrated"), "{mine}");
    h.finish().await;
}

const CH3: u64 = 3_000_000_000_000_183;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_opts_the_server_in_to_rating_ai_seats() {
    let h = Harness::start().await;
    let options = json!([opt("ai_seats", 5, json!(true))]);
    let refused = command(&h.fake, ALICE, CH3, &["game", "ratings"], options.clone()).await;
    assert!(
        refused.contains("Only members with Manage Server"),
        "{refused}"
    );
    let t = h
        .fake
        .slash_as(MOD, CH3, &["game", "ratings"], options, true, true);
    let done = h.fake.reply_text(&t).await;
    assert!(
        done.starts_with("Games with AI seats are now rated"),
        "{done}"
    );

    support::setup::against_ai(&h, CH3, "rps", vec![]).await;
    channel_msg(&h.fake, CH3, "started").await;
    command(&h.fake, ALICE, CH3, &["game", "forfeit"], json!([])).await;
    let end = channel_msg(&h.fake, CH3, "Ratings:").await;
    assert!(
        end.text()
            .contains("Alice 1500 → 1338 (-162), AI (random) 1500 → 1662 (+162)."),
        "{}",
        end.text()
    );
    let board = command(&h.fake, ALICE, CH3, &["game", "leaderboard"], json!([])).await;
    assert!(
        board.contains("\n1. AI (random) 1662 ± 290 (1 game)\n"),
        "{board}"
    );
    h.finish().await;
}
