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
    init_logging(&config.log.level);
    crate::discord::run_blocking(config)
}

/// Sends `tracing` output to stderr, filtered by `RUST_LOG` or the config's level.
pub fn init_logging(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // A second initialisation (tests) is harmless; ignore it.
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
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
