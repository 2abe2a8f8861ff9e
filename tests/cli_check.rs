//! `gamehost check` and `gamehost backup` on a real database file.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{NewGame, Registry, SystemClock};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use store::{Store, TimeoutPolicy};

fn gamehost(dir: &Path, db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        .env_remove("GAMEHOST_CONFIG")
        .env("LC_ALL", "C")
        .env("GAMEHOST_DATABASE_PATH", db)
        .args(args)
        .output()
        .unwrap()
}

/// Three started games, a few AI moves each; returns their ids.
fn games(db: &Path) -> Vec<i64> {
    games_n(db, 3)
}

/// `n` started games, a few AI moves each; returns their ids.
fn games_n(db: &Path, n: u64) -> Vec<i64> {
    let host = host_builder::host_on(
        db,
        Registry::standard(),
        Arc::new(SystemClock),
        host_builder::settings(10, 0),
    );
    let kind = if host.registry().get("cards").is_ok() {
        "cards"
    } else {
        "puzzle"
    };
    (0..n)
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

    // Into a folder that does not exist yet, written with a trailing `/`:
    // the folder is created and holds a dated copy.
    let folder = dir.path().join("bk");
    let out = gamehost(
        dir.path(),
        &db,
        &["backup", &format!("{}/", folder.display())],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let made: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
    assert_eq!(made.len(), 1, "one dated copy in bk/");
    // A file in a folder that does not exist: the folder is named.
    let missing = dir.path().join("nowhere").join("copy.db");
    let out = gamehost(dir.path(), &db, &["backup", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "the folder {} does not exist",
            dir.path().join("nowhere").display()
        )),
        "{stderr}"
    );
    assert!(!dir.path().join("nowhere").exists());
}

fn sql(db: &Path, statement: &str) -> usize {
    rusqlite::Connection::open(db)
        .unwrap()
        .execute(statement, [])
        .unwrap()
}

fn run_check(dir: &Path, db: &Path) -> (Option<i32>, String, String) {
    let out = gamehost(dir, db, &["check"]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The lines of `stdout` about one game.
fn about(stdout: &str, id: i64) -> String {
    stdout
        .lines()
        .filter(|l| l.starts_with(&format!("game {id}:")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn check_finds_what_breaks_games_and_names_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let ids = games_n(&db, 6);
    let (code, stdout, _) = run_check(dir.path(), &db);
    assert_eq!(code, Some(0), "{stdout}");
    let t: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT turn FROM games WHERE id = ?1", [ids[1]], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(t >= 2, "the games must have played a few turns");

    // 0: the turn counter behind the turn log.
    sql(
        &db,
        &format!("UPDATE games SET turn = turn - 1 WHERE id = {}", ids[0]),
    );
    // 1: an extra log row past the last turn.
    sql(
        &db,
        &format!(
            "INSERT INTO turn_log (game_id, turn, actions, report, state_after, resolved_at) \
             SELECT game_id, turn + 10, actions, report, state_after, resolved_at FROM turn_log \
             WHERE game_id = {} AND turn = 1",
            ids[1]
        ),
    );
    // 2: a missing seat.
    sql(
        &db,
        &format!("DELETE FROM seats WHERE game_id = {} AND seat = 1", ids[2]),
    );
    // 3: a corrupt outbox row.
    sql(
        &db,
        &format!(
            "UPDATE outbox SET payload = '{{\"half\": ' WHERE id = \
             (SELECT MIN(id) FROM outbox WHERE game_id = {})",
            ids[3]
        ),
    );
    // 4: the turn log lost its last turn.
    sql(
        &db,
        &format!(
            "DELETE FROM turn_log WHERE game_id = {0} AND turn = \
             (SELECT MAX(turn) FROM turn_log WHERE game_id = {0})",
            ids[4]
        ),
    );
    let (code, stdout, stderr) = run_check(dir.path(), &db);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(about(&stdout, ids[0]).contains("turn counter"), "{stdout}");
    assert!(
        about(&stdout, ids[0]).contains("behind the turn log"),
        "{stdout}"
    );
    assert!(
        about(&stdout, ids[1]).contains("behind the turn log"),
        "{stdout}"
    );
    assert!(about(&stdout, ids[1]).contains("up to turn 11"), "{stdout}");
    assert!(
        about(&stdout, ids[2]).contains("seat(s) 2 missing"),
        "{stdout}"
    );
    assert!(about(&stdout, ids[3]).contains("outbox row"), "{stdout}");
    assert!(about(&stdout, ids[3]).contains("unreadable"), "{stdout}");
    assert!(about(&stdout, ids[4]).contains("missing turns"), "{stdout}");
    assert_eq!(about(&stdout, ids[5]), "", "{stdout}");
    assert!(stdout.contains("6 game(s) checked"), "{stdout}");
    assert!(stderr.contains("5 game(s) failed the check"), "{stderr}");
}

#[test]
fn check_finds_a_dropped_outbox_and_a_corrupt_page() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    games(&db);
    let copy = dir.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();

    sql(&db, "DROP TABLE outbox");
    let (code, stdout, stderr) = run_check(dir.path(), &db);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("database: table outbox is missing"),
        "{stdout}"
    );
    assert!(
        stderr.contains("the database file failed the check"),
        "{stderr}"
    );

    // Overwrite the pages of an index with garbage: only SQLite's own
    // integrity check can see it (the rows still read fine).
    let (root, page_size): (i64, i64) = {
        let c = rusqlite::Connection::open(&copy).unwrap();
        let root = c
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = 'seats_by_user'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let size = c
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .unwrap();
        (root, size)
    };
    let mut bytes = std::fs::read(&copy).unwrap();
    let start = ((root - 1) * page_size) as usize;
    for b in &mut bytes[start + 8..start + page_size as usize] {
        *b = 0x5a;
    }
    std::fs::write(&copy, &bytes).unwrap();
    let (code, stdout, stderr) = run_check(dir.path(), &copy);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("integrity_check") || stderr.contains("damaged"),
        "{stdout}{stderr}"
    );
}

#[test]
fn check_refuses_empty_half_written_and_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let (code, stdout, stderr) = run_check(dir.path(), &empty);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("the file is empty"), "{stdout}");
    assert_eq!(
        std::fs::metadata(&empty).unwrap().len(),
        0,
        "check wrote to it"
    );

    let text = dir.path().join("notes.db");
    std::fs::write(&text, "these are my notes, not a database\n".repeat(200)).unwrap();
    let (code, stdout, stderr) = run_check(dir.path(), &text);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("not a SQLite database"), "{stderr}");

    let db = dir.path().join("g.db");
    games(&db);
    let bytes = std::fs::read(&db).unwrap();
    let half = dir.path().join("half.db");
    std::fs::write(&half, &bytes[..bytes.len() / 2]).unwrap();
    let (code, stdout, stderr) = run_check(dir.path(), &half);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("0 problem(s)"), "{stdout}");
}

/// The file's bytes and modification time, and the directory's listing.
fn snapshot(dir: &Path, db: &Path) -> (Vec<u8>, std::time::SystemTime, Vec<String>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (
        std::fs::read(db).unwrap(),
        std::fs::metadata(db).unwrap().modified().unwrap(),
        names,
    )
}

#[test]
fn check_never_creates_or_changes_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing.db");
    let (code, stdout, stderr) = run_check(dir.path(), &missing);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("no database at {}", missing.display())),
        "{stderr}"
    );
    assert!(!missing.exists(), "check created the database");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    let db = dir.path().join("g.db");
    games(&db);
    let before = snapshot(dir.path(), &db);
    let (code, stdout, _) = run_check(dir.path(), &db);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        before == snapshot(dir.path(), &db),
        "check changed the file"
    );

    // An older schema is reported, not migrated.
    let old = dir.path().join("old.db");
    let c = rusqlite::Connection::open(&old).unwrap();
    c.execute_batch(include_str!("../migrations/0001_initial.sql"))
        .unwrap();
    c.pragma_update(None, "user_version", 1).unwrap();
    drop(c);
    let before = snapshot(dir.path(), &old);
    let (code, stdout, stderr) = run_check(dir.path(), &old);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("schema version 1 is older than the"),
        "{stdout}"
    );
    assert!(
        before == snapshot(dir.path(), &old),
        "check migrated the file"
    );
}

#[test]
fn backup_refuses_a_missing_database_and_names_each_copy_uniquely() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing.db");
    let out = gamehost(dir.path(), &missing, &["backup"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("no database at {}", missing.display())),
        "{stderr}"
    );
    assert!(!missing.exists());
    assert!(
        !dir.path().join("backups").exists(),
        "a backup dir for nothing"
    );

    let db = dir.path().join("g.db");
    let ids = games(&db);
    // Back to back, most likely in the same second: both must work.
    let mut made = Vec::new();
    for _ in 0..3 {
        let out = gamehost(dir.path(), &db, &["backup"]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        made.push(
            stdout
                .trim()
                .trim_start_matches("backed up to ")
                .to_string(),
        );
    }
    let mut unique = made.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3, "{made:?}");
    let listing: Vec<String> = std::fs::read_dir(dir.path().join("backups"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(listing.len(), 3, "partial files left: {listing:?}");
    for m in &made {
        let path = dir.path().join(m);
        let copy = Store::open(&path).unwrap();
        assert_eq!(copy.read(|tx| tx.all_game_ids()).unwrap(), ids);
    }

    // A destination that cannot be written leaves nothing behind.
    let nowhere = dir.path().join("no-such-dir").join("copy.db");
    let out = gamehost(dir.path(), &db, &["backup", nowhere.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("backup to"));
    assert!(!nowhere.exists());
}

/// `gamehost` with `--config config` run in `dir`, without the database
/// variables of [`gamehost`].
fn gamehost_configured(dir: &Path, config: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        .env_remove("GAMEHOST_CONFIG")
        .env("LC_ALL", "C")
        .env_remove("GAMEHOST_DATABASE_PATH")
        .env_remove("GAMEHOST_DATABASE_BACKUP_DIR")
        .arg("--config")
        .arg(config)
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn relative_paths_follow_the_config_file_and_a_missing_database_is_worded_once() {
    let root = tempfile::tempdir().unwrap();
    let (conf, elsewhere) = (root.path().join("conf"), root.path().join("elsewhere"));
    std::fs::create_dir_all(&conf).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let config = conf.join("gamehost.toml");
    std::fs::write(
        &config,
        "[database]\npath = \"g.db\"\nbackup_dir = \"snapshots\"\n",
    )
    .unwrap();
    let db = conf.join("g.db");

    // Every command that needs the database says the same line, naming
    // the file beside the config, not one in the working directory.
    let missing = format!("gamehost: no database at {}", db.display());
    for args in [&["check"][..], &["backup"], &["diplomacy", "export", "1"]] {
        let (code, text) = gamehost_configured(&elsewhere, &config, args);
        assert_eq!(code, Some(1), "{args:?}: {text}");
        assert_eq!(text.trim(), missing, "{args:?}");
    }
    let (code, text) = gamehost_configured(&elsewhere, &config, &["restore", "old.db"]);
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(text.trim(), "gamehost: no database at old.db");
    // `--db` stays relative to the working directory.
    let (_, text) = gamehost_configured(&elsewhere, &config, &["check", "--db", "g.db"]);
    assert_eq!(text.trim(), "gamehost: no database at g.db");

    games(&db);
    let (code, text) = gamehost_configured(&elsewhere, &config, &["check"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = gamehost_configured(&elsewhere, &config, &["backup"]);
    assert_eq!(code, Some(0), "{text}");
    let written: Vec<_> = std::fs::read_dir(conf.join("snapshots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        written.len() == 1 && written[0].starts_with("gamehost-"),
        "{written:?}"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}
