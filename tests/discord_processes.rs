//! Two `gamehost run` processes on one PostgreSQL database, each running
//! one of a two-shard bot's gateway shards, against the fake Discord:
//! games in guilds on both shards, DMs (shard 0 only) acting on a game of
//! the other process's guild, final submissions arriving through both
//! processes at once resolving each turn once, and a `kill -9` of one
//! process losing no acknowledged move while the other fires the deadline.
//!
//! Needs a PostgreSQL server (`GAMEHOST_TEST_PG_URL`); without one it says
//! `SKIPPED` loudly, and fails under `GAMEHOST_REQUIRE_POSTGRES=1` (CI).

mod support;

use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};
use store::Store;
use support::commands::{opt, press_reply};
use support::fake_discord::{FakeDiscord, GUILD_ON_SHARD_0, Msg, TOKEN};
use support::host_builder::fresh_database;
use support::messages::{channel_msg, prompt_after};
use support::process::{Bin, spawn_with};
use support::setup::{battle_between, thread_of};
use support::{ALICE, BOB, CAROL, MOD};

/// A channel of the fake's main guild (shard 1 of 2).
const CH_SHARD_1: u64 = 2_800_000_000_000_001;
/// A channel of [`GUILD_ON_SHARD_0`].
const CH_SHARD_0: u64 = 2_800_000_000_000_002;
/// The battle turn length both processes use (the engine's minimum).
const TURN_SECONDS: &str = "30";

/// `gamehost run --shards <shard> --shard-total 2` on the database `url`.
fn process(dir: &Path, url: &str, fake: &FakeDiscord, shard: &str) -> Bin {
    spawn_with(
        dir,
        &dir.join("unused.db"),
        TOKEN,
        fake,
        &[
            ("GAMEHOST_DATABASE_URL", url),
            ("GAMEHOST_DEADLINES_BATTLE_SECONDS", TURN_SECONDS),
        ],
        &["--shards", shard, "--shard-total", "2"],
    )
}

/// Reads the shared database (the sync driver must run off the async workers).
async fn on_store<T: Send + 'static>(url: &str, f: impl FnOnce(&Store) -> T + Send + 'static) -> T {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || {
        let store = Store::open_postgres(&url).expect("open the shared database");
        f(&store)
    })
    .await
    .expect("a store task")
}

/// How many turns of `game` the turn log holds.
async fn turns_logged(url: &str, game: i64) -> u32 {
    on_store(url, move |s| s.read(|tx| tx.turn_log_len(game)).unwrap()).await
}

/// Waits (polling; a fired deadline takes up to a minute, a taken-over
/// lease `host::CLAIM_LEASE_MS`) until `game` has `n` logged turns.
async fn until_turns_logged(url: &str, game: i64, n: u32, within: Duration) {
    let give_up = Instant::now() + within;
    while turns_logged(url, game).await < n {
        assert!(
            Instant::now() < give_up,
            "game {game} did not reach {n} logged turns in {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The move of a prompt's first button as `/move` takes it: its label
/// without the details in brackets (`Glacier Fang (Frost 75, 80%)`).
fn first_move(prompt: &Msg) -> String {
    let label = prompt.buttons()[0].0.clone();
    label.split(" (").next().unwrap_or(&label).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_postgres_database_share_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    // The sync driver must not run on the async workers.
    let fresh = tokio::task::spawn_blocking(move || fresh_database(&path))
        .await
        .unwrap();
    let Some(url) = fresh else {
        return;
    };
    let fake = FakeDiscord::start_sharded(2).await;
    for (id, name) in [
        (ALICE, "Alice"),
        (BOB, "Bob"),
        (CAROL, "Carol"),
        (MOD, "Dan"),
    ] {
        fake.user(id, name);
    }
    fake.put_channel_in_guild(CH_SHARD_0, GUILD_ON_SHARD_0);
    let first = process(dir.path(), &url, &fake, "0");
    fake.wait_shards(&[0]).await;
    let second = process(dir.path(), &url, &fake, "1");
    fake.wait_shards(&[0, 1]).await;
    fake.wait_commands().await;

    // A game in a guild of each shard: each guild's commands reach the
    // process that runs its shard.
    let duel = battle_between(&fake, CH_SHARD_1, ALICE, BOB, 11).await;
    let duel_thread = thread_of(&fake, CH_SHARD_1).await;
    let other = battle_between(&fake, CH_SHARD_0, CAROL, MOD, 11).await;
    let other_thread = thread_of(&fake, CH_SHARD_0).await;

    // Two turns of the duel (its seed has no monster faint before turn 3,
    // so every prompt is a move) with both final moves sent at once: Alice's
    // by `/move` in the thread (shard 1: the second process), Bob's by his
    // DM button (shard 0: the first). Each turn resolves exactly once.
    let (mut pa, mut pb) = (
        prompt_after(&fake, ALICE, 0).await,
        prompt_after(&fake, BOB, 0).await,
    );
    for turn in 1..=2u32 {
        let alice = fake.slash(
            ALICE,
            duel_thread,
            &["move"],
            json!([opt("text", 3, json!(first_move(&pa)))]),
        );
        let bob = fake.click(BOB, pb.id, &pb.buttons()[0].1);
        for token in [alice, bob] {
            let reply = fake.reply_text(&token).await;
            assert!(reply.contains("Recorded"), "turn {turn}: {reply}");
        }
        let next = format!("Turn {} of", turn + 1);
        channel_msg(&fake, duel_thread, &next).await;
        assert_eq!(
            turns_logged(&url, duel).await,
            turn,
            "turn {turn} resolved twice"
        );
        pa = prompt_after(&fake, ALICE, pa.id).await;
        pb = prompt_after(&fake, BOB, pb.id).await;
    }
    let said = fake
        .state()
        .channel(duel_thread)
        .iter()
        .filter(|m| m.text().contains("Turn 3 of"))
        .count();
    assert_eq!(said, 1, "{}", fake.state().dump());

    // Carol moves by DM (the first process acknowledges it), then that
    // process is killed outright. Dan never moves: the second process fires
    // the deadline, and the turn is played with Carol's move.
    let pc = prompt_after(&fake, CAROL, 0).await;
    let carol_move = first_move(&pc);
    let receipt = press_reply(&fake, CAROL, &pc, &pc.buttons()[0].0).await;
    assert!(receipt.contains("Recorded"), "{receipt}");
    let killed_output = first.kill_hard().await;
    assert!(!killed_output.contains(TOKEN), "the token leaked");
    until_turns_logged(&url, other, 1, Duration::from_secs(90)).await;
    let fired_at = Instant::now();
    let actions = on_store(&url, move |s| {
        s.read(|tx| tx.turn_log_entry(other, 1))
            .unwrap()
            .expect("turn 1 logged")
            .actions
    })
    .await;
    // Carol pressed her first move's button: seat 1 (index 0) played move 0.
    let played: serde_json::Value = serde_json::from_str(&actions).unwrap();
    assert_eq!(
        played["0"],
        json!({"Move": 0}),
        "Carol's acknowledged move ({carol_move}) is not the one played: {actions}"
    );
    // The second process also delivers the news, once the dead process's
    // claim on the game's announcements has lapsed: within 10 s (the lease,
    // `host::CLAIM_LEASE_MS`, plus one look at the outbox; it was 60 s).
    let give_up = fired_at + Duration::from_secs(10);
    loop {
        let posted = fake
            .state()
            .channel(other_thread)
            .iter()
            .any(|m| m.text().contains("Turn 2 of"));
        if posted {
            break;
        }
        assert!(
            Instant::now() < give_up,
            "turn 2 was not posted within 10 s of the deadline firing\n{}",
            fake.state().dump()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    second.signal("INT");
    let (code, out) = second.exit().await;
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains(TOKEN), "the token leaked:\n{out}");
    let rejected = fake.state().rejected.clone();
    assert!(rejected.is_empty(), "{rejected:?}");
}
