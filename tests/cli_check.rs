//! `gamehost check` and `gamehost backup` on a real database file.

use gamehost::host::{Host, HostSettings, NewGame, Registry, SystemClock};
use gamehost::store::{Store, TimeoutPolicy};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;

fn gamehost(dir: &Path, db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        .env_remove("GAMEHOST_CONFIG")
        .env("GAMEHOST_DATABASE_PATH", db)
        .args(args)
        .output()
        .unwrap()
}

/// Three started games, a few AI moves each; returns their ids.
fn games(db: &Path) -> Vec<i64> {
    let host = Host::new(
        Arc::new(Store::open(db).unwrap()),
        Registry::standard(),
        Arc::new(SystemClock),
        HostSettings {
            ai_budget_ms: 10,
            reminder_percent: 0,
        },
    );
    let kind = if host.registry().get("cards").is_ok() {
        "cards"
    } else {
        "puzzle"
    };
    (0..3)
        .map(|i| {
            let id = host
                .create_game(NewGame {
                    kind: kind.into(),
                    guild_id: None,
                    channel_id: format!("c{i}"),
                    creator_id: "op".into(),
                    creator_name: "Op".into(),
                    options: serde_json::Value::Null,
                    seed: Some(i),
                    turn_seconds: None,
                    timeout_policy: TimeoutPolicy::Default,
                    creator_plays: false,
                })
                .unwrap();
            host.add_ai(id, "op", Some("random"), None).unwrap();
            host.add_ai(id, "op", Some("random"), None).unwrap();
            host.start(id, "op").unwrap();
            host.run_ai_turns(Some(id), 4).unwrap();
            id
        })
        .collect()
}

#[test]
fn check_reports_each_bad_game_by_id_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let ids = games(&db);

    let out = gamehost(dir.path(), &db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("3 game(s) checked, 0 problem(s)"),
        "{stdout}"
    );

    // Corrupt the middle game's state and the last game's turn log.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE games SET state = '{\"not\": \"a game\"' WHERE id = ?1",
        [ids[1]],
    )
    .unwrap();
    conn.execute(
        "UPDATE turn_log SET state_after = '[]' WHERE game_id = ?1 AND turn = 1",
        [ids[2]],
    )
    .unwrap();
    drop(conn);

    let out = gamehost(dir.path(), &db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains(&format!("game {}:", ids[0])), "{stdout}");
    assert!(stdout.contains(&format!("game {}:", ids[1])), "{stdout}");
    assert!(stdout.contains(&format!("game {}:", ids[2])), "{stdout}");
    assert!(
        stdout.contains("3 game(s) checked, 2 problem(s)"),
        "{stdout}"
    );
    assert!(stderr.contains("2 game(s) failed the check"), "{stderr}");
}

#[test]
fn check_refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    games(&db);
    rusqlite::Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let out = gamehost(dir.path(), &db, &["check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("schema version 99"), "{stderr}");
}

#[test]
fn backup_writes_a_consistent_copy_that_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let ids = games(&db);
    let copy = dir.path().join("copy.db");

    let out = gamehost(dir.path(), &db, &["backup", copy.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("backed up to"));

    let store = Store::open(&copy).unwrap();
    assert_eq!(store.read(|tx| tx.all_game_ids()).unwrap(), ids);
    let original = Store::open(&db).unwrap();
    for id in &ids {
        let a = store.read(|tx| tx.game(*id)).unwrap().unwrap();
        let b = original.read(|tx| tx.game(*id)).unwrap().unwrap();
        assert_eq!((a.turn, a.state), (b.turn, b.state));
    }
    drop((store, original));
    let out = gamehost(dir.path(), &copy, &["check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // An existing file is never overwritten.
    let out = gamehost(dir.path(), &db, &["backup", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("backup to"));
}
