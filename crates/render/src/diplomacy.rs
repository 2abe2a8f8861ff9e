//! The Diplomacy map image: provinces as filled regions, borders, names,
//! supply centres, units and (optionally) a phase's orders as arrows.
//!
//! The geometry is `assets/diplomacy/standard-map.txt`, generated once by
//! `tools/diplomacy-map/` from Natural Earth coastlines (public domain) and
//! the classic board's province boundaries authored as data: per province its
//! polygons in canvas pixels, per location where a unit stands, per province
//! where its name and supply centre go. The border test
//! (`crates/render/tests/diplomacy_board.rs`) checks that the drawn borders are
//! the rules' adjacency.

use super::RenderError;
// The board and the position are data both the drawing (here) and the
// layout read, so they live below both; re-exported under their old paths.
pub use super::diplomacy_board::{
    BOARD_DATA, Board, BoardError, HEIGHT, MapPosition, Owner, Region, Strait, WIDTH, board,
    board_for, install_board,
};
use super::diplomacy_layout::{
    OrderShape, dislodged_pt, label_text, order_shape, place_labels, unit_pt,
};
use super::svg::{FONT_FAMILY, escape, svg_to_png};
use games::diplomacy::Diplomacy;
use games::diplomacy::geo::{Map, Power, PowerInfo, Terrain};
use games::diplomacy::order::{Order, Unit, UnitKind};
use std::fmt::Write;

/// The colour of a power's units and its tint for land it holds, from its
/// map's `power` line.
///
/// The standard map's colours are the Okabe-Ito palette, which stays
/// distinct under the common forms of colour blindness; each power keeps
/// the hue players know it by (Austria red, England blue, France light
/// blue, Germany black, Italy green, Russia purple, Turkey yellow-orange),
/// and every token also carries the power's initial, so colour is never the
/// only cue.
pub fn power_colour(m: &Map, p: Power) -> (&str, &str) {
    let (unit, tint, _) = power_style(m, p);
    (unit, tint)
}

/// A power's unit colour, tint and the colour of text on its unit colour.
pub fn power_style(m: &Map, p: Power) -> (&str, &str, &str) {
    match m.power_table().get(p.index()) {
        Some(PowerInfo {
            colour, tint, text, ..
        }) => (colour, tint, text),
        None => ("#808080", "#d0d0d0", "#000000"),
    }
}

/// The initial written on a power's tokens.
pub fn power_initial(m: &Map, p: Power) -> char {
    m.power_name(p).chars().next().unwrap_or('?')
}

/// Height of the strip under the board with the phase title and the legend.
pub const LEGEND_HEIGHT: f64 = 96.0;
/// Height of the whole standard map image: the board and the legend strip
/// under it (another map's is its canvas height plus [`LEGEND_HEIGHT`]).
pub const IMAGE_HEIGHT: f64 = HEIGHT + LEGEND_HEIGHT;

const SEA: &str = "#9fc5e8";
const LAND: &str = "#eee3c4";
const OFFBOARD: &str = "#cfc8b0";
const OFFBOARD_SEA: &str = "#bcd2e3";
const IMPASSABLE: &str = "#a9a9a9";
/// Fog of War: land and sea the map's reader does not see, greyed.
const FOG_LAND: &str = "#b3ada1";
const FOG_SEA: &str = "#a9b5bf";

/// The SVG document of a position: the board, then the legend strip under it.
pub fn diplomacy_svg(pos: &MapPosition) -> Result<String, RenderError> {
    let b = board_for(&pos.map)?;
    let paths = &b.paths;
    let (width, height) = b.size;
    let image_height = height + LEGEND_HEIGHT;
    let mut s = String::with_capacity(512 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{image_height}" viewBox="0 0 {width} {image_height}" font-family="{FONT_FAMILY}">"#
    );
    s.push_str(r##"<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#111"/></marker></defs>"##);
    let _ = write!(
        s,
        r#"<rect width="{width}" height="{height}" fill="{OFFBOARD_SEA}"/>"#
    );
    // Bottom to top: ground, borders, straits, centres, names, retreats,
    // orders, units; then the legend.
    draw_regions(&mut s, b, paths, &province_fills(b.map, pos));
    draw_borders(&mut s, b, paths);
    draw_straits(&mut s, b);
    draw_centres(&mut s, b, pos);
    draw_names(&mut s, b, pos);
    draw_retreats(&mut s, b, pos);
    // Orders under the units.
    for (power, o, ok) in &pos.orders {
        draw_order(&mut s, b, o, *ok, pos);
        if let Order::Build { unit, at } = o {
            build_token(&mut s, b.map, *power, *unit, unit_pt(b, *at));
        }
    }
    draw_units(&mut s, b, pos);
    legend(&mut s, b, pos);
    s.push_str("</svg>");
    Ok(s)
}

/// Fill colour per province: its terrain, then the power whose unit stands
/// there (land only), then the owner of its centre.
fn province_fills<'m>(m: &'m Map, pos: &MapPosition) -> Vec<&'m str> {
    let mut fill: Vec<&str> = vec![LAND; m.province_count()];
    for (p, prov) in m.provinces().iter().enumerate() {
        fill[p] = match prov.terrain {
            Terrain::Sea => SEA,
            Terrain::Impassable => IMPASSABLE,
            _ => LAND,
        };
    }
    for u in &pos.units {
        let p = m.prov_of(u.loc) as usize;
        if m.prov(p as u8).terrain != Terrain::Sea {
            fill[p] = power_colour(m, u.power).1;
        }
    }
    for (p, o) in pos.owners.iter().enumerate() {
        if let Some(o) = o
            && p < fill.len()
        {
            fill[p] = power_colour(m, *o).1;
        }
    }
    // Fog of War: what the reader does not see is grey, whoever holds it.
    for (p, prov) in m.provinces().iter().enumerate() {
        if !pos.sees(p as u8) && prov.terrain != Terrain::Impassable {
            fill[p] = if prov.terrain == Terrain::Sea {
                FOG_SEA
            } else {
                FOG_LAND
            };
        }
    }
    fill
}

/// Every region filled (the outlines drawn next cover every edge where a
/// seam could show).
fn draw_regions(s: &mut String, b: &Board, paths: &[String], fill: &[&str]) {
    let colour = |o: Owner| match o {
        Owner::Province(p) => fill[p as usize],
        Owner::OffBoardLand => OFFBOARD,
        Owner::OffBoardSea => OFFBOARD_SEA,
    };
    for (r, d) in b.regions.iter().zip(paths) {
        let col = colour(r.owner);
        let _ = write!(s, r#"<path d="{d}" fill="{col}" fill-rule="evenodd"/>"#);
    }
}

/// Borders: land outlines, then sea outlines over them, so coasts and sea
/// boundaries are blue and borders between land provinces are brown.
fn draw_borders(s: &mut String, b: &Board, paths: &[String]) {
    let m = b.map;
    let is_sea = |o: Owner| match o {
        Owner::Province(p) => m.is_sea(p),
        Owner::OffBoardSea => true,
        Owner::OffBoardLand => false,
    };
    let land_edges = |o: Owner| match o {
        Owner::Province(p) => m.prov(p).terrain != Terrain::Sea,
        _ => false,
    };
    s.push_str(r##"<g fill="none" stroke="#6b5e4a" stroke-width="0.9" stroke-linejoin="round">"##);
    for (r, d) in b.regions.iter().zip(paths) {
        if land_edges(r.owner) {
            let _ = write!(s, r#"<path d="{d}"/>"#);
        }
    }
    s.push_str(
        r##"</g><g fill="none" stroke="#3d5a80" stroke-width="1.1" stroke-linejoin="round">"##,
    );
    for (r, d) in b.regions.iter().zip(paths) {
        if is_sea(r.owner) && r.owner != Owner::OffBoardSea {
            let _ = write!(s, r#"<path d="{d}"/>"#);
        }
    }
    s.push_str("</g>");
}

/// Strait crossings: a dashed bar across the water, at least 18 px long so
/// that a narrow strait's crossing is still seen.
fn draw_straits(s: &mut String, b: &Board) {
    for st in &b.straits {
        let (a, c) = (st.from, st.to);
        let mid = ((a.0 + c.0) / 2.0, (a.1 + c.1) / 2.0);
        let (dx, dy) = (c.0 - a.0, c.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        let half = len.max(18.0) / 2.0;
        let (ux, uy) = if len > 0.01 {
            (dx / len, dy / len)
        } else {
            (1.0, 0.0)
        };
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#6b5e4a" stroke-width="2.5" stroke-dasharray="3,2"/>"##,
            mid.0 - ux * half,
            mid.1 - uy * half,
            mid.0 + ux * half,
            mid.1 + uy * half
        );
    }
}

/// Supply centres, coloured by owner (white: neutral; grey: in the fog,
/// owner unknown).
fn draw_centres(s: &mut String, b: &Board, pos: &MapPosition) {
    for (p, c) in b.centre.iter().enumerate() {
        if let Some((cx, cy)) = *c {
            let col = if pos.sees(p as u8) {
                pos.owners
                    .get(p)
                    .copied()
                    .flatten()
                    .map_or("#ffffff", |o| power_colour(b.map, o).0)
            } else {
                "#8a8478"
            };
            let _ = write!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="5" fill="{col}" stroke="#111" stroke-width="1.5"/>"##
            );
        }
    }
}

/// Province names, placed clear of the tokens and orders drawn next.
fn draw_names(s: &mut String, b: &Board, pos: &MapPosition) {
    let m = b.map;
    let labels = place_labels(b, pos);
    s.push_str(r##"<g font-size="12" text-anchor="middle" stroke="#ffffff" stroke-opacity="0.7" stroke-width="2.5" paint-order="stroke" stroke-linejoin="round">"##);
    for (prov, at) in m.provinces().iter().zip(&labels) {
        let col = if prov.terrain == Terrain::Sea {
            "#1d3557"
        } else {
            "#3a2f1e"
        };
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" fill="{col}">{}</text>"#,
            at.0,
            at.1 + 4.0,
            escape(&label_text(&prov.abbr))
        );
    }
    s.push_str("</g>");
}

/// Where dislodged units may retreat: dotted red lines to small rings.
fn draw_retreats(s: &mut String, b: &Board, pos: &MapPosition) {
    for (at, options) in &pos.retreats {
        let from = dislodged_pt(b, *at);
        for &to in options {
            let end = unit_pt(b, to);
            let _ = write!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#c00000" stroke-width="2" stroke-dasharray="2,3"/><circle cx="{:.1}" cy="{:.1}" r="5.5" fill="#ffffff" stroke="#c00000" stroke-width="2"/>"##,
                from.0, from.1, end.0, end.1, end.0, end.1
            );
        }
    }
}

/// Units: army a circle, fleet a rounded square, the power's initial on it;
/// dislodged ones beside their attacker with a dashed red ring.
fn draw_units(s: &mut String, b: &Board, pos: &MapPosition) {
    let token = |s: &mut String, u: &Unit, dislodged: bool| {
        let (x, y) = if dislodged {
            dislodged_pt(b, u.loc)
        } else {
            unit_pt(b, u.loc)
        };
        let (col, _, ink) = power_style(b.map, u.power);
        let ring = if dislodged {
            r##" stroke="#c00000" stroke-width="3" stroke-dasharray="4,2""##
        } else {
            r##" stroke="#111" stroke-width="1.5""##
        };
        s.push_str(&token_svg(u.kind, (x, y), col, ring));
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="{ink}">{}</text>"##,
            y + 5.0,
            power_initial(b.map, u.power)
        );
    };
    // A unit in the fog is never drawn, whatever the position holds.
    let m = b.map;
    let seen = |u: &&Unit| pos.sees(m.prov_of(u.loc));
    for u in pos.units.iter().filter(seen) {
        token(s, u, false);
    }
    for u in pos.dislodged.iter().filter(seen) {
        token(s, u, true);
    }
}

/// A unit's shape at `c`: army a circle, fleet a rounded square.
fn token_svg(kind: UnitKind, c: (f64, f64), fill: &str, ring: &str) -> String {
    let (x, y) = c;
    match kind {
        UnitKind::Army => {
            format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="11" fill="{fill}"{ring}/>"#)
        }
        UnitKind::Fleet => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="22" height="22" rx="4" fill="{fill}"{ring}/>"#,
            x - 11.0,
            y - 11.0
        ),
    }
}

/// A Winter build: a faded token of the power's unit inside the dashed
/// ring, with its initial, so a build says who builds what.
fn build_token(s: &mut String, m: &Map, p: Power, kind: UnitKind, c: (f64, f64)) {
    let (col, _, _) = power_style(m, p);
    s.push_str(&token_svg(
        kind,
        c,
        col,
        r##" fill-opacity="0.45" stroke="#111" stroke-width="1.5" stroke-dasharray="3,2""##,
    ));
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#111">{}</text>"##,
        c.0,
        c.1 + 5.0,
        power_initial(m, p)
    );
}

/// Longest player name the legend shows before cutting it with an ellipsis.
const LEGEND_NAME_CHARS: usize = 19;

/// The strip under the board: the phase title, a key to the symbols, and
/// per power its colour, initial, centre count and player.
fn legend(s: &mut String, b: &Board, pos: &MapPosition) {
    let (width, top) = b.size;
    let _ = write!(
        s,
        r##"<rect x="0" y="{top}" width="{width}" height="{LEGEND_HEIGHT}" fill="#f7f4ec"/><line x1="0" y1="{top}" x2="{width}" y2="{top}" stroke="#3a2f1e" stroke-width="2"/>"##
    );
    let title = truncate(&pos.title, 52);
    let _ = write!(
        s,
        r##"<text x="12" y="{:.0}" font-size="17" fill="#111">{}</text>"##,
        top + 24.0,
        escape(&title)
    );
    // The key sits right of the title on a board wide enough for both
    // (every board as wide as the standard one); a narrow board keeps the
    // title and drops the key.
    let title_end = 12.0 + TITLE_CHAR_WIDTH * title.chars().count() as f64;
    if width - KEY_WIDTH >= title_end + 20.0 {
        legend_key(s, width - KEY_WIDTH, top + 19.0);
    }
    // One cell per power.
    let cell_w = width / b.map.power_count().max(1) as f64;
    let y0 = top + 36.0;
    for (i, p) in b.map.powers().enumerate() {
        legend_power_cell(s, b.map, pos, p, i as f64 * cell_w, y0, cell_w);
    }
}

/// The width the key to the symbols takes, with its margin on the right.
const KEY_WIDTH: f64 = 553.0;

/// The widest a character of the 17 px legend title is drawn, about.
const TITLE_CHAR_WIDTH: f64 = 9.4;

/// The key to the symbols, right-aligned on the legend's title row at `ky`.
fn legend_key(s: &mut String, x0: f64, ky: f64) {
    let mut x = x0;
    for (kind, word, width) in [
        (UnitKind::Army, "army", 62.0),
        (UnitKind::Fleet, "fleet", 70.0),
    ] {
        s.push_str(&token_svg(
            kind,
            (x, ky),
            "#ffffff",
            r##" stroke="#111" stroke-width="1.5""##,
        ));
        let _ = write!(
            s,
            r##"<text x="{:.0}" y="{:.0}" font-size="12" fill="#111">{word}</text>"##,
            x + 15.0,
            ky + 4.0
        );
        x += width;
    }
    let _ = write!(
        s,
        r##"<circle cx="{x:.0}" cy="{ky:.0}" r="5" fill="#ffffff" stroke="#111" stroke-width="1.5"/><text x="{:.0}" y="{:.0}" font-size="12" fill="#111">centre</text>"##,
        x + 10.0,
        ky + 4.0
    );
    x += 70.0;
    let _ = write!(
        s,
        r##"<path d="M{:.0},{:.0}L{:.0},{:.0}M{:.0},{:.0}L{:.0},{:.0}" stroke="#e00000" stroke-width="3"/><text x="{:.0}" y="{:.0}" font-size="12" fill="#111">failed</text>"##,
        x - 5.0,
        ky - 5.0,
        x + 5.0,
        ky + 5.0,
        x - 5.0,
        ky + 5.0,
        x + 5.0,
        ky - 5.0,
        x + 10.0,
        ky + 4.0
    );
    x += 70.0;
    let _ = write!(
        s,
        r##"<circle cx="{x:.0}" cy="{ky:.0}" r="9" fill="#ffffff" stroke="#c00000" stroke-width="3" stroke-dasharray="4,2"/><text x="{:.0}" y="{:.0}" font-size="12" fill="#111">dislodged</text>"##,
        x + 14.0,
        ky + 4.0
    );
}

/// One power's cell of the legend, `cell_w` wide from `x0`: its colour,
/// initial, centre count and player.
fn legend_power_cell(
    s: &mut String,
    m: &Map,
    pos: &MapPosition,
    p: Power,
    x0: f64,
    y0: f64,
    cell_w: f64,
) {
    let (col, tint, ink) = power_style(m, p);
    let centres = pos.owners.iter().filter(|o| **o == Some(p)).count();
    let _ = write!(
        s,
        r##"<rect x="{:.1}" y="{y0:.0}" width="{:.1}" height="54" rx="5" fill="{tint}" stroke="{col}" stroke-width="2"/>"##,
        x0 + 4.0,
        cell_w - 8.0
    );
    let c = (x0 + 22.0, y0 + 27.0);
    s.push_str(&token_svg(
        UnitKind::Army,
        c,
        col,
        r##" stroke="#111" stroke-width="1.5""##,
    ));
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="{ink}">{}</text>"##,
        c.0,
        c.1 + 5.0,
        power_initial(m, p)
    );
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.0}" font-size="13" fill="#111">{} {centres} SC</text>"##,
        x0 + 38.0,
        y0 + 21.0,
        m.power_name(p)
    );
    let player = pos
        .players
        .iter()
        .find(|(q, _)| *q == p)
        .map(|(_, n)| n.as_str())
        .unwrap_or("");
    if !player.is_empty() {
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.0}" font-size="11" fill="#222">{}</text>"##,
            x0 + 38.0,
            y0 + 41.0,
            escape(&truncate(
                player,
                LEGEND_NAME_CHARS.min(((cell_w - 44.0) / 6.7) as usize)
            ))
        );
    }
}

/// `text` cut to `max` characters, with an ellipsis when cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut t: String = text.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

fn draw_order(s: &mut String, board: &Board, o: &Order, ok: bool, pos: &MapPosition) {
    let Some((shape, cross)) = order_shape(board, o, pos) else {
        return;
    };
    let line = |s: &mut String, a: (f64, f64), b: (f64, f64), dash: &str| {
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#111" stroke-width="2.5"{dash} marker-end="url(#ah)"/>"##,
            a.0, a.1, b.0, b.1
        );
    };
    match shape {
        OrderShape::Arrow(a, b) => line(s, a, b, ""),
        OrderShape::SupportArrow(a, b) => line(s, a, b, r#" stroke-dasharray="6,4""#),
        OrderShape::ConvoyPath([a, c, d]) => {
            let _ = write!(
                s,
                r##"<polyline points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="none" stroke="#1d3557" stroke-width="2" stroke-dasharray="2,3"/>"##,
                a.0, a.1, c.0, c.1, d.0, d.1
            );
        }
        OrderShape::Ring(c, r, dashed) => {
            let dash = if dashed {
                r#" stroke-dasharray="3,3""#
            } else {
                ""
            };
            let _ = write!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="none" stroke="#111" stroke-width="2"{dash}/>"##,
                c.0, c.1
            );
        }
        OrderShape::Bare(_) => {}
    }
    if !ok {
        let (x, y) = cross;
        let _ = write!(
            s,
            r##"<path d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}" stroke="#e00000" stroke-width="3.5"/>"##,
            x - 6.0,
            y - 6.0,
            x + 6.0,
            y + 6.0,
            x - 6.0,
            y + 6.0,
            x + 6.0,
            y - 6.0
        );
    }
}

/// Renders a position to PNG.
pub fn render_position_png(pos: &MapPosition) -> Result<Vec<u8>, RenderError> {
    svg_to_png(&diplomacy_svg(pos)?)
}

/// Renders a game's current position to PNG (for the front-ends).
pub fn render_diplomacy_png(game: &Diplomacy) -> Result<Vec<u8>, RenderError> {
    render_position_png(&MapPosition::of_game(game))
}
