//! The lobby: one message, posted when the game is created and edited in
//! place as seats change; at the start (or an abort) it shows the final
//! seats and what became of the game, its buttons disabled.

use crate::Data;
use crate::delivery::living::{
    Buttons, Change, Shown, edit_living, posted, remember, remember_shown, unknown_message,
};
use crate::send::{Route, RowKey, send_in_turn, snowflake};
use crate::ui::components;
use crate::ui::messages;
use host::{Announcement, GameStatus, PostedMessage};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateActionRow, Http};

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
pub(super) async fn post_lobby(
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
pub(super) async fn close_lobby(
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
