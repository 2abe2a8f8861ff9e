//! The message that opens a turn (the start, or a turn's result with the
//! new board), with the prompt of the people it waits for in games played
//! in the channel; its status line, edited in as people move ("waiting for
//! Bob · 1 of 2 ready"), and taken off again once the turn resolves.

use crate::Data;
use crate::delivery::living::{
    Buttons, Change, Shown, edit_living, home, played_in_channel, posted, remember, remember_shown,
    status_key, turn_key, unknown_message,
};
use crate::images::boards::{board_images, wants_image};
use crate::send::{Route, RowKey, message_parts, send_in_turn, snowflake};
use crate::ui::components;
use crate::ui::messages;
use host::{Announcement, GameStatus, PostedMessage};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateActionRow, CreateAttachment, CreateMessage, Http, UserId};

/// Posts the message that opens a turn (the start, or a turn's result):
/// text and board (as an image where the kind has one), and, in games whose
/// moves are made in the channel, the prompt of the people it waits for.
pub(super) async fn open_turn(
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
    let (msgs, last_text) = turn_messages(data, a, &prompt, rows, mentions).await;
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
        let again = crate::delivery::living::posted(data, g, &posted.key)
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

/// The messages that open a turn: the announcement's text and board (an
/// image where the kind has one), then `extra` (the turn's prompt) with its
/// buttons on the last part, mentioning `mentions`. Returns them and the
/// last part's text (to which a status line is added later).
async fn turn_messages(
    data: &Data,
    a: &Announcement,
    extra: &str,
    rows: Vec<CreateActionRow>,
    mentions: Vec<UserId>,
) -> (Vec<CreateMessage>, String) {
    let images = if wants_image(data, a) {
        board_images(data, a).await
    } else {
        Vec::new()
    };
    let text = if images.is_empty() {
        messages::with_board(&a.text, a.board.as_deref())
    } else {
        a.text.clone()
    };
    let text = format!("{text}{extra}");
    let last_text = messages::split(&text, messages::MAX_CONTENT)
        .pop()
        .unwrap_or_default();
    let mut msgs = message_parts(&text, rows, &mentions);
    if !images.is_empty()
        && let Some(last) = msgs.pop()
    {
        msgs.push(
            last.add_files(
                images
                    .into_iter()
                    .map(|i| CreateAttachment::bytes(i.png, i.filename).description(i.description)),
            ),
        );
    }
    (msgs, last_text)
}

/// The prompt on a turn's opening message: who it waits for (mentioned),
/// and their move buttons when one person is awaited, else a button that
/// shows each their move privately. Empty when the game has moved on.
pub(super) async fn turn_prompt(
    data: &Data,
    a: &Announcement,
) -> (String, Vec<CreateActionRow>, Vec<UserId>) {
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
/// Not once the turn has resolved: the next turn's message would take the
/// line off again at once, two of the thread's five edits in five seconds
/// spent on a line nobody reads.
pub(super) async fn waiting(
    http: &Http,
    data: &Data,
    row: RowKey,
    a: &Announcement,
) -> Result<(), serenity::Error> {
    let g = a.game_id;
    if data
        .host(move |h| h.game(g))
        .await
        .is_ok_and(|now| now.turn != a.turn)
    {
        tracing::debug!(
            game_id = g,
            turn = a.turn,
            "status line skipped: the turn has resolved"
        );
        return Ok(());
    }
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
pub(super) async fn clear_status(http: &Http, data: &Data, game_id: i64, turn: u32) {
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
