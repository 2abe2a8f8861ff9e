//! The real `gamehost run` binary as a child process of a test: started
//! with the fake Discord's TLS address and a database, its output collected
//! line by line, signalled, killed, and waited for.

use super::fake_discord::{FakeDiscord, WAIT};
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::Notify;

/// A running `gamehost run` and every line it wrote (stdout and stderr).
pub struct Bin {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    changed: Arc<Notify>,
}

/// `gamehost run` in `dir` with the token `token`, talking to `fake` as
/// Discord: REST to `https://discord.com` at the fake's TLS address
/// (`[discord] api_address`, trusting the fake's test CA), so with
/// serenity's rate limiter on.
pub fn spawn(dir: &Path, db: &Path, token: &str, fake: &FakeDiscord) -> Bin {
    spawn_with(dir, db, token, fake, &[], &[])
}

/// `gamehost run ARGS` with extra environment `env` (e.g. another
/// database, deadlines), otherwise as [`spawn`].
pub fn spawn_with(
    dir: &Path,
    db: &Path,
    token: &str,
    fake: &FakeDiscord,
    env: &[(&str, &str)],
    args: &[&str],
) -> Bin {
    let address = fake.api_address.to_string();
    let root_ca = fake.root_ca.to_str().expect("a UTF-8 path to the test CA");
    let api = [
        ("GAMEHOST_DISCORD_API_ADDRESS", address.as_str()),
        ("GAMEHOST_DISCORD_API_ROOT_CA", root_ca),
    ];
    spawn_on(dir, db, token, &api, env, args)
}

/// `gamehost run` with REST sent to `api_base` (`[discord] api_base`, as
/// serenity's proxy), for the tests of that setting itself.
pub fn spawn_api_base(dir: &Path, db: &Path, token: &str, api_base: &str) -> Bin {
    let api = [("GAMEHOST_DISCORD_API_BASE", api_base)];
    spawn_on(dir, db, token, &api, &[], &[])
}

fn spawn_on(
    dir: &Path,
    db: &Path,
    token: &str,
    api: &[(&str, &str)],
    env: &[(&str, &str)],
    args: &[&str],
) -> Bin {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    command
        .current_dir(dir)
        // Its lines are read in English whatever the machine's locale.
        .env("LC_ALL", "C")
        .env_remove("GAMEHOST_CONFIG")
        .env_remove("RUST_LOG")
        .env_remove("GAMEHOST_DISCORD_API_BASE")
        .env_remove("GAMEHOST_DISCORD_API_ADDRESS")
        .env_remove("GAMEHOST_DISCORD_API_ROOT_CA")
        .env("DISCORD_TOKEN", token)
        .env("GAMEHOST_DATABASE_PATH", db)
        .env("GAMEHOST_AI_BUDGET_MS", "20")
        .env("GAMEHOST_DEADLINES_BATTLE_SECONDS", "0")
        .env("GAMEHOST_LOG_LEVEL", "info");
    for (k, v) in api {
        command.env(k, v);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command
        .arg("run")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start gamehost run");
    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let changed = Arc::new(Notify::new());
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    for reader in [
        Box::new(out) as Box<dyn tokio::io::AsyncRead + Unpin + Send>,
        Box::new(err),
    ] {
        let (lines, changed) = (lines.clone(), changed.clone());
        tokio::spawn(async move {
            let mut r = BufReader::new(reader).lines();
            while let Ok(Some(l)) = r.next_line().await {
                lines.lock().unwrap().push(l);
                changed.notify_waiters();
            }
        });
    }
    Bin {
        child,
        lines,
        changed,
    }
}

impl Bin {
    pub fn output(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    /// Waits until `n` lines contain `needle`; returns them.
    pub async fn lines_with(&self, needle: &str, n: usize) -> Vec<String> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let found: Vec<String> = self
                .lines
                .lock()
                .unwrap()
                .iter()
                .filter(|l| l.contains(needle))
                .cloned()
                .collect();
            if found.len() >= n {
                return found;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!(
                    "timed out waiting for {n} line(s) with {needle:?}:\n{}",
                    self.output()
                );
            }
        }
    }

    /// Sends a signal (`INT`, `TERM`) to the process.
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().expect("still running").to_string();
        let ok = std::process::Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -{name} {pid} failed");
    }

    /// Waits for the process to exit (failing the test after [`WAIT`]);
    /// returns its exit code and everything it wrote.
    pub async fn exit(mut self) -> (Option<i32>, String) {
        let status = match tokio::time::timeout(WAIT, self.child.wait()).await {
            Ok(s) => s.unwrap(),
            Err(_) => {
                let _ = self.child.kill().await;
                panic!("gamehost did not exit:\n{}", self.output());
            }
        };
        // Let the readers drain what is left.
        for _ in 0..50 {
            tokio::task::yield_now().await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        (status.code(), self.output())
    }

    /// Kills the process at once (SIGKILL: no clean stop) and waits for it.
    pub async fn kill_hard(mut self) -> String {
        self.child.kill().await.expect("kill -9");
        self.output()
    }
}
