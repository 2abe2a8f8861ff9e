//! `/game replay`: a Diplomacy game's replay as an animated GIF, one frame
//! per phase with its orders (see `render::replay`), posted in the channel.
//! The orders of resolved phases are public (each phase's orders image was
//! posted when it resolved), so anyone may ask for a replay.

use super::{BotError, Context};
use poise::serenity_prelude as serenity;

/// A Diplomacy game's replay as an animated map, phase by phase
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    // Drawing every phase takes seconds: past Discord's three to answer.
    ctx.defer().await?;
    let channel = ctx.channel_id().to_string();
    let g = ctx
        .data()
        .host(move |h| match id {
            Some(id) => h.game(id).map(Some),
            None => h.shown_game_in_channel(&channel),
        })
        .await?
        .ok_or_else(|| {
            BotError::user("There is no game in this channel; give a game id (`/game list`).")
        })?;
    if g.kind != "diplomacy" {
        return Err(BotError::user(format!(
            "Game #{} is a {} game; only Diplomacy games have a replay.",
            g.id, g.kind
        )));
    }
    let host = ctx.data().host.clone();
    let gid = g.id;
    let (gif, frames, scale) =
        tokio::task::spawn_blocking(move || render::replay::replay_gif(&host, gid))
            .await
            .map_err(|e| BotError::Internal(format!("replay task failed: {e}")))?
            .map_err(|e| BotError::user(format!("Cannot draw the replay of game #{gid}: {e}")))?;
    let note = if scale < render::replay::SCALES[0] {
        " (drawn smaller to fit Discord's upload limit)"
    } else {
        ""
    };
    let file = serenity::CreateAttachment::bytes(gif, format!("diplomacy-{gid}-replay.gif"))
        .description(format!(
            "Replay of Diplomacy game #{gid}: {frames} frames, each phase's position with its orders, then the position now."
        ));
    ctx.send(
        poise::CreateReply::default()
            .content(format!("Replay of game #{gid}: {frames} phases{note}."))
            .attachment(file),
    )
    .await?;
    Ok(())
}
