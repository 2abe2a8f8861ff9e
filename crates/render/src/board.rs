//! One entry point for front-ends: the image of a game's board, for the
//! kinds that have one (puzzle fields, the Diplomacy map), from the
//! type-erased engine the host hands out.
//!
//! The engine is recovered from its state JSON by kind, so the host stays
//! free of images and the renderers of engine types.

use super::RenderError;
use super::diplomacy::{MapPosition, render_position_png};
use super::puzzle::render_puzzle_png;
use games::diplomacy::game::PhaseDetail;
use games::diplomacy::geo::Power;
use games::diplomacy::judge::{
    PhaseKind, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
};
use games::diplomacy::order::Order;
use games::diplomacy::{Diplomacy, DiplomacyAction};
use games::puzzle::PuzzleDuel;
use games::seam::{Game, Seat, TurnReport};
use host::AnyGame;
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
pub(super) fn decode<G: Game>(game: &dyn AnyGame) -> Result<G, RenderError> {
    serde_json::from_str(&game.state_json())
        .map_err(|e| RenderError::State(format!("{} state: {e}", G::KIND)))
}

/// `text` cut to Discord's limit on alt text, with an ellipsis when cut.
pub(super) fn clip_description(text: String) -> String {
    if text.chars().count() <= MAX_DESCRIPTION {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_DESCRIPTION - 1).collect();
    cut.push('…');
    cut
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

/// Who sits in each seat, by the name players see (a seat not listed shows
/// no name): the front-end passes it from the host's seats, so an image can
/// name the players (the Diplomacy legend) without reading the store.
pub type SeatNames = [(Seat, String)];

/// The seat names of a stored game, as the host lists its seats.
pub fn seat_names(
    host: &host::Host,
    game_id: host::GameId,
) -> Result<Vec<(Seat, String)>, RenderError> {
    Ok(host
        .seats(game_id)
        .map_err(|e| RenderError::State(e.to_string()))?
        .into_iter()
        .map(|s| (s.seat, s.display_name))
        .collect())
}

/// The board of a game as a PNG, or `None` for kinds without an image:
/// drawn by the renderer registered under the kind's `Game::BOARD_IMAGE`,
/// naming the players of `players` where the image has room for names.
pub fn board_png(
    game: &dyn AnyGame,
    players: &SeatNames,
) -> Option<Result<BoardImage, RenderError>> {
    let draw = super::board_renderer(game.board_image()?)?;
    Some(draw(game, players))
}

/// The puzzle duel's two fields (renderer `puzzle-fields`); the fields are
/// titled by seat, so the names are not drawn.
pub(super) fn puzzle_fields(
    game: &dyn AnyGame,
    _players: &SeatNames,
) -> Result<BoardImage, RenderError> {
    let g: PuzzleDuel = decode(game)?;
    Ok(BoardImage {
        filename: "board.png",
        png: render_puzzle_png(&g)?,
        description: alt_text(game, "The two puzzle fields.".into()),
    })
}

/// The position a Diplomacy game's map draws: its current position with
/// each power's player (from `players`, by seat) for the legend.
pub fn diplomacy_position(
    game: &dyn AnyGame,
    players: &SeatNames,
) -> Result<MapPosition, RenderError> {
    let g: Diplomacy = decode(game)?;
    let mut pos = MapPosition::of_game(&g);
    pos.players = powers_named(&g, players);
    Ok(pos)
}

/// Each power's player name, from the names by seat.
fn powers_named(g: &Diplomacy, players: &SeatNames) -> Vec<(Power, String)> {
    players
        .iter()
        .filter_map(|(seat, name)| Some((g.power_of_seat(*seat)?, name.clone())))
        .collect()
}

/// The Diplomacy map with units and supply centres (renderer `diplomacy-map`).
pub(super) fn diplomacy_map(
    game: &dyn AnyGame,
    players: &SeatNames,
) -> Result<BoardImage, RenderError> {
    let pos = diplomacy_position(game, players)?;
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
/// given in (`before`), failed ones crossed out, from the turn report's
/// structured detail ([`TurnReport::detail`]); `None` for kinds without
/// such an image (only Diplomacy has one).
///
/// Nothing is adjudicated here: the engine put every adjudicated order and
/// its result in the report. Turn-log rows written before reports carried
/// a detail fall back to [`orders_png`], which judges the stored actions
/// again exactly as the engine did; that path exists for those old rows
/// only.
pub fn orders_png_from_report(
    before: &dyn AnyGame,
    report: &TurnReport,
    actions: &BTreeMap<Seat, Value>,
) -> Option<Result<BoardImage, RenderError>> {
    orders_png_named(before, report, actions, &[])
}

/// [`orders_png_from_report`] with each power's player in the legend.
pub fn orders_png_named(
    before: &dyn AnyGame,
    report: &TurnReport,
    actions: &BTreeMap<Seat, Value>,
    players: &SeatNames,
) -> Option<Result<BoardImage, RenderError>> {
    if before.kind() != Diplomacy::KIND {
        return None;
    }
    let Some(detail) = &report.detail else {
        return orders_png_judged(before, actions, players);
    };
    Some((|| {
        let g: Diplomacy = decode(before)?;
        let detail: PhaseDetail = serde_json::from_value(detail.clone())
            .map_err(|e| RenderError::State(format!("diplomacy turn detail: {e}")))?;
        let orders = detail
            .orders
            .iter()
            .map(|o| (o.power, o.order, o.success))
            .collect();
        draw_orders(&g, orders, players)
    })())
}

/// The orders of a resolved phase judged again from the stored actions:
/// the way images were drawn before turn reports carried their detail, kept
/// for those old turn-log rows ([`orders_png_from_report`] uses it only
/// when a report has no detail).
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
    orders_png_judged(before, actions, &[])
}

/// [`orders_png`] with each power's player in the legend.
fn orders_png_judged(
    before: &dyn AnyGame,
    actions: &BTreeMap<Seat, Value>,
    players: &SeatNames,
) -> Option<Result<BoardImage, RenderError>> {
    if before.kind() != Diplomacy::KIND {
        return None;
    }
    Some((|| {
        let g: Diplomacy = decode(before)?;
        let m = g.map();
        let mut orders = Vec::new();
        for (&seat, action) in actions {
            let Some(p) = g.power_of_seat(seat) else {
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
        let orders = orders
            .iter()
            .zip(&outcomes)
            .map(|(&(p, o), oc)| (p, o, oc.success))
            .collect();
        draw_orders(&g, orders, players)
    })())
}

/// `orders` (power, order, succeeded) drawn on the position of `g`, with
/// each power's player from `players` in the legend.
fn draw_orders(
    g: &Diplomacy,
    orders: Vec<(Power, Order, bool)>,
    players: &SeatNames,
) -> Result<BoardImage, RenderError> {
    let mut pos = MapPosition::of_game(g);
    pos.title = format!("{} orders", pos.title);
    pos.orders = orders;
    pos.players = powers_named(g, players);
    Ok(BoardImage {
        filename: "orders.png",
        png: render_position_png(&pos)?,
        description: format!(
            "The {} orders drawn on the position they were given in; failed orders are crossed out.",
            g.phase_name()
        ),
    })
}

#[cfg(test)]
mod tests {
    fn std_power(name: &str) -> games::diplomacy::geo::Power {
        games::diplomacy::geo::Map::standard()
            .parse_power(name)
            .unwrap()
    }
    use super::*;
    use host::Registry;
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
        assert!(board_png(cards.as_ref(), &[]).is_none());
        let hook = |kind| r.get(kind).unwrap().board_image;
        assert!(
            !super::super::has_board_image(hook("cards"))
                && !super::super::has_board_image(hook("battle"))
        );
        let puzzle = r.create("puzzle", &Value::Null, 1).unwrap();
        let img = board_png(puzzle.as_ref(), &[]).unwrap().unwrap();
        assert_eq!(img.filename, "board.png");
        assert_eq!(png_size(&img.png), super::super::puzzle::image_size());
        assert!(!img.description.is_empty() && img.description.chars().count() <= 1024);
        assert!(orders_png(puzzle.as_ref(), &BTreeMap::new()).is_none());
    }

    #[test]
    fn diplomacy_map_and_orders_with_their_results() {
        let r = Registry::standard();
        let g = r.create("diplomacy", &Value::Null, 1).unwrap();
        let map = board_png(g.as_ref(), &[]).unwrap().unwrap();
        assert_eq!(map.filename, "map.png");
        assert_eq!(png_size(&map.png), (1193, 1235));
        // Austria moves, Italy bounces it in Tyrolia; an illegal line is dropped.
        let mut actions = BTreeMap::new();
        actions.insert(0, g.parse_action(0, "A Vie - Tyr\nF Tri - Adr").unwrap());
        actions.insert(4, g.parse_action(4, "A Ven - Tyr").unwrap());
        let orders = orders_png(g.as_ref(), &actions).unwrap().unwrap();
        assert_eq!(orders.filename, "orders.png");
        assert_eq!(png_size(&orders.png), (1193, 1235));
        assert_ne!(orders.png, map.png, "the arrows are drawn");
        // A stored action that is not Diplomacy's is an error, not a panic.
        let mut bad = BTreeMap::new();
        bad.insert(0, json!("nonsense"));
        assert!(orders_png(g.as_ref(), &bad).unwrap().is_err());
    }

    /// The orders images of a golden game (a bounce, a dislodgement, a
    /// retreat and a Winter) drawn from the turn reports' detail, after the
    /// reports went through JSON as the turn log stores them, are the very
    /// PNGs drawn before by judging the stored actions again.
    #[test]
    fn orders_image_from_the_report_detail_is_the_one_drawn_by_judging_again() {
        let r = Registry::standard();
        let mut g = r.create("diplomacy", &Value::Null, 7).unwrap();
        let script: [&[(usize, &str)]; 2] = [
            &[
                (0, "A Vie - Tyr\nF Tri - Alb\nA Bud H"),
                (1, "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor"),
                (2, "A Par - Pic\nA Mar - Gas\nF Bre - Mao"),
                (3, "A Mun - Bur\nF Kie - Den"),
                (4, "A Ven H\nA Rom - Apu"),
                (5, "A War - Gal\nF Sev - Rum\nA Mos - Ukr"),
                (6, "A Con - Bul\nF Ank - Bla"),
            ],
            &[
                (0, "A Bud H"),
                (2, "A Gas - Bur\nA Pic S A Gas - Bur"),
                (3, "A Bur H"),
                (5, "A Gal - Bud"),
                (6, "A Bul - Gre"),
            ],
        ];
        let mut with_detail = 0;
        let mut fall_detail = None;
        for phase in 0..5 {
            let mut actions = BTreeMap::new();
            if let Some(lines) = script.get(phase) {
                for &(seat, text) in lines.iter() {
                    actions.insert(seat, g.parse_action(seat, text).unwrap());
                }
            } else {
                // Retreats and builds: each awaited power takes its first choice.
                for seat in g.awaiting() {
                    let choice = g
                        .view(Some(seat))
                        .choices
                        .into_iter()
                        .find(|c| c.style == games::seam::ChoiceStyle::Select);
                    if let Some(c) = choice {
                        actions.insert(seat, g.parse_action(seat, &c.text).unwrap());
                    }
                }
            }
            let before = g.boxed_clone();
            let report = g.resolve(&actions).unwrap();
            let stored = serde_json::to_string(&report).unwrap();
            let report: TurnReport = serde_json::from_str(&stored).unwrap();
            assert!(report.detail.is_some(), "phase {phase} carries its detail");
            if phase == 1 {
                fall_detail = report.detail.clone();
            }
            with_detail += 1;
            let from_detail = orders_png_from_report(before.as_ref(), &report, &actions)
                .unwrap()
                .unwrap();
            let judged_again = orders_png(before.as_ref(), &actions).unwrap().unwrap();
            assert_eq!(from_detail, judged_again, "phase {phase}: same image");
            // Without its actions the detail alone still draws the orders.
            let alone = orders_png_from_report(before.as_ref(), &report, &BTreeMap::new())
                .unwrap()
                .unwrap();
            assert_eq!(alone.png, judged_again.png, "phase {phase}: detail alone");
        }
        assert_eq!(with_detail, 5);
        // The Fall detail names the dislodged German army and the order
        // results: the French attack succeeded, the German hold did not.
        let fall: PhaseDetail = serde_json::from_value(fall_detail.unwrap()).unwrap();
        assert_eq!(fall.phase, Some(PhaseKind::Movement));
        assert_eq!(fall.dislodged.len(), 1);
        assert_eq!(fall.dislodged[0].unit.power, std_power("Germany"));
        assert!(
            fall.orders
                .iter()
                .any(|o| o.power == std_power("France") && o.success)
        );
        assert!(
            fall.orders
                .iter()
                .any(|o| o.power == std_power("Germany") && !o.success && o.reason.is_some())
        );
    }

    /// A turn-log row written before reports carried a detail still reads,
    /// and its orders image is drawn by judging the stored actions again.
    #[test]
    fn an_old_report_without_detail_still_renders_its_orders() {
        let r = Registry::standard();
        let g = r.create("diplomacy", &Value::Null, 1).unwrap();
        let old: TurnReport =
            serde_json::from_str(r#"{"public":"Spring 1901 movement","private":{}}"#).unwrap();
        assert_eq!(old.detail, None);
        let mut actions = BTreeMap::new();
        actions.insert(0, g.parse_action(0, "A Vie - Tyr").unwrap());
        actions.insert(4, g.parse_action(4, "A Ven - Tyr").unwrap());
        let img = orders_png_from_report(g.as_ref(), &old, &actions)
            .unwrap()
            .unwrap();
        assert_eq!(img, orders_png(g.as_ref(), &actions).unwrap().unwrap());
        let map = board_png(g.as_ref(), &[]).unwrap().unwrap();
        assert_ne!(img.png, map.png, "the orders are drawn");
        // A report without detail is not re-serialised with a null detail.
        assert!(!serde_json::to_string(&old).unwrap().contains("detail"));
    }
}
