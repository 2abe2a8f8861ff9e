//! The `gamehost` binary: help, clear failures, and a whole terminal game
//! against the AI driven through stdin.

use std::io::Write;
use std::process::{Command, Stdio};

fn gamehost() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    // Keep the developer's own settings out of the tests.
    c.env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        // The English errors these tests read, whatever the developer's locale.
        .env("LC_ALL", "C");
    c
}

#[test]
fn help_lists_the_commands() {
    let out = gamehost().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for cmd in ["run", "play", "check", "backup", "cards"] {
        assert!(text.contains(cmd), "--help lacks {cmd}: {text}");
    }
}

#[test]
fn run_without_a_token_says_how_to_set_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = gamehost()
        .current_dir(dir.path())
        .arg("run")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("gamehost play"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
}

#[test]
fn a_missing_or_malformed_config_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = gamehost()
        .args(["--config", "nope.toml", "run"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope.toml"), "{err}");

    std::fs::write(dir.path().join("bad.toml"), "[ai]\nbudget_ms = \"lots\"\n").unwrap();
    let out = gamehost()
        .args(["--config", "bad.toml", "run"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml") && err.contains("ai.budget_ms"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn a_terminal_card_game_against_the_ai_plays_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut child = gamehost()
        .current_dir(dir.path())
        .env("USER", "tester")
        .args(["play", "cards", "--vs", "ai", "--seed", "42", "--db"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        // A nonsense line first (must be answered, not crash), then play when
        // possible: "play" is refused with a message when the deck is empty.
        writeln!(stdin, "dance").unwrap();
        for _ in 0..400 {
            let _ = writeln!(stdin, "play");
            let _ = writeln!(stdin, "pass");
        }
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("is over"), "the game did not finish:\n{text}");
    assert!(
        text.to_lowercase().contains("dance"),
        "the bad line was not answered:\n{text}"
    );

    // The finished game is in the database and replays from its turn log.
    let out = gamehost()
        .current_dir(dir.path())
        .env("GAMEHOST_DATABASE_PATH", &db)
        .arg("check")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("1 game(s) checked, 0 problem(s)"),
        "{report}"
    );
}

#[test]
fn an_interrupted_terminal_game_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let run = |input: &str| {
        let mut child = gamehost()
            .current_dir(dir.path())
            .env("USER", "tester")
            .args(["play", "cards", "--seed", "5", "--db"])
            .arg(&db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let first = run("quit\n");
    assert!(first.contains("saved"), "{first}");
    let second = run("quit\n");
    assert!(second.contains("Resuming game #1"), "{second}");
}
