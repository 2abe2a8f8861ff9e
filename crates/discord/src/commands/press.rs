//! `/press`: a message to other powers of a Diplomacy game, relayed by DM.
use crate::press::receipt_text;

use crate::BotError;
use crate::Context;
use crate::ui::messages;

/// Send a message to other powers in your Diplomacy game (relayed by DM)
#[poise::command(slash_command)]
pub async fn press(
    ctx: Context<'_>,
    #[description = "A power (France, F), several (France,Italy), or all"] to: String,
    #[description = "Your message"] text: String,
    #[description = "Game id (default: your running Diplomacy game)"] game: Option<i64>,
) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let sent = ctx
        .data()
        .host(move |h| h.send_press(game, &user, &to, &text))
        .await?;
    ctx.data().wake.all();
    ctx.send(
        messages::reply(messages::clip(&receipt_text(&sent), messages::MAX_CONTENT))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
