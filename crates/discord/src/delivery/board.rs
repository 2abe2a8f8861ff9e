//! The living board of a game played in the channel (cards, puzzle): the
//! start posts it (the opening line, the board or its image, the prompt
//! with the move buttons, mentioning the players it waits for) and every
//! turn edits it (the new board, the last [`RECENT_MOVES`] moves, the
//! status, the next prompt). With the lobby and the result, a whole game is
//! three messages. An edit pings nobody, so a person whose move it became
//! after another person's (not after the AI's: they just moved) gets a
//! one-line ping, which replaces the previous one.

use crate::Data;
use crate::delivery::living::{
    Buttons, Change, Shown, edit_living, posted, remember, remember_shown, turn_key,
    unknown_message,
};
use crate::delivery::turns::{clear_status, open_turn, turn_prompt};
use crate::images::boards::{board_images, wants_image};
use crate::rest_metrics;
use crate::send::{Route, RowKey, message_parts, send_in_turn, snowflake};
use crate::ui::messages;
use host::{Announcement, AnnouncementKind, PostedMessage};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateActionRow, CreateAttachment, Http, MessageId, UserId};

/// How many of the last moves the living board of a game played in the
/// channel lists.
const RECENT_MOVES: usize = 5;

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

/// The living board's text: the game's opening line, the board (as text
/// when it has no image), the last moves, and the turn's status.
fn board_text(header: &str, board: Option<&str>, moves: &[String], status: &str) -> String {
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
pub(super) async fn board_turn(
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
    let drawn = wants_image(data, a);
    let images = if drawn {
        board_images(data, a).await
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
pub(super) async fn settle_board(http: &Http, data: &Data, game_id: i64) {
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
