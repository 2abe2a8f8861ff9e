//! Living messages and threads: a game's channel reads like a table, not a
//! log.
//!
//! - **One thread per game.** When a game starts, the bot opens a public
//!   thread from its lobby message, named like `battle #12: Alice vs Bob`,
//!   and the game moves there (its row's channel becomes the thread): every
//!   later announcement goes to the thread, commands typed in the thread find
//!   the game, and the channel is free for the next game. Where the bot may
//!   not open threads (403: it lacks Create Public Threads or Send Messages
//!   in Threads) the game stays in the channel, with a one-line note. The
//!   thread is opened at the start, not with the lobby, so it is named after
//!   the players who sit down.
//! - **The lobby is one message**, edited in place as seats change; at the
//!   start (or an abort) its buttons are disabled.
//! - **Games played in the channel (cards, puzzle) are one living board**:
//!   the start posts it (the opening line, the board or its image, the
//!   prompt with the move buttons, mentioning the players it waits for),
//!   and every turn edits it (the new board, the last few
//!   moves, the status, the next prompt). With the lobby and the result, a
//!   whole game is three messages. An edit pings nobody, so a person whose
//!   move it became after another person's (not after the AI's: they just
//!   moved) gets a one-line ping, which replaces the previous one.
//! - **Other games open each turn with one message** (the start, or the
//!   turn's result with the new board); as people move, its last line is
//!   edited to say who the turn still waits for ("waiting for Bob · 1 of 2
//!   ready · deadline in 5 minutes"). AI seats never post, and are never
//!   awaited.
//!
//!   When the turn resolves, that line is taken off again, and so are the
//!   prompt and its buttons in games played in the channel: the message is
//!   edited to its text as posted without them, so an old turn never reads
//!   as still waiting, with a deadline that has passed.
//!
//! Which message was posted for what is kept in the store
//! ([`host::PostedMessage`], keys `lobby`, `turn:N`, `status:N`, `thread`,
//! and for a living board `board`, `board:record`, `moves`, `ping`,
//! `awaited`),
//! so edits after a restart find the messages posted before it. What each
//! message shows now (text and buttons) is kept too, under `shown:KEY`, so
//! an edit that would change nothing is not sent (no request to read it).
//!
//! Every post and edit says whom it may ping (see `messages.rs`): a turn's
//! message pings the people it waits for; an edit keeps mentioning those
//! its text names and pings nobody else.
//!
//! This file is what they share: where a game lives now, the keys under
//! which its messages are kept, what each shows, and the edit that skips a
//! change of nothing. Built on it: the lobby (`lobby`), the thread
//! (`thread`), a turn's opening message and its status line (`turns`) and
//! the living board (`board`); `outbox` picks which one a row needs.

use crate::Data;
use crate::rest_metrics;
use crate::send::{error_code, snowflake};
use crate::ui::messages;
use host::{Announcement, PostedMessage};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateActionRow, CreateAttachment, Http};

/// The key of the message that opens a turn.
pub(super) fn turn_key(turn: u32) -> String {
    format!("turn:{turn}")
}

/// The key under which a turn message's text for once the turn resolves is
/// kept (without the status line and the prompt), to edit it back then.
pub(super) fn status_key(turn: u32) -> String {
    format!("status:{turn}")
}

/// The key under which what the message under `key` shows now is kept.
fn shown_key(key: &str) -> String {
    format!("shown:{key}")
}

/// The buttons a living message shows, as far as edits need to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Buttons {
    /// None.
    Bare,
    /// The open lobby's.
    Lobby,
    /// The closed lobby's, disabled.
    LobbyDisabled,
    /// A turn's prompt (moves, or "Show my move").
    Prompt,
}

impl Buttons {
    /// How the buttons are kept in the store.
    pub(super) fn tag(self) -> &'static str {
        match self {
            Buttons::Bare => "bare",
            Buttons::Lobby => "lobby",
            Buttons::LobbyDisabled => "lobby-disabled",
            Buttons::Prompt => "prompt",
        }
    }
}

/// What a living message shows: its buttons (by tag) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shown {
    pub(super) buttons: String,
    pub(super) text: String,
}

/// What the message under `key` shows, as last posted or edited (none when
/// unknown, e.g. posted before this was kept: the next edit is sent).
async fn shown(data: &Data, game_id: i64, key: &str) -> Option<Shown> {
    let m = posted(data, game_id, &shown_key(key)).await?;
    let (buttons, text) = m.content.split_once('\n')?;
    Some(Shown {
        buttons: buttons.to_string(),
        text: text.to_string(),
    })
}

/// Remembers what the message `m` (posted under `m.key`) shows now.
pub(super) async fn remember_shown(data: &Data, m: &PostedMessage, shown: &Shown) {
    remember(
        data,
        PostedMessage {
            key: shown_key(&m.key),
            content: format!("{}\n{}", shown.buttons, shown.text),
            ..m.clone()
        },
    )
    .await;
}

/// An edit of a living message: its new text and buttons (`None` keeps
/// what it has).
pub(super) struct Change {
    pub(super) text: Option<String>,
    pub(super) buttons: Option<(Buttons, Vec<CreateActionRow>)>,
    /// Attachments replacing the message's (`None` keeps them; an empty
    /// list removes them).
    pub(super) files: Option<Vec<CreateAttachment>>,
}

/// Edits the living message `m` unless that would change nothing it shows;
/// its text may mention the users it names (the bot's own mentions: names
/// are inert) and nobody else.
pub(super) async fn edit_living(
    http: &Http,
    data: &Data,
    m: &PostedMessage,
    change: Change,
) -> Result<(), serenity::Error> {
    let (Some(c), Some(id)) = (snowflake(&m.channel_id), snowflake(&m.message_id)) else {
        return Ok(());
    };
    let before = shown(data, m.game_id, &m.key).await;
    // What it shows after the edit, when known (what the edit keeps is
    // known only if what it showed before is).
    let buttons = change
        .buttons
        .as_ref()
        .map(|(b, _)| b.tag().to_string())
        .or_else(|| before.as_ref().map(|s| s.buttons.clone()));
    let text = change
        .text
        .clone()
        .or_else(|| before.as_ref().map(|s| s.text.clone()));
    let after = buttons
        .zip(text)
        .map(|(buttons, text)| Shown { buttons, text });
    if after.is_some() && after == before {
        tracing::debug!(game_id = m.game_id, key = %m.key, "edit skipped: it would change nothing");
        return Ok(());
    }
    let mut edit = messages::edit();
    if let Some(text) = change.text {
        edit = edit
            .allowed_mentions(messages::pinging(messages::mentioned_users(&text)))
            .content(text);
    }
    if let Some((_, rows)) = change.buttons {
        edit = edit.components(rows);
    }
    match change.files {
        Some(files) if files.is_empty() => edit = edit.remove_all_attachments(),
        Some(files) => {
            for file in files {
                edit = edit.new_attachment(file);
            }
        }
        None => {}
    }
    data.rest(
        rest_metrics::MESSAGE_EDIT,
        ChannelId::new(c).edit_message(http, id, edit),
    )
    .await?;
    if let Some(after) = after {
        remember_shown(data, m, &after).await;
    }
    Ok(())
}

/// What a game posted under `key` (none when the store cannot say: the
/// caller posts anew, which is better than posting nothing).
pub(super) async fn posted(data: &Data, game_id: i64, key: &str) -> Option<PostedMessage> {
    let key = key.to_string();
    match data.host(move |h| h.posted_message(game_id, &key)).await {
        Ok(m) => m,
        Err(e) => {
            tracing::error!(game_id, error = %e, "cannot read the game's posted messages");
            None
        }
    }
}

/// Remembers a posted message (logged if the store refuses: the next
/// announcement then posts instead of editing).
pub(super) async fn remember(data: &Data, m: PostedMessage) {
    let game_id = m.game_id;
    if let Err(e) = data.host(move |h| h.remember_message(m)).await {
        tracing::error!(game_id, error = %e, "cannot remember a posted message");
    }
}

/// Where a game's announcements go now: its thread once it has one.
pub(super) async fn home(data: &Data, a: &Announcement) -> Option<ChannelId> {
    let g = a.game_id;
    let channel = match data.host(move |h| h.game(g)).await {
        Ok(row) => row.channel_id,
        Err(_) => a.channel_id.clone(),
    };
    snowflake(&channel).map(ChannelId::new)
}

/// [`home`], or the channel the announcement names when the game's home
/// is not a channel id.
pub(super) async fn home_or_named(data: &Data, a: &Announcement) -> ChannelId {
    match home(data, a).await {
        Some(c) => c,
        None => ChannelId::new(snowflake(&a.channel_id).unwrap_or(1)),
    }
}

/// Whether the opening message of a game's turn was posted (then, in games
/// whose moves are made in the channel, it carries the turn's prompt).
pub(super) async fn turn_posted(data: &Data, game_id: i64, turn: u32) -> bool {
    posted(data, game_id, &turn_key(turn)).await.is_some()
}

/// Whether Discord says the message is gone (deleted by someone).
pub(super) fn unknown_message(e: &serenity::Error) -> bool {
    matches!(error_code(e), Some((404, _)))
}

/// Whether a game's moves are made in the channel (cards, puzzle): then one
/// living board, edited each turn, shows the game instead of a message a
/// turn.
pub(super) fn played_in_channel(data: &Data, a: &Announcement) -> bool {
    data.host
        .registry()
        .get(&a.game_kind)
        .is_ok_and(|k| k.moves_in_channel)
}
