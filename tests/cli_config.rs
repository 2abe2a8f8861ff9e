//! The real binary against hostile or mistaken input from a game's creator
//! and an operator: options can never name a file, and the operator's
//! roster is read bounded.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn gamehost(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    // Keep the developer's own settings out of the tests.
    c.env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env_remove("RUST_LOG")
        .env("USER", "tester")
        .current_dir(dir)
        .stdin(Stdio::null());
    c
}

fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `play battle --options <options>` on a fresh database, input "quit".
fn play_battle(dir: &Path, options: &str) -> Output {
    let mut child = gamehost(dir)
        .args(["play", "battle", "--vs", "random", "--seed", "3", "--db"])
        .arg(dir.join("t.db"))
        .args(["--options", options])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(b"quit\n");
    child.wait_with_output().unwrap()
}

/// `[3, null, "/etc/passwd", false, null]` once set the battle's `roster`
/// by position and the bot quoted the file back. Options are a JSON object
/// or `key=value` pairs, and none of them names a file.
#[test]
fn a_creator_cannot_make_the_server_read_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for options in [
        r#"[3, null, "/etc/passwd", false, null]"#,
        r#"[3, null, "/proc/self/environ", false, null]"#,
        r#"[3, null, "/dev/zero", false, null]"#,
        r#""/etc/passwd""#,
        "3",
    ] {
        let out = play_battle(dir.path(), options);
        let (stdout, stderr) = texts(&out);
        assert!(!out.status.success(), "{options}: accepted\n{stdout}");
        assert!(
            stderr.contains("JSON object") || stderr.contains("key=value"),
            "{options}: {stderr}"
        );
        assert!(!stderr.contains("root:"), "{options}: {stderr}");
        assert!(!stderr.contains("PATH="), "{options}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{options}: {stderr}");
    }
    for options in [
        r#"{"roster": "/etc/passwd"}"#,
        "roster=/proc/self/environ",
        "team_size=2 roster=/etc/passwd",
    ] {
        let out = play_battle(dir.path(), options);
        let (_, stderr) = texts(&out);
        assert!(!out.status.success(), "{options}");
        assert!(
            stderr.contains("`roster` is not an option of battle"),
            "{options}: {stderr}"
        );
        assert!(!stderr.contains("root:"), "{options}: {stderr}");
    }
    // The same options as named pairs work.
    let out = play_battle(dir.path(), "team_size=2");
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("saved"), "{stdout}");
}

/// An option of the wrong type is refused naming the option, on both the
/// JSON and the `key=value` path.
#[test]
fn option_type_errors_name_the_key() {
    let dir = tempfile::tempdir().unwrap();
    for options in [r#"{"team_size": "x"}"#, "team_size=x"] {
        let out = play_battle(dir.path(), options);
        let (_, stderr) = texts(&out);
        assert!(!out.status.success());
        assert!(
            stderr.contains(r#"`team_size`: expected a whole number, got "x""#),
            "{options}: {stderr}"
        );
    }
}

/// A small rule set with names the built-in roster does not have.
const TINY_ROSTER: &str = r#"
types = ["Plain"]

[rules]
alpha = 0.5
beta = 2.0

[[move]]
name = "Bonk"
type = "Plain"
power = 40
accuracy = 1.0

[[monster]]
name = "Zorblax"
type = "Plain"
hp = 50
attack = 50
defense = 50
speed = 50
moves = ["Bonk"]

[[monster]]
name = "Quimbly"
type = "Plain"
hp = 50
attack = 50
defense = 50
speed = 40
moves = ["Bonk"]
"#;

/// The operator's `[battle] roster` is read once at start-up, handed to the
/// engine as data, and read bounded: a device, a FIFO, a directory or a
/// file that is no roster fails at once, in one line, quoting nothing.
#[test]
fn the_operator_roster_is_loaded_at_start_up_and_read_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let roster = dir.path().join("tiny.toml");
    std::fs::write(&roster, TINY_ROSTER).unwrap();
    let config = dir.path().join("g.toml");
    let write_config = |roster: &Path| {
        std::fs::write(
            &config,
            format!("[battle]\nroster = {:?}\n", roster.display().to_string()),
        )
        .unwrap();
    };
    write_config(&roster);
    let mut child = gamehost(dir.path())
        .arg("--config")
        .arg(&config)
        .args(["play", "battle", "--vs", "random", "--seed", "1"])
        .args(["--options", "team_size=2", "--db"])
        .arg(dir.path().join("t.db"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("Zorblax") && stdout.contains("Quimbly"),
        "{stdout}"
    );

    let fifo = dir.path().join("pipe.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let environ = dir.path().join("environ");
    std::fs::write(&environ, "HOME=/root\0SECRET_TOKEN=hunter2hunter2\0").unwrap();
    for (path, expected) in [
        (Path::new("/dev/zero"), "a device"),
        (fifo.as_path(), "a FIFO"),
        (dir.path(), "a directory"),
        (environ.as_path(), "line 1"),
        (Path::new("/proc/self/environ"), "roster file"),
        (&dir.path().join("missing.toml"), "cannot read"),
    ] {
        write_config(path);
        let out = gamehost(dir.path())
            .arg("--config")
            .arg(&config)
            .env("GAMEHOST_DISCORD_TOKEN", "hunter3hunter3.tok")
            .args(["play", "battle", "--db"])
            .arg(dir.path().join("t.db"))
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&out);
        assert!(!out.status.success(), "{}", path.display());
        assert!(
            stderr.contains("[battle] roster") && stderr.contains(expected),
            "{}: {stderr}",
            path.display()
        );
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        for secret in ["hunter2", "hunter3", "HOME=", "PATH="] {
            assert!(
                !stderr.contains(secret) && !stdout.contains(secret),
                "{stderr}"
            );
        }
    }

    // The operator's own command line reads a roster the same way.
    for args in [
        vec!["battle", "check-roster", "/dev/zero"],
        vec!["battle", "check-roster", "/proc/self/environ"],
        vec![
            "battle",
            "tournament",
            "--ai",
            "random,greedy",
            "--roster",
            "/dev/zero",
        ],
    ] {
        let out = gamehost(dir.path())
            .env("GAMEHOST_DISCORD_TOKEN", "hunter3hunter3.tok")
            .args(&args)
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains("roster file"), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("hunter3") && !stdout.contains("hunter3"),
            "{stderr}"
        );
        assert!(!stderr.contains("PATH="), "{stderr}");
    }
}
