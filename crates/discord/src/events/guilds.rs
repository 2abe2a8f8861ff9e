//! A server the bot joins: one short greeting saying how to start, posted
//! once per server (the store remembers it, whichever process sees the
//! join) in the server's system channel, else the first text channel the
//! bot may write in.

use crate::BotError;
use crate::Data;
use crate::rest_metrics;
use crate::ui::{help, messages};
use poise::serenity_prelude as serenity;

/// The most channels tried for the greeting: a server where the bot may
/// write in none of the first few gets none rather than a request per
/// channel.
const MAX_CHANNELS_TRIED: usize = 5;

/// Greets a server the bot has just joined (`is_new`: not one it was in
/// when it connected), once.
pub async fn greet(
    ctx: &serenity::Context,
    data: &Data,
    guild: &serenity::Guild,
    is_new: Option<bool>,
) -> Result<(), BotError> {
    if is_new == Some(false) {
        return Ok(());
    }
    let id = guild.id.to_string();
    if !data.host(move |h| h.claim_guild_greeting(&id)).await? {
        return Ok(());
    }
    // The server's language: its admins' choice (none yet, it just joined)
    // else the server's own locale, which Discord sends with the join.
    let (id, locale) = (guild.id.to_string(), guild.preferred_locale.clone());
    let lang = data
        .host(move |h| h.server_language(&id, Some(&locale)))
        .await?;
    let text = help::greeting_text(&data.host.registry().names(), lang);
    for channel in channels_to_try(guild) {
        let sent = channel.send_message(&ctx.http, messages::create(text.clone()));
        match data.rest(rest_metrics::MESSAGE_CREATE, sent).await {
            Ok(_) => return Ok(()),
            // Most often no permission to write there: try the next one.
            Err(e) => {
                tracing::info!(guild = %guild.id, %channel, error = %e, "greeting not posted here")
            }
        }
    }
    tracing::warn!(guild = %guild.id, "no channel took the greeting; the server is not greeted");
    Ok(())
}

/// The system channel, then the text channels by position.
fn channels_to_try(guild: &serenity::Guild) -> Vec<serenity::ChannelId> {
    let mut text: Vec<&serenity::GuildChannel> = guild
        .channels
        .values()
        .filter(|c| c.kind == serenity::ChannelType::Text)
        .collect();
    text.sort_by_key(|c| (c.position, c.id));
    guild
        .system_channel_id
        .into_iter()
        .chain(
            text.into_iter()
                .map(|c| c.id)
                .filter(|id| Some(*id) != guild.system_channel_id),
        )
        .take(MAX_CHANNELS_TRIED)
        .collect()
}
