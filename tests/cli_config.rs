//! The real binary against hostile or mistaken input from a game's creator
//! and an operator: options can never name a file, the operator's roster is
//! read bounded, the token never appears in any output, and every config
//! error says which setting and what would be right.

use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn gamehost(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    // Keep the developer's own settings out of the tests.
    c.env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env_remove("RUST_LOG")
        // The English errors these tests read, whatever the developer's locale.
        .env("LC_ALL", "C")
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
    make_fifo(&fifo);
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

const TOKEN: &str = "MTA5ODc2NTQzMjEwOTg3NjU0.GxYz12.abcdefghijklmnopqrstuvwxyz0123";
const NUMERIC_TOKEN: &str = "98765432109876543";

/// Runs `check` with a config file and environment; returns the status and
/// everything printed.
fn run_with(dir: &Path, file: Option<&str>, env: &[(&str, &str)]) -> (bool, String) {
    let mut c = gamehost(dir);
    if let Some(text) = file {
        std::fs::write(dir.join("g.toml"), text).unwrap();
        c.args(["--config", "g.toml"]);
    }
    c.env("GAMEHOST_DATABASE_PATH", dir.join("t.db"));
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.arg("check").output().unwrap();
    let (stdout, stderr) = texts(&out);
    (out.status.success(), format!("{stdout}{stderr}"))
}

/// No error message or log line contains the token, whatever its source
/// (file, `DISCORD_TOKEN`, `GAMEHOST_DISCORD_TOKEN`) or shape.
#[test]
fn the_token_never_appears_in_config_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for token in [TOKEN, NUMERIC_TOKEN] {
        let files = [
            // valid token, another key wrong
            format!("[discord]\ntoken = \"{token}\"\n[ai]\nbudget_ms = \"soon\"\n"),
            // a TOML syntax error on the token line: unquoted
            format!("[discord]\ntoken = {token}x\n"),
            format!("[discord]\ntoken = {token}\n[ai]\nbudget_ms = \"soon\"\n"),
            // unterminated string
            format!("[discord]\ntoken = \"{token}\n"),
            format!("[discord]\ntoken = '{token}\n"),
            // wrong type
            format!("[discord]\ntoken = [\"{token}\"]\n"),
            format!("[discord]\ntoken = {{ value = \"{token}\" }}\n"),
            // a syntax error elsewhere in a file that has the token
            format!("[discord]\ntoken = \"{token}\"\n[ai\n"),
            // the token where a section name goes
            format!("[discord]\ntoken = \"{token}\"\n{token}\n"),
            format!("[discord]\ntoken = \"{token}\"\nguild_id = \"{token}\"\n"),
        ];
        for file in &files {
            let (ok, out) = run_with(d, Some(file), &[]);
            assert!(!ok, "{file}");
            assert!(out.contains("g.toml"), "{file}: {out}");
            assert!(!out.contains(token), "token leaked for {file:?}:\n{out}");
        }
        for var in ["DISCORD_TOKEN", "GAMEHOST_DISCORD_TOKEN"] {
            // A valid environment token next to a bad setting or a bad file.
            for file in [
                None,
                Some("[ai\nbudget_ms = 3\n"),
                Some("[discord]\ntoken = 5\n"),
            ] {
                let (ok, out) =
                    run_with(d, file, &[(var, token), ("GAMEHOST_AI_BUDGET_MS", "fast")]);
                assert!(!ok, "{var} {file:?}");
                assert!(
                    !out.contains(token),
                    "token leaked via {var} {file:?}:\n{out}"
                );
            }
            // Malformed environment tokens.
            for bad in [
                format!("\"{token}"),
                format!("{token}\n"),
                format!("[{token}]"),
                format!("{{{token}"),
            ] {
                let (_, out) = run_with(d, None, &[(var, &bad), ("GAMEHOST_LOG_LEVEL", "loud")]);
                assert!(
                    !out.contains(token),
                    "token leaked via {var}={bad:?}:\n{out}"
                );
            }
        }
    }
    // A numeric GAMEHOST_DISCORD_TOKEN is text, not a type error.
    let (_, out) = run_with(d, None, &[("GAMEHOST_DISCORD_TOKEN", NUMERIC_TOKEN)]);
    assert!(!out.contains("unsigned int"), "{out}");
    assert!(!out.contains(NUMERIC_TOKEN), "{out}");
}

/// An environment variable of the wrong shape is named with its value and
/// what would be right (never the token's value).
#[test]
fn environment_errors_name_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, out) = run_with(dir.path(), None, &[("GAMEHOST_AI_BUDGET_MS", "fast")]);
    assert!(!ok);
    assert!(
        out.contains("GAMEHOST_AI_BUDGET_MS=fast: expected a whole number of milliseconds"),
        "{out}"
    );
    assert_eq!(out.trim().lines().count(), 1, "{out}");
    let (ok, out) = run_with(
        dir.path(),
        None,
        &[("GAMEHOST_DEADLINES_BATTLE_SECONDS", "-3")],
    );
    assert!(!ok);
    assert!(
        out.contains("GAMEHOST_DEADLINES_BATTLE_SECONDS=-3: expected a whole number of seconds"),
        "{out}"
    );
    let (ok, out) = run_with(dir.path(), None, &[("GAMEHOST_DATABSE_PATH", "x.db")]);
    assert!(!ok);
    assert!(
        out.contains("GAMEHOST_DATABSE_PATH=x.db") && out.contains("database"),
        "{out}"
    );
    let (ok, out) = run_with(dir.path(), None, &[("GAMEHOST_AI_BUDGETMS", "5")]);
    assert!(!ok);
    assert!(
        out.contains("GAMEHOST_AI_BUDGETMS=5") && out.contains("budget_ms"),
        "{out}"
    );
}

/// The config file itself is read bounded: a device or a FIFO named by
/// `--config` or GAMEHOST_CONFIG fails at once in one line.
#[test]
fn the_config_file_is_read_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("g.toml");
    make_fifo(&fifo);
    for path in [Path::new("/dev/zero"), fifo.as_path()] {
        let out = gamehost(dir.path())
            .arg("--config")
            .arg(path)
            .arg("check")
            .output()
            .unwrap();
        let (_, stderr) = texts(&out);
        assert!(!out.status.success());
        assert!(
            stderr.contains(&path.display().to_string()) && stderr.contains("not a regular file"),
            "{stderr}"
        );
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
    let out = gamehost(dir.path())
        .env("GAMEHOST_CONFIG", "/dev/zero")
        .arg("check")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(texts(&out).1.contains("a device"), "{:?}", texts(&out));
}

/// A log level that names no level is refused (tracing would read `verbose`
/// as a module name and silence every log line).
#[test]
fn an_invalid_log_level_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (file, env) in [
        (Some("[log]\nlevel = \"verbose\"\n"), vec![]),
        (None, vec![("GAMEHOST_LOG_LEVEL", "loud")]),
        (Some("[log]\nlevel = \"gamehost=lots\"\n"), vec![]),
    ] {
        let (ok, out) = run_with(dir.path(), file, &env);
        assert!(!ok, "{file:?} {env:?}: {out}");
        assert!(out.contains("log") && out.contains("debug"), "{out}");
    }
    for level in ["debug", "gamehost=debug,serenity=warn", "WARN"] {
        let file = format!("[log]\nlevel = {level:?}\n");
        let (_, out) = run_with(dir.path(), Some(&file), &[]);
        assert!(!out.contains("log level"), "{level}: {out}");
    }
}

/// A database that cannot be opened is reported once, not three times.
#[test]
fn a_database_error_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = gamehost(dir.path())
        .env(
            "GAMEHOST_DATABASE_PATH",
            dir.path().join("no/such/dir/g.db"),
        )
        .args(["play", "cards"])
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("cannot open the database"), "{stderr}");
    assert_eq!(
        stderr.matches("unable to open database file").count(),
        1,
        "{stderr}"
    );
}

/// `run` logs to stderr (stdout stays clean), without colour codes when
/// stderr is not a terminal, and no log line shows the token.
#[test]
fn logs_go_to_stderr_without_colour_and_without_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = gamehost(dir.path())
        .env("GAMEHOST_DISCORD_TOKEN", TOKEN)
        .env("GAMEHOST_DISCORD_API_BASE", "http://127.0.0.1:9")
        .env("GAMEHOST_LOG_LEVEL", "trace")
        .env("GAMEHOST_DATABASE_PATH", dir.path().join("t.db"))
        .arg("run")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = std::io::BufReader::new(stderr).lines();
    // Read log lines until a few have come (or the process ends).
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let Ok(line) = line else { break };
        seen.push(line);
        if seen.len() >= 5 {
            break;
        }
    }
    let _ = child.kill();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let _ = child.wait();
    assert!(
        !seen.is_empty(),
        "nothing was logged to stderr; stdout: {stdout}"
    );
    assert!(stdout.is_empty(), "logs went to stdout: {stdout}");
    for line in &seen {
        assert!(!line.contains('\u{1b}'), "colour codes: {line:?}");
        assert!(!line.contains(TOKEN), "token in a log line: {line}");
    }
}

/// Makes a named pipe at `path` (a file that would hang a reader that waits
/// for a writer).
fn make_fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A default deadline below its game's minimum is refused by `run` before
/// anything is opened, with one line naming the setting and the minimum.
#[test]
fn deadline_minimums_are_enforced_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    for (var, value, says) in [
        (
            "GAMEHOST_DEADLINES_BATTLE_SECONDS",
            "5",
            "config `[deadlines] battle_seconds = 5`: A deadline of 5 s per turn is too short for battle: the minimum is 30 s",
        ),
        (
            "GAMEHOST_DEADLINES_DIPLOMACY_SECONDS",
            "300",
            "config `[deadlines] diplomacy_seconds = 300`: A deadline of 5 min per turn is too short for diplomacy: the minimum is 10 min",
        ),
    ] {
        let run = gamehost(dir.path())
            .env("GAMEHOST_DATABASE_PATH", dir.path().join("gamehost.db"))
            .env("DISCORD_TOKEN", "a-token-for-the-test")
            .env(var, value)
            .arg("run")
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&run);
        let out = format!("{stdout}{stderr}");
        assert_eq!(run.status.code(), Some(1), "{out}");
        assert_eq!(out.trim().lines().count(), 1, "{out}");
        assert!(out.contains(says), "{out}");
    }
    assert!(
        !dir.path().join("gamehost.db").exists(),
        "a refused start created the database"
    );
}
