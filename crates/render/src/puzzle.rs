//! The puzzle duel as an image: both fields side by side, coordinates on the
//! edges (columns a..i, rows 1..15 from the top, as in the notation), the
//! queue count above each column, soft garbage as a grey ring and hard
//! garbage as a dark square with a cross.

use super::RenderError;
use super::svg::{FONT_FAMILY, escape, svg_to_png};
use games::puzzle::PuzzleDuel;
use games::puzzle::field::{Cell, HEIGHT, Side, WIDTH};
use std::fmt::Write;

/// Cell size in pixels.
const CELL: u32 = 26;
/// Space for row numbers on each side of a field.
const EDGE: u32 = 26;
/// Gap between the two fields.
const GAP: u32 = 30;
/// Top area: title, queue counts, column letters.
const TOP: u32 = 76;
/// Bottom area: column letters and garbage totals.
const BOTTOM: u32 = 44;

const BALL_COLORS: [&str; 3] = ["#e53935", "#43a047", "#1e88e5"];

/// Width of one field's block including its row-number edges.
fn block_w() -> u32 {
    2 * EDGE + WIDTH as u32 * CELL
}

/// Total image size in pixels.
pub fn image_size() -> (u32, u32) {
    (2 * block_w() + GAP, TOP + HEIGHT as u32 * CELL + BOTTOM)
}

fn text(svg: &mut String, x: f32, y: f32, size: u32, fill: &str, anchor: &str, s: &str) {
    let _ = write!(
        svg,
        r#"<text x="{x}" y="{y}" font-family="{FONT_FAMILY}" font-size="{size}" fill="{fill}" text-anchor="{anchor}">{}</text>"#,
        escape(s)
    );
}

/// The SVG document of both fields.
pub fn puzzle_svg(game: &PuzzleDuel) -> String {
    let (w, h) = image_size();
    let mut svg = String::with_capacity(64 * 1024);
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#20232a"/>"##
    );
    for seat in 0..2usize {
        let ox = seat as u32 * (block_w() + GAP) + EDGE;
        draw_side_labels(&mut svg, game, seat, ox);
        let side = &game.sides[seat];
        draw_field(&mut svg, side, ox);
        // Garbage totals under the field.
        let (qh, qs) = side.queues.garbage_counts();
        let (fh, fs) = side.field.garbage_counts();
        let line = format!("field {fh}H {fs}S  queued {qh}H {qs}S");
        let by = (TOP + HEIGHT as u32 * CELL + 36) as f32;
        text(&mut svg, ox as f32, by, 12, "#bdbdbd", "start", &line);
    }
    svg.push_str("</svg>");
    svg
}

/// The text around a seat's field at `ox`: the title (marked when the seat
/// is to move), the queue counts, column letters and row numbers.
fn draw_side_labels(svg: &mut String, game: &PuzzleDuel, seat: usize, ox: u32) {
    let mover = game.mover();
    let half = CELL as f32 / 2.0;
    let oy = TOP;
    let side = &game.sides[seat];
    // Title.
    let title = if mover == Some(seat) {
        format!("{} - to move", game.seat_label(seat))
    } else {
        game.seat_label(seat)
    };
    let title_fill = if mover == Some(seat) {
        "#ffd54f"
    } else {
        "#eeeeee"
    };
    text(svg, ox as f32, 18.0, 16, title_fill, "start", &title);
    // Queue counts above each column, highlighted when non-zero.
    let lens = side.queues.lens();
    for (x, &n) in lens.iter().enumerate() {
        let cx = ox as f32 + x as f32 * CELL as f32 + half;
        let has_hard = side.queues.0[x].contains(&games::puzzle::garbage::Kind::Hard);
        let fill = match (n, has_hard) {
            (0, _) => "#777777",
            (_, true) => "#ff8a65",
            _ => "#bdbdbd",
        };
        text(svg, cx, 42.0, 13, fill, "middle", &n.to_string());
    }
    text(svg, ox as f32 - 4.0, 42.0, 11, "#9e9e9e", "end", "q");
    // Column letters above and below.
    for x in 0..WIDTH {
        let cx = ox as f32 + x as f32 * CELL as f32 + half;
        let l = ((b'a' + x as u8) as char).to_string();
        text(svg, cx, (TOP - 8) as f32, 13, "#eeeeee", "middle", &l);
        let by = (oy + HEIGHT as u32 * CELL + 16) as f32;
        text(svg, cx, by, 13, "#eeeeee", "middle", &l);
    }
    // Row numbers on both edges.
    for y in 0..HEIGHT {
        let cy = oy as f32 + y as f32 * CELL as f32 + half + 5.0;
        let n = (y + 1).to_string();
        text(svg, ox as f32 - 5.0, cy, 12, "#eeeeee", "end", &n);
        let rx = (ox + WIDTH as u32 * CELL + 5) as f32;
        text(svg, rx, cy, 12, "#eeeeee", "start", &n);
    }
}

/// A field at `ox`: its background, then each ball or garbage.
fn draw_field(svg: &mut String, side: &Side, ox: u32) {
    let half = CELL as f32 / 2.0;
    let oy = TOP;
    let _ = write!(
        svg,
        r##"<rect x="{ox}" y="{oy}" width="{}" height="{}" fill="#101216" stroke="#555" stroke-width="1"/>"##,
        WIDTH as u32 * CELL,
        HEIGHT as u32 * CELL
    );
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let cx = ox as f32 + x as f32 * CELL as f32 + half;
            let cy = oy as f32 + y as f32 * CELL as f32 + half;
            draw_cell(svg, side.field.get(x, y), cx, cy);
        }
    }
}

/// One cell centred at (`cx`, `cy`): a coloured ball, soft garbage as a
/// grey ring, hard garbage as a dark square with a cross.
fn draw_cell(svg: &mut String, cell: Cell, cx: f32, cy: f32) {
    let half = CELL as f32 / 2.0;
    let r = half - 2.0;
    match cell {
        Cell::Empty => {}
        Cell::Color(c) => {
            let _ = write!(
                svg,
                r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{}" stroke="#000" stroke-width="1"/>"##,
                BALL_COLORS[usize::from(c).min(2)]
            );
        }
        Cell::Soft => {
            let _ = write!(
                svg,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#9e9e9e" stroke="#e0e0e0" stroke-width="3"/>"##,
                r - 1.5
            );
        }
        Cell::Hard => {
            let s = half - 2.0;
            let _ = write!(
                svg,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#424242" stroke="#bdbdbd" stroke-width="2"/><path d="M{} {} L{} {} M{} {} L{} {}" stroke="#ff8a65" stroke-width="2.5"/>"##,
                cx - s,
                cy - s,
                2.0 * s,
                2.0 * s,
                cx - s + 4.0,
                cy - s + 4.0,
                cx + s - 4.0,
                cy + s - 4.0,
                cx + s - 4.0,
                cy - s + 4.0,
                cx - s + 4.0,
                cy + s - 4.0
            );
        }
    }
}

/// The PNG image of both fields.
pub fn render_puzzle_png(game: &PuzzleDuel) -> Result<Vec<u8>, RenderError> {
    svg_to_png(&puzzle_svg(game))
}
