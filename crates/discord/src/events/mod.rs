//! What Discord tells the bot besides slash commands: button and menu
//! clicks, messages in a DM, and servers it joins.

mod buttons;
mod dm;
mod guilds;

use crate::BotError;
use crate::Data;
pub use buttons::show;

use poise::serenity_prelude as serenity;

/// Hands an event to its handler; other events are ignored.
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, BotError>,
    event: &serenity::FullEvent,
) -> Result<(), BotError> {
    let (ctx, data) = (framework.serenity_context, framework.user_data);
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(c),
        } => buttons::handle(ctx, data, c).await,
        serenity::FullEvent::Message { new_message } => dm::handle(ctx, data, new_message).await,
        serenity::FullEvent::GuildCreate { guild, is_new } => {
            guilds::greet(ctx, data, guild, *is_new).await
        }
        _ => Ok(()),
    }
}
