//! What a player gets by DM: prompts (a game's own, such as the Diplomacy
//! order desk, handed in by the desk as [`crate::OwnPromptFn`], or the
//! plain prompt with its buttons), reminders and private notes, each with a
//! link back to the game. A player whose DMs are closed (50007) gets a note
//! in the game's home that mentions them without revealing anything, with a
//! button that shows their move privately.

use crate::Data;
use crate::delivery::home_order::HomeWaiter;
use crate::delivery::living::home_or_named;
use crate::send::{Route, RowKey, error_code, message_parts, send_in_turn, with_nonce};
use crate::ui::components;
use crate::ui::messages;
use host::{Announcement, AnnouncementKind};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateMessage, Http, UserId};

/// Sends `a` to `user` by DM: the prompt (a game's own, or the plain one
/// with its buttons), a reminder with its deadline, a private note; each
/// with a link to the game. Closed DMs get a note in the game's home
/// instead, after the home's rows queued before it (`home`).
pub(super) async fn to_user(
    http: &Http,
    data: &Data,
    a: &Announcement,
    user: UserId,
    row: RowKey,
    home: &HomeWaiter,
) -> Result<(), serenity::Error> {
    // The game's home now (its thread once it has one).
    let channel = home_or_named(data, a).await;
    let (rows, cut) = components::choice_rows(a.game_id, a.turn, &a.choices);
    let more = if cut {
        "\n(More choices than fit here: type them with `/move`.)"
    } else {
        ""
    };
    let link = link_to(data, a, channel).await;
    // A game's own prompt (the Diplomacy order desk: how to order, the
    // menus' buttons and the private map of the player's own orders), as
    // the desk handed it to the bot at start-up.
    if a.kind == AnnouncementKind::Prompt
        && let Some((text, rows, map)) = (data.own_prompt)(data, a, &user.to_string()).await
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
        crate::dm_channels::send_dm(http, data, user, with_nonce(m, route, part)).await?;
    }
    Ok(())
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
