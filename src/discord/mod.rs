//! The Discord front-end (poise/serenity): slash commands, DM routing and
//! outbox delivery.

use crate::config::Config;

/// Runs the bot until it is stopped.
pub fn run_blocking(_config: Config) -> anyhow::Result<()> {
    anyhow::bail!("the Discord front-end is being built (issue 6); use `gamehost play` meanwhile")
}
