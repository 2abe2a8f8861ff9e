//! Delivers one outbox row: picks, by where it goes and what it announces,
//! the one part that delivers it (the lobby, the thread, a turn's message
//! or its status line, the living board, a plain post, a prompt in the
//! channel, a DM), and says what became of it. Those parts only call the
//! ones below them (`turns` and `living`), never back up here. Rows are
//! marked sent after delivery (by the lane), so nothing is lost across a
//! restart.
//!
//! Delivery is at-least-once: the bot may die after Discord accepted a
//! message and before the row is marked sent. Every message therefore
//! carries a nonce made of the row id, when it was queued and the part
//! number (`o{row}q{queued}p{part}`, at most 25 characters; see
//! `crate::send::nonce`) with `enforce_nonce`, and
//! Discord answers a repeat within its de-duplication window (a few
//! minutes) with the message it already created instead of posting it
//! again. A restart later than that window can still post twice.
//!
//! Boards of kinds with an image (puzzle fields, the Diplomacy map) are
//! attached as PNG, rendered from the game as it was at the announced turn
//! (a row may be delivered after later turns), off the async runtime. The
//! image replaces the text board in the channel; the text board stays the
//! image's alt text when it fits Discord's 1024 characters, is always in
//! `/game status`, and is what the channel gets if rendering fails. The
//! Diplomacy map's legend names the players (from the host's seats), and a
//! finished Diplomacy game's replay GIF follows its final message.

use crate::Data;
use crate::delivery::home_order::HomeWaiter;
use crate::delivery::living::{home, played_in_channel, turn_posted};
use crate::delivery::{board, channel, dm, lobby, thread, turns};
use crate::send::{RowKey, snowflake, transient};
use host::{Announcement, AnnouncementKind, OutboxItem};
use host::{GameStatus, Target};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, Http, UserId};

/// What became of one row.
pub(crate) enum Fate {
    /// Delivered (or undeliverable for good): mark it sent.
    Done,
    /// Discord or the network failed: try again later (after the wait a
    /// 429 asked for, when it is known).
    Retry(Option<std::time::Duration>),
    /// Not ours (e.g. a terminal game's row): leave it.
    Skip,
}

/// Delivers one row wherever it goes (see the module's doc); a note it
/// posts in the game's home instead of a closed DM waits on `home` first.
pub(crate) async fn deliver(
    http: &Http,
    data: &Data,
    item: &OutboxItem,
    home: &HomeWaiter,
) -> Fate {
    let a = match &item.announcement {
        Ok(a) => a,
        Err(e) => {
            tracing::error!(outbox_id = item.id, error = %e, "unreadable announcement dropped");
            return Fate::Done;
        }
    };
    let row = RowKey::of(item);
    let result = match &item.target {
        Target::Channel(c) => match snowflake(c) {
            Some(c) => to_channel(http, data, row, ChannelId::new(c), a).await,
            None => return Fate::Skip,
        },
        Target::User(u) => match (snowflake(u), snowflake(&a.channel_id)) {
            (Some(u), Some(_)) => to_user(http, data, row, UserId::new(u), a, home).await,
            _ => return Fate::Skip,
        },
    };
    match result {
        Ok(()) => Fate::Done,
        Err(e) if transient(&e) => {
            let asked = crate::pacing::rate_limited::wait_asked(http, &e).await;
            tracing::warn!(
                outbox_id = item.id,
                game_id = a.game_id,
                error = %e,
                wait_ms = asked.map(|w| w.as_millis() as u64),
                "delivery failed; will retry"
            );
            Fate::Retry(asked)
        }
        Err(e) => {
            tracing::error!(outbox_id = item.id, game_id = a.game_id, error = %e, "Discord refused an announcement; dropped");
            Fate::Done
        }
    }
}

/// A row for the game's channel, by what it announces: the lobby and the
/// start are living messages, a turn opens with one message (or edits the
/// living board of a game played in the channel), a person's move edits
/// the turn's status line, and the rest is posted as it is.
async fn to_channel(
    http: &Http,
    data: &Data,
    row: RowKey,
    channel: ChannelId,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let in_channel = played_in_channel(data, a);
    match a.kind {
        // Once the game started, the lobby was closed with its final
        // seats, so a change delivered late (after a crash) is stale and
        // nothing is posted.
        AnnouncementKind::Lobby if started(data, a).await => Ok(()),
        AnnouncementKind::Lobby => lobby::post_lobby(http, data, row, channel, a).await,
        AnnouncementKind::Started => {
            lobby::close_lobby(http, data, a, "It has started").await?;
            let home = thread::open_thread(http, data, row, a).await?;
            if in_channel {
                board::board_turn(http, data, row, home, a).await
            } else {
                turns::open_turn(http, data, row, home, a).await
            }
        }
        AnnouncementKind::Turn => match home(data, a).await {
            Some(home) if in_channel => board::board_turn(http, data, row, home, a).await,
            Some(home) => {
                turns::open_turn(http, data, row, home, a).await?;
                if let Some(resolved) = a.turn.checked_sub(1) {
                    turns::clear_status(http, data, a.game_id, resolved).await;
                }
                Ok(())
            }
            None => Ok(()),
        },
        AnnouncementKind::Waiting => turns::waiting(http, data, row, a).await,
        AnnouncementKind::Aborted if !started(data, a).await => {
            lobby::close_lobby(http, data, a, "It was closed").await?;
            channel::post(http, data, row, channel, a).await
        }
        // The living board reads as the record of the game (no prompt, no
        // buttons) before the result or the abort is posted under it.
        AnnouncementKind::Finished | AnnouncementKind::Aborted if in_channel => {
            board::settle_board(http, data, a.game_id).await;
            channel::post(http, data, row, channel, a).await
        }
        _ => channel::post(http, data, row, channel, a).await,
    }
}

/// Whether the game started (its first turn's message was posted).
async fn started(data: &Data, a: &Announcement) -> bool {
    turn_posted(data, a.game_id, 0).await
}

/// A row for one player: a prompt still current goes to the channel in
/// games whose moves are public, by DM otherwise, as do reminders and
/// private notes.
async fn to_user(
    http: &Http,
    data: &Data,
    row: RowKey,
    user: UserId,
    a: &Announcement,
    home: &HomeWaiter,
) -> Result<(), serenity::Error> {
    if !current(data, a).await {
        return Ok(());
    }
    if a.kind == AnnouncementKind::Prompt && played_in_channel(data, a) {
        return channel::prompt(http, data, row, user, a).await;
    }
    dm::to_user(http, data, a, user, row, home).await
}

/// Whether an announcement for a user is still current (a prompt for a
/// turn already resolved is not worth sending).
async fn current(data: &Data, a: &Announcement) -> bool {
    if !matches!(
        a.kind,
        AnnouncementKind::Prompt | AnnouncementKind::Reminder
    ) {
        return true;
    }
    let g = a.game_id;
    match data.host(move |h| h.game(g)).await {
        Ok(row) => row.status == GameStatus::Running && row.turn == a.turn,
        Err(_) => false,
    }
}
