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
//!   and every turn edits it (the new board, the last [`RECENT_MOVES`]
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

use crate::Data;
use crate::delivery::send::Route;
use crate::delivery::send::RowKey;
use crate::delivery::send::error_code;
use crate::delivery::send::message_parts;
use crate::delivery::send::send_in_turn;
use crate::rest_metrics;
use crate::ui::components;
use crate::ui::messages;
use host::{Announcement, AnnouncementKind, GameStatus, PostedMessage};
use poise::serenity_prelude as serenity;
use serenity::{
    AutoArchiveDuration, ChannelId, ChannelType, CreateActionRow, CreateAttachment, CreateThread,
    Http, MessageId, UserId,
};

/// Discord's limit on a thread's name.
pub const MAX_THREAD_NAME: usize = 100;

/// The key of the message that opens a turn.
fn turn_key(turn: u32) -> String {
    format!("turn:{turn}")
}

/// The key under which a turn message's text for once the turn resolves is
/// kept (without the status line and the prompt), to edit it back then.
fn status_key(turn: u32) -> String {
    format!("status:{turn}")
}

/// The key under which what the message under `key` shows now is kept.
fn shown_key(key: &str) -> String {
    format!("shown:{key}")
}

/// The buttons a living message shows, as far as edits need to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Buttons {
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
    fn tag(self) -> &'static str {
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
struct Shown {
    buttons: String,
    text: String,
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
async fn remember_shown(data: &Data, m: &PostedMessage, shown: &Shown) {
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
struct Change {
    text: Option<String>,
    buttons: Option<(Buttons, Vec<CreateActionRow>)>,
    /// Attachments replacing the message's (`None` keeps them; an empty
    /// list removes them).
    files: Option<Vec<CreateAttachment>>,
}

/// Edits the living message `m` unless that would change nothing it shows;
/// its text may mention the users it names (the bot's own mentions: names
/// are inert) and nobody else.
async fn edit_living(
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

fn snowflake(s: &str) -> Option<u64> {
    s.parse::<u64>().ok().filter(|n| *n != 0)
}

/// What a game posted under `key` (none when the store cannot say: the
/// caller posts anew, which is better than posting nothing).
async fn posted(data: &Data, game_id: i64, key: &str) -> Option<PostedMessage> {
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
async fn remember(data: &Data, m: PostedMessage) {
    let game_id = m.game_id;
    if let Err(e) = data.host(move |h| h.remember_message(m)).await {
        tracing::error!(game_id, error = %e, "cannot remember a posted message");
    }
}

/// Where a game's announcements go now: its thread once it has one.
pub async fn home(data: &Data, a: &Announcement) -> Option<ChannelId> {
    let g = a.game_id;
    let channel = match data.host(move |h| h.game(g)).await {
        Ok(row) => row.channel_id,
        Err(_) => a.channel_id.clone(),
    };
    snowflake(&channel).map(ChannelId::new)
}

/// Whether the opening message of a game's turn was posted (then, in games
/// whose moves are made in the channel, it carries the turn's prompt).
pub async fn turn_posted(data: &Data, game_id: i64, turn: u32) -> bool {
    posted(data, game_id, &turn_key(turn)).await.is_some()
}

/// Delivers one channel announcement the living way; `None` when the kind is
/// not one this module handles (the caller posts it as before).
pub async fn deliver(
    http: &Http,
    data: &Data,
    row: RowKey,
    channel: ChannelId,
    a: &Announcement,
) -> Option<Result<(), serenity::Error>> {
    let started = turn_posted(data, a.game_id, 0).await;
    Some(match a.kind {
        // A lobby change; once the game started, the lobby was closed with
        // its final seats, so a change delivered late (after a crash) is
        // stale and nothing is posted.
        AnnouncementKind::Lobby if !started => lobby(http, data, row, channel, a).await,
        AnnouncementKind::Lobby => Ok(()),
        AnnouncementKind::Started => {
            if let Err(e) = close_lobby(http, data, a, "It has started").await {
                return Some(Err(e));
            }
            match open_thread(http, data, row, a).await {
                Ok(home) if played_in_channel(data, a) => {
                    board_turn(http, data, row, home, a).await
                }
                Ok(home) => open_turn(http, data, row, home, a).await,
                Err(e) => Err(e),
            }
        }
        AnnouncementKind::Turn if played_in_channel(data, a) => match home(data, a).await {
            Some(home) => board_turn(http, data, row, home, a).await,
            None => Ok(()),
        },
        AnnouncementKind::Turn => match home(data, a).await {
            Some(home) => match open_turn(http, data, row, home, a).await {
                Ok(()) => {
                    if let Some(resolved) = a.turn.checked_sub(1) {
                        clear_status(http, data, a.game_id, resolved).await;
                    }
                    Ok(())
                }
                Err(e) => Err(e),
            },
            None => Ok(()),
        },
        AnnouncementKind::Waiting => waiting(http, data, row, a).await,
        AnnouncementKind::Aborted if !started => {
            if let Err(e) = close_lobby(http, data, a, "It was closed").await {
                return Some(Err(e));
            }
            return None;
        }
        // The living board reads as the record of the game (no prompt, no
        // buttons) before the result or the abort is posted under it.
        AnnouncementKind::Finished | AnnouncementKind::Aborted if played_in_channel(data, a) => {
            settle_board(http, data, a.game_id).await;
            return None;
        }
        _ => return None,
    })
}

/// Whether Discord says the message is gone (deleted by someone).
fn unknown_message(e: &serenity::Error) -> bool {
    matches!(error_code(e), Some((404, _)))
}

/// The lobby's text: how it began, the seats now, and the latest change.
async fn lobby_text(data: &Data, a: &Announcement, base: &str) -> (String, bool) {
    let g = a.game_id;
    let view = data.host(move |h| h.view(g, None)).await.ok();
    let mut text = base.to_string();
    let open = view.as_ref().is_some_and(|v| v.status == GameStatus::Lobby);
    if let Some(v) = view {
        text.push_str("\nSeats:");
        for s in &v.seats {
            // Names are inert as stored; this covers those stored before.
            text.push_str(&format!(
                "\n{}. {}",
                s.seat + 1,
                messages::inert_name(&s.name)
            ));
        }
    }
    if a.text != base {
        text.push_str(&format!("\nLatest: {}", a.text));
    }
    (messages::clip(&text, messages::MAX_CONTENT), open)
}

/// Posts the lobby, or edits the one already posted.
async fn lobby(
    http: &Http,
    data: &Data,
    row: RowKey,
    channel: ChannelId,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let g = a.game_id;
    if let Some(m) = posted(data, g, "lobby").await
        && snowflake(&m.channel_id).is_some()
        && snowflake(&m.message_id).is_some()
    {
        let (text, open) = lobby_text(data, a, &m.content).await;
        let change = Change {
            text: Some(text),
            buttons: Some(lobby_buttons(g, open)),
            files: None,
        };
        match edit_living(http, data, &m, change).await {
            Ok(()) => return Ok(()),
            Err(e) if unknown_message(&e) => {}
            Err(e) => return Err(e),
        }
    }
    let base = a.text.clone();
    let (text, open) = lobby_text(data, a, &base).await;
    let (buttons, rows) = lobby_buttons(g, open);
    let mut msg = messages::create(text.clone());
    if !rows.is_empty() {
        msg = msg.components(rows);
    }
    if let Some(id) = send_in_turn(http, data, channel, vec![msg], Route::Main(row)).await? {
        let posted = PostedMessage {
            game_id: g,
            key: "lobby".into(),
            channel_id: channel.to_string(),
            message_id: id.to_string(),
            content: base,
        };
        let shown = Shown {
            buttons: buttons.tag().to_string(),
            text,
        };
        remember_shown(data, &posted, &shown).await;
        remember(data, posted).await;
    }
    Ok(())
}

/// The lobby's buttons: Join, Leave and Start while it is open, none after.
fn lobby_buttons(game_id: i64, open: bool) -> (Buttons, Vec<CreateActionRow>) {
    if open {
        (Buttons::Lobby, components::lobby_rows(game_id))
    } else {
        (Buttons::Bare, Vec::new())
    }
}

/// Edits the lobby into its final state: the seats, what became of it,
/// and its buttons disabled (a click on them would only be refused).
async fn close_lobby(
    http: &Http,
    data: &Data,
    a: &Announcement,
    what: &str,
) -> Result<(), serenity::Error> {
    let g = a.game_id;
    let Some(m) = posted(data, g, "lobby").await else {
        return Ok(());
    };
    let (mut text, _) = lobby_text(data, a, &m.content).await;
    // The "Latest" line of the lobby was about seats; what matters now is
    // what became of the game.
    if let Some(i) = text.find("\nLatest: ") {
        text.truncate(i);
    }
    text.push_str(&format!("\n{what}."));
    let change = Change {
        text: Some(messages::clip(&text, messages::MAX_CONTENT)),
        buttons: Some((Buttons::LobbyDisabled, components::lobby_rows_disabled(g))),
        files: None,
    };
    match edit_living(http, data, &m, change).await {
        Ok(()) => Ok(()),
        Err(e) if unknown_message(&e) => Ok(()),
        Err(e) => Err(e),
    }
}

/// A thread's name for a game, within Discord's 100 characters and never
/// cut inside a name: a duel names both sides (`battle #12: Alice vs
/// Bob`), a larger game its people and counts its AI seats (`diplomacy #3:
/// Alice, Bob + 5 AI`); names that do not fit are counted (`+ 2 more`).
/// `players`: each seat's name and whether an AI sits there.
pub fn thread_name(label: &str, players: &[(String, bool)]) -> String {
    if players.len() == 2 {
        let name = format!("{label}: {} vs {}", players[0].0, players[1].0);
        if name.chars().count() <= MAX_THREAD_NAME {
            return name;
        }
    }
    let ais = players.iter().filter(|(_, ai)| *ai).count();
    let people: Vec<&str> = players
        .iter()
        .filter(|(_, ai)| !*ai)
        .map(|(n, _)| n.as_str())
        .collect();
    let tail = |left: usize| {
        let mut t = String::new();
        if left > 0 {
            t.push_str(&format!(" + {left} more"));
        }
        if ais > 0 {
            t.push_str(&format!(" + {ais} AI"));
        }
        t
    };
    let mut shown = 0;
    while shown < people.len() {
        let name = format!(
            "{label}: {}{}",
            people[..=shown].join(", "),
            tail(people.len() - shown - 1)
        );
        if name.chars().count() > MAX_THREAD_NAME {
            break;
        }
        shown += 1;
    }
    let name = match (shown, ais) {
        (0, 0) if people.is_empty() => label.to_string(),
        (0, _) if people.is_empty() => format!("{label}: {ais} AI"),
        _ => format!(
            "{label}: {}{}",
            people[..shown].join(", "),
            tail(people.len() - shown)
        ),
    };
    messages::clip(&name, MAX_THREAD_NAME)
}

/// Opens the game's thread from its lobby message, once; returns where the
/// game lives from now on (the thread, or its channel when the bot may not
/// open threads there).
async fn open_thread(
    http: &Http,
    data: &Data,
    row: RowKey,
    a: &Announcement,
) -> Result<ChannelId, serenity::Error> {
    let g = a.game_id;
    let parent = home(data, a).await.unwrap_or(ChannelId::new(1));
    if let Some(t) = posted(data, g, "thread").await {
        return Ok(snowflake(&t.channel_id).map_or(parent, ChannelId::new));
    }
    let settle = |home: ChannelId| async move {
        let h = home.to_string();
        match data.host(move |x| x.settle_home(g, &h)).await {
            Ok(h) => snowflake(&h).map_or(home, ChannelId::new),
            Err(e) => {
                tracing::error!(game_id = g, error = %e, "cannot move the game to its thread");
                parent
            }
        }
    };
    let Some(lobby) = posted(data, g, "lobby").await else {
        // No lobby message to hang a thread on (a game from before threads).
        return Ok(settle(parent).await);
    };
    let (Some(c), Some(m)) = (snowflake(&lobby.channel_id), snowflake(&lobby.message_id)) else {
        return Ok(settle(parent).await);
    };
    let seats = data.host(move |h| h.seats(g)).await.unwrap_or_default();
    let players: Vec<(String, bool)> = seats
        .iter()
        .map(|s| {
            (
                s.display_name.clone(),
                matches!(s.occupant, host::Occupant::Ai(_)),
            )
        })
        .collect();
    let label = format!("{} #{}", a.game_kind, g);
    let builder = CreateThread::new(thread_name(&label, &players))
        .kind(ChannelType::PublicThread)
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
    let opened = data.rest(
        rest_metrics::THREAD_CREATE,
        ChannelId::new(c).create_thread_from_message(http, MessageId::new(m), builder),
    );
    match opened.await {
        Ok(thread) => Ok(settle(thread.id).await),
        Err(e) => match error_code(&e) {
            // Opened before a restart cut us short: a thread started from a
            // message has the message's id.
            Some((_, 160004)) => Ok(settle(ChannelId::new(m)).await),
            Some((403, _)) => {
                tracing::warn!(game_id = g, error = %e, "may not open a thread; the game stays in its channel");
                let note = format!(
                    "(I may not open a thread here, so {label} is played in this channel: \
                     I need the Create Public Threads and Send Messages in Threads permissions.)"
                );
                let msg = messages::create(note);
                send_in_turn(http, data, parent, vec![msg], Route::Thread(row)).await?;
                Ok(settle(parent).await)
            }
            Some((status, _)) if status == 429 || status >= 500 => Err(e),
            None => Err(e),
            // Any other refusal (e.g. the lobby is itself in a thread, where
            // no thread can be opened): the game stays where it is.
            Some(_) => {
                tracing::info!(game_id = g, error = %e, "no thread for the game; it stays in its channel");
                Ok(settle(parent).await)
            }
        },
    }
}

/// Posts the message that opens a turn (the start, or a turn's result):
/// text and board (as an image where the kind has one), and, in games whose
/// moves are made in the channel, the prompt of the people it waits for.
async fn open_turn(
    http: &Http,
    data: &Data,
    row: RowKey,
    home: ChannelId,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let g = a.game_id;
    let (prompt, rows, mentions) = if played_in_channel(data, a) {
        turn_prompt(data, a).await
    } else {
        (String::new(), Vec::new(), Vec::new())
    };
    let prompted = !rows.is_empty();
    let (msgs, last_text) =
        crate::delivery::boards::turn_messages(data, a, &prompt, rows, mentions).await;
    let last = send_in_turn(http, data, home, msgs, Route::Main(row)).await?;
    if let Some(id) = last {
        let posted = PostedMessage {
            game_id: g,
            key: turn_key(a.turn),
            channel_id: home.to_string(),
            message_id: id.to_string(),
            content: last_text,
        };
        // Posted again after a crash, Discord answers with the message it
        // already had (by its nonce), which may have been edited since: what
        // it shows is then kept as it was.
        let again = self::posted(data, g, &posted.key)
            .await
            .is_some_and(|m| m.message_id == posted.message_id);
        if !again {
            let shown = Shown {
                buttons: if prompted {
                    Buttons::Prompt
                } else {
                    Buttons::Bare
                }
                .tag()
                .to_string(),
                text: posted.content.clone(),
            };
            remember_shown(data, &posted, &shown).await;
        }
        if prompted {
            // Once the turn resolves, the message reads as a record of it:
            // no "your move", no buttons.
            let resolved = posted
                .content
                .strip_suffix(prompt.as_str())
                .unwrap_or(&posted.content)
                .to_string();
            remember(
                data,
                PostedMessage {
                    key: status_key(a.turn),
                    content: resolved,
                    ..posted.clone()
                },
            )
            .await;
        }
        remember(data, posted).await;
    }
    Ok(())
}

/// How many of the last moves the living board of a game played in the
/// channel lists.
pub const RECENT_MOVES: usize = 5;

/// The key of a game's living board message (games played in the channel).
const BOARD_KEY: &str = "board";

/// The key under which the living board's text is kept as a record: no
/// prompt, no buttons (what it shows once the game is over).
const BOARD_RECORD_KEY: &str = "board:record";

/// The key under which the living board's last moves are kept, one a line
/// as `turn<TAB>report`.
const MOVES_KEY: &str = "moves";

/// The key under which the people the living board last waited for are
/// kept (user ids, comma-separated): a person still awaited is not pinged
/// again.
const AWAITED_KEY: &str = "awaited";

/// The key of the short message that pings a person whose move it became
/// (an edit pings nobody, so the living board cannot).
const PING_KEY: &str = "ping";

/// Whether a game's moves are made in the channel (cards, puzzle): then one
/// living board, edited each turn, shows the game instead of a message a
/// turn.
fn played_in_channel(data: &Data, a: &Announcement) -> bool {
    data.host
        .registry()
        .get(&a.game_kind)
        .is_ok_and(|k| k.moves_in_channel)
}

/// The living board's text: the game's opening line, the board (as text
/// when it has no image), the last moves, and the turn's status.
pub fn board_text(header: &str, board: Option<&str>, moves: &[String], status: &str) -> String {
    let mut text = messages::with_board(header, board);
    if !moves.is_empty() {
        text.push_str("\nLast moves:");
        for m in moves {
            text.push_str(&format!("\n· {m}"));
        }
    }
    if !status.trim().is_empty() {
        text.push('\n');
        text.push_str(status.trim());
    }
    text
}

/// The moves kept for `game_id`'s living board with a resolved turn's
/// report added (once, however often the turn is delivered): the last
/// [`RECENT_MOVES`], oldest first.
async fn record_move(data: &Data, a: &Announcement) -> Vec<String> {
    let g = a.game_id;
    let kept = posted(data, g, MOVES_KEY).await;
    let mut moves: Vec<(u32, String)> = kept
        .as_ref()
        .map(|m| {
            m.content
                .lines()
                .filter_map(|l| l.split_once('\t'))
                .filter_map(|(t, r)| Some((t.parse().ok()?, r.to_string())))
                .collect()
        })
        .unwrap_or_default();
    if a.kind == AnnouncementKind::Turn {
        let report = a.report.as_deref().unwrap_or(&a.text);
        let one_line = report.split_whitespace().collect::<Vec<_>>().join(" ");
        moves.retain(|(t, _)| *t < a.turn);
        if !one_line.is_empty() {
            moves.push((a.turn, one_line));
        }
        let cut = moves.len().saturating_sub(RECENT_MOVES);
        moves.drain(..cut);
        let content = moves
            .iter()
            .map(|(t, r)| format!("{t}\t{r}"))
            .collect::<Vec<_>>()
            .join("\n");
        remember(
            data,
            PostedMessage {
                game_id: g,
                key: MOVES_KEY.into(),
                channel_id: String::new(),
                message_id: String::new(),
                content,
            },
        )
        .await;
    }
    moves.into_iter().map(|(_, r)| r).collect()
}

/// What the living board says of a turn: its opening line (the start's
/// first line), the status under the moves.
fn header_and_status(a: &Announcement, kept: Option<&PostedMessage>) -> (String, String) {
    let start = a.kind == AnnouncementKind::Started;
    let header = match kept {
        Some(m) => m.content.clone(),
        None if start => a.text.lines().next().unwrap_or_default().to_string(),
        None => format!("{} #{}", a.game_kind, a.game_id),
    };
    let status = if start {
        a.text.lines().skip(1).collect::<Vec<_>>().join("\n")
    } else {
        a.report
            .as_deref()
            .and_then(|r| a.text.strip_prefix(r))
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    (header, status)
}

/// Opens a turn of a game played in the channel on its living board: the
/// board message is posted at the start and edited every turn after (the
/// new board, the last moves, the prompt and its buttons), so a game posts
/// its lobby, this board and its result. A person whose move it became
/// (not the one who just moved) gets a one-line ping, since an edit pings
/// nobody.
async fn board_turn(
    http: &Http,
    data: &Data,
    row: RowKey,
    home: ChannelId,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let g = a.game_id;
    let kept = posted(data, g, BOARD_KEY)
        .await
        .filter(|m| snowflake(&m.channel_id).is_some() && snowflake(&m.message_id).is_some());
    let (header, status) = header_and_status(a, kept.as_ref());
    let moves = record_move(data, a).await;
    let (prompt, rows, mentions) = turn_prompt(data, a).await;
    let drawn = crate::delivery::boards::wants_image(data, a);
    let images = if drawn {
        crate::delivery::boards::board_images(data, a).await
    } else {
        Vec::new()
    };
    let said = format!("{}\n{status}", moves.join("\n"));
    let board = a
        .board
        .as_deref()
        .filter(|_| images.is_empty())
        .map(|b| host::board_without_repeats(b, &said));
    let mut record = board_text(&header, board.as_deref(), &moves, &status);
    if record.chars().count() + prompt.chars().count() > messages::MAX_CONTENT {
        record = board_text(&header, board.as_deref(), &[], &status);
    }
    let text = format!("{record}{prompt}");
    if text.chars().count() > messages::MAX_CONTENT {
        // Too long for one message (a board too large): a message a turn,
        // the turn before losing its prompt as in a game of messages.
        open_turn(http, data, row, home, a).await?;
        if let Some(resolved) = a.turn.checked_sub(1) {
            clear_status(http, data, g, resolved).await;
        }
        return Ok(());
    }
    let view = BoardView {
        text,
        buttons: if rows.is_empty() {
            Buttons::Bare
        } else {
            Buttons::Prompt
        },
        rows,
        mentions,
        files: images
            .into_iter()
            .map(|i| CreateAttachment::bytes(i.png, i.filename).description(i.description))
            .collect(),
        drawn,
    };
    let mut edited = None;
    if let Some(m) = &kept
        && edit_board(http, data, row, home, a, m, &view).await?
    {
        edited = Some(m.clone());
    }
    let board_message = match edited {
        Some(m) => m,
        None => match post_board(http, data, row, home, g, header, &view).await? {
            Some(m) => m,
            None => return Ok(()),
        },
    };
    remember_awaited(data, g, &view.mentions).await;
    // The turn's message is the board (a person's move edits its status
    // line in; the turn's prompt is on it, so none is posted apart).
    for (key, content) in [
        (turn_key(a.turn), view.text),
        (BOARD_RECORD_KEY.into(), record),
    ] {
        remember(
            data,
            PostedMessage {
                key,
                content,
                ..board_message.clone()
            },
        )
        .await;
    }
    Ok(())
}

/// What the living board shows for a turn.
struct BoardView {
    /// Its text, with the prompt.
    text: String,
    /// Its buttons, as edits need to know them.
    buttons: Buttons,
    /// The prompt's buttons or menus.
    rows: Vec<CreateActionRow>,
    /// The people the turn waits for (the prompt names them).
    mentions: Vec<UserId>,
    /// The board's images (none when the kind has none or it failed).
    files: Vec<CreateAttachment>,
    /// Whether the kind draws its board as an image.
    drawn: bool,
}

/// Edits the living board `m` to `view`, and pings whoever the game waits
/// for now and did not before; false when the message is gone (deleted:
/// the caller posts it anew).
async fn edit_board(
    http: &Http,
    data: &Data,
    row: RowKey,
    home: ChannelId,
    a: &Announcement,
    m: &PostedMessage,
    view: &BoardView,
) -> Result<bool, serenity::Error> {
    let change = Change {
        text: Some(view.text.clone()),
        buttons: Some((view.buttons, view.rows.clone())),
        // A board that has an image shows the new one, or none when it
        // could not be drawn (the text board stands in for it).
        files: view.drawn.then(|| view.files.clone()),
    };
    match edit_living(http, data, m, change).await {
        Ok(()) => {}
        Err(e) if unknown_message(&e) => return Ok(false),
        Err(e) => return Err(e),
    }
    // Those the game waited for last (a person who plays against the AI
    // is still there: not pinged again).
    let last = posted(data, a.game_id, AWAITED_KEY)
        .await
        .map(|m| m.content);
    let waited = |u: &UserId| {
        last.as_deref()
            .is_some_and(|l| l.split(',').any(|x| x == u.to_string()))
    };
    let new: Vec<UserId> = view
        .mentions
        .iter()
        .copied()
        .filter(|u| !waited(u))
        .collect();
    ping(http, data, row, home, a, &new).await?;
    Ok(true)
}

/// Posts the living board (at the start, or when it was deleted) and
/// remembers it, with `header` (its opening line) as its content.
async fn post_board(
    http: &Http,
    data: &Data,
    row: RowKey,
    home: ChannelId,
    game_id: i64,
    header: String,
    view: &BoardView,
) -> Result<Option<PostedMessage>, serenity::Error> {
    let mut msgs = message_parts(&view.text, view.rows.clone(), &view.mentions);
    if let Some(last) = msgs.pop() {
        msgs.push(last.add_files(view.files.clone()));
    }
    let Some(id) = send_in_turn(http, data, home, msgs, Route::Main(row)).await? else {
        return Ok(None);
    };
    let m = PostedMessage {
        game_id,
        key: BOARD_KEY.into(),
        channel_id: home.to_string(),
        message_id: id.to_string(),
        content: header,
    };
    let shown = Shown {
        buttons: view.buttons.tag().to_string(),
        text: view.text.clone(),
    };
    remember_shown(data, &m, &shown).await;
    remember(data, m.clone()).await;
    Ok(Some(m))
}

/// Remembers whom the living board waits for now (none kept when it waits
/// for no person, so a game against the AI keeps its player).
async fn remember_awaited(data: &Data, game_id: i64, mentions: &[UserId]) {
    if mentions.is_empty() {
        return;
    }
    let ids: Vec<String> = mentions.iter().map(ToString::to_string).collect();
    remember(
        data,
        PostedMessage {
            game_id,
            key: AWAITED_KEY.into(),
            channel_id: String::new(),
            message_id: String::new(),
            content: ids.join(","),
        },
    )
    .await;
}

/// Pings `users`, whose move it became, with a one-line message pointing
/// to the board; the previous such message is deleted (it said something
/// no longer true), so the thread keeps at most one.
async fn ping(
    http: &Http,
    data: &Data,
    row: RowKey,
    home: ChannelId,
    a: &Announcement,
    users: &[UserId],
) -> Result<(), serenity::Error> {
    if users.is_empty() {
        return Ok(());
    }
    let g = a.game_id;
    let who = users
        .iter()
        .map(|u| crate::ui::text::mention(&u.to_string()))
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!(
        "{who}: your move in {} #{g} (the board above).",
        a.game_kind
    );
    let msgs = message_parts(&text, Vec::new(), users);
    let Some(id) = send_in_turn(http, data, home, msgs, Route::Fallback(row)).await? else {
        return Ok(());
    };
    if let Some(old) = posted(data, g, PING_KEY).await
        && let (Some(c), Some(m)) = (snowflake(&old.channel_id), snowflake(&old.message_id))
        && let Err(e) = data
            .rest(
                rest_metrics::MESSAGE_DELETE,
                ChannelId::new(c).delete_message(http, MessageId::new(m)),
            )
            .await
    {
        tracing::debug!(game_id = g, error = %e, "cannot delete an old ping");
    }
    remember(
        data,
        PostedMessage {
            game_id: g,
            key: PING_KEY.into(),
            channel_id: home.to_string(),
            message_id: id.to_string(),
            content: String::new(),
        },
    )
    .await;
    Ok(())
}

/// The game ended or was aborted: its living board loses its prompt and
/// buttons and reads as the record of the game. Best effort (logged).
async fn settle_board(http: &Http, data: &Data, game_id: i64) {
    let Some(m) = posted(data, game_id, BOARD_RECORD_KEY).await else {
        return;
    };
    let message = PostedMessage {
        key: BOARD_KEY.into(),
        ..m
    };
    let change = Change {
        text: Some(message.content.clone()).filter(|t| !t.is_empty()),
        buttons: Some((Buttons::Bare, Vec::new())),
        files: None,
    };
    match edit_living(http, data, &message, change).await {
        Ok(()) => {}
        Err(e) if unknown_message(&e) => {}
        Err(e) => tracing::warn!(game_id, error = %e, "cannot settle the game's board"),
    }
}

/// The prompt on a turn's opening message: who it waits for (mentioned),
/// and their move buttons when one person is awaited, else a button that
/// shows each their move privately. Empty when the game has moved on.
async fn turn_prompt(data: &Data, a: &Announcement) -> (String, Vec<CreateActionRow>, Vec<UserId>) {
    let g = a.game_id;
    let Ok(view) = data.host(move |h| h.view(g, None)).await else {
        return (String::new(), Vec::new(), Vec::new());
    };
    if view.status != GameStatus::Running || view.turn != a.turn {
        return (String::new(), Vec::new(), Vec::new());
    }
    let people: Vec<String> = view
        .seats
        .iter()
        .filter(|s| s.awaited)
        .filter_map(|s| match &s.occupant {
            host::Occupant::User(u) => Some(u.clone()),
            host::Occupant::Ai(_) => None,
        })
        .collect();
    if people.is_empty() {
        return (String::new(), Vec::new(), Vec::new());
    }
    let mentions: Vec<UserId> = people
        .iter()
        .filter_map(|u| snowflake(u).map(UserId::new))
        .collect();
    let who = people
        .iter()
        .map(|u| crate::ui::text::mention(u))
        .collect::<Vec<_>>()
        .join(", ");
    if let [one] = people.as_slice() {
        let u = one.clone();
        if let Ok(v) = data.host(move |h| h.view(g, Some(&u))).await
            && let Some(choices) = v.view.map(|v| v.choices).filter(|c| !c.is_empty())
        {
            let (rows, cut) = components::choice_rows(g, a.turn, &choices);
            let more = if cut {
                " (More choices than fit here: type them with `/move`.)"
            } else {
                ""
            };
            return (format!("\n{who}, your move.{more}"), rows, mentions);
        }
    }
    (
        format!("\n{who}: your move. Press **Show my move** to see yours."),
        vec![components::show_row(g, a.turn)],
        mentions,
    )
}

/// The status line of a turn: who it still waits for, and its deadline.
fn status_line(a: &Announcement) -> String {
    let mut line = a.text.clone();
    if let Some(d) = a.deadline {
        line.push_str(&format!(" · deadline <t:{}:R>", d.div_euclid(1000)));
    }
    line
}

/// A person moved: the turn's opening message says who it still waits for
/// (edited), or a status message is posted when there is none to edit.
async fn waiting(
    http: &Http,
    data: &Data,
    row: RowKey,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let g = a.game_id;
    let line = status_line(a);
    let key = turn_key(a.turn);
    if let Some(m) = posted(data, g, &key).await
        && snowflake(&m.channel_id).is_some()
        && snowflake(&m.message_id).is_some()
    {
        let text = if m.content.is_empty() {
            line.clone()
        } else {
            format!("{}\n{line}", m.content)
        };
        if text.chars().count() <= messages::MAX_CONTENT {
            let change = Change {
                text: Some(text),
                buttons: None,
                files: None,
            };
            match edit_living(http, data, &m, change).await {
                Ok(()) => {
                    // What the message reads once the turn resolves, unless
                    // the turn's prompt already said (it is shorter).
                    if !m.content.is_empty() && posted(data, g, &status_key(a.turn)).await.is_none()
                    {
                        remember(
                            data,
                            PostedMessage {
                                key: status_key(a.turn),
                                ..m
                            },
                        )
                        .await;
                    }
                    return Ok(());
                }
                Err(e) if unknown_message(&e) => {}
                Err(e) => return Err(e),
            }
        }
    }
    let Some(home) = home(data, a).await else {
        return Ok(());
    };
    let line = messages::clip(&line, messages::MAX_CONTENT);
    let msg = messages::create(line.clone());
    if let Some(id) = send_in_turn(http, data, home, vec![msg], Route::Main(row)).await? {
        let posted = PostedMessage {
            game_id: g,
            key,
            channel_id: home.to_string(),
            message_id: id.to_string(),
            content: String::new(),
        };
        let shown = Shown {
            buttons: Buttons::Bare.tag().to_string(),
            text: line,
        };
        remember_shown(data, &posted, &shown).await;
        remember(data, posted).await;
    }
    Ok(())
}

/// A turn resolved: its opening message loses the status line
/// [`waiting`] added and, in games played in the channel, the prompt and
/// its buttons: it reads as the record of the turn. Best effort: a failure
/// is logged, not retried, because the new turn is already posted and a
/// stale line is not worth sending it again.
async fn clear_status(http: &Http, data: &Data, game_id: i64, turn: u32) {
    let Some(m) = posted(data, game_id, &status_key(turn)).await else {
        return;
    };
    // The same message as the turn's: what it shows is kept under that key.
    let text = Some(m.content.clone()).filter(|t| !t.is_empty());
    let message = PostedMessage {
        key: turn_key(turn),
        ..m
    };
    let change = Change {
        text,
        buttons: Some((Buttons::Bare, Vec::new())),
        files: None,
    };
    match edit_living(http, data, &message, change).await {
        Ok(()) => {}
        Err(e) if unknown_message(&e) => {}
        Err(e) => {
            tracing::warn!(game_id, turn, error = %e, "cannot clear a resolved turn's status line")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_name_the_players_within_discords_limit() {
        let human = |n: &str| (n.to_string(), false);
        let ai = (String::from("AI (default)"), true);
        assert_eq!(
            thread_name("battle #12", &[human("Alice"), human("Bob")]),
            "battle #12: Alice vs Bob"
        );
        let mut table = vec![human("alice"), human("bob")];
        table.extend(std::iter::repeat_n(ai.clone(), 5));
        assert_eq!(
            thread_name("diplomacy #3", &table),
            "diplomacy #3: alice, bob + 5 AI"
        );
        assert_eq!(
            thread_name("diplomacy #4", &vec![ai; 7]),
            "diplomacy #4: 7 AI"
        );
        let many: Vec<(String, bool)> = (0..7)
            .map(|i| human(&format!("Player with a long name {i}")))
            .collect();
        let name = thread_name("diplomacy #3", &many);
        assert!(name.chars().count() <= MAX_THREAD_NAME, "{name}");
        // Whole names only, the rest counted.
        assert_eq!(
            name,
            "diplomacy #3: Player with a long name 0, Player with a long name 1 + 5 more"
        );
    }
}
