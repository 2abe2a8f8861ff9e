//! What every delivery shares: Discord's error codes, the nonces that keep a
//! repeated delivery from posting twice, and a text cut into messages.

use crate::Data;
use crate::ui::messages;
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateActionRow, CreateMessage, Http, MessageId, Nonce, UserId};

pub(crate) fn snowflake(s: &str) -> Option<u64> {
    s.parse::<u64>().ok().filter(|n| *n != 0)
}

/// The Discord error code of a failed request, if any.
pub(crate) fn error_code(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// Whether a failed send should be tried again later.
pub(crate) fn transient(e: &serenity::Error) -> bool {
    match error_code(e) {
        Some((status, _)) => status == 429 || status >= 500,
        None => true,
    }
}

/// Which way an outbox row went out, for its messages' nonces.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Route {
    /// Where the row is addressed (channel, or the user's DM).
    Main(i64),
    /// The channel note for a user whose DMs are closed.
    Fallback(i64),
    /// The note that a game cannot have a thread (by game id: once a game).
    Thread(i64),
}

/// Discord's limit on a nonce's length.
const MAX_NONCE: usize = 25;

/// The nonce of one message of an outbox row: unique per row, route and
/// part, and the same every time the row is delivered again.
pub(crate) fn nonce(route: Route, part: usize) -> Option<String> {
    let n = match route {
        Route::Main(id) => format!("ob{id}p{part}"),
        Route::Fallback(id) => format!("ob{id}f{part}"),
        Route::Thread(game) => format!("th{game}p{part}"),
    };
    // Row ids would need 19 digits to overflow; sending without a nonce
    // then is better than not sending.
    if n.len() > MAX_NONCE {
        tracing::warn!(nonce = %n, "outbox nonce too long; sent without de-duplication");
        return None;
    }
    Some(n)
}

/// Part `part` of a row with its nonce, so Discord does not post a repeat twice.
pub(crate) fn with_nonce(m: CreateMessage, route: Route, part: usize) -> CreateMessage {
    match nonce(route, part) {
        Some(n) => m.nonce(Nonce::String(n)).enforce_nonce(true),
        None => m,
    }
}

/// A text split into messages, with components on the last one; each part
/// may ping those of `mentions` that it names itself (a long board's first
/// parts name nobody).
pub(crate) fn message_parts(
    text: &str,
    rows: Vec<CreateActionRow>,
    mentions: &[UserId],
) -> Vec<CreateMessage> {
    let parts = messages::split(text, messages::MAX_CONTENT);
    let n = parts.len();
    let mut rows = Some(rows);
    parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let named = messages::mentioned_users(&p);
            let allowed = messages::pinging(mentions.iter().copied().filter(|u| named.contains(u)));
            let mut m = CreateMessage::new().content(p).allowed_mentions(allowed);
            if i + 1 == n
                && let Some(r) = rows.take().filter(|r| !r.is_empty())
            {
                m = m.components(r);
            }
            m
        })
        .collect()
}

/// Sends messages in order, each with its nonce so a repeat is not posted
/// twice, together in the channel's turn (another game's lane waits);
/// returns the last one's id.
pub(crate) async fn send_in_turn(
    http: &Http,
    data: &Data,
    channel: ChannelId,
    msgs: Vec<CreateMessage>,
    route: Route,
) -> Result<Option<MessageId>, serenity::Error> {
    let _turn = data.channel_turns.take(channel).await;
    let mut last = None;
    for (part, m) in msgs.into_iter().enumerate() {
        data.global_rate.wait().await;
        last = Some(
            channel
                .send_message(http, with_nonce(m, route, part))
                .await?
                .id,
        );
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_stable_distinct_and_within_discords_limit() {
        assert_eq!(nonce(Route::Main(42), 0).as_deref(), Some("ob42p0"));
        assert_eq!(nonce(Route::Fallback(42), 0).as_deref(), Some("ob42f0"));
        assert_ne!(nonce(Route::Main(4), 21), nonce(Route::Main(42), 1));
        // The largest row id still fits with up to 1000 parts.
        let n = nonce(Route::Main(i64::MAX), 999).unwrap();
        assert_eq!(n.len(), MAX_NONCE);
        assert_eq!(nonce(Route::Main(i64::MAX), 1000), None);
    }
}
