//! Images for the front-ends: SVG built per game, rasterised to PNG.

pub mod diplomacy;
pub mod puzzle;
pub mod svg;

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
    /// The PNG encoder failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
}
