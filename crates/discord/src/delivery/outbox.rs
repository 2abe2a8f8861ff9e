//! Delivers the host's outbox: channel announcements, prompts with buttons
//! (in the channel for channel-move games, by DM for hidden moves), private
//! notes and reminders by DM. A user whose DMs are closed (50007) gets a
//! channel message that mentions them without revealing anything, with a
//! button that shows their move privately. Rows are marked sent after
//! delivery, so nothing is lost across a restart.
//!
//! Delivery is at-least-once: the bot may die after Discord accepted a
//! message and before the row is marked sent. Every message therefore
//! carries a nonce made of the row id, when it was queued and the part
//! number (`o{row}q{queued}p{part}`, at most 25 characters; see
//! `send::nonce`) with `enforce_nonce`, and
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
use crate::delivery::boards::board_images;
use crate::delivery::boards::wants_image;
use crate::delivery::home_order::HomeWaiter;
use crate::delivery::send::Route;
use crate::delivery::send::RowKey;
use crate::delivery::send::error_code;
use crate::delivery::send::message_parts;
use crate::delivery::send::send_in_turn;
use crate::delivery::send::snowflake;
use crate::delivery::send::transient;
use crate::delivery::send::with_nonce;
use crate::ui::components;
use crate::ui::messages;
use host::{Announcement, AnnouncementKind, OutboxItem};
use host::{GameStatus, Target};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateAttachment, CreateMessage, Http, UserId};

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
    let result = match &item.target {
        Target::Channel(c) => match snowflake(c) {
            Some(c) => {
                match crate::delivery::living::deliver(
                    http,
                    data,
                    RowKey::of(item),
                    ChannelId::new(c),
                    a,
                )
                .await
                {
                    Some(result) => result,
                    None => {
                        // The game's home now (its thread once it has one).
                        let home = crate::delivery::living::home(data, a)
                            .await
                            .unwrap_or(ChannelId::new(c));
                        let msgs = channel_messages(data, a).await;
                        send_in_turn(http, data, home, msgs, Route::Main(RowKey::of(item)))
                            .await
                            .map(drop)
                    }
                }
            }
            None => return Fate::Skip,
        },
        Target::User(u) => match (snowflake(u), snowflake(&a.channel_id)) {
            (Some(u), Some(_)) => {
                to_user(http, data, a, UserId::new(u), RowKey::of(item), home).await
            }
            _ => return Fate::Skip,
        },
    };
    match result {
        Ok(()) => Fate::Done,
        Err(e) if transient(&e) => {
            let asked = crate::delivery::rate_limited::wait_asked(http, &e).await;
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

/// Sends messages to a user by DM in order, each with its nonce, through
/// the user's remembered DM channel.
async fn send_dm(
    http: &Http,
    data: &Data,
    user: UserId,
    msgs: Vec<CreateMessage>,
    route: Route,
) -> Result<(), serenity::Error> {
    for (part, m) in msgs.into_iter().enumerate() {
        crate::delivery::dm_channels::send_dm(http, data, user, with_nonce(m, route, part)).await?;
    }
    Ok(())
}

/// How an announcement looks in its game's channel.
async fn channel_messages(data: &Data, a: &Announcement) -> Vec<CreateMessage> {
    match a.kind {
        AnnouncementKind::Lobby => {
            let g = a.game_id;
            let view = data.host(move |h| h.view(g, None)).await.ok();
            let mut text = a.text.clone();
            let mut rows = Vec::new();
            if let Some(v) = view.filter(|v| v.status == GameStatus::Lobby) {
                text.push_str("\nSeats:");
                for s in &v.seats {
                    text.push_str(&format!("\n{}. {}", s.seat + 1, s.name));
                }
                rows = components::lobby_rows(g);
            }
            message_parts(&text, rows, &[])
        }
        _ => {
            let images = if wants_image(data, a) {
                board_images(data, a).await
            } else {
                Vec::new()
            };
            let mut msgs = if images.is_empty() {
                message_parts(
                    &messages::with_board(&a.text, a.board.as_deref()),
                    vec![],
                    &[],
                )
            } else {
                let mut msgs = message_parts(&a.text, vec![], &[]);
                // The images go under the last part of the text.
                if let Some(last) = msgs.pop() {
                    msgs.push(last.add_files(images.into_iter().map(|i| {
                        CreateAttachment::bytes(i.png, i.filename).description(i.description)
                    })));
                }
                msgs
            };
            // A finished game's replay follows its final message, as one
            // more part of the row (so a repeat is de-duplicated too).
            if a.kind == AnnouncementKind::Finished
                && let Some(replay) =
                    crate::ui::replay::final_replay(data, &a.game_kind, a.game_id).await
            {
                msgs.push(replay);
            }
            msgs
        }
    }
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

async fn to_user(
    http: &Http,
    data: &Data,
    a: &Announcement,
    user: UserId,
    row: RowKey,
    home: &HomeWaiter,
) -> Result<(), serenity::Error> {
    if !current(data, a).await {
        return Ok(());
    }
    // The game's home now (its thread once it has one).
    let channel = match crate::delivery::living::home(data, a).await {
        Some(c) => c,
        None => ChannelId::new(snowflake(&a.channel_id).unwrap_or(1)),
    };
    let (rows, cut) = components::choice_rows(a.game_id, a.turn, &a.choices);
    let more = if cut {
        "\n(More choices than fit here: type them with `/move`.)"
    } else {
        ""
    };
    // Kinds whose moves are open are prompted in the channel, with buttons;
    // every other kind by DM (hidden moves).
    let channel_moves = data
        .host
        .registry()
        .get(&a.game_kind)
        .is_ok_and(|k| k.moves_in_channel);
    if a.kind == AnnouncementKind::Prompt && channel_moves {
        // The message that opened the turn carries this prompt (see
        // `living.rs`): nothing more to post.
        if crate::delivery::living::turn_posted(data, a.game_id, a.turn).await {
            return Ok(());
        }
        // Moves of this game are public: prompt in the channel.
        let text = format!(
            "{} {}{more}",
            crate::ui::text::mention(&user.to_string()),
            a.text
        );
        return send_in_turn(
            http,
            data,
            channel,
            message_parts(&text, rows, &[user]),
            Route::Main(row),
        )
        .await
        .map(drop);
    }
    let link = link_to(data, a, channel).await;
    // A Diplomacy phase prompt is the order desk: how to order, the menus'
    // buttons and the private map of the player's own orders.
    if a.kind == AnnouncementKind::Prompt
        && let Some((text, rows, map)) = crate::desk::prompt(data, a, &user.to_string()).await
    {
        let mut msgs = message_parts(&format!("{text}\n{link}"), rows, &[]);
        if let Some(map) = map
            && let Some(last) = msgs.pop()
        {
            msgs.push(last.add_file(map));
        }
        return match send_dm(http, data, user, msgs, Route::Main(row)).await {
            Ok(()) => Ok(()),
            Err(e) => closed_or(http, data, e, (channel, home), user, a, row).await,
        };
    }
    let body = match (a.kind, a.deadline) {
        (AnnouncementKind::Prompt, _) => format!(
            "{}{more}\n{link}",
            messages::with_board(&a.text, a.board.as_deref())
        ),
        // A reminder names the deadline as Discord timestamps, which every
        // reader sees in their own time zone (the host passes it as data).
        (AnnouncementKind::Reminder, Some(deadline)) => format!(
            "{}\nDeadline: {}.\n{link}",
            a.text,
            crate::ui::text::when(deadline)
        ),
        _ => format!(
            "{}\n{link}",
            messages::with_board(&a.text, a.board.as_deref())
        ),
    };
    let msgs = message_parts(&body, rows, &[]);
    match send_dm(http, data, user, msgs, Route::Main(row)).await {
        Ok(()) => Ok(()),
        Err(e) => closed_or(http, data, e, (channel, home), user, a, row).await,
    }
}

/// DMs closed (50007): tell the user in the game's channel without saying
/// anything private, after the channel's rows queued before this one (the
/// turn's report the note belongs to); otherwise pass the error on.
async fn closed_or(
    http: &Http,
    data: &Data,
    e: serenity::Error,
    (channel, home): (ChannelId, &HomeWaiter),
    user: UserId,
    a: &Announcement,
    row: RowKey,
) -> Result<(), serenity::Error> {
    if !matches!(error_code(&e), Some((_, 50007))) {
        return Err(e);
    }
    // Press is between players: even that someone wrote to this player is
    // not for the channel. The message stays in the game's press log.
    if a.kind == AnnouncementKind::Press {
        tracing::info!(%user, game_id = a.game_id, "press not delivered: the recipient's DMs are closed");
        return Ok(());
    }
    let who = crate::ui::text::mention(&user.to_string());
    let label = format!("{} #{}", a.game_kind, a.game_id);
    let text = match a.kind {
        AnnouncementKind::Prompt => format!(
            "{who}, it is your move in {label}, but I cannot DM you (your DMs are closed). Press **Show my move** to see it privately."
        ),
        AnnouncementKind::Reminder => format!(
            "{who}, the deadline in {label} is close and you have not moved yet. Press **Show my move**."
        ),
        _ => format!(
            "{who}, I have a private note for you about {label}, but your DMs are closed. Press **Show my move** to see your view."
        ),
    };
    if !home.earlier_rows_out(row.id).await {
        // The report above it was not delivered: the note goes with it
        // when the game's delivery is tried again.
        return Err(serenity::Error::Other(
            "the game's earlier messages were not delivered",
        ));
    }
    send_in_turn(
        http,
        data,
        channel,
        message_parts(
            &text,
            vec![components::show_row(a.game_id, a.turn)],
            &[user],
        ),
        Route::Fallback(row),
    )
    .await
    .map(drop)
}

/// A link back to the game's channel (its thread once it has one).
async fn link_to(data: &Data, a: &Announcement, channel: ChannelId) -> String {
    let g = a.game_id;
    let guild = data
        .host(move |h| h.game(g))
        .await
        .ok()
        .and_then(|r| r.guild_id);
    match guild {
        Some(guild) => format!("Game channel: https://discord.com/channels/{guild}/{channel}"),
        None => format!("Game channel: <#{channel}>"),
    }
}
