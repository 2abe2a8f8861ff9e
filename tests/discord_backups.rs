//! Backups that run themselves, restore, and one process per SQLite file,
//! with the real `gamehost run` binary against the fake Discord: scheduled
//! snapshots appear and the oldest are pruned; a second `run` on the same
//! file, and a restore under a running bot, are refused with one line; a
//! restored backup passes `check` and the bot resumes its game from it.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::commands::press_reply;
use support::fake_discord::{FakeDiscord, TOKEN};
use support::messages::prompt_after;
use support::process::{Bin, spawn, spawn_with};
use support::setup::{battle_between, thread_of};
use support::{ALICE, BOB};

const CH: u64 = 2_800_000_000_000_001;

async fn fake_with_users() -> FakeDiscord {
    let fake = FakeDiscord::start().await;
    for (id, name) in [(ALICE, "Alice"), (BOB, "Bob")] {
        fake.user(id, name);
    }
    fake
}

/// `gamehost ARGS` in `dir` (no config file, no Discord).
fn gamehost(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        // Its lines are read in English whatever the machine's locale.
        .env("LC_ALL", "C")
        .env_remove("GAMEHOST_CONFIG")
        .env_remove("GAMEHOST_DATABASE_PATH")
        .env_remove("GAMEHOST_DATABASE_URL")
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
}

/// The file named by a `scheduled backup written file=...` log line.
fn logged_file(line: &str) -> PathBuf {
    let from = line.find("file=").expect("a file field") + 5;
    PathBuf::from(line[from..].split_whitespace().next().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_backups_appear_and_the_oldest_are_pruned() {
    let fake = fake_with_users().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let backups = dir.path().join("snapshots");
    // A backup a process killed mid-way left behind.
    std::fs::create_dir_all(&backups).unwrap();
    let cut_short = backups.join(".gamehost-backup-4000000000-7.partial");
    std::fs::write(&cut_short, b"half a database").unwrap();
    let bin = spawn_with(
        dir.path(),
        &db,
        TOKEN,
        &fake,
        &[
            ("GAMEHOST_BACKUP_EVERY", "1s"),
            ("GAMEHOST_BACKUP_KEEP", "2"),
            ("GAMEHOST_DATABASE_BACKUP_DIR", backups.to_str().unwrap()),
        ],
        &[],
    );
    fake.wait_commands().await;
    battle_between(&fake, CH, ALICE, BOB, 5).await;
    bin.lines_with("scheduled backup written", 4).await;
    bin.signal("TERM");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "{out}");
    // The start removed it; the stop (maybe during a backup) left none.
    assert!(out.contains("removed a backup cut short"), "{out}");
    let partial: Vec<_> = std::fs::read_dir(&backups)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(partial.is_empty(), "{partial:?}\n{out}");
    let written: Vec<PathBuf> = out
        .lines()
        .filter(|l| l.contains("scheduled backup written"))
        .map(logged_file)
        .collect();
    assert!(written.len() >= 4, "{out}");
    // Each backup pruned all but the newest two before it was logged.
    let (old, newest) = written.split_at(written.len() - 2);
    for f in old {
        assert!(!f.exists(), "{} was not pruned:\n{out}", f.display());
    }
    for f in newest {
        assert!(f.starts_with(&backups), "{}", f.display());
        let check = gamehost(dir.path(), &["check", "--db", f.to_str().unwrap()]);
        assert!(check.status.success(), "{}", text(&check));
        assert!(
            text(&check).contains("1 game(s) checked, 0 problem(s)"),
            "{}",
            text(&check)
        );
    }
}

/// Both players press their first move on the newest prompts after
/// message `after`; returns the prompts pressed.
async fn both_move(fake: &FakeDiscord, after: u64) -> Vec<(u64, support::fake_discord::Msg)> {
    let mut pressed = Vec::new();
    for user in [ALICE, BOB] {
        let p = prompt_after(fake, user, after).await;
        let receipt = press_reply(fake, user, &p, &p.buttons()[0].0).await;
        assert!(receipt.contains("Recorded"), "{receipt}");
        pressed.push((user, p));
    }
    pressed
}

async fn stop(bin: Bin) {
    bin.signal("TERM");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_bot_per_file_and_a_restored_backup_resumes_its_game() {
    let fake = fake_with_users().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let db_arg = db.to_str().unwrap();
    let bin = spawn(dir.path(), &db, TOKEN, &fake);
    fake.wait_commands().await;
    battle_between(&fake, CH, ALICE, BOB, 5).await;
    let turn1 = both_move(&fake, 0).await;
    let after_turn1 = turn1.iter().map(|(_, p)| p.id).max().unwrap();
    let thread = thread_of(&fake, CH).await;
    fake.wait_for("turn 2", |s| {
        s.channel(thread)
            .iter()
            .any(|m| m.text().contains("Turn 2 of"))
            .then_some(())
    })
    .await;

    // A second bot on the same file, and a restore under the running one,
    // are refused with one line each.
    let second = spawn(dir.path(), &db, TOKEN, &fake);
    let (code, out) = second.exit().await;
    assert_eq!(code, Some(1), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("gamehost: start refused: another gamehost process is running on"),
        "{out}"
    );
    let snapshots = dir.path().join("snapshots");
    std::fs::create_dir(&snapshots).unwrap();
    let backup = gamehost(
        dir.path(),
        &["backup", "--db", db_arg, snapshots.to_str().unwrap()],
    );
    assert!(backup.status.success(), "{}", text(&backup));
    let file = PathBuf::from(text(&backup).trim().strip_prefix("backed up to ").unwrap());
    assert!(
        file.starts_with(&snapshots) && file.exists(),
        "{}",
        text(&backup)
    );
    let refused = gamehost(
        dir.path(),
        &["restore", "--db", db_arg, file.to_str().unwrap()],
    );
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(
        text(&refused).contains("restore refused: another gamehost process is running on"),
        "{}",
        text(&refused)
    );

    // Turn 2 is played, then the bot stops and the backup (at turn 2) is
    // restored: the game is back at turn 2, and the bot resumes it.
    let turn2 = both_move(&fake, after_turn1).await;
    fake.wait_for("turn 3", |s| {
        s.channel(thread)
            .iter()
            .any(|m| m.text().contains("Turn 3 of"))
            .then_some(())
    })
    .await;
    stop(bin).await;
    let restored = gamehost(
        dir.path(),
        &["restore", "--db", db_arg, file.to_str().unwrap()],
    );
    assert!(restored.status.success(), "{}", text(&restored));
    assert!(
        text(&restored).contains("the database it replaced is"),
        "{}",
        text(&restored)
    );
    let check = gamehost(dir.path(), &["check", "--db", db_arg]);
    assert!(check.status.success(), "{}", text(&check));

    let bin = spawn(dir.path(), &db, TOKEN, &fake);
    fake.wait_ready(2).await;
    // Turn 2 is awaited again: the same prompts take the moves, and the
    // second resolves the turn.
    let mut receipts = Vec::new();
    for (user, p) in &turn2 {
        let receipt = press_reply(&fake, *user, p, &p.buttons()[0].0).await;
        assert!(receipt.contains("Recorded"), "{receipt}");
        receipts.push(receipt);
    }
    assert!(receipts[1].contains("The turn is resolved"), "{receipts:?}");
    // Its result is posted anew. The restored database hands out again the
    // outbox ids of the announcements made after the backup; were the
    // nonces the ids alone, Discord would answer these posts with the
    // messages of before the restore (the fake keeps every nonce) and
    // post nothing.
    fake.wait_for("turn 3 posted again", |s| {
        let posts = s
            .channel(thread)
            .iter()
            .filter(|m| m.text().contains("Turn 3 of"))
            .count();
        (posts >= 2).then_some(())
    })
    .await;
    stop(bin).await;
}

#[test]
fn restore_refuses_a_damaged_backup_and_a_missing_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database at all, just some bytes").unwrap();
    let out = gamehost(
        dir.path(),
        &["restore", "--db", db.to_str().unwrap(), "junk.db"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!db.exists(), "a refused restore wrote the database");
    let out = gamehost(
        dir.path(),
        &["restore", "--db", db.to_str().unwrap(), "nothing.db"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        text(&out).trim(),
        "gamehost: no database at nothing.db",
        "one line"
    );
}
