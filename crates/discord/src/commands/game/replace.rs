//! `/game replace`: a game master gives a seat of a running game to
//! another person or to an AI.

use crate::BotError;
use crate::Context;
use crate::commands::shared::channel_game;
use crate::commands::shared::game_master_name;
use crate::commands::shared::say;
use crate::ui::messages;
use host::{Replacement, game_label};
use poise::serenity_prelude as serenity;

/// Game masters: give a seat of this channel's game to another person or to an AI
#[poise::command(slash_command)]
pub async fn replace(
    ctx: Context<'_>,
    #[description = "The power or seat number to give"] seat: String,
    #[description = "The person who takes it (leave out for an AI)"] user: Option<serenity::User>,
    #[description = "The AI's level, when no person is named (default: the server's)"]
    ai_level: Option<String>,
) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let Some(master) = game_master_name(&ctx, &g).await? else {
        return Err(BotError::user(format!(
            "Only a game master of this server gives away seats of {}: members with \
             Manage Server or the server's game-master role (`/settings show` names it). \
             A player who leaves uses `/game forfeit`; an open seat is taken with `/game takeover`.",
            game_label(&g)
        )));
    };
    let replacement = match (user, ai_level) {
        (Some(_), Some(_)) => {
            return Err(BotError::user(
                "Name a person or an AI level, not both: `user:` gives the seat to a person, \
                 `ai_level:` alone to an AI.",
            ));
        }
        (Some(u), None) if u.bot => {
            return Err(BotError::user(format!(
                "{} is a bot; give the seat to a person, or leave `user:` out for an AI.",
                messages::inert_name(&u.name)
            )));
        }
        (Some(u), None) => Replacement::User {
            id: u.id.to_string(),
            name: messages::display_name(&u, None),
        },
        (None, level) => Replacement::Ai(level),
    };
    let id = g.id;
    let role = ctx
        .data()
        .host(move |h| {
            let seat = h.seat_by_name(id, &seat)?;
            h.replace_as_game_master(id, &master, seat, replacement)
        })
        .await?;
    say(
        ctx,
        format!(
            "{role} of {} has its new player; the channel is told.",
            game_label(&g)
        ),
    )
    .await
}
