//! A Diplomacy game's replay as an animated GIF, one frame per phase with
//! its orders (see `render::replay`): on request (`/game replay`) and
//! posted in the game's channel right after the message that ends it.
//! The orders of resolved phases are public (each phase's orders image was
//! posted when it resolved), so anyone may ask for a replay.

use crate::Data;
use crate::ui::messages;
use host::{GameId, Host};
use poise::serenity_prelude as serenity;
use serenity::{CreateAttachment, CreateMessage};
use std::sync::Arc;

/// A drawn replay: the GIF as an attachment and the line that goes with it.
pub(crate) struct Replay {
    /// The GIF, under `render::replay::MAX_REPLAY_BYTES` (Discord's upload limit).
    pub file: CreateAttachment,
    /// What the message says about it.
    pub text: String,
}

/// Draws the replay of game `gid` off the async runtime (every phase is
/// rasterised: seconds for a long game) and wraps it as an attachment.
pub(crate) async fn draw(host: Arc<Host>, gid: GameId) -> Result<Replay, String> {
    let (gif, frames, scale) =
        tokio::task::spawn_blocking(move || render::replay::replay_gif(&host, gid))
            .await
            .map_err(|e| format!("replay task failed: {e}"))?
            .map_err(|e| e.to_string())?;
    let note = if scale < render::replay::SCALES[0] {
        " (drawn smaller to fit Discord's upload limit)"
    } else {
        ""
    };
    let file = CreateAttachment::bytes(gif, format!("diplomacy-{gid}-replay.gif")).description(
        format!(
            "Replay of Diplomacy game #{gid}: {frames} frames, each phase's position with its orders, then the position now."
        ),
    );
    Ok(Replay {
        file,
        text: format!("Replay of game #{gid}: {frames} phases{note}."),
    })
}

/// The message with the replay of a game that has just ended, for kinds
/// that have one; `None` (logged) when it cannot be drawn, so the end of
/// the game is announced without it.
pub(crate) async fn final_replay(data: &Data, kind: &str, gid: GameId) -> Option<CreateMessage> {
    if !render::replay::has_replay(kind) {
        return None;
    }
    match draw(data.host.clone(), gid).await {
        Ok(r) => Some(messages::create(r.text).add_file(r.file)),
        Err(e) => {
            tracing::error!(game_id = gid, error = %e, "cannot draw the replay of a finished game");
            None
        }
    }
}
