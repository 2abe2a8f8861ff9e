//! `/game`: the group of subcommands, one file per family.

mod lobby;
mod ratings;
mod records;
mod replace;
mod running;
mod spectate;

use crate::BotError;
use crate::Context;
use lobby::{abort, ai, join, leave, new, start};
use ratings::{leaderboard, profile, ratings};
use records::{history, list, replay};
use replace::replace;
use running::{away, extend, forfeit, pause, resume, status, takeover};
use spectate::{game_press, watch};

/// Games: create, join, play and manage the game of this channel.
#[poise::command(
    slash_command,
    subcommands(
        "new",
        "join",
        "leave",
        "ai",
        "start",
        "abort",
        "forfeit",
        "status",
        "list",
        "history",
        "takeover",
        "replace",
        "extend",
        "pause",
        "resume",
        "away",
        "leaderboard",
        "profile",
        "ratings",
        "replay",
        "game_press",
        "watch"
    ),
    subcommand_required
)]
pub async fn game(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}
