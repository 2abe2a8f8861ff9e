//! How long a 429 that reached the delivery asked it to wait.
//!
//! serenity's rate limiter retries a 429 itself when the answer carries a
//! `Retry-After` header. One without it (a proxy's, or an edge's) comes back
//! as an error, and serenity reads its body only as Discord's error object:
//! without `code` (which Discord documents as optional for a 429) the body
//! does not decode ("missing field `code`") and its `retry_after` is lost.
//! The game then waited the delivery's fixed back-off (0.5 s, doubling)
//! instead: 0.99 s where Discord had asked for 0.39 s.
//!
//! The answer's `X-RateLimit-*` headers did reach serenity's limiter, which
//! keeps the bucket's reset (`X-RateLimit-Reset-After`, the same wait as a
//! per-route 429's `retry_after`). The game waits until that reset, and the
//! request sent then finds the bucket open.

use poise::serenity_prelude as serenity;
use serenity::http::{RatelimitingBucket, Route};
use serenity::{ChannelId, Http, MessageId};
use std::time::{Duration, SystemTime};

/// How long the 429 `e` asked to wait, as the bucket it refused knows it;
/// None when `e` is not a 429 or its bucket says nothing (no rate limiter,
/// no `X-RateLimit-*` headers, a route the delivery does not use).
pub(crate) async fn wait_asked(http: &Http, e: &serenity::Error) -> Option<Duration> {
    let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) = e else {
        return None;
    };
    if r.status_code.as_u16() != 429 {
        return None;
    }
    let key = bucket_of(&r.url)?;
    let routes = http.ratelimiter.as_ref()?.routes();
    let bucket = routes.read().await.get(&key).cloned()?;
    // A request holding the bucket is waiting for it to reopen: it knows
    // better than this look, so leave it to the usual back-off.
    let bucket = bucket.try_lock().ok()?;
    if bucket.remaining() > 0 {
        return None;
    }
    bucket.reset()?.duration_since(SystemTime::now()).ok()
}

/// serenity's bucket of a request to `url`, for the routes the delivery
/// sends to: messages (create, edit, delete), threads from a message, and
/// DM channels.
fn bucket_of(url: &str) -> Option<RatelimitingBucket> {
    let path = url.split_once("/api/v")?.1;
    let path = path.split('?').next()?;
    let parts: Vec<&str> = path.split('/').skip(1).collect();
    let id = |s: &str| s.parse::<u64>().ok().filter(|n| *n != 0);
    let route = match parts.as_slice() {
        ["users", "@me", "channels"] => Route::UserMeDmChannels,
        ["channels", c, "messages"] => Route::ChannelMessages {
            channel_id: ChannelId::new(id(c)?),
        },
        ["channels", c, "messages", m] => Route::ChannelMessage {
            channel_id: ChannelId::new(id(c)?),
            message_id: MessageId::new(id(m)?),
        },
        ["channels", c, "messages", m, "threads"] => Route::ChannelMessageThreads {
            channel_id: ChannelId::new(id(c)?),
            message_id: MessageId::new(id(m)?),
        },
        _ => return None,
    };
    Some(route.ratelimiting_bucket())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delivery_routes_find_serenitys_buckets() {
        let api = "https://discord.com/api/v10";
        let create = Route::ChannelMessages {
            channel_id: ChannelId::new(12),
        };
        assert_eq!(
            bucket_of(&format!("{api}/channels/12/messages")),
            Some(create.ratelimiting_bucket())
        );
        // Edits share their channel's bucket whatever the message.
        let edit = Route::ChannelMessage {
            channel_id: ChannelId::new(12),
            message_id: MessageId::new(1),
        };
        assert_eq!(
            bucket_of(&format!("{api}/channels/12/messages/34")),
            Some(edit.ratelimiting_bucket())
        );
        assert_ne!(
            bucket_of(&format!("{api}/channels/13/messages")),
            Some(create.ratelimiting_bucket())
        );
        assert_eq!(
            bucket_of(&format!("{api}/users/@me/channels")),
            Some(Route::UserMeDmChannels.ratelimiting_bucket())
        );
        assert_eq!(bucket_of(&format!("{api}/gateway/bot")), None);
        assert_eq!(bucket_of("not a url"), None);
    }
}
