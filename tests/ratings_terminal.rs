//! The terminal shows the player's rating against the AI levels, and a
//! terminal game (always against an AI) is rated.

use std::io::Write;
use std::process::{Command, Stdio};

/// `gamehost play cards` on `input` with the database in `dir`; its output.
fn play(dir: &std::path::Path, input: &[u8]) -> String {
    let db = dir.join("t.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env("GAMEHOST_DATABASE_PATH", &db)
        .env("USER", "tester")
        .args(["play", "cards", "--seed", "3", "--db"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn the_terminal_rates_its_games_and_shows_the_ai_levels_beside_you() {
    let dir = tempfile::tempdir().unwrap();
    let first = play(dir.path(), b"forfeit\n");
    let line = first
        .lines()
        .find(|l| l.starts_with("Your cards rating"))
        .unwrap();
    assert!(
        line.starts_with("Your cards rating: 1500 ± 350 (new). AI levels: "),
        "{line}"
    );
    assert!(
        first.contains("Ratings: tester 1500 → 1338 (-162)"),
        "{first}"
    );
    let second = play(dir.path(), b"quit\n");
    let line = second
        .lines()
        .find(|l| l.starts_with("Your cards rating"))
        .unwrap();
    assert!(
        line.starts_with("Your cards rating: 1338 ± 290 (1 rated game). AI levels: "),
        "{line}"
    );
    // The default level beat the player once.
    assert!(line.contains(" 1662 ± 290 (1 rated game)"), "{line}");
}
