//! `gamehost play` run as a player would: the real binary on its own
//! database, fed lines on stdin.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A terminal player's directory and database.
pub struct Terminal {
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
}

impl Terminal {
    /// A fresh directory with no database yet.
    pub fn new() -> Terminal {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        Terminal { dir, db }
    }

    /// `gamehost play <args> --db <db>` on `input`, with temporary files
    /// (the Diplomacy maps) kept in this terminal's directory.
    pub fn play(&self, args: &[&str], input: &[u8]) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamehost"))
            .current_dir(self.dir.path())
            .env_remove("DISCORD_TOKEN")
            .env_remove("GAMEHOST_DISCORD_TOKEN")
            .env_remove("GAMEHOST_CONFIG")
            .env("GAMEHOST_DATABASE_PATH", &self.db)
            .env("USER", "tester")
            .env("TMPDIR", self.dir.path())
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
}

/// What the binary printed, after checking it succeeded without a panic.
pub fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "failed: {err}\n{out}");
    assert!(!err.contains("panicked"), "{err}");
    out
}

/// What the binary wrote to stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}
