//! `/move`: a move typed in full.
use crate::ui::text::receipt_text;

use crate::BotError;
use crate::Context;
use crate::ui::messages;
use crate::ui::text::split_game;

/// Make a move by typing it (in a DM or the game's channel)
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your move, as the game writes it"] text: String,
    #[description = "Game id (default: this channel's, or the one awaiting you)"] game: Option<i64>,
) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let (prefixed, text) = split_game(&text);
    let text = text.to_string();
    let mut game = game.or(prefixed);
    if game.is_none() && ctx.guild_id().is_some() {
        let channel = ctx.channel_id().to_string();
        let u = user.clone();
        game = ctx
            .data()
            .host(move |h| {
                Ok(h.game_in_channel(&channel)?
                    .filter(|g| {
                        h.seats(g.id)
                            .map(|s| {
                                s.iter()
                                    .any(|x| x.occupant == host::Occupant::User(u.clone()))
                            })
                            .unwrap_or(false)
                    })
                    .map(|g| g.id))
            })
            .await?;
    }
    // A draw vote can end the game at once: asked first, with buttons.
    let (u, typed) = (user.clone(), text.clone());
    if let Some((g, turn)) = ctx
        .data()
        .host(move |h| h.draw_vote_to_confirm(game, &u, &typed))
        .await?
    {
        let (question, rows) = crate::desk::draw_confirmation(g, turn);
        ctx.send(messages::reply(question).components(rows).ephemeral(true))
            .await?;
        return Ok(());
    }
    let receipt = ctx
        .data()
        .host(move |h| h.submit(game, &user, &text))
        .await?;
    ctx.data().wake.all();
    ctx.send(
        messages::reply(messages::clip(
            &receipt_text(&receipt),
            messages::MAX_CONTENT,
        ))
        .ephemeral(true),
    )
    .await?;
    Ok(())
}
