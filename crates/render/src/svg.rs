//! Rasterising SVG to PNG with `resvg`, with one embedded font so text
//! renders the same on every machine (no system font lookup).
//!
//! The font is DejaVu Sans Mono Bold (free licence, see
//! `assets/fonts/DejaVu-LICENSE.txt`).

use super::RenderError;
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The embedded font file.
pub static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-Bold.ttf");

/// The family name SVG text must use (`font-family`).
pub const FONT_FAMILY: &str = "DejaVu Sans Mono";

/// The font database, built once (parsing the font for every image would be wasted work).
fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_monospace_family(FONT_FAMILY);
        db.set_sans_serif_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Largest width or height accepted, so a bad SVG cannot ask for gigabytes.
pub const MAX_SIDE: u32 = 4096;

/// Renders an SVG document to PNG bytes at its own size.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    encode_png(svg_to_pixmap(svg, 1.0)?)
}

/// Encodes a pixmap as PNG at fast compression, without its alpha channel
/// when every pixel is opaque (as the board images are).
///
/// tiny-skia's own `encode_png` compresses at the default level, which took
/// longer than drawing the image (the crowded Diplomacy map: 142 ms to
/// encode after 128 ms to draw); the fast level takes about 12 ms for a
/// file about a fifth larger (525 kB instead of 434 kB), far inside
/// Discord's upload limit. `benches/render.rs` runs both side by side.
pub fn encode_png(pixmap: tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let (width, height) = (pixmap.width(), pixmap.height());
    let opaque = pixmap.pixels().iter().all(|p| p.alpha() == u8::MAX);
    let (colour, data) = if opaque {
        // Opaque pixels are the same premultiplied or not.
        let rgb = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        (png::ColorType::Rgb, rgb)
    } else {
        (png::ColorType::Rgba, pixmap.take_demultiplied())
    };
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let png_error = |e: png::EncodingError| RenderError::Png(e.to_string());
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&data).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(out)
}

/// Rasterises an SVG document at `scale` times its own size (animations
/// draw their frames smaller than a still image).
pub fn svg_to_pixmap(svg: &str, scale: f32) -> Result<tiny_skia::Pixmap, RenderError> {
    let opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fontdb(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(RenderError::Size(w, h));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(RenderError::Size(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Escapes text for use inside SVG elements and attributes.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            _ => o.push(c),
        }
    }
    o
}
