//! The messages that open a turn: the announcement's text and its board,
//! drawn as images where the kind has them.

use crate::Data;
use crate::delivery::send::message_parts;
use crate::ui::messages;
use host::{Announcement, AnnouncementKind, TurnActions};
use poise::serenity_prelude as serenity;
use render::BoardImage;
use serenity::{CreateActionRow, CreateAttachment, CreateMessage, UserId};

/// The messages that open a turn: the announcement's text and board (an
/// image where the kind has one), then `extra` (the turn's prompt) with its
/// buttons on the last part, mentioning `mentions`. Returns them and the
/// last part's text (to which a status line is added later).
pub(crate) async fn turn_messages(
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

/// Whether a channel announcement shows a board that has an image.
pub(crate) fn wants_image(data: &Data, a: &Announcement) -> bool {
    matches!(
        a.kind,
        AnnouncementKind::Started | AnnouncementKind::Turn | AnnouncementKind::Finished
    ) && a.board.is_some()
        && render::has_board_image(
            data.host
                .registry()
                .get(&a.game_kind)
                .ok()
                .and_then(|k| k.board_image),
        )
}

/// The images of an announcement's board, drawn from the game as it was at
/// the announced turn: the position, and for a resolved Diplomacy phase
/// first its orders on the position before. Empty when the board cannot be
/// drawn (logged), so the caller posts the text board instead.
pub(crate) async fn board_images(data: &Data, a: &Announcement) -> Vec<BoardImage> {
    let host = data.host.clone();
    let (game_id, turn, kind) = (a.game_id, a.turn, a.kind);
    let started = std::time::Instant::now();
    let drawn = tokio::task::spawn_blocking(move || -> Result<Vec<BoardImage>, String> {
        let game = host.state_at(game_id, turn).map_err(|e| e.to_string())?;
        // The legend names the players as the host seats them.
        let players = render::seat_names(&host, game_id).map_err(|e| e.to_string())?;
        let Some(board) = render::board_png(game.as_ref(), &players) else {
            return Ok(Vec::new());
        };
        let board = board.map_err(|e| e.to_string())?;
        let mut images = Vec::new();
        if kind == AnnouncementKind::Turn && turn > 0 {
            // The orders image is extra: without it the map still goes out.
            // Drawn from the report's detail; rows older than the detail
            // fall back to judging the stored actions again.
            let orders = host.turn_record(game_id, turn).and_then(|(actions, report)| {
                Ok(match actions {
                    TurnActions::Moves(m) => {
                        let before = host.state_at(game_id, turn - 1)?;
                        render::orders_png_named(before.as_ref(), &report, &m, &players)
                    }
                    TurnActions::Forfeit(_) | TurnActions::Takeover(_) => None,
                })
            });
            match orders {
                Ok(Some(Ok(img))) => images.push(img),
                Ok(None) => {}
                Ok(Some(Err(e))) => {
                    tracing::warn!(game_id, turn, error = %e, "cannot draw the orders image")
                }
                Err(e) => {
                    tracing::warn!(game_id, turn, error = %e, "cannot read the turn for its orders image")
                }
            }
        }
        images.push(board);
        Ok(images)
    })
    .await;
    tracing::debug!(
        game_id,
        turn,
        ms = started.elapsed().as_millis() as u64,
        "board images drawn"
    );
    match drawn {
        Ok(Ok(images)) => images,
        Ok(Err(e)) => {
            tracing::error!(game_id, turn, error = %e, "cannot draw the board; posting it as text");
            Vec::new()
        }
        Err(e) => {
            tracing::error!(game_id, turn, error = %e, "board drawing task failed; posting it as text");
            Vec::new()
        }
    }
}
