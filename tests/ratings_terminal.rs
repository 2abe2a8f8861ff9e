//! The terminal shows the player's rating and where it stands against each
//! AI level of the ladder, picks an AI by rating, and rates its games
//! (always against an AI).

use std::io::Write;
use std::process::{Command, Stdio};

/// `gamehost play cards` (with `extra` arguments) on `input` with the
/// database in `dir`; its output.
fn play(dir: &std::path::Path, extra: &[&str], input: &[u8]) -> String {
    let db = dir.join("t.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env("GAMEHOST_DATABASE_PATH", &db)
        .env("USER", "tester")
        .args(["play", "cards", "--seed", "3"])
        .args(extra)
        .arg("--db")
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

/// The percentage after `level` on the AI ladder line.
fn expected_vs(line: &str, level: &str) -> u32 {
    let at = line.find(&format!("{level} ")).unwrap();
    let rest = &line[at..];
    let p = rest.find("(you ").unwrap() + 5;
    rest[p..].split('%').next().unwrap().parse().unwrap()
}

#[test]
fn the_terminal_rates_its_games_and_shows_where_you_stand_against_each_level() {
    let dir = tempfile::tempdir().unwrap();
    let first = play(dir.path(), &[], b"forfeit\n");
    let lines: Vec<&str> = first.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Your cards rating"))
        .unwrap();
    assert_eq!(lines[at], "Your cards rating: 1500 ± 350 (new).");
    let ladder = lines[at + 1];
    assert!(
        ladder.starts_with("AI levels (ladder rating, your expected score): exact "),
        "{ladder}"
    );
    // The ladder's anchor: random at 1000, and a newcomer expected to beat it.
    assert!(ladder.contains(", random 1000 (you "), "{ladder}");
    assert!(expected_vs(ladder, "random") > 50, "{ladder}");
    assert!(ladder.ends_with("`--vs ~RATING` picks the level nearest a rating."));
    assert!(
        first.contains("Ratings: tester 1500 → 1338 (-162)"),
        "{first}"
    );
    let second = play(dir.path(), &[], b"quit\n");
    let lines: Vec<&str> = second.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Your cards rating"))
        .unwrap();
    assert_eq!(lines[at], "Your cards rating: 1338 ± 290 (1 rated game).");
    // Lower now, so less expected against the same level.
    assert!(expected_vs(lines[at + 1], "random") < expected_vs(ladder, "random"));
}

#[test]
fn the_terminal_picks_an_ai_by_rating_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = play(dir.path(), &["--vs", "~0"], b"quit\n");
    assert!(out.contains("AI (random)"), "{out}");
    let db = dir.path().join("t.db");
    let o = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir.path())
        .env_remove("GAMEHOST_CONFIG")
        .env("USER", "tester")
        .args(["play", "cards", "--new", "--vs", "~strong", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--vs: `~strong` is not a rating"), "{err}");
}
