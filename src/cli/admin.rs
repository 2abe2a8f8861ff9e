//! Operator commands: running the bot, checking and backing up the database.

use crate::config::Config;
use anyhow::{Context, bail};
use std::path::PathBuf;

/// Starts the Discord bot, or explains clearly why it cannot.
pub fn run_bot(config: Config) -> anyhow::Result<()> {
    if config.token().is_none() {
        bail!(
            "no Discord token: set the DISCORD_TOKEN environment variable or `[discord] token` \
             in the config file. To play without Discord, try `gamehost play cards --vs ai`."
        );
    }
    init_logging(&config.log.level, config.token());
    crate::discord::run_blocking(config)
}

/// Sends `tracing` output to stderr (never stdout, which belongs to the
/// command's own output), without colour codes unless stderr is a terminal,
/// filtered by `RUST_LOG` or the config's level (checked when the config
/// loaded, so a typo is refused rather than silencing every log line).
/// `secret` (the bot token) is blanked out of every line written.
pub fn init_logging(level: &str, secret: Option<&str>) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let writer = RedactingStderr {
        secret: secret
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| std::sync::Arc::from(s.as_bytes())),
    };
    // A second initialisation (tests) is harmless; ignore it.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// Writes log lines to stderr with a secret replaced. `tracing`'s formatter
/// hands over each event as one buffer, so a secret is never split across
/// two writes.
#[derive(Clone)]
struct RedactingStderr {
    secret: Option<std::sync::Arc<[u8]>>,
}

impl std::io::Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut err = std::io::stderr().lock();
        match &self.secret {
            Some(s) if buf.windows(s.len()).any(|w| w == &s[..]) => {
                let mut out = Vec::with_capacity(buf.len());
                let mut i = 0;
                while i < buf.len() {
                    if buf[i..].starts_with(s) {
                        out.extend_from_slice(b"<redacted>");
                        i += s.len();
                    } else {
                        out.push(buf[i]);
                        i += 1;
                    }
                }
                err.write_all(&out)?;
            }
            _ => err.write_all(buf)?,
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for RedactingStderr {
    type Writer = RedactingStderr;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// Loads and replays every game in the database; fails if any is unreadable
/// or does not replay to its stored state.
pub fn check(config: &Config) -> anyhow::Result<()> {
    let host = super::open_host(config)?;
    let ids = host.store().read(|tx| tx.all_game_ids())?;
    let mut bad = 0;
    let (version, known) = (
        host.store().schema_version()?,
        crate::store::schema_version_known(),
    );
    if version != known {
        bad += 1;
        println!("schema version {version}, expected {known}");
    }
    for id in &ids {
        // The stored state must load, and the turn log must replay to it.
        match host.view(*id, None).and_then(|_| host.replay(*id)) {
            Ok(r) if r.first_divergence.is_none() => {}
            Ok(r) => {
                bad += 1;
                println!(
                    "game {id}: replay diverges at turn {}",
                    r.first_divergence.unwrap_or(0)
                );
            }
            Err(e) => {
                bad += 1;
                println!("game {id}: {e}");
            }
        }
    }
    println!(
        "{} game(s) checked, {} problem(s); schema version {}",
        ids.len(),
        bad,
        version
    );
    if bad > 0 {
        bail!("{bad} game(s) failed the check");
    }
    Ok(())
}

/// Writes a consistent copy of the live database.
pub fn backup(config: &Config, dest: Option<PathBuf>) -> anyhow::Result<()> {
    let host = super::open_host(config)?;
    let dest = match dest {
        Some(d) => d,
        None => {
            std::fs::create_dir_all(&config.database.backup_dir).with_context(|| {
                format!("cannot create {}", config.database.backup_dir.display())
            })?;
            let stamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            config
                .database
                .backup_dir
                .join(format!("gamehost-{stamp}.db"))
        }
    };
    host.store()
        .backup_to(&dest)
        .with_context(|| format!("backup to {} failed", dest.display()))?;
    println!("backed up to {}", dest.display());
    Ok(())
}
