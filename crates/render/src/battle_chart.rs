//! The monster battle's type chart as an image, for `/rules battle`: one
//! row per move type, one column per defender type, each cell coloured by
//! how effective the move is and labelled with the multiplier (so colour is
//! never the only cue).

use super::RenderError;
use super::board::BoardImage;
use super::svg::{FONT_FAMILY, escape, svg_to_png};
use games::battle::Battle;
use games::battle::engine::Setup;
use games::battle::guide::effectiveness_text;
use host::AnyGame;
use std::fmt::Write;

/// Width of the row labels (move types).
const LABEL_W: f64 = 96.0;
/// Height of the column labels (defender types), written at an angle.
const HEADER_H: f64 = 96.0;
/// Side of one cell.
const CELL: f64 = 54.0;
/// Space above the grid for the title and its two lines of explanation.
const TITLE_H: f64 = 78.0;
/// Space under the grid for the key.
const KEY_H: f64 = 64.0;
/// Margin around everything.
const MARGIN: f64 = 16.0;

/// A cell's fill and text colour by effectiveness: Okabe-Ito blue-green for
/// super effective, orange for not very effective, near-black for no
/// effect, pale for normal.
fn cell_style(e: f64) -> (&'static str, &'static str) {
    if e == 0.0 {
        ("#2b2b2b", "#ffffff")
    } else if e > 1.0 {
        ("#009e73", "#ffffff")
    } else if e < 1.0 {
        ("#e69f00", "#1a1a1a")
    } else {
        ("#f4f1ea", "#6b6b6b")
    }
}

/// A cell's label: the multiplier (`2×`, `½×`, `0×`), `1×` for normal.
fn cell_label(e: f64) -> String {
    match effectiveness_text(e).as_str() {
        "-" => "1×".into(),
        ".5" => "½×".into(),
        other => format!("{other}×"),
    }
}

/// The SVG document of a rule set's type chart.
pub fn type_chart_svg(setup: &Setup) -> String {
    let n = setup.types.len() as f64;
    let grid_x = MARGIN + LABEL_W;
    let grid_y = MARGIN + TITLE_H + HEADER_H;
    // Wide enough for the grid (and its last column label, written at an
    // angle) and for the key under it.
    let w = (grid_x + n * CELL + 40.0).max(MARGIN + key_width()) + MARGIN;
    let h = grid_y + n * CELL + KEY_H + MARGIN;
    let mut s = String::with_capacity(16 * 1024);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}"><rect width="{w}" height="{h}" fill="#ffffff"/>"##
    );
    let _ = write!(
        s,
        r##"<text x="{MARGIN}" y="{}" font-size="20" fill="#1a1a1a">Type chart</text><text x="{MARGIN}" y="{}" font-size="13" fill="#444444">Row: the move's type. Column: the defender's type.</text><text x="{MARGIN}" y="{}" font-size="13" fill="#444444">The move's damage is multiplied by the number.</text>"##,
        MARGIN + 22.0,
        MARGIN + 46.0,
        MARGIN + 64.0
    );
    // Column labels, at an angle so full names fit over narrow columns.
    for (j, t) in setup.types.iter().enumerate() {
        let x = grid_x + j as f64 * CELL + CELL / 2.0;
        let y = grid_y - 8.0;
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" font-size="14" fill="#1a1a1a" transform="rotate(-45 {x} {y})">{}</text>"##,
            escape(t)
        );
    }
    let _ = write!(
        s,
        r##"<text x="{x}" y="{}" font-size="12" fill="#444444" text-anchor="end">defender →</text><text x="{x}" y="{}" font-size="12" fill="#444444" text-anchor="end">move ↓</text>"##,
        grid_y - 26.0,
        grid_y - 8.0,
        x = grid_x - 8.0,
    );
    for (i, (row, t)) in setup.chart.iter().zip(&setup.types).enumerate() {
        let y = grid_y + i as f64 * CELL;
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="14" fill="#1a1a1a" text-anchor="end">{}</text>"##,
            grid_x - 8.0,
            y + CELL / 2.0 + 5.0,
            escape(t)
        );
        for (j, e) in row.iter().enumerate() {
            let x = grid_x + j as f64 * CELL;
            let (fill, ink) = cell_style(*e);
            let _ = write!(
                s,
                r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#ffffff" stroke-width="2"/><text x="{}" y="{}" font-size="16" fill="{ink}" text-anchor="middle">{}</text>"##,
                x + CELL / 2.0,
                y + CELL / 2.0 + 6.0,
                cell_label(*e)
            );
        }
    }
    draw_key(&mut s, MARGIN, grid_y + n * CELL + 28.0);
    s.push_str("</svg>");
    s
}

/// The key's entries: an effectiveness and what it is called.
const KEY: [(f64, &str); 4] = [
    (2.0, "super effective"),
    (0.5, "not very effective"),
    (0.0, "no effect"),
    (1.0, "normal"),
];

/// How far along the key one entry reaches: its swatch and its label (12 px
/// monospace: about 7.5 px a character), then a gap.
fn key_entry_width(label: &str) -> f64 {
    40.0 + label.chars().count() as f64 * 7.5 + 18.0
}

/// The key's width.
fn key_width() -> f64 {
    KEY.iter().map(|(_, label)| key_entry_width(label)).sum()
}

/// The key under the grid: one swatch per kind of cell.
fn draw_key(s: &mut String, x0: f64, y: f64) {
    let mut x = x0;
    for (e, label) in KEY {
        let (fill, ink) = cell_style(e);
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{}" width="34" height="24" fill="{fill}" stroke="#bbbbbb"/><text x="{}" y="{}" font-size="12" fill="{ink}" text-anchor="middle">{}</text><text x="{}" y="{}" font-size="12" fill="#1a1a1a">{label}</text>"##,
            y - 17.0,
            x + 17.0,
            y,
            cell_label(e),
            x + 40.0,
            y
        );
        x += key_entry_width(label);
    }
}

/// The type chart of a battle (rules renderer `battle-type-chart`).
pub(super) fn type_chart(game: &dyn AnyGame) -> Result<BoardImage, RenderError> {
    let battle: Battle = super::board::decode(game)?;
    let setup = battle.setup();
    Ok(BoardImage {
        filename: "type-chart.png",
        png: svg_to_png(&type_chart_svg(setup))?,
        description: chart_description(setup),
    })
}

/// The chart as alt text: for each move type, what it is strong and weak
/// against (cut to Discord's 1024 characters).
fn chart_description(setup: &Setup) -> String {
    let mut text = String::from("Type chart.");
    for (row, t) in setup.chart.iter().zip(&setup.types) {
        let against = |keep: fn(f64) -> bool| {
            row.iter()
                .zip(&setup.types)
                .filter(|(e, _)| keep(**e))
                .map(|(_, d)| d.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let strong = against(|e| e > 1.0);
        let weak = against(|e| e > 0.0 && e < 1.0);
        let none = against(|e| e == 0.0);
        let _ = write!(text, " {t}:");
        for (label, list) in [("2× vs", strong), ("½× vs", weak), ("0× vs", none)] {
            if !list.is_empty() {
                let _ = write!(text, " {label} {list};");
            }
        }
    }
    super::board::clip_description(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::battle::rules::data::Roster;

    fn builtin_setup() -> Setup {
        Setup::new(Roster::builtin(), [Vec::new(), Vec::new()], 100)
    }

    #[test]
    fn every_type_and_every_cell_is_in_the_chart() {
        let setup = builtin_setup();
        let svg = type_chart_svg(&setup);
        for t in &setup.types {
            // Once as a row label, once as a column label.
            assert_eq!(svg.matches(&format!(">{t}</text>")).count(), 2, "{t}");
        }
        let cells = setup.types.len() * setup.types.len();
        // Every cell has the white grid line (the key's swatches do not).
        assert_eq!(svg.matches("stroke-width=\"2\"").count(), cells);
        let png = svg_to_png(&svg).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
    }

    #[test]
    fn the_alt_text_names_what_each_type_beats() {
        let setup = builtin_setup();
        let text = chart_description(&setup);
        assert!(text.len() <= 1024, "{}", text.len());
        for (i, t) in setup.types.iter().enumerate() {
            assert!(text.contains(&format!(" {t}:")), "{text}");
            if let Some(j) = setup.chart[i].iter().position(|e| *e > 1.0) {
                let strong = &setup.types[j];
                let at = text.find(&format!(" {t}:")).unwrap();
                assert!(text[at..].contains(strong.as_str()), "{text}");
            }
        }
    }
}
