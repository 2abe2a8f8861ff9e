//! `/rules <game>`: the rules of a game from its engine (the text the
//! terminal's `rules` shows), ephemeral; for a player in a running game of
//! that kind, as their seat reads them (Diplomacy: their own units). A kind
//! with a rules image (battle: the type chart) has it attached to the last
//! part.

use crate::BotError;
use crate::Context;
use crate::commands::shared::kinds;
use crate::ui::messages;
use host::GameStatus;
use poise::serenity_prelude::CreateAttachment;

/// The rules of a game (type chart, formulas, order syntax); only you see them
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "The game: battle, cards, diplomacy or puzzle"]
    #[autocomplete = "kinds"]
    game: String,
) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let channel = ctx.channel_id().to_string();
    let (text, image) = ctx
        .data()
        .host(move |h| {
            let kind = h.registry().get(&game)?.name;
            let running = |g: &host::GameRow| g.kind == kind && g.status == GameStatus::Running;
            // The game the reader is at: this channel's, else their own.
            let here = h.game_in_channel(&channel)?.filter(running);
            let theirs = match here {
                Some(g) => Some(g),
                None => h.games_of_user(&user)?.into_iter().find(running),
            };
            let id = theirs.map(|g| g.id);
            let text = h.rules(kind, id, Some(&user))?;
            // The rules image (battle: the type chart) of the same rule set;
            // the text stands alone if it cannot be drawn.
            let (state, _) = h.rules_game(kind, id, Some(&user))?;
            let image = match render::rules_png(state.as_ref()) {
                Some(Ok(image)) => Some(image),
                Some(Err(e)) => {
                    tracing::warn!(kind, error = %e, "cannot draw the rules image");
                    None
                }
                None => None,
            };
            Ok((text, image))
        })
        .await?;
    let parts = messages::split(&text, messages::MAX_CONTENT);
    let last = parts.len().saturating_sub(1);
    let mut image = image;
    for (i, part) in parts.into_iter().enumerate() {
        let mut reply = messages::reply(part).ephemeral(true);
        if i == last
            && let Some(image) = image.take()
        {
            reply = reply.attachment(
                CreateAttachment::bytes(image.png, image.filename).description(image.description),
            );
        }
        ctx.send(reply).await?;
    }
    Ok(())
}
