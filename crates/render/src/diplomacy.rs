//! The Diplomacy map image: provinces as filled regions, borders, names,
//! supply centres, units and (optionally) a phase's orders as arrows.
//!
//! The geometry is data authored for gamehost (`assets/diplomacy/standard-geometry.txt`):
//! a few seed points per province; each province's region is the set of
//! points nearer to one of its seeds than to any other seed (a Voronoi
//! diagram clipped to the canvas), so the whole board follows from a
//! handful of coordinates.

use super::RenderError;
use super::svg::{FONT_FAMILY, escape, svg_to_png};
use games::diplomacy::Diplomacy;
use games::diplomacy::geo::{Map, Power, Terrain};
use games::diplomacy::order::{Order, OrderKind, Unit, UnitKind};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;

/// The authored geometry.
pub static GEOMETRY: &str = include_str!("../../../assets/diplomacy/standard-geometry.txt");

/// Canvas width and height.
pub const WIDTH: f64 = 1000.0;
/// Canvas height.
pub const HEIGHT: f64 = 860.0;

/// The colour of a power's units and tint.
pub fn power_colour(p: Power) -> (&'static str, &'static str) {
    match p {
        Power::Austria => ("#c8102e", "#f0b3b8"),
        Power::England => ("#3b2d8f", "#c3bde6"),
        Power::France => ("#2f8fd8", "#b8dcf5"),
        Power::Germany => ("#4a4a4a", "#c4c4c4"),
        Power::Italy => ("#1f8a3b", "#b9e3c2"),
        Power::Russia => ("#8e44ad", "#e9dcf0"),
        Power::Turkey => ("#d4a017", "#f5e3a3"),
    }
}

const SEA: &str = "#9fc5e8";
const LAND: &str = "#eee3c4";
const OFFBOARD: &str = "#cfc8b0";
const IMPASSABLE: &str = "#a9a9a9";

struct Geo {
    /// Label/unit point per location id.
    point: HashMap<u8, (f64, f64)>,
    /// Seeds: (x, y, province id or None for off-board land).
    seeds: Vec<(f64, f64, Option<u8>)>,
}

fn geo() -> &'static Geo {
    static G: OnceLock<Geo> = OnceLock::new();
    G.get_or_init(|| {
        let m = Map::standard();
        let mut point = HashMap::new();
        let mut seeds = Vec::new();
        for line in GEOMETRY.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut it = line.split_whitespace();
            let name = it.next().unwrap_or("-");
            let nums: Vec<f64> = it.filter_map(|t| t.parse().ok()).collect();
            let pts: Vec<(f64, f64)> = nums.chunks(2).map(|c| (c[0], c[1])).collect();
            if name == "-" {
                seeds.extend(pts.iter().map(|&(x, y)| (x, y, None)));
                continue;
            }
            let Some(l) = m.loc_by_abbr(name) else {
                continue;
            };
            point.insert(l, pts[0]);
            if m.loc(l).coast.is_none() {
                let p = m.prov_of(l);
                seeds.extend(pts.iter().map(|&(x, y)| (x, y, Some(p))));
            }
        }
        Geo { point, seeds }
    })
}

/// A convex region: vertices and, per edge leaving each vertex, the seed on the other side.
type Cell = Vec<((f64, f64), Option<usize>)>;

/// One seed's region.
fn cell(i: usize, seeds: &[(f64, f64, Option<u8>)]) -> Cell {
    let mut poly = vec![
        ((0.0, 0.0), None),
        ((WIDTH, 0.0), None),
        ((WIDTH, HEIGHT), None),
        ((0.0, HEIGHT), None),
    ];
    let (xi, yi, _) = seeds[i];
    for (j, &(xj, yj, _)) in seeds.iter().enumerate() {
        if j == i {
            continue;
        }
        let (nx, ny) = (xj - xi, yj - yi);
        let c = (xj * xj + yj * yj - xi * xi - yi * yi) / 2.0;
        let f = |p: (f64, f64)| nx * p.0 + ny * p.1 - c;
        let mut out = Vec::with_capacity(poly.len() + 1);
        for k in 0..poly.len() {
            let (a, tag) = poly[k];
            let (b, _) = poly[(k + 1) % poly.len()];
            let (fa, fb) = (f(a), f(b));
            let cut = |fa: f64, fb: f64| {
                let t = fa / (fa - fb);
                (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
            };
            match (fa <= 0.0, fb <= 0.0) {
                (true, true) => out.push((a, tag)),
                (true, false) => {
                    out.push((a, tag));
                    out.push((cut(fa, fb), Some(j)));
                }
                (false, true) => out.push((cut(fa, fb), tag)),
                (false, false) => {}
            }
        }
        poly = out;
        if poly.is_empty() {
            break;
        }
    }
    poly
}

/// The regions and borders, the same for every position: built once.
fn base_cells() -> &'static Vec<Cell> {
    static C: OnceLock<Vec<Cell>> = OnceLock::new();
    C.get_or_init(|| {
        let g = geo();
        (0..g.seeds.len()).map(|i| cell(i, &g.seeds)).collect()
    })
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
        }
    }
}

fn pt(l: u8) -> (f64, f64) {
    let g = geo();
    let m = Map::standard();
    g.point
        .get(&l)
        .or_else(|| g.point.get(&m.prov_of(l)))
        .copied()
        .unwrap_or((0.0, 0.0))
}

/// The SVG document of a position.
pub fn diplomacy_svg(pos: &MapPosition) -> String {
    let m = Map::standard();
    let g = geo();
    let cells = base_cells();
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT_FAMILY}">"#
    );
    s.push_str(r##"<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#111"/></marker></defs>"##);
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
    let prov_of_seed = |i: usize| g.seeds[i].2;
    for (i, c) in cells.iter().enumerate() {
        if c.is_empty() {
            continue;
        }
        let col = prov_of_seed(i).map_or(OFFBOARD, |p| fill[p as usize]);
        s.push_str("<path d=\"");
        for (k, ((x, y), _)) in c.iter().enumerate() {
            let _ = write!(s, "{}{x:.1},{y:.1}", if k == 0 { "M" } else { "L" });
        }
        let _ = write!(
            s,
            "Z\" fill=\"{col}\" stroke=\"{col}\" stroke-width=\"1\"/>"
        );
    }
    // Borders between different provinces (coastlines thicker).
    let is_sea = |p: Option<u8>| p.is_some_and(|p| m.is_sea(p));
    for (i, c) in cells.iter().enumerate() {
        for k in 0..c.len() {
            let (a, tag) = c[k];
            let b = c[(k + 1) % c.len()].0;
            let Some(j) = tag else { continue };
            if j < i || prov_of_seed(j) == prov_of_seed(i) {
                continue;
            }
            let coast = is_sea(prov_of_seed(i)) != is_sea(prov_of_seed(j));
            let (w, col) = if coast {
                (2.2, "#3d5a80")
            } else {
                (1.0, "#6b5e4a")
            };
            let _ = write!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{col}" stroke-width="{w}"/>"#,
                a.0, a.1, b.0, b.1
            );
        }
    }
    // Names and supply centres.
    for (p, prov) in m.provinces().iter().enumerate() {
        let (x, y) = pt(p as u8);
        if prov.sc {
            let col = pos
                .owners
                .get(p)
                .copied()
                .flatten()
                .map_or("#ffffff", |o| power_colour(o).0);
            let _ = write!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="5" fill="{col}" stroke="#111" stroke-width="1.5"/>"##,
                x + 16.0,
                y - 14.0
            );
        }
        let name = prov.abbr.chars().next().map_or(String::new(), |c| {
            c.to_uppercase().collect::<String>() + &prov.abbr[1..]
        });
        let col = if prov.terrain == Terrain::Sea {
            "#1d3557"
        } else {
            "#3a2f1e"
        };
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="{col}">{}</text>"#,
            x,
            y + 24.0,
            escape(&name)
        );
    }
    // Orders under the units.
    for (_, o, ok) in &pos.orders {
        draw_order(&mut s, m, o, *ok, pos);
    }
    // Units.
    let token = |s: &mut String, u: &Unit, dx: f64, dislodged: bool| {
        let (x, y) = pt(u.loc);
        let (x, y) = (x + dx, y + dx);
        let col = power_colour(u.power).0;
        let ring = if dislodged {
            r##" stroke="#ff2020" stroke-width="3" stroke-dasharray="4,2""##
        } else {
            r##" stroke="#111" stroke-width="1.5""##
        };
        let shape = match u.kind {
            UnitKind::Army => {
                format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="11" fill="{col}"{ring}/>"#)
            }
            UnitKind::Fleet => format!(
                r#"<rect x="{:.1}" y="{:.1}" width="22" height="22" rx="4" fill="{col}"{ring}/>"#,
                x - 11.0,
                y - 11.0
            ),
        };
        s.push_str(&shape);
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#fff">{}</text>"##,
            y + 5.0,
            u.kind.letter()
        );
    };
    for u in &pos.units {
        token(&mut s, u, 0.0, false);
    }
    for u in &pos.dislodged {
        token(&mut s, u, 14.0, true);
    }
    let _ = write!(
        s,
        r##"<rect x="8" y="8" width="{:.0}" height="26" rx="4" fill="#ffffffcc"/><text x="16" y="27" font-size="16" fill="#111">{}</text>"##,
        12.0 + 10.0 * pos.title.len() as f64,
        escape(&pos.title)
    );
    s.push_str("</svg>");
    s
}

fn draw_order(s: &mut String, m: &Map, o: &Order, ok: bool, pos: &MapPosition) {
    let Order::Unit { at, kind, .. } = *o else {
        if let Order::Build { at, .. } = *o {
            let (x, y) = pt(at);
            let _ = write!(
                s,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="16" fill="none" stroke="#111" stroke-width="2" stroke-dasharray="3,3"/>"##
            );
        }
        return;
    };
    let _ = pos;
    let from = pt(at);
    let shorten = |a: (f64, f64), b: (f64, f64), by: f64| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let d = (dx * dx + dy * dy).sqrt().max(1.0);
        (b.0 - dx / d * by, b.1 - dy / d * by)
    };
    let line = |s: &mut String, a: (f64, f64), b: (f64, f64), dash: &str| {
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#111" stroke-width="2.5"{dash} marker-end="url(#ah)"/>"##,
            a.0, a.1, b.0, b.1
        );
    };
    let mid = match kind {
        OrderKind::Move { to, .. } | OrderKind::Retreat { to } => {
            let b = shorten(from, pt(to), 13.0);
            line(s, from, b, "");
            ((from.0 + b.0) / 2.0, (from.1 + b.1) / 2.0)
        }
        OrderKind::Support { from: sf, to, .. } => {
            let target = match to {
                Some(t) => {
                    let (a, b) = (pt(sf), pt(t));
                    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
                }
                None => pt(sf),
            };
            let b = shorten(from, target, 6.0);
            line(s, from, b, r#" stroke-dasharray="6,4""#);
            ((from.0 + b.0) / 2.0, (from.1 + b.1) / 2.0)
        }
        OrderKind::Convoy { from: cf, to } => {
            let (a, b) = (pt(cf), pt(to));
            let _ = write!(
                s,
                r##"<polyline points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="none" stroke="#1d3557" stroke-width="2" stroke-dasharray="2,3"/>"##,
                a.0, a.1, from.0, from.1, b.0, b.1
            );
            from
        }
        OrderKind::Hold => {
            let _ = write!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="15" fill="none" stroke="#111" stroke-width="2"/>"##,
                from.0, from.1
            );
            (from.0 + 12.0, from.1 - 12.0)
        }
        OrderKind::Disband => from,
    };
    let _ = m;
    if !ok {
        let (x, y) = mid;
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
    svg_to_png(&diplomacy_svg(pos))
}

/// Renders a game's current position to PNG (for the front-ends).
pub fn render_diplomacy_png(game: &Diplomacy) -> Result<Vec<u8>, RenderError> {
    render_position_png(&MapPosition::of_game(game))
}
