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
use super::diplomacy_layout::{
    OrderShape, dislodged_pt, label_text, order_shape, place_labels, unit_pt,
};
use super::svg::{FONT_FAMILY, escape, svg_to_png};
use games::diplomacy::Diplomacy;
use games::diplomacy::geo::{Map, Power, Terrain};
use games::diplomacy::order::{Order, OrderKind, Unit, UnitKind};
use std::fmt::Write;
use std::sync::OnceLock;

/// The generated board geometry (see `tools/diplomacy-map/README.md`).
pub static BOARD_DATA: &str = include_str!("../../../assets/diplomacy/standard-map.txt");

/// Canvas width (the board data's `canvas` line; the board test checks they agree).
pub const WIDTH: f64 = 1193.0;
/// Canvas height.
pub const HEIGHT: f64 = 1139.0;

/// The colour of a power's units, its tint for land it holds, and the
/// colour of the initial written on its tokens.
///
/// Based on the Okabe-Ito palette, which stays distinct under the common
/// forms of colour blindness; each power keeps the hue players know it by
/// (Austria red, England blue, France light blue, Germany black, Italy
/// green, Russia purple, Turkey yellow-orange), and every token also carries
/// the power's initial, so colour is never the only cue.
pub fn power_colour(p: Power) -> (&'static str, &'static str) {
    let (unit, tint, _) = power_style(p);
    (unit, tint)
}

/// A power's unit colour, tint and the colour of text on its unit colour.
pub fn power_style(p: Power) -> (&'static str, &'static str, &'static str) {
    match p {
        Power::Austria => ("#d55e00", "#f2c4a3", "#ffffff"),
        Power::England => ("#0072b2", "#a9cde6", "#ffffff"),
        Power::France => ("#56b4e9", "#cbe8f8", "#000000"),
        Power::Germany => ("#303030", "#bdbdbd", "#ffffff"),
        Power::Italy => ("#009e73", "#a6dcc9", "#ffffff"),
        Power::Russia => ("#cc79a7", "#ecd0e0", "#000000"),
        Power::Turkey => ("#e69f00", "#f6dc9c", "#000000"),
    }
}

/// The initial written on a power's tokens.
pub fn power_initial(p: Power) -> char {
    p.name().chars().next().unwrap_or('?')
}

/// Height of the strip under the board with the phase title and the legend.
pub const LEGEND_HEIGHT: f64 = 96.0;
/// Height of the whole image: the board and the legend strip under it.
pub const IMAGE_HEIGHT: f64 = HEIGHT + LEGEND_HEIGHT;

const SEA: &str = "#9fc5e8";
const LAND: &str = "#eee3c4";
const OFFBOARD: &str = "#cfc8b0";
const OFFBOARD_SEA: &str = "#bcd2e3";
const IMPASSABLE: &str = "#a9a9a9";

/// Whose ground a region of the board is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// A province of the map, by id.
    Province(u8),
    /// Land off the board (Ireland, Africa's interior, ...).
    OffBoardLand,
    /// Water off the board (the Caspian, the Sea of Marmara, ...).
    OffBoardSea,
}

/// One polygon of the board: its outer ring, then its holes.
#[derive(Debug, Clone)]
pub struct Region {
    /// Whose ground it is.
    pub owner: Owner,
    /// Rings of canvas points; the first is the outline, the rest are holes.
    pub rings: Vec<Vec<(f64, f64)>>,
}

/// The board geometry, parsed from [`BOARD_DATA`].
#[derive(Debug, Clone)]
pub struct Board {
    /// Canvas width and height in pixels.
    pub size: (f64, f64),
    /// Every polygon: together they tile the canvas.
    pub regions: Vec<Region>,
    /// Where a unit stands, by location id.
    pub unit: Vec<(f64, f64)>,
    /// Where a province's name goes, by province id.
    pub label: Vec<(f64, f64)>,
    /// Where a supply centre's marker goes, by province id (only centres have one).
    pub centre: Vec<Option<(f64, f64)>>,
    /// Where a unit dislodged in a province is drawn (beside its attacker), by province id.
    pub dislodged: Vec<(f64, f64)>,
    /// Adjacent provinces drawn with water between them instead of a border.
    pub straits: Vec<Strait>,
}

/// Adjacent provinces drawn with water between them: the crossing is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strait {
    /// The two provinces.
    pub provinces: (u8, u8),
    /// The crossing's end on the first province's coast.
    pub from: (f64, f64),
    /// The crossing's end on the second province's coast.
    pub to: (f64, f64),
}

/// Why board data could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board data line {line}: {problem} (expected {expected})")]
pub struct BoardError {
    /// 1-based line number (0: the file as a whole).
    pub line: usize,
    /// What was wrong.
    pub problem: String,
    /// What the line should have been.
    pub expected: &'static str,
}

impl Board {
    /// Parses board data for `map`: every province needs a region, every
    /// location a unit point, every province a label, every centre a marker.
    pub fn parse(text: &str, map: &Map) -> Result<Board, BoardError> {
        let err = |line: usize, problem: String, expected: &'static str| BoardError {
            line,
            problem,
            expected,
        };
        let mut size = None;
        let mut regions: Vec<Region> = Vec::new();
        let mut unit = vec![None; map.location_count()];
        let mut label = vec![None; map.province_count()];
        let mut centre = vec![None; map.province_count()];
        let mut dislodged = vec![None; map.province_count()];
        let mut straits = Vec::new();
        let number = |t: &str, n: usize| {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| err(n, format!("{t:?} is not a number"), "a decimal number"))
        };
        let prov = |t: &str, n: usize| {
            map.prov_by_abbr(t).ok_or_else(|| {
                err(
                    n,
                    format!("unknown province {t:?}"),
                    "a province abbreviation",
                )
            })
        };
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let ring = |ws: &[&str]| -> Result<Vec<(f64, f64)>, BoardError> {
                let pts = ws
                    .iter()
                    .map(|w| {
                        let (x, y) = w.split_once(',').ok_or_else(|| {
                            err(n, format!("{w:?} is not a point"), "points as x,y")
                        })?;
                        Ok((number(x, n)?, number(y, n)?))
                    })
                    .collect::<Result<Vec<_>, BoardError>>()?;
                if pts.len() < 3 {
                    return Err(err(
                        n,
                        format!("a ring of {} points", pts.len()),
                        "at least 3 points",
                    ));
                }
                Ok(pts)
            };
            let point = |n: usize| -> Result<(f64, f64), BoardError> {
                match words.get(2..) {
                    Some([x, y]) => Ok((number(x, n)?, number(y, n)?)),
                    _ => Err(err(n, format!("{line:?}"), "<kind> <name> <x> <y>")),
                }
            };
            match words[0] {
                "canvas" => match words.get(1..) {
                    Some([w, h]) => size = Some((number(w, n)?, number(h, n)?)),
                    _ => return Err(err(n, format!("{line:?}"), "canvas <width> <height>")),
                },
                "region" => {
                    let owner = match words.get(1).copied() {
                        Some("~land") => Owner::OffBoardLand,
                        Some("~sea") => Owner::OffBoardSea,
                        Some(p) => Owner::Province(prov(p, n)?),
                        None => return Err(err(n, "no owner".into(), "region <owner> <x,y> ...")),
                    };
                    regions.push(Region {
                        owner,
                        rings: vec![ring(&words[2..])?],
                    });
                }
                "hole" => {
                    let r = ring(&words[1..])?;
                    regions
                        .last_mut()
                        .ok_or_else(|| err(n, "a hole before any region".into(), "region first"))?
                        .rings
                        .push(r);
                }
                "unit" => {
                    let l = words
                        .get(1)
                        .and_then(|w| map.loc_by_abbr(w))
                        .ok_or_else(|| err(n, format!("{line:?}"), "unit <location> <x> <y>"))?;
                    unit[l as usize] = Some(point(n)?);
                }
                "label" | "sc" | "dislodged" => {
                    let p = prov(words.get(1).copied().unwrap_or(""), n)?;
                    let at = Some(point(n)?);
                    match words[0] {
                        "label" => label[p as usize] = at,
                        "sc" => centre[p as usize] = at,
                        _ => dislodged[p as usize] = at,
                    }
                }
                "strait" => match words.get(1..) {
                    Some([a, b, x1, y1, x2, y2]) => straits.push(Strait {
                        provinces: (prov(a, n)?, prov(b, n)?),
                        from: (number(x1, n)?, number(y1, n)?),
                        to: (number(x2, n)?, number(y2, n)?),
                    }),
                    _ => {
                        return Err(err(
                            n,
                            format!("{line:?}"),
                            "strait <province> <province> <x1> <y1> <x2> <y2>",
                        ));
                    }
                },
                other => {
                    return Err(err(
                        n,
                        format!("unknown line kind {other:?}"),
                        "canvas, region, hole, unit, label, sc, dislodged or strait",
                    ));
                }
            }
        }
        let size =
            size.ok_or_else(|| err(0, "no canvas line".into(), "canvas <width> <height>"))?;
        let mut has_region = vec![false; map.province_count()];
        for r in &regions {
            if let Owner::Province(p) = r.owner {
                has_region[p as usize] = true;
            }
        }
        let prov_name = |p: usize| map.prov(p as u8).abbr.clone();
        if let Some(p) = has_region.iter().position(|h| !h) {
            return Err(err(
                0,
                format!("{} has no region", prov_name(p)),
                "a region per province",
            ));
        }
        let unit = unit
            .iter()
            .enumerate()
            .map(|(l, u)| {
                u.ok_or_else(|| {
                    err(
                        0,
                        format!("{} has no unit point", map.loc(l as u8).abbr),
                        "a unit line per location",
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let per_province = |points: Vec<Option<(f64, f64)>>, what: &str, expected| {
            points
                .iter()
                .enumerate()
                .map(|(p, at)| {
                    at.ok_or_else(|| err(0, format!("{} has no {what}", prov_name(p)), expected))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let label = per_province(label, "label", "a label line per province")?;
        let dislodged = per_province(
            dislodged,
            "dislodged point",
            "a dislodged line per province",
        )?;
        for (p, prov) in map.provinces().iter().enumerate() {
            if prov.sc != centre[p].is_some() {
                return Err(err(
                    0,
                    format!("{}: centre marker mismatch", prov.abbr),
                    "an sc line per supply centre",
                ));
            }
        }
        Ok(Board {
            size,
            regions,
            unit,
            label,
            centre,
            dislodged,
            straits,
        })
    }
}

/// The standard board, parsed once.
pub fn board() -> Result<&'static Board, RenderError> {
    static B: OnceLock<Result<Board, BoardError>> = OnceLock::new();
    B.get_or_init(|| Board::parse(BOARD_DATA, Map::standard()))
        .as_ref()
        .map_err(|e| RenderError::State(e.to_string()))
}

/// SVG path data of one region (even-odd fill makes the holes).
fn region_path(r: &Region) -> String {
    let mut d = String::new();
    for ring in &r.rings {
        for (k, (x, y)) in ring.iter().enumerate() {
            let _ = write!(d, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
        }
        d.push('Z');
    }
    d
}

/// The path data of every region, the same for every position: built once.
fn region_paths() -> Result<&'static Vec<String>, RenderError> {
    static P: OnceLock<Vec<String>> = OnceLock::new();
    let b = board()?;
    Ok(P.get_or_init(|| b.regions.iter().map(region_path).collect()))
}

/// A position to draw.
#[derive(Debug, Clone, Default)]
pub struct MapPosition {
    /// Title line (phase name).
    pub title: String,
    /// Units on the board.
    pub units: Vec<Unit>,
    /// Dislodged units.
    pub dislodged: Vec<Unit>,
    /// Centre owner by province id.
    pub owners: Vec<Option<Power>>,
    /// Orders to draw, with whether each succeeded.
    pub orders: Vec<(Power, Order, bool)>,
    /// Who plays each power, for the legend (powers not listed show no name).
    pub players: Vec<(Power, String)>,
    /// Where each dislodged unit (by its location) may retreat to, drawn
    /// as dotted lines while its owner chooses.
    pub retreats: Vec<(u8, Vec<u8>)>,
}

impl MapPosition {
    /// The current position of a game (no orders).
    pub fn of_game(g: &Diplomacy) -> MapPosition {
        MapPosition {
            title: g.phase_name(),
            units: g.units().to_vec(),
            dislodged: g.dislodged().iter().map(|d| d.unit).collect(),
            owners: g.owners().to_vec(),
            orders: Vec::new(),
            players: Vec::new(),
            retreats: retreat_options(g),
        }
    }
}

/// The legal retreats of each dislodged unit, as the engine offers them to
/// its owner (the retreat choices of the owner's view).
fn retreat_options(g: &Diplomacy) -> Vec<(u8, Vec<u8>)> {
    use games::seam::{ChoiceStyle, Game};
    let m = Map::standard();
    let mut out: Vec<(u8, Vec<u8>)> = g
        .dislodged()
        .iter()
        .map(|d| (d.unit.loc, Vec::new()))
        .collect();
    if out.is_empty() {
        return out;
    }
    let mut powers: Vec<Power> = g.dislodged().iter().map(|d| d.unit.power).collect();
    powers.sort();
    powers.dedup();
    for p in powers {
        let Some(seat) = g.seat_of(p) else { continue };
        for c in g.view(Some(seat)).choices {
            if c.style != ChoiceStyle::Select {
                continue;
            }
            if let Ok(Order::Unit {
                at,
                kind: OrderKind::Retreat { to },
                ..
            }) = games::diplomacy::order::parse_order(m, &c.text)
                && let Some((_, opts)) = out.iter_mut().find(|(l, _)| *l == at)
                && !opts.contains(&to)
            {
                opts.push(to);
            }
        }
    }
    out
}

/// The SVG document of a position: the board, then the legend strip under it.
pub fn diplomacy_svg(pos: &MapPosition) -> Result<String, RenderError> {
    let m = Map::standard();
    let b = board()?;
    let paths = region_paths()?;
    let mut s = String::with_capacity(512 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{IMAGE_HEIGHT}" viewBox="0 0 {WIDTH} {IMAGE_HEIGHT}" font-family="{FONT_FAMILY}">"#
    );
    s.push_str(r##"<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#111"/></marker></defs>"##);
    let _ = write!(
        s,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="{OFFBOARD_SEA}"/>"#
    );
    // Fill colour per province.
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
            fill[p] = power_colour(u.power).1;
        }
    }
    for (p, o) in pos.owners.iter().enumerate() {
        if let Some(o) = o
            && p < fill.len()
        {
            fill[p] = power_colour(*o).1;
        }
    }
    let colour = |o: Owner| match o {
        Owner::Province(p) => fill[p as usize],
        Owner::OffBoardLand => OFFBOARD,
        Owner::OffBoardSea => OFFBOARD_SEA,
    };
    // Regions (the outlines drawn next cover every edge where a seam could show).
    for (r, d) in b.regions.iter().zip(paths) {
        let col = colour(r.owner);
        let _ = write!(s, r#"<path d="{d}" fill="{col}" fill-rule="evenodd"/>"#);
    }
    // Borders: land outlines, then sea outlines over them, so coasts and sea
    // boundaries are blue and borders between land provinces are brown.
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
    // Strait crossings: a dashed bar across the water, at least 18 px long so
    // that a narrow strait's crossing is still seen.
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
    // Supply centres, coloured by owner (white: neutral).
    for (p, c) in b.centre.iter().enumerate() {
        if let Some((cx, cy)) = *c {
            let col = pos
                .owners
                .get(p)
                .copied()
                .flatten()
                .map_or("#ffffff", |o| power_colour(o).0);
            let _ = write!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="5" fill="{col}" stroke="#111" stroke-width="1.5"/>"##
            );
        }
    }
    // Names, placed clear of the tokens and orders drawn next.
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
    // Where dislodged units may retreat: dotted red lines to small rings.
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
    // Orders under the units.
    for (power, o, ok) in &pos.orders {
        draw_order(&mut s, b, o, *ok, pos);
        if let Order::Build { unit, at } = o {
            build_token(&mut s, *power, *unit, unit_pt(b, *at));
        }
    }
    // Units: army a circle, fleet a rounded square, the power's initial on it.
    let token = |s: &mut String, u: &Unit, dislodged: bool| {
        let (x, y) = if dislodged {
            dislodged_pt(b, u.loc)
        } else {
            unit_pt(b, u.loc)
        };
        let (col, _, ink) = power_style(u.power);
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
            power_initial(u.power)
        );
    };
    for u in &pos.units {
        token(&mut s, u, false);
    }
    for u in &pos.dislodged {
        token(&mut s, u, true);
    }
    legend(&mut s, pos);
    s.push_str("</svg>");
    Ok(s)
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
fn build_token(s: &mut String, p: Power, kind: UnitKind, c: (f64, f64)) {
    let (col, _, _) = power_style(p);
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
        power_initial(p)
    );
}

/// Longest player name the legend shows before cutting it with an ellipsis.
const LEGEND_NAME_CHARS: usize = 19;

/// The strip under the board: the phase title, a key to the symbols, and
/// per power its colour, initial, centre count and player.
fn legend(s: &mut String, pos: &MapPosition) {
    let top = HEIGHT;
    let _ = write!(
        s,
        r##"<rect x="0" y="{top}" width="{WIDTH}" height="{LEGEND_HEIGHT}" fill="#f7f4ec"/><line x1="0" y1="{top}" x2="{WIDTH}" y2="{top}" stroke="#3a2f1e" stroke-width="2"/>"##
    );
    let _ = write!(
        s,
        r##"<text x="12" y="{:.0}" font-size="17" fill="#111">{}</text>"##,
        top + 24.0,
        escape(&truncate(&pos.title, 52))
    );
    // Key, right-aligned on the title row.
    let ky = top + 19.0;
    let mut x = 640.0;
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
    // One cell per power.
    let cell_w = WIDTH / 7.0;
    let y0 = top + 36.0;
    for (i, p) in Power::ALL.iter().enumerate() {
        let x0 = i as f64 * cell_w;
        let (col, tint, ink) = power_style(*p);
        let centres = pos.owners.iter().filter(|o| **o == Some(*p)).count();
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
            power_initial(*p)
        );
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.0}" font-size="13" fill="#111">{} {centres} SC</text>"##,
            x0 + 38.0,
            y0 + 21.0,
            p.name()
        );
        let player = pos
            .players
            .iter()
            .find(|(q, _)| q == p)
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
