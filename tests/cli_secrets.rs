//! The real binary never prints a database password, nor names a file
//! after one: every command that takes a PostgreSQL connection string
//! (`run`, `check`, `backup`, `soak`, `migrate-db`) fails here on a server
//! that is not there, with the password in each form an operator may
//! write it (URL userinfo, `?password=`, percent-encoded, keyword form).

use std::path::Path;
use std::process::{Command, Stdio};

/// Connection strings to a closed port, each with the secret texts that
/// must not show (a percent-encoded password also decoded).
const FORMS: &[(&str, &[&str])] = &[
    (
        "postgres://game:Pw1secret@127.0.0.1:1/gamehost",
        &["Pw1secret"],
    ),
    (
        "postgres://game@127.0.0.1:1/gamehost?sslmode=disable&password=Pw2secret",
        &["Pw2secret"],
    ),
    (
        "postgresql://game:Pw3%40secret@127.0.0.1:1/gamehost",
        &["Pw3%40secret", "Pw3@secret"],
    ),
    (
        "postgres://127.0.0.1:1/gamehost?user=game&pass%77ord=Pw4secret",
        &["Pw4secret"],
    ),
    (
        "host=127.0.0.1 port=1 user=game password=Pw5secret dbname=gamehost",
        &["Pw5secret"],
    ),
    (
        "host=127.0.0.1 port=1 user=game password='Pw6 secret' dbname=gamehost",
        &["Pw6"],
    ),
    // The TLS settings' own errors (a bad mode, a missing root file).
    (
        "postgres://game:Pw7secret@127.0.0.1:1/gamehost?sslmode=verify_full",
        &["Pw7secret"],
    ),
    (
        "host=127.0.0.1 port=1 password=Pw8secret sslmode=verify-full sslrootcert=/nonexistent/ca.pem",
        &["Pw8secret"],
    ),
];

fn gamehost(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    c.env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env_remove("GAMEHOST_DATABASE_URL")
        // The English errors these tests read, whatever the developer's locale.
        .env("LC_ALL", "C")
        .env("RUST_LOG", "debug")
        .current_dir(dir)
        .stdin(Stdio::null());
    c
}

/// The commands to try with `conn`: each as (name, command).
fn commands(dir: &Path, conn: &str) -> Vec<(&'static str, Command)> {
    let mut run = gamehost(dir);
    run.env("GAMEHOST_DATABASE_URL", conn)
        .env("DISCORD_TOKEN", "not-a-real-token")
        .env("GAMEHOST_DISCORD_API_BASE", "http://127.0.0.1:1")
        .arg("run");
    let mut check = gamehost(dir);
    check.env("GAMEHOST_DATABASE_URL", conn).arg("check");
    let mut backup = gamehost(dir);
    backup.env("GAMEHOST_DATABASE_URL", conn).arg("backup");
    let mut soak = gamehost(dir);
    soak.args(["soak", "--db", conn, "--log", "soak.log", "--steps", "1"]);
    let mut migrate = gamehost(dir);
    migrate.args(["migrate-db", "--from", "sqlite:source.db", "--to", conn]);
    vec![
        ("run", run),
        ("check", check),
        ("backup", backup),
        ("soak", soak),
        ("migrate-db", migrate),
    ]
}

#[test]
fn a_database_password_never_appears_in_any_output_or_file_name() {
    let dir = tempfile::tempdir().unwrap();
    // A source for `migrate-db`, so that it goes on to the target.
    store::Store::open(&dir.path().join("source.db")).unwrap();
    for (conn, secrets) in FORMS {
        for (name, mut command) in commands(dir.path(), conn) {
            let out = command.output().unwrap();
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.status.success(), "`{name}` with {conn}:\n{text}");
            assert!(!text.trim().is_empty(), "`{name}` says why it failed");
            for secret in *secrets {
                assert!(
                    !text.contains(secret),
                    "`{name}` printed the password of {conn}:\n{text}"
                );
            }
        }
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let file = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                secrets.iter().all(|s| !file.contains(s)) && !file.contains("secret"),
                "a file is named after {conn}: {file}"
            );
        }
    }
}
