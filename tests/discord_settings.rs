//! Server settings through the real bot against the fake Discord: games
//! confined to one channel, a game master (by role, not Manage Server)
//! aborting, pausing, extending and giving away seats of someone else's
//! game (to a person, then to an AI) while a plain
//! member is refused, and the fixed daily Diplomacy deadline the bot shows.

mod support;

use serde_json::json;
use support::commands::{command, opt};
use support::messages::{channel_msg, dm_with};
use support::setup::{lobby_with_bob, new_game, start};
use support::*;

const GAMES: u64 = 7_300_000_000_000_001;
const ELSEWHERE: u64 = 7_300_000_000_000_002;
const ROLE: u64 = 7_300_000_000_000_009;
/// A member who joins a game only when a game master gives him a seat.
const DAVE: u64 = 1_000_000_000_000_042;

/// Discord's option types for a channel and a role.
const CHANNEL: u8 = 7;
const ROLE_OPTION: u8 = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_created_only_in_the_listed_channel() {
    let h = Harness::start().await;
    // A plain member may read the settings but not change them.
    let add = json!([
        opt("action", 4, json!(0)),
        opt("channel", CHANNEL, json!(GAMES.to_string()))
    ]);
    let reply = command(
        &h.fake,
        CAROL,
        ELSEWHERE,
        &["settings", "channels"],
        add.clone(),
    )
    .await;
    assert!(
        reply.contains(
            "Only members with Manage Server (or Administrator) or the server's game-master role"
        ),
        "{reply}"
    );
    let t = h
        .fake
        .slash_as(MOD, ELSEWHERE, &["settings", "channels"], add, true, true);
    let reply = h.fake.reply_text(&t).await;
    assert!(
        reply.contains(&format!("Games may be created in <#{GAMES}> now."))
            && reply.contains(&format!("<#{GAMES}> only")),
        "{reply}"
    );
    let shown = command(&h.fake, CAROL, ELSEWHERE, &["settings", "show"], json!([])).await;
    assert!(
        shown.contains(&format!("**Games may be created in:** <#{GAMES}> only.")),
        "{shown}"
    );

    let kind = json!([opt("kind", 3, json!("rps"))]);
    let reply = command(&h.fake, ALICE, ELSEWHERE, &["game", "new"], kind.clone()).await;
    assert!(
        reply.contains(&format!(
            "Games are not created in this channel on this server. Use `/game new` in <#{GAMES}>."
        )),
        "{reply}"
    );
    let reply = command(&h.fake, ALICE, GAMES, &["game", "new"], kind).await;
    assert!(reply.contains("Created rps"), "{reply}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_master_by_role_pauses_extends_replaces_and_aborts_a_game_of_others() {
    let h = Harness::start().await;
    let role = json!([opt("role", ROLE_OPTION, json!(ROLE.to_string()))]);
    // Only Manage Server chooses the role.
    let reply = command(
        &h.fake,
        CAROL,
        GAMES,
        &["settings", "game-master"],
        role.clone(),
    )
    .await;
    assert!(reply.contains("Only members with Manage Server"), "{reply}");
    let t = h
        .fake
        .slash_as(MOD, GAMES, &["settings", "game-master"], role, true, true);
    let reply = h.fake.reply_text(&t).await;
    assert!(
        reply.contains(&format!("Members with <@&{ROLE}> are game masters")),
        "{reply}"
    );
    h.fake.give_roles(CAROL, &[ROLE]);

    lobby_with_bob(&h, GAMES, "rps", vec![opt("deadline", 3, json!("1h"))]).await;
    start(&h, GAMES).await;
    channel_msg(&h.fake, GAMES, "started").await;

    // A plain member of the game may neither abort it nor choose a span.
    let reply = command(&h.fake, BOB, GAMES, &["game", "abort"], json!([])).await;
    assert!(
        reply.contains("Only the creator of rps #1 or a game master of the server can abort it."),
        "{reply}"
    );
    let by = json!([opt("by", 3, json!("2h"))]);
    let reply = command(&h.fake, BOB, GAMES, &["game", "extend"], by.clone()).await;
    assert!(
        reply.contains("Only a game master of this server"),
        "{reply}"
    );

    // The game master pauses at once, resumes, and moves the deadline.
    let reply = command(&h.fake, CAROL, GAMES, &["game", "pause"], json!([])).await;
    assert!(reply.contains("rps #1 is paused"), "{reply}");
    channel_msg(&h.fake, GAMES, "The game master Carol paused rps #1.").await;
    let reply = command(&h.fake, CAROL, GAMES, &["game", "resume"], json!([])).await;
    assert!(reply.contains("runs again"), "{reply}");
    channel_msg(&h.fake, GAMES, "The game master Carol resumed rps #1.").await;
    let reply = command(&h.fake, CAROL, GAMES, &["game", "extend"], by).await;
    let due = (1_800_000_000_000_i64 + 3 * 3_600_000) / 1000;
    assert!(reply.contains(&format!("<t:{due}:R>")), "{reply}");
    channel_msg(
        &h.fake,
        GAMES,
        &format!("The game master Carol moved the deadline of rps #1 2 h later: <t:{due}:f>"),
    )
    .await;

    // The game master gives Bob's seat to Dave, who is prompted; then to
    // an AI. A plain player may not give seats away.
    h.fake.user(DAVE, "Dave");
    let to_dave = json!([
        opt("seat", 3, json!("2")),
        opt("user", 6, json!(DAVE.to_string()))
    ]);
    let reply = command(&h.fake, BOB, GAMES, &["game", "replace"], to_dave.clone()).await;
    assert!(
        reply.contains("Only a game master of this server gives away seats of rps #1"),
        "{reply}"
    );
    let reply = command(&h.fake, CAROL, GAMES, &["game", "replace"], to_dave.clone()).await;
    assert!(reply.contains("has its new player"), "{reply}");
    channel_msg(
        &h.fake,
        GAMES,
        "The game master Carol gave Bob's seat to Dave in rps #1.",
    )
    .await;
    dm_with(&h.fake, DAVE, "Your move").await;
    let reply = command(&h.fake, CAROL, GAMES, &["game", "replace"], to_dave).await;
    assert!(reply.contains("Dave already plays"), "{reply}");
    let to_ai = json!([opt("seat", 3, json!("2"))]);
    let reply = command(&h.fake, CAROL, GAMES, &["game", "replace"], to_ai).await;
    assert!(reply.contains("has its new player"), "{reply}");
    channel_msg(
        &h.fake,
        GAMES,
        "The game master Carol gave Dave's seat to AI (",
    )
    .await;
    // Bob is out: his move is refused; Dave's seat is the AI's now.
    let seats = h.host().seats(1).unwrap();
    assert!(
        matches!(seats[1].occupant, store::Occupant::Ai(_)),
        "{seats:?}"
    );
    assert!(
        !seats
            .iter()
            .any(|s| s.occupant == store::Occupant::User(BOB.to_string())),
        "{seats:?}"
    );

    let reply = command(&h.fake, CAROL, GAMES, &["game", "abort"], json!([])).await;
    assert!(reply.contains("rps #1 is aborted."), "{reply}");
    channel_msg(&h.fake, GAMES, "The game master Carol aborted rps #1.").await;
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_phase_ends_at_the_servers_daily_time() {
    let h = Harness::start().await;
    let bad = json!([
        opt("time", 3, json!("20:00")),
        opt("zone", 3, json!("Europe/Berln"))
    ]);
    let t = h
        .fake
        .slash_as(MOD, GAMES, &["settings", "daily-deadline"], bad, true, true);
    let reply = h.fake.reply_text(&t).await;
    assert!(
        reply.contains(
            "`Europe/Berln` is not a time zone; use an IANA name like `Europe/Berlin` or `America/New_York`."
        ),
        "{reply}"
    );
    let good = json!([
        opt("time", 3, json!("20:00")),
        opt("zone", 3, json!("Europe/Berlin"))
    ]);
    let t = h.fake.slash_as(
        MOD,
        GAMES,
        &["settings", "daily-deadline"],
        good,
        true,
        true,
    );
    let reply = h.fake.reply_text(&t).await;
    assert!(
        reply.contains(
            "every phase of a new Diplomacy game ends at 20:00 Europe/Berlin, at least 12 h"
        ),
        "{reply}"
    );

    new_game(&h, GAMES, "diplomacy", vec![]).await;
    for _ in 0..6 {
        support::setup::add_ai(&h, GAMES, Some("hold")).await;
    }
    start(&h, GAMES).await;
    // The harness's clock stands at 1_800_000_000 s: 15 January 2027,
    // 08:00 UTC, 09:00 in Berlin. 20:00 that day is only 11 h away, less
    // than the 12 h a phase gets, so the phase ends at 20:00 the next day:
    // 16 January 2027, 19:00 UTC.
    let expected = 1_800_000_000 + 11 * 3600 + 24 * 3600;
    let status = command(&h.fake, ALICE, GAMES, &["game", "status"], json!([])).await;
    assert!(
        status.contains(&format!("Deadline: <t:{expected}:R>")),
        "expected the phase to end at <t:{expected}>: {status}"
    );

    // Changing the setting moves no running game.
    let off = json!([opt("time", 3, json!("off"))]);
    let t = h
        .fake
        .slash_as(MOD, GAMES, &["settings", "daily-deadline"], off, true, true);
    let reply = h.fake.reply_text(&t).await;
    assert!(reply.contains("Daily deadline:** off"), "{reply}");
    let status = command(&h.fake, ALICE, GAMES, &["game", "status"], json!([])).await;
    assert!(
        status.contains(&format!("Deadline: <t:{expected}:R>")),
        "{status}"
    );
    h.finish().await;
}
