//! The images of a game's board: its position at a turn and, for a
//! resolved Diplomacy phase, the orders on the position before.

use crate::Data;
use host::{Announcement, AnnouncementKind, TurnActions};
use render::BoardImage;
use std::sync::Arc;

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
    let started = std::time::Instant::now();
    // The position first: the phase's prompts wait for the same drawing.
    let Some(board) = position_image(data, a.game_id, a.turn).await else {
        return Vec::new();
    };
    let mut images = Vec::new();
    if a.kind == AnnouncementKind::Turn && a.turn > 0 {
        images.extend(orders_image(data, a.game_id, a.turn).await);
    }
    images.push((*board).clone());
    tracing::debug!(
        game_id = a.game_id,
        turn = a.turn,
        ms = started.elapsed().as_millis() as u64,
        "board images drawn"
    );
    images
}

/// The position of `game_id` at `turn` as its kind draws it (for
/// Diplomacy, the map with each power's player), drawn once a phase and
/// shared by the channel's post and every player's prompt (see
/// `phase_maps`). `None` when the kind has no image or it cannot be drawn
/// (logged), and for a game that hides its board while it runs (Fog of
/// War: the channel posts its public text board; each power's prompt
/// draws the power's own map, `desk::prompt`).
pub(crate) async fn position_image(
    data: &Data,
    game_id: i64,
    turn: u32,
) -> Option<Arc<BoardImage>> {
    let host = data.host.clone();
    data.phase_maps
        .get_or_draw(game_id, turn, move || {
            let drawn = host.state_at(game_id, turn).map_err(|e| e.to_string());
            let drawn = drawn.and_then(|game| {
                // Fog of War: the channel gets the text board (only what
                // every power knows), each power its own map by DM.
                if game.hides_board() {
                    return Ok(None);
                }
                // The legend names the players as the host seats them.
                let players = render::seat_names(&host, game_id).map_err(|e| e.to_string())?;
                render::board_png(game.as_ref(), &players)
                    .transpose()
                    .map_err(|e| e.to_string())
            });
            drawn.unwrap_or_else(|e| {
                tracing::error!(game_id, turn, error = %e, "cannot draw the board; posting it as text");
                None
            })
        })
        .await
}

/// The orders of a resolved phase drawn on the position they were given
/// in; `None` for kinds without such an image, or when it cannot be drawn
/// (logged: the map still goes out without it).
async fn orders_image(data: &Data, game_id: i64, turn: u32) -> Option<BoardImage> {
    let host = data.host.clone();
    let drawn = tokio::task::spawn_blocking(move || {
        // Drawn from the report's detail; rows older than the detail fall
        // back to judging the stored actions again.
        let players = render::seat_names(&host, game_id).map_err(|e| e.to_string())?;
        let (actions, report) = host.turn_record(game_id, turn).map_err(|e| e.to_string())?;
        match actions {
            TurnActions::Moves(m) => {
                let before = host
                    .state_at(game_id, turn - 1)
                    .map_err(|e| e.to_string())?;
                render::orders_png_named(before.as_ref(), &report, &m, &players)
                    .transpose()
                    .map_err(|e| e.to_string())
            }
            TurnActions::Forfeit(_) | TurnActions::Takeover(_) => Ok(None),
        }
    })
    .await;
    match drawn {
        Ok(Ok(image)) => image,
        Ok(Err(e)) => {
            tracing::warn!(game_id, turn, error = %e, "cannot draw the orders image");
            None
        }
        Err(e) => {
            tracing::warn!(game_id, turn, error = %e, "orders drawing task failed");
            None
        }
    }
}
