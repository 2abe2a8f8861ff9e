//! One entry point for front-ends: the image of a game's board, for the
//! kinds that have one (puzzle fields, the Diplomacy map), from the
//! type-erased engine the host hands out.
//!
//! The engine is recovered from its state JSON by kind, so the host stays
//! free of images and the renderers of engine types.

use super::RenderError;
use super::diplomacy::{MapPosition, render_position_png};
use super::puzzle::render_puzzle_png;
use crate::games::diplomacy::geo::{Map, Power};
use crate::games::diplomacy::judge::{
    PhaseKind, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
};
use crate::games::diplomacy::{Diplomacy, DiplomacyAction};
use crate::games::puzzle::PuzzleDuel;
use crate::games::seam::{Game, Seat};
use crate::host::AnyGame;
use serde_json::Value;
use std::collections::BTreeMap;

/// Discord's limit on an attachment's description (its alt text).
const MAX_DESCRIPTION: usize = 1024;

/// A rendered image with its file name and alt text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardImage {
    /// File name for the attachment (`board.png`, `map.png`, `orders.png`).
    pub filename: &'static str,
    /// The PNG bytes.
    pub png: Vec<u8>,
    /// Alt text: the public text board when it fits, else a caption.
    pub description: String,
}

/// The engine behind a type-erased game, through its state JSON.
fn decode<G: Game>(game: &dyn AnyGame) -> Result<G, RenderError> {
    serde_json::from_str(&game.state_json())
        .map_err(|e| RenderError::State(format!("{} state: {e}", G::KIND)))
}

/// The public text board as alt text, or `caption` when it is too long.
fn alt_text(game: &dyn AnyGame, caption: String) -> String {
    let board = game.view(None).board;
    let board = board.trim();
    if !board.is_empty() && board.chars().count() <= MAX_DESCRIPTION {
        board.to_string()
    } else {
        caption
    }
}

/// The board of a game as a PNG, or `None` for kinds without an image:
/// drawn by the renderer registered under the kind's `Game::BOARD_IMAGE`.
pub fn board_png(game: &dyn AnyGame) -> Option<Result<BoardImage, RenderError>> {
    let draw = super::board_renderer(game.board_image()?)?;
    Some(draw(game))
}

/// The puzzle duel's two fields (renderer `puzzle-fields`).
pub(super) fn puzzle_fields(game: &dyn AnyGame) -> Result<BoardImage, RenderError> {
    let g: PuzzleDuel = decode(game)?;
    Ok(BoardImage {
        filename: "board.png",
        png: render_puzzle_png(&g)?,
        description: alt_text(game, "The two puzzle fields.".into()),
    })
}

/// The Diplomacy map with units and supply centres (renderer `diplomacy-map`).
pub(super) fn diplomacy_map(game: &dyn AnyGame) -> Result<BoardImage, RenderError> {
    let g: Diplomacy = decode(game)?;
    let pos = MapPosition::of_game(&g);
    Ok(BoardImage {
        filename: "map.png",
        png: render_position_png(&pos)?,
        description: alt_text(
            game,
            format!(
                "Map of the position at {}: units and supply centres.",
                pos.title
            ),
        ),
    })
}

/// The orders of a resolved phase drawn as arrows on the position they were
/// given in (`before`), failed ones crossed out; `None` for kinds without
/// such an image (only Diplomacy has one).
///
/// Orders are filtered and judged exactly as the engine did when it
/// resolved the phase: each power's orders that still pass
/// [`Diplomacy::check_line`] on `before`, through the adjudicator of the
/// phase. Retreats are judged without the standoff list (it is private to
/// the engine); that changes nothing, because a retreat into a standoff
/// province is illegal and `check_line` has already dropped it.
pub fn orders_png(
    before: &dyn AnyGame,
    actions: &BTreeMap<Seat, Value>,
) -> Option<Result<BoardImage, RenderError>> {
    if before.kind() != Diplomacy::KIND {
        return None;
    }
    Some((|| {
        let g: Diplomacy = decode(before)?;
        let m = Map::standard();
        let mut orders = Vec::new();
        for (&seat, action) in actions {
            let Some(p) = Power::from_index(seat) else {
                continue;
            };
            let a: DiplomacyAction = serde_json::from_value(action.clone())
                .map_err(|e| RenderError::State(format!("diplomacy action of seat {seat}: {e}")))?;
            for o in &a.orders {
                if g.check_line(p, &o.canonical(m)).is_ok() {
                    orders.push((p, *o));
                }
            }
        }
        let outcomes = match g.phase() {
            PhaseKind::Movement => adjudicate_movement(m, g.units(), &orders).orders,
            PhaseKind::Retreat => {
                adjudicate_retreats(m, g.units(), g.dislodged(), 0, &orders).orders
            }
            PhaseKind::Adjustment => {
                adjudicate_adjustments(m, g.units(), g.owners(), &orders).orders
            }
        };
        let mut pos = MapPosition::of_game(&g);
        pos.title = format!("{} orders", pos.title);
        pos.orders = orders
            .iter()
            .zip(&outcomes)
            .map(|(&(p, o), oc)| (p, o, oc.success))
            .collect();
        Ok(BoardImage {
            filename: "orders.png",
            png: render_position_png(&pos)?,
            description: format!(
                "The {} orders drawn on the position they were given in; failed orders are crossed out.",
                g.phase_name()
            ),
        })
    })())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Registry;
    use serde_json::json;

    fn png_size(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
        (w, h)
    }

    #[test]
    fn kinds_with_and_without_an_image() {
        let r = Registry::standard();
        let cards = r.create("cards", &Value::Null, 1).unwrap();
        assert!(board_png(cards.as_ref()).is_none());
        let hook = |kind| r.get(kind).unwrap().board_image;
        assert!(
            !super::super::has_board_image(hook("cards"))
                && !super::super::has_board_image(hook("battle"))
        );
        let puzzle = r.create("puzzle", &Value::Null, 1).unwrap();
        let img = board_png(puzzle.as_ref()).unwrap().unwrap();
        assert_eq!(img.filename, "board.png");
        assert_eq!(png_size(&img.png), super::super::puzzle::image_size());
        assert!(!img.description.is_empty() && img.description.chars().count() <= 1024);
        assert!(orders_png(puzzle.as_ref(), &BTreeMap::new()).is_none());
    }

    #[test]
    fn diplomacy_map_and_orders_with_their_results() {
        let r = Registry::standard();
        let g = r.create("diplomacy", &Value::Null, 1).unwrap();
        let map = board_png(g.as_ref()).unwrap().unwrap();
        assert_eq!(map.filename, "map.png");
        assert_eq!(png_size(&map.png), (1000, 860));
        // Austria moves, Italy bounces it in Tyrolia; an illegal line is dropped.
        let mut actions = BTreeMap::new();
        actions.insert(0, g.parse_action(0, "A Vie - Tyr\nF Tri - Adr").unwrap());
        actions.insert(4, g.parse_action(4, "A Ven - Tyr").unwrap());
        let orders = orders_png(g.as_ref(), &actions).unwrap().unwrap();
        assert_eq!(orders.filename, "orders.png");
        assert_eq!(png_size(&orders.png), (1000, 860));
        assert_ne!(orders.png, map.png, "the arrows are drawn");
        // A stored action that is not Diplomacy's is an error, not a panic.
        let mut bad = BTreeMap::new();
        bad.insert(0, json!("nonsense"));
        assert!(orders_png(g.as_ref(), &bad).unwrap().is_err());
    }
}
