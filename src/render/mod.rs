//! Images for the front-ends: SVG built per game, rasterised to PNG.

pub mod board;
pub mod diplomacy;
pub mod puzzle;
pub mod svg;

pub use board::{BoardImage, board_png, has_board_image, orders_png, orders_png_from_report};
pub use diplomacy::render_diplomacy_png;
pub use puzzle::{puzzle_svg, render_puzzle_png};

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
