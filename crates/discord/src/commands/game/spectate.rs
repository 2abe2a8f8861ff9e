//! `/game press` and `/game watch`: a game seen from outside, and its press
//! once it has ended.

use crate::BotError;
use crate::Context;
use crate::commands::shared::has_press;
use crate::commands::shared::played_in;
use crate::commands::shared::shown_game;
use crate::press::log_pages;
use crate::ui::messages;

/// Sends `text` as ephemeral follow-ups (the command deferred), split at
/// Discord's limit.
async fn reply_parts(ctx: Context<'_>, text: &str) -> Result<(), BotError> {
    for part in messages::split(text, messages::MAX_CONTENT) {
        ctx.send(messages::reply(part).ephemeral(true)).await?;
    }
    Ok(())
}

/// The press of a Diplomacy game, revealed in full once it has ended
#[poise::command(slash_command, rename = "press")]
pub async fn game_press(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
    #[description = "Page, from 1 (default: the first)"] page: Option<u32>,
) -> Result<(), BotError> {
    // A long log takes several messages, which only follow-ups carry.
    ctx.defer_ephemeral().await?;
    let g = shown_game(&ctx, id).await?;
    let gid = g.id;
    let log = ctx.data().host(move |h| h.press_log(gid)).await?;
    let pages = log_pages(gid, &log);
    let n = pages.len();
    let i = page.unwrap_or(1).max(1) as usize;
    let text = pages.into_iter().nth(i - 1).ok_or_else(|| {
        BotError::user(format!(
            "The press of game #{gid} has {n} pages; ask for 1 to {n}."
        ))
    })?;
    reply_parts(ctx, &text).await
}

/// Watch a game you do not play in: its public board, and its press after the end
#[poise::command(slash_command)]
pub async fn watch(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    ctx.defer_ephemeral().await?;
    let g = shown_game(&ctx, id).await?;
    let (gid, user) = (g.id, ctx.author().id.to_string());
    let w = ctx.data().host(move |h| h.watch(gid, &user)).await?;
    let mut text = played_in(
        &ctx,
        &g,
        format!(
            "Watching (the channel's public view; players' orders and DMs stay private):\n{}",
            crate::ui::text::describe_view(&w.view)
        ),
    );
    match &w.press {
        Some(log) => {
            text.push_str("\n\n");
            text.push_str(&log_pages(gid, log)[0]);
        }
        None if has_press(&ctx, &w.view.kind) => {
            text.push_str("\n\nThe press of this game is revealed here once it ends.");
        }
        None => {}
    }
    reply_parts(ctx, &text).await
}
