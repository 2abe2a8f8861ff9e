//! Gateway shards, with the real `gamehost run` binary against a fake
//! Discord that shards as Discord does (a guild's events on shard
//! `(guild_id >> 22) % total`, DMs on shard 0 only): one process runs every
//! shard, and bad `--shards` flags are refused before connecting.

mod support;

use support::commands::press_reply;
use support::fake_discord::{FakeDiscord, GUILD_ON_SHARD_0, TOKEN};
use support::messages::{channel_msg, prompt_after};
use support::process::spawn_with;
use support::setup::{battle_between, thread_of};
use support::{ALICE, BOB, CAROL, MOD};

/// A channel of the fake's main guild (shard 1 of 2).
const CH_SHARD_1: u64 = 2_600_000_000_000_001;
/// A channel of [`GUILD_ON_SHARD_0`].
const CH_SHARD_0: u64 = 2_600_000_000_000_002;

async fn fake_with_users(shards: u32) -> FakeDiscord {
    let fake = FakeDiscord::start_sharded(shards).await;
    for (id, name) in [
        (ALICE, "Alice"),
        (BOB, "Bob"),
        (CAROL, "Carol"),
        (MOD, "Dan"),
    ] {
        fake.user(id, name);
    }
    fake.put_channel_in_guild(CH_SHARD_0, GUILD_ON_SHARD_0);
    fake
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_runs_every_shard_and_dms_on_shard_0_move_games_of_both_guilds() {
    let fake = fake_with_users(2).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let bin = spawn_with(dir.path(), &db, TOKEN, &fake, &[], &["--shard-total", "2"]);
    fake.wait_shards(&[0, 1]).await;
    fake.wait_commands().await;
    let shards: Vec<String> = fake
        .state()
        .identifies
        .iter()
        .map(|i| i["shard"].to_string())
        .collect();
    assert_eq!(shards.len(), 2, "{shards:?}");
    assert!(shards.contains(&"[0,2]".to_string()), "{shards:?}");
    assert!(shards.contains(&"[1,2]".to_string()), "{shards:?}");

    // A battle in each guild: the slash commands and the lobby's button
    // arrive on each guild's own shard.
    battle_between(&fake, CH_SHARD_1, ALICE, BOB, 5).await;
    battle_between(&fake, CH_SHARD_0, CAROL, MOD, 5).await;

    // Every move is a button in a DM, so it arrives on shard 0, whichever
    // guild the game is in; both games resolve their first turn.
    for (a, b, ch) in [(ALICE, BOB, CH_SHARD_1), (CAROL, MOD, CH_SHARD_0)] {
        let pa = prompt_after(&fake, a, 0).await;
        let pb = prompt_after(&fake, b, 0).await;
        for (user, p) in [(a, &pa), (b, &pb)] {
            let receipt = press_reply(&fake, user, p, &p.buttons()[0].0).await;
            assert!(receipt.contains("Recorded"), "{receipt}");
        }
        // The game plays in a thread opened from its lobby message.
        let thread = thread_of(&fake, ch).await;
        channel_msg(&fake, thread, "Turn 2 of").await;
    }
    let rejected = fake.state().rejected.clone();
    assert!(rejected.is_empty(), "{rejected:?}");
    bin.signal("INT");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("shards 0 to 1 of 2"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_shard_flags_are_refused_before_connecting() {
    let fake = fake_with_users(2).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    for (args, says) in [
        (
            &["--shards", "0..3", "--shard-total", "2"][..],
            "goes past `--shard-total 2`: shards are numbered 0 to 1",
        ),
        (
            &["--shards", "1..1", "--shard-total", "2"][..],
            "names no shard",
        ),
        (&["--shard-total", "0"][..], "must be 1 to 4096"),
    ] {
        let bin = spawn_with(dir.path(), &db, TOKEN, &fake, &[], args);
        let (code, out) = bin.exit().await;
        assert_eq!(code, Some(1), "{args:?}:\n{out}");
        assert!(out.contains(says), "{args:?}:\n{out}");
        assert!(out.contains("e.g. `--shards 0..2"), "{args:?}:\n{out}");
    }
    assert_eq!(fake.state().sessions, 0, "a refused start connected");
    assert!(!db.exists(), "a refused start created the database");
}
