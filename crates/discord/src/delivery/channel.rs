//! Announcements posted in the game's home as they are, never edited: a
//! turn's private note to the channel, a game's result (with its board's
//! images and, for a finished game, its replay), an abort; and a prompt of
//! a game played in the channel whose turn message did not carry it.

use crate::Data;
use crate::delivery::living::{home, home_or_named, turn_posted};
use crate::images::boards::{board_images, wants_image};
use crate::send::{Route, RowKey, message_parts, send_in_turn};
use crate::ui::components;
use crate::ui::messages;
use host::{Announcement, AnnouncementKind};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateAttachment, CreateMessage, Http, UserId};

/// Posts `a` in the game's home now (its thread once it has one; `channel`
/// when the game cannot be read).
pub(super) async fn post(
    http: &Http,
    data: &Data,
    row: RowKey,
    channel: ChannelId,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let home = home(data, a).await.unwrap_or(channel);
    let msgs = channel_messages(data, a).await;
    send_in_turn(http, data, home, msgs, Route::Main(row))
        .await
        .map(drop)
}

/// Prompts `user` in the channel of a game whose moves are public, unless
/// the message that opened the turn already carries the prompt (see
/// `turns`): then nothing more is posted.
pub(super) async fn prompt(
    http: &Http,
    data: &Data,
    row: RowKey,
    user: UserId,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    if turn_posted(data, a.game_id, a.turn).await {
        return Ok(());
    }
    let channel = home_or_named(data, a).await;
    let (rows, cut) = components::choice_rows(a.game_id, a.turn, &a.choices);
    let more = if cut {
        "\n(More choices than fit here: type them with `/move`.)"
    } else {
        ""
    };
    let text = format!(
        "{} {}{more}",
        crate::ui::text::mention(&user.to_string()),
        a.text
    );
    send_in_turn(
        http,
        data,
        channel,
        message_parts(&text, rows, &[user]),
        Route::Main(row),
    )
    .await
    .map(drop)
}

/// How an announcement looks in its game's channel.
async fn channel_messages(data: &Data, a: &Announcement) -> Vec<CreateMessage> {
    let images = if wants_image(data, a) {
        board_images(data, a).await
    } else {
        Vec::new()
    };
    let mut msgs =
        if images.is_empty() {
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
        && let Some(replay) = crate::ui::replay::final_replay(data, &a.game_kind, a.game_id).await
    {
        msgs.push(replay);
    }
    msgs
}
