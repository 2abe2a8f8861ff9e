//! `/privacy show` and `/privacy delete`: what the bot stores about the
//! caller, and deleting it after a confirmation with buttons (the clicks
//! are handled in `events/buttons.rs`). Ephemeral, in a server or a DM.

use crate::BotError;
use crate::Context;
use crate::ui::components::privacy_rows;
use crate::ui::messages;
use crate::ui::privacy::{delete_question, privacy_text};

/// What the bot stores about you, and deleting it; only you see it
#[poise::command(slash_command, subcommands("show", "delete"), subcommand_required)]
pub async fn privacy(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// What the bot stores about you and for how long; only you see it
#[poise::command(slash_command)]
pub async fn show(ctx: Context<'_>) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let u = user.clone();
    let summary = ctx.data().host(move |h| h.privacy_summary(&u)).await?;
    let text = privacy_text(&summary, &user);
    ctx.send(messages::reply(messages::clip(&text, messages::MAX_CONTENT)).ephemeral(true))
        .await?;
    Ok(())
}

/// Delete what the bot stores about you (asks first; running games are forfeited)
#[poise::command(slash_command)]
pub async fn delete(ctx: Context<'_>) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let u = user.clone();
    let summary = ctx.data().host(move |h| h.privacy_summary(&u)).await?;
    let text = delete_question(&summary, &user);
    ctx.send(
        messages::reply(messages::clip(&text, messages::MAX_CONTENT))
            .components(privacy_rows())
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
