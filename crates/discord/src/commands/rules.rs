//! `/rules <game>`: the rules of a game from its engine (the text the
//! terminal's `rules` shows), ephemeral; for a player in a running game of
//! that kind, as their seat reads them (Diplomacy: their own units).

use crate::BotError;
use crate::Context;
use crate::commands::shared::kinds;
use crate::ui::messages;
use host::GameStatus;

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
    let text = ctx
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
            h.rules(kind, theirs.map(|g| g.id), Some(&user))
        })
        .await?;
    for part in messages::split(&text, messages::MAX_CONTENT) {
        ctx.send(messages::reply(part).ephemeral(true)).await?;
    }
    Ok(())
}
