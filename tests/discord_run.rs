//! `gamehost run`, the real binary, against the fake Discord: a rejected
//! token stops it at once, an unreachable API is retried with backoff, a bad
//! `api_base` or a damaged database is refused before connecting, and
//! SIGINT / SIGTERM stop it cleanly with nothing lost or posted twice.

mod support;

use serde_json::json;
use std::path::{Path, PathBuf};
use support::commands::{command, opt, press, press_reply};
use support::fake_discord::{FakeDiscord, TOKEN, WAIT};
use support::messages::{channel_msg, count_in_channel, prompt_after};
use support::process::{Bin, spawn, spawn_api_base};
use support::{ALICE, BOB};

const CH: u64 = 2_500_000_000_000_001;

/// A port on 127.0.0.1 nobody listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

async fn fake_with_users() -> FakeDiscord {
    let fake = FakeDiscord::start().await;
    for (id, name) in [(ALICE, "Alice"), (BOB, "Bob")] {
        fake.user(id, name);
    }
    fake
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_stops_at_once_with_one_line_without_the_token() {
    let fake = fake_with_users().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let bad = "not-the-token.rejected-secret-value";
    let bin = spawn(dir.path(), &db, bad, &fake);
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("gamehost: Discord rejected the token (401 Unauthorized)"),
        "{out}"
    );
    assert!(!out.contains(bad), "the token leaked:\n{out}");
    assert!(!out.contains("retrying"), "{out}");
    let requests = fake.state().requests.clone();
    assert_eq!(
        requests,
        vec!["GET /api/v10/users/@me -> 401".to_string()],
        "one request, no retries"
    );
    assert_eq!(fake.state().sessions, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_api_is_retried_with_backoff_until_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let base = format!("http://127.0.0.1:{}", closed_port());
    let bin = spawn_api_base(dir.path(), &db, TOKEN, &base);
    let retries = bin.lines_with("retrying in", 2).await;
    assert!(retries[0].contains("cannot reach Discord"), "{retries:?}");
    assert!(retries[0].contains("retrying in 1 s"), "{retries:?}");
    assert!(retries[1].contains("retrying in 2 s"), "{retries:?}");
    bin.signal("TERM");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains(TOKEN), "the token leaked:\n{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_api_base_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    for base in [
        "htp:/127.0.0.1",
        "http://",
        "http://127.0.0.1:99999",
        "127.0.0.1:8080",
    ] {
        let bin = spawn_api_base(dir.path(), &db, TOKEN, base);
        let (code, out) = bin.exit().await;
        assert_eq!(code, Some(1), "{base}: {out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 1, "{base}: {out}");
        assert!(
            lines[0].starts_with("gamehost: invalid `[discord] api_base`")
                && lines[0].contains("http://127.0.0.1:8080"),
            "{out}"
        );
    }
    assert!(!db.exists(), "nothing is created for a refused start");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_database_is_refused_before_connecting() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    {
        let store = store::Store::open(&db).unwrap();
        store
            .write(|tx| -> Result<(), store::StoreError> {
                let id = tx.insert_game(
                    &store::NewGameRow {
                        kind: "cards".into(),
                        guild_id: None,
                        channel_id: "c".into(),
                        creator_id: "op".into(),
                        options: "{}".into(),
                        seed: 1,
                        turn_seconds: None,
                        timeout_policy: store::TimeoutPolicy::Default,
                    },
                    0,
                )?;
                assert_eq!(id, 1);
                Ok(())
            })
            .unwrap();
    }
    // A lobby game whose counter says 3 turns were played: nothing logged them.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE games SET turn = 3", [])
        .unwrap();
    let base = format!("http://127.0.0.1:{}", closed_port());
    let bin = spawn_api_base(dir.path(), &db, TOKEN, &base);
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("game 1: the turn log is missing turns"),
        "{out}"
    );
    assert!(out.contains("not starting"), "{out}");
    assert!(!out.contains("retrying"), "it tried to connect:\n{out}");

    // An empty file is not taken for a new database.
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let (code, out) = spawn_api_base(dir.path(), &empty, TOKEN, &base)
        .exit()
        .await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("is an empty file"), "{out}");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

/// Starts `gamehost run` on `db` and waits until it is connected (`n`
/// gateway sessions so far).
async fn boot(fake: &FakeDiscord, dir: &Path, db: &Path, n: usize) -> Bin {
    let bin = spawn(dir, db, TOKEN, fake);
    fake.wait_ready(n).await;
    fake.wait_commands().await;
    bin
}

/// How many announcements of the database are not delivered yet.
fn unsent(db: &PathBuf) -> i64 {
    let c = rusqlite::Connection::open(db).unwrap();
    c.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    c.query_row(
        "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_and_sigterm_stop_cleanly_and_lose_or_repeat_nothing() {
    let fake = fake_with_users().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let bin = boot(&fake, dir.path(), &db, 1).await;

    let reply = command(
        &fake,
        ALICE,
        CH,
        &["game", "new"],
        json!([opt("kind", 3, json!("battle")), opt("seed", 4, json!(3))]),
    )
    .await;
    assert!(reply.contains("Created battle"), "{reply}");
    let lobby = channel_msg(&fake, CH, "Alice created").await;
    let joined = press_reply(&fake, BOB, &lobby, "Join").await;
    assert!(joined.contains("seat 2"), "{joined}");
    command(&fake, ALICE, CH, &["game", "start"], json!([])).await;
    // The game moves into a thread opened from its lobby.
    let home = fake
        .wait_for("the game's thread", |s| s.threads.first().map(|t| t.id))
        .await;
    assert_eq!(home, lobby.id);
    let pa = prompt_after(&fake, ALICE, 0).await;
    let pb = prompt_after(&fake, BOB, 0).await;

    // Alice moves; the bot is told to stop as soon as it has said so, with
    // the turn's status ("waiting for Bob") possibly still in the outbox.
    let receipt = press_reply(&fake, ALICE, &pa, &pa.buttons()[0].0).await;
    assert!(receipt.contains("Recorded"), "{receipt}");
    bin.signal("INT");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "SIGINT:\n{out}");
    assert!(out.contains("SIGINT received: stopping"), "{out}");
    assert!(out.contains("stopped"), "{out}");

    // Restarted, the bot still has Alice's move: Bob's completes the turn.
    let bin = boot(&fake, dir.path(), &db, 2).await;
    let receipt = press_reply(&fake, BOB, &pb, &pb.buttons()[0].0).await;
    assert!(receipt.contains("Recorded"), "{receipt}");
    bin.signal("TERM");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "SIGTERM:\n{out}");
    assert!(out.contains("SIGTERM received: stopping"), "{out}");

    // A third start delivers whatever the stops left in the outbox, once.
    let bin = boot(&fake, dir.path(), &db, 3).await;
    channel_msg(&fake, home, "Turn 2 of").await;
    let deadline = tokio::time::Instant::now() + WAIT;
    while unsent(&db) > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox was not delivered\n{}",
            fake.state().dump()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(count_in_channel(&fake, CH, "Alice created"), 1);
    // The first turn's status line ("waiting for Bob") came and went with
    // the turn: edited in, then off once turn 2 was posted.
    assert_eq!(count_in_channel(&fake, home, "waiting for"), 0);
    for needle in ["started", "Turn 2 of"] {
        assert_eq!(
            count_in_channel(&fake, home, needle),
            1,
            "{needle:?}\n{}",
            fake.state().dump()
        );
    }
    // Each player has the next turn's prompt once.
    let (a2, b2) = (
        prompt_after(&fake, ALICE, pa.id).await,
        prompt_after(&fake, BOB, pb.id).await,
    );
    for p in [&a2, &b2] {
        let user = p.dm_user.unwrap();
        let same = fake
            .state()
            .dms(user)
            .iter()
            .filter(|m| m.content() == p.content())
            .count();
        assert_eq!(same, 1, "{}", fake.state().dump());
    }
    // The game goes on from there.
    let t = press(&fake, ALICE, &a2, &a2.buttons()[0].0);
    assert!(fake.reply_text(&t).await.contains("Recorded"));
    bin.signal("INT");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains(TOKEN), "the token leaked:\n{out}");
    let rejected = fake.state().rejected.clone();
    assert!(rejected.is_empty(), "{rejected:?}");
}
