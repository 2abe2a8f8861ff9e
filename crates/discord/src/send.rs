//! What every delivery shares: Discord's error codes, the nonces that keep a
//! repeated delivery from posting twice, and a text cut into messages.

use crate::Data;
use crate::rest_metrics;
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

/// An outbox row as its messages' nonces name it: its id and when it was
/// queued. The id alone is not enough: a database restored from a backup
/// hands out again the ids of rows delivered after the backup, and Discord
/// would answer a new message carrying a nonce it saw minutes ago with the
/// old message instead of posting it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowKey {
    /// The row's id.
    pub id: i64,
    /// When it was queued (ms).
    pub queued_at: i64,
}

impl RowKey {
    /// The key of an outbox item.
    pub(crate) fn of(item: &host::OutboxItem) -> RowKey {
        RowKey {
            id: item.id,
            queued_at: item.queued_at,
        }
    }
}

/// Which way an outbox row went out, for its messages' nonces.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Route {
    /// Where the row is addressed (channel, or the user's DM).
    Main(RowKey),
    /// The channel note for a user whose DMs are closed.
    Fallback(RowKey),
    /// The note that a game cannot have a thread (once a game: only the
    /// row that opens the thread posts it).
    Thread(RowKey),
}

/// Discord's limit on a nonce's length.
const MAX_NONCE: usize = 25;

/// How much of the queuing time a nonce carries: its milliseconds modulo
/// this (about 16.7 minutes, longer than Discord's de-duplication window of
/// a few minutes), so a reused id collides only if queued at the same
/// millisecond of that cycle.
const QUEUED_CYCLE_MS: i64 = 1_000_000;

/// The nonce of one message of an outbox row: unique per row, route and
/// part, and the same every time the row is delivered again.
pub(crate) fn nonce(route: Route, part: usize) -> Option<String> {
    let (tag, row) = match route {
        Route::Main(row) => ('p', row),
        Route::Fallback(row) => ('f', row),
        Route::Thread(row) => ('t', row),
    };
    let queued = row.queued_at.rem_euclid(QUEUED_CYCLE_MS);
    let n = format!("o{}q{queued}{tag}{part}", row.id);
    // Row ids would need 14 digits to overflow; sending without a nonce
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
        let sent = channel.send_message(http, with_nonce(m, route, part));
        last = Some(data.rest(rest_metrics::MESSAGE_CREATE, sent).await?.id);
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: i64, queued_at: i64) -> RowKey {
        RowKey { id, queued_at }
    }

    #[test]
    fn nonces_are_stable_distinct_and_within_discords_limit() {
        let row = key(42, 1_764_000_123_456);
        assert_eq!(nonce(Route::Main(row), 0).as_deref(), Some("o42q123456p0"));
        assert_eq!(nonce(Route::Main(row), 0), nonce(Route::Main(row), 0));
        assert_eq!(
            nonce(Route::Fallback(row), 0).as_deref(),
            Some("o42q123456f0")
        );
        assert_eq!(
            nonce(Route::Thread(row), 0).as_deref(),
            Some("o42q123456t0")
        );
        let at = 1_764_000_000_000;
        assert_ne!(
            nonce(Route::Main(key(4, at)), 21),
            nonce(Route::Main(key(42, at)), 1)
        );
        assert_ne!(
            nonce(Route::Main(key(4, 12)), 3),
            nonce(Route::Main(key(41, 2)), 3)
        );
        // A thirteen-digit row id with the longest queuing part still fits
        // with up to 1000 parts.
        let big = key(9_999_999_999_999, 999_999);
        assert_eq!(nonce(Route::Main(big), 999).unwrap().len(), MAX_NONCE);
        assert_eq!(nonce(Route::Main(big), 1000), None);
    }

    #[test]
    fn a_row_id_reused_after_a_restore_gets_new_nonces() {
        // The row delivered before the restore, and the new row that was
        // given its id afterwards, a minute later.
        let before = key(7, 1_764_000_000_000);
        let after = key(7, 1_764_000_060_000);
        for part in 0..3 {
            assert_ne!(
                nonce(Route::Main(before), part),
                nonce(Route::Main(after), part)
            );
        }
    }
}
