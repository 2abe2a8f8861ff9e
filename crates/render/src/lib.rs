//! Images for the front-ends: SVG built per game, rasterised to PNG.

mod battle_chart;
mod board;
pub mod diplomacy;
pub mod diplomacy_board;
pub mod diplomacy_layout;
pub mod puzzle;
pub mod replay;
pub mod svg;

pub use battle_chart::type_chart_svg;
pub use board::{
    BoardImage, SeatNames, board_png, diplomacy_position, orders_png, orders_png_from_report,
    orders_png_named, seat_names,
};
pub use diplomacy::render_diplomacy_png;
pub use puzzle::{puzzle_svg, render_puzzle_png};

use host::AnyGame;

/// Draws the board image of a game of the kind it is registered for.
pub type BoardRenderer = fn(&dyn AnyGame, &SeatNames) -> Result<BoardImage, RenderError>;

/// The board renderers, by the name a kind gives as its `Game::BOARD_IMAGE`
/// (the engines name their renderer, never depend on it): a kind with an
/// image adds its one line here.
const BOARD_RENDERERS: &[(&str, BoardRenderer)] = &[
    ("puzzle-fields", board::puzzle_fields),
    ("diplomacy-map", board::diplomacy_map),
];

/// The renderer registered under `name`, if any.
pub fn board_renderer(name: &str) -> Option<BoardRenderer> {
    BOARD_RENDERERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, draw)| *draw)
}

/// Whether a kind whose `Game::BOARD_IMAGE` is `name` has a board image (so
/// a caller can skip loading a state that [`board_png`] would not draw).
pub fn has_board_image(name: Option<&str>) -> bool {
    name.and_then(board_renderer).is_some()
}

/// Draws the image of a kind's rules (its `Game::RULES_IMAGE`) from a game
/// of that kind, so the image shows the rule set that game uses.
pub type RulesRenderer = fn(&dyn AnyGame) -> Result<BoardImage, RenderError>;

/// The rules image renderers, by the name a kind gives as its
/// `Game::RULES_IMAGE`.
const RULES_RENDERERS: &[(&str, RulesRenderer)] =
    &[("battle-type-chart", battle_chart::type_chart)];

/// The image of a game's rules (battle: its type chart), or `None` for
/// kinds whose rules are text only.
pub fn rules_png(game: &dyn AnyGame) -> Option<Result<BoardImage, RenderError>> {
    let name = game.rules_image()?;
    let draw = RULES_RENDERERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, draw)| *draw)?;
    Some(draw(game))
}

/// Why an image could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The SVG text could not be parsed.
    #[error("invalid SVG: {0}")]
    Svg(String),
    /// The image would have no pixels (or too many).
    #[error("cannot make a {0}x{1} image")]
    Size(u32, u32),
    /// The game's state could not be read back as its engine's type.
    #[error("cannot read the game to draw it: {0}")]
    State(String),
    /// The PNG encoder failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use host::Registry;

    /// Every board image a registered kind names has a renderer, and every
    /// renderer is named by a kind: a typo on either side fails here.
    #[test]
    fn every_board_image_hook_has_its_renderer() {
        let registry = Registry::standard();
        let hooks: Vec<&str> = registry
            .names()
            .into_iter()
            .filter_map(|k| registry.get(k).unwrap().board_image)
            .collect();
        for hook in &hooks {
            assert!(board_renderer(hook).is_some(), "no renderer for {hook}");
        }
        for (name, _) in BOARD_RENDERERS {
            assert!(hooks.contains(name), "no kind draws with {name}");
        }
        assert!(!has_board_image(None) && !has_board_image(Some("no-such")));
    }

    /// Every rules image a kind names has its renderer, and draws from a
    /// game with default options; kinds without one draw nothing.
    #[test]
    fn every_rules_image_hook_has_its_renderer() {
        let registry = Registry::standard();
        let mut drawn = Vec::new();
        for kind in registry.names() {
            let entry = registry.get(kind).unwrap();
            let game = registry.create(kind, &serde_json::Value::Null, 0).unwrap();
            match entry.rules_image {
                Some(name) => {
                    let image = rules_png(game.as_ref()).expect(name).unwrap();
                    assert!(image.png.starts_with(b"\x89PNG"), "{name}");
                    drawn.push(name);
                }
                None => assert!(rules_png(game.as_ref()).is_none(), "{kind}"),
            }
        }
        for (name, _) in RULES_RENDERERS {
            assert!(drawn.contains(name), "no kind draws with {name}");
        }
    }
}
