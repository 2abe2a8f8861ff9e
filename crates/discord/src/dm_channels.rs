//! The private (DM) channel of each user, opened once and remembered: in
//! memory, and through the host across restarts and processes. Discord
//! answers the same channel every time it is opened, so opening it before
//! every DM only spent a request (a tenth of all the bot made).

use crate::Data;
use crate::rest_metrics;
use crate::send::error_code;
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateMessage, Http, Message, UserId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The DM channels known in this process, by user.
#[derive(Clone, Default)]
pub struct DmChannels {
    known: Arc<Mutex<HashMap<UserId, ChannelId>>>,
    /// Held while a DM channel is opened: one open at a time, so that
    /// serenity's limiter learns the opens' shared bucket (a few a second)
    /// from the first answer instead of a burst of first contacts meeting
    /// 429s (12 games starting at once met 14).
    opening: Arc<tokio::sync::Mutex<()>>,
}

/// Discord's code for a channel it does not know (deleted, or never ours).
const UNKNOWN_CHANNEL: isize = 10003;

impl DmChannels {
    fn get(&self, user: UserId) -> Option<ChannelId> {
        self.known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&user)
            .copied()
    }

    fn put(&self, user: UserId, channel: ChannelId) {
        self.known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(user, channel);
    }

    fn forget(&self, user: UserId) {
        self.known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&user);
    }
}

/// The DM channel of `user`: remembered, or opened (one request) and
/// remembered. A store failure only costs the request it would have saved.
pub async fn dm_channel(
    http: &Http,
    data: &Data,
    user: UserId,
) -> Result<ChannelId, serenity::Error> {
    if let Some(c) = data.dm_channels.get(user) {
        return Ok(c);
    }
    let key = user.to_string();
    let stored = data
        .host(move |h| h.dm_channel(&key))
        .await
        .ok()
        .flatten()
        .and_then(|c| c.parse::<u64>().ok())
        .filter(|c| *c != 0)
        .map(ChannelId::new);
    if let Some(c) = stored {
        data.dm_channels.put(user, c);
        return Ok(c);
    }
    let opened = {
        let _one_at_a_time = data.dm_channels.opening.lock().await;
        // Another task may have opened it while this one waited.
        if let Some(c) = data.dm_channels.get(user) {
            return Ok(c);
        }
        data.rest(rest_metrics::DM_OPEN, user.create_dm_channel(http))
            .await?
            .id
    };
    data.dm_channels.put(user, opened);
    let (key, value) = (user.to_string(), opened.to_string());
    if let Err(e) = data
        .host(move |h| h.remember_dm_channel(&key, &value))
        .await
    {
        tracing::warn!(%user, error = %e, "cannot remember a DM channel");
    }
    Ok(opened)
}

/// Forgets `user`'s DM channel everywhere (Discord no longer knows it).
async fn forget(data: &Data, user: UserId) {
    data.dm_channels.forget(user);
    let key = user.to_string();
    if let Err(e) = data.host(move |h| h.forget_dm_channel(&key)).await {
        tracing::warn!(%user, error = %e, "cannot forget a DM channel");
    }
}

/// Sends one message to `user` by DM through the remembered channel; a
/// channel Discord no longer knows is forgotten and opened again, once.
pub async fn send_dm(
    http: &Http,
    data: &Data,
    user: UserId,
    message: CreateMessage,
) -> Result<Message, serenity::Error> {
    let channel = dm_channel(http, data, user).await?;
    let sent = {
        let _turn = data.channel_turns.take(channel).await;
        data.rest(
            rest_metrics::MESSAGE_CREATE,
            channel.send_message(http, message.clone()),
        )
        .await
    };
    match sent {
        Err(e) if matches!(error_code(&e), Some((_, UNKNOWN_CHANNEL))) => {
            forget(data, user).await;
            let channel = dm_channel(http, data, user).await?;
            let _turn = data.channel_turns.take(channel).await;
            data.rest(
                rest_metrics::MESSAGE_CREATE,
                channel.send_message(http, message),
            )
            .await
        }
        sent => sent,
    }
}
