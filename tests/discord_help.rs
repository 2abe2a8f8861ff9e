//! Help, rules and the greeting through the real bot against the fake
//! Discord (issue 34): `/help` answers by where it is asked (a channel, a
//! lobby, a game, a DM), `/rules` shows the engine's rules (the battle's
//! type chart and formula; Diplomacy with the reader's own units), both
//! only to the asker, and a server the bot joins is greeted once.

mod support;

use serde_json::json;
use support::commands::opt;
use support::fake_discord::{FakeDiscord, Msg};
use support::setup::{diplomacy_against_holding_ais, new_game};
use support::*;

const CH: u64 = 3_000_000_000_000_341;

/// The replies to `/path` as `user` in `ch` (`in_guild` false: a DM).
async fn ask(
    fake: &FakeDiscord,
    user: u64,
    ch: u64,
    path: &[&str],
    options: serde_json::Value,
    in_guild: bool,
) -> Vec<Msg> {
    let token = fake.slash_as(user, ch, path, options, in_guild, false);
    fake.reply_text(&token).await;
    fake.replies(&token).await
}

/// The text of replies that must all be ephemeral.
fn private_text(replies: &[Msg]) -> String {
    assert!(replies.iter().all(|m| m.ephemeral), "a reply was public");
    replies
        .iter()
        .map(|m| m.text())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_answers_by_where_it_is_asked_and_only_to_the_asker() {
    let h = Harness::start().await;
    let f = &h.fake;
    let text = private_text(&ask(f, BOB, CH, &["help"], json!([]), true).await);
    assert!(text.contains("`/game new`"), "{text}");
    assert!(text.contains("`/settings show`"), "{text}");
    assert!(
        text.contains("battle") && text.contains("diplomacy"),
        "{text}"
    );
    new_game(&h, CH, "cards", vec![]).await;
    let text = private_text(&ask(f, BOB, CH, &["help"], json!([]), true).await);
    assert!(text.contains("waits in its lobby"), "{text}");
    assert!(text.contains("**Join**"), "{text}");
    let dm = f.dm_channel(ALICE);
    let text = private_text(&ask(f, ALICE, dm, &["help"], json!([]), false).await);
    assert!(text.contains("In this DM"), "{text}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_show_the_type_chart_and_a_powers_own_units() {
    let h = Harness::start().await;
    let f = &h.fake;
    let battle_replies = ask(
        f,
        BOB,
        CH + 1,
        &["rules"],
        json!([opt("game", 3, json!("battle"))]),
        true,
    )
    .await;
    let battle = private_text(&battle_replies);
    assert!(battle.contains("**Type chart**"), "{battle}");
    // The chart is also attached as an image, with alt text naming what
    // each type is strong against.
    let files: Vec<_> = battle_replies
        .iter()
        .flat_map(|m| m.files.clone())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].filename, "type-chart.png");
    let chart = resvg::tiny_skia::Pixmap::decode_png(&files[0].data).expect("a PNG");
    assert!(
        chart.width() > 400 && chart.height() > 400,
        "{}x{}",
        chart.width(),
        chart.height()
    );
    let alt = files[0].description.clone().unwrap_or_default();
    assert!(
        alt.starts_with("Type chart.") && alt.contains(" Flame: 2× vs "),
        "{alt}"
    );
    assert!(
        battle.contains("`floor((α × d × A / B + β) × e)`"),
        "{battle}"
    );
    assert!(battle.contains("Flam     .5   .5    2"), "{battle}");
    let puzzle = private_text(
        &ask(
            f,
            BOB,
            CH + 1,
            &["rules"],
            json!([opt("game", 3, json!("puzzle"))]),
            true,
        )
        .await,
    );
    assert!(puzzle.contains("`*`"), "{puzzle}");
    // Alice plays Austria, in a thread of its own: in a DM her rules name
    // her units.
    f.allow_threads();
    diplomacy_against_holding_ais(&h, CH + 2, vec![]).await;
    let dm = f.dm_channel(ALICE);
    let mine = private_text(
        &ask(
            f,
            ALICE,
            dm,
            &["rules"],
            json!([opt("game", 3, json!("diplomacy"))]),
            false,
        )
        .await,
    );
    assert!(mine.contains("`A Par - Bur`"), "{mine}");
    assert!(
        mine.contains("**You are Austria.** Your units: A Vie, A Bud, F Tri."),
        "{mine}"
    );
    // Bob plays nothing: the general rules only.
    let general = private_text(
        &ask(
            f,
            BOB,
            CH + 1,
            &["rules"],
            json!([opt("game", 3, json!("diplomacy"))]),
            true,
        )
        .await,
    );
    assert!(!general.contains("You are"), "{general}");
    // The kind's rules list the setups a new game may choose.
    assert!(
        general.contains("`map=ancient_med`: Ancient Mediterranean, 5 powers")
            && general.contains("`variant=fva` (France vs Austria)"),
        "{general}"
    );
    // In the game's thread Alice is told she plays there and how.
    let thread = support::setup::thread_of(f, CH + 2).await;
    // The bot knows the thread as the game's home once it has posted there
    // (the fake lists the thread as soon as it is created).
    f.wait_for("the game's first post in its thread", move |s| {
        (!s.channel(thread).is_empty()).then_some(())
    })
    .await;
    let text = private_text(&ask(f, ALICE, thread, &["help"], json!([]), true).await);
    assert!(text.contains("You play in diplomacy #"), "{text}");
    assert!(text.contains("by DM"), "{text}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_the_bot_joins_is_greeted_once_where_it_may_write() {
    let h = Harness::start().await;
    let f = &h.fake;
    let guild = 9_100_000_000_000_001;
    let (muted, open, later) = (CH + 10, CH + 11, CH + 12);
    f.mute_channel(muted);
    // No system channel: the first text channel that takes a message.
    f.join_guild(guild, None, &[muted, open, later]);
    let greeting = support::messages::channel_msg(f, open, "/game new").await;
    assert!(greeting.text().contains("/rules"), "{}", greeting.text());
    // Joined again (a reconnect, or removed and invited back): no second greeting.
    f.join_guild(guild, None, &[muted, open, later]);
    // A second server with a system channel is greeted there.
    let other = 9_100_000_000_000_002;
    let system = CH + 13;
    f.join_guild(other, Some(system), &[CH + 14, system]);
    support::messages::channel_msg(f, system, "/game new").await;
    h.finish().await;
    let state = f.state();
    let greetings = |ch: u64| {
        state
            .channel(ch)
            .iter()
            .filter(|m| m.text().contains("/game new"))
            .count()
    };
    assert_eq!(greetings(open), 1);
    assert_eq!(greetings(later) + greetings(muted) + greetings(CH + 14), 0);
}
