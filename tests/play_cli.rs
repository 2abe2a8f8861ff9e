//! `gamehost play` with the real binary: forfeits in every kind of game end
//! cleanly, bad arguments change nothing, games of different kinds live side
//! by side, and input that is not text is asked for again.

#[path = "support/host_builder.rs"]
mod host_builder;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

struct Terminal {
    dir: tempfile::TempDir,
    db: PathBuf,
}

impl Terminal {
    fn new() -> Terminal {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        Terminal { dir, db }
    }

    fn command(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
        c.current_dir(self.dir.path())
            .env_remove("DISCORD_TOKEN")
            .env_remove("GAMEHOST_DISCORD_TOKEN")
            .env_remove("GAMEHOST_CONFIG")
            .env("GAMEHOST_DATABASE_PATH", &self.db)
            .env("USER", "tester");
        c
    }

    /// `gamehost play <args> --db <db>` on `input`.
    fn play(&self, args: &[&str], input: &[u8]) -> Output {
        let mut child = self
            .command()
            .arg("play")
            .args(args)
            .arg("--db")
            .arg(&self.db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The child may stop reading early (a refused argument).
        let _ = child.stdin.take().unwrap().write_all(input);
        child.wait_with_output().unwrap()
    }

    /// `gamehost check` on the database: its output, and whether it passed.
    fn check(&self) -> (bool, String) {
        let o = self.command().arg("check").output().unwrap();
        (
            o.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        )
    }

    fn db(&self) -> &Path {
        &self.db
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}\n{}", stderr(o), stdout(o));
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
    stdout(o)
}

#[test]
fn a_forfeit_during_the_team_draft_ends_the_battle() {
    let t = Terminal::new();
    let o = t.play(
        &[
            "battle",
            "--vs",
            "random",
            "--options",
            r#"{"pick_teams": true}"#,
        ],
        b"forfeit\n",
    );
    let text = ok(&o);
    assert!(text.contains("forfeits"), "{text}");
    // The report names the players, not the engine's seat labels.
    assert!(text.contains("AI (random) wins"), "{text}");
    let (passed, report) = t.check();
    assert!(passed, "{report}");
}

#[test]
fn a_forfeit_in_every_kind_ends_the_session_without_a_fault() {
    for (kind, vs) in [
        ("cards", "random"),
        ("battle", "random"),
        ("puzzle", "random"),
        ("diplomacy", "hold"),
    ] {
        let t = Terminal::new();
        let text = ok(&t.play(&[kind, "--vs", vs, "--seed", "3"], b"forfeit\n"));
        assert!(!text.contains("bug"), "{kind}: {text}");
        assert!(text.contains("forfeits"), "{kind}: {text}");
        let (passed, report) = t.check();
        assert!(passed, "{kind}: {report}");
    }
}

#[test]
fn a_diplomacy_forfeit_in_the_terminal_says_the_game_is_closed() {
    let t = Terminal::new();
    let text = ok(&t.play(&["diplomacy", "--vs", "hold", "--seed", "1"], b"forfeit\n"));
    assert!(text.contains("You left game #1"), "{text}");
    assert!(text.contains("aborted"), "{text}");
    // The next session starts a new game: nothing is left half-done.
    let text = ok(&t.play(&["diplomacy", "--vs", "hold", "--seed", "1"], b"quit\n"));
    assert!(!text.contains("Resuming"), "{text}");
}

#[test]
fn bad_arguments_with_new_change_nothing() {
    let t = Terminal::new();
    let first = ok(&t.play(&["cards", "--seed", "5"], b"quit\n"));
    assert!(first.contains("saved"), "{first}");
    let bad: [(&[&str], &str); 5] = [
        (&["cards", "--vs", "bogus", "--new"], "bogus"),
        (&["cards", "--seat", "9", "--new"], "--seat 9"),
        (&["cards", "--seat", "0", "--new"], "--seat 0"),
        (&["cards", "--options", r#"{"n": 0}"#, "--new"], "n"),
        (&["cards", "--options", "{nope", "--new"], "--options"),
    ];
    for (args, needle) in bad {
        let o = t.play(args, b"quit\n");
        assert!(!o.status.success(), "{args:?} accepted: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!stdout(&o).contains("Aborted"), "{args:?}: {}", stdout(&o));
    }
    let (passed, report) = t.check();
    assert!(passed, "{report}");
    let again = ok(&t.play(&["cards"], b"quit\n"));
    assert!(again.contains("Resuming game #1"), "{again}");
    assert!(t.db().exists());
}

#[test]
fn new_aborts_the_unfinished_game_and_says_so() {
    let t = Terminal::new();
    ok(&t.play(&["cards", "--seed", "5"], b"quit\n"));
    let text = ok(&t.play(&["cards", "--new", "--seed", "6"], b"quit\n"));
    assert!(text.contains("Aborted game #1 (cards)"), "{text}");
    let text = ok(&t.play(&["cards"], b"quit\n"));
    assert!(text.contains("Resuming game #2"), "{text}");
    let (passed, report) = t.check();
    assert!(passed, "{report}");
}

#[test]
fn games_of_different_kinds_live_side_by_side() {
    let t = Terminal::new();
    ok(&t.play(&["cards", "--seed", "5"], b"quit\n"));
    let battle = ok(&t.play(&["battle", "--vs", "random", "--seed", "5"], b"quit\n"));
    assert!(!battle.contains("Aborted"), "{battle}");
    let cards = ok(&t.play(&["cards"], b"quit\n"));
    assert!(cards.contains("Resuming game #1 (cards)"), "{cards}");
    let battle = ok(&t.play(&["battle"], b"quit\n"));
    assert!(battle.contains("Resuming game #2 (battle)"), "{battle}");
}

#[test]
fn input_that_is_not_utf8_is_asked_for_again() {
    let t = Terminal::new();
    let text = ok(&t.play(&["cards", "--seed", "5"], b"\xff\xfe play\nquit\n"));
    assert!(text.contains("not UTF-8"), "{text}");
    assert!(text.contains("is saved"), "{text}");
}

#[test]
fn a_game_left_in_its_lobby_is_aborted_with_a_word_and_check_passes() {
    use host::{HostSettings, NewGame, Registry, SystemClock};
    use store::TimeoutPolicy;
    let t = Terminal::new();
    {
        // What a setup interrupted between creation and start leaves.
        let host = host_builder::host_on(
            t.db(),
            Registry::standard(),
            std::sync::Arc::new(SystemClock),
            HostSettings::default(),
        );
        host.create_game(NewGame {
            kind: "cards".into(),
            guild_id: None,
            channel_id: "terminal:tester:cards".into(),
            creator_id: "tester".into(),
            creator_name: "tester".into(),
            options: serde_json::Value::Null,
            seed: Some(1),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: false,
        })
        .unwrap();
    }
    let text = ok(&t.play(&["cards", "--seed", "2"], b"quit\n"));
    assert!(
        text.contains("Aborted game #1 (cards): it was never started"),
        "{text}"
    );
    // A game aborted before it started has no state, and that is no fault.
    let (passed, report) = t.check();
    assert!(passed, "{report}");
}

#[test]
fn a_game_that_cannot_be_loaded_is_reported_not_aborted() {
    let t = Terminal::new();
    ok(&t.play(&["cards", "--seed", "5"], b"quit\n"));
    let status = |t: &Terminal| -> String {
        rusqlite::Connection::open(t.db())
            .unwrap()
            .query_row("SELECT status FROM games WHERE id = 1", [], |r| r.get(0))
            .unwrap()
    };
    rusqlite::Connection::open(t.db())
        .unwrap()
        .execute(
            "UPDATE games SET state = '{\"broken\": 1}' WHERE id = 1",
            [],
        )
        .unwrap();
    let o = t.play(&["cards"], b"quit\n");
    assert!(!o.status.success(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("game #1 (cards) cannot be loaded"), "{err}");
    assert!(err.contains("--new"), "{err}");
    assert_eq!(status(&t), "running", "the game was left alone");
    // --new replaces it, and says so.
    let text = ok(&t.play(&["cards", "--new"], b"quit\n"));
    assert!(text.contains("Aborted game #1 (cards)"), "{text}");
    assert_eq!(status(&t), "aborted");
}

#[test]
fn a_huge_ai_level_is_refused_briefly() {
    let t = Terminal::new();
    let level = format!("mc:{}", "9".repeat(100_000));
    let o = t.play(&["battle", "--vs", &level], b"quit\n");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("There is no AI level"), "{err}");
    assert!(err.len() < 300, "{} chars", err.len());
}
