//! The Diplomacy board as data: the generated geometry (regions, where
//! units, names and centres go), parsed once, and the position to draw on
//! it. Both the drawing ([`super::diplomacy`]) and the layout
//! ([`super::diplomacy_layout`]) read these, so they sit below both.

use super::RenderError;
use games::diplomacy::Diplomacy;
use games::diplomacy::geo::{Bits, Map, MapRef, Power, find_map};
use games::diplomacy::order::{Order, OrderKind, Unit};
use std::fmt::Write;
use std::sync::{OnceLock, RwLock};

/// The standard map's generated board geometry (see `tools/diplomacy-map/README.md`).
pub static BOARD_DATA: &str = include_str!("../../../assets/diplomacy/standard-map.txt");

/// The Ancient Mediterranean board's generated geometry.
pub static ANCIENT_MED_BOARD_DATA: &str =
    include_str!("../../../assets/diplomacy/ancient-med-map.txt");

/// The geometry of each bundled map, by map id.
const BUNDLED_BOARDS: [(&str, &str); 2] = [
    ("standard", BOARD_DATA),
    ("ancient_med", ANCIENT_MED_BOARD_DATA),
];

/// The standard board's canvas width (its `canvas` line; the board test
/// checks they agree). Other maps have their own ([`Board::size`]).
pub const WIDTH: f64 = 1193.0;
/// The standard board's canvas height.
pub const HEIGHT: f64 = 1139.0;

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

/// A map's board geometry, parsed from its data ([`BOARD_DATA`] for the
/// standard map).
#[derive(Debug, Clone)]
pub struct Board {
    /// The map it draws.
    pub map: &'static Map,
    /// SVG path data of each region (even-odd fill makes the holes).
    pub paths: Vec<String>,
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
    pub fn parse(text: &str, map: &'static Map) -> Result<Board, BoardError> {
        let mut partial = PartialBoard {
            size: None,
            regions: Vec::new(),
            unit: vec![None; map.location_count()],
            label: vec![None; map.province_count()],
            centre: vec![None; map.province_count()],
            dislodged: vec![None; map.province_count()],
            straits: Vec::new(),
        };
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if !line.is_empty() {
                partial.read_line(map, i + 1, line)?;
            }
        }
        partial.complete(map)
    }
}

/// The board as read so far: points stay optional until every line is in.
struct PartialBoard {
    size: Option<(f64, f64)>,
    regions: Vec<Region>,
    unit: Vec<Option<(f64, f64)>>,
    label: Vec<Option<(f64, f64)>>,
    centre: Vec<Option<(f64, f64)>>,
    dislodged: Vec<Option<(f64, f64)>>,
    straits: Vec<Strait>,
}

fn board_error(line: usize, problem: String, expected: &'static str) -> BoardError {
    BoardError {
        line,
        problem,
        expected,
    }
}

/// A finite decimal number on line `n`.
fn number(t: &str, n: usize) -> Result<f64, BoardError> {
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| board_error(n, format!("{t:?} is not a number"), "a decimal number"))
}

/// A province of `map` by abbreviation, on line `n`.
fn province(map: &Map, t: &str, n: usize) -> Result<u8, BoardError> {
    map.prov_by_abbr(t).ok_or_else(|| {
        board_error(
            n,
            format!("unknown province {t:?}"),
            "a province abbreviation",
        )
    })
}

/// A ring of at least 3 `x,y` points, on line `n`.
fn ring(ws: &[&str], n: usize) -> Result<Vec<(f64, f64)>, BoardError> {
    let pts = ws
        .iter()
        .map(|w| {
            let (x, y) = w
                .split_once(',')
                .ok_or_else(|| board_error(n, format!("{w:?} is not a point"), "points as x,y"))?;
            Ok((number(x, n)?, number(y, n)?))
        })
        .collect::<Result<Vec<_>, BoardError>>()?;
    if pts.len() < 3 {
        return Err(board_error(
            n,
            format!("a ring of {} points", pts.len()),
            "at least 3 points",
        ));
    }
    Ok(pts)
}

impl PartialBoard {
    /// Reads line `n` (comment stripped, not empty).
    fn read_line(&mut self, map: &Map, n: usize, line: &str) -> Result<(), BoardError> {
        let err = board_error;
        let prov = |t: &str, n: usize| province(map, t, n);
        let words: Vec<&str> = line.split_whitespace().collect();
        let point = |n: usize| -> Result<(f64, f64), BoardError> {
            match words.get(2..) {
                Some([x, y]) => Ok((number(x, n)?, number(y, n)?)),
                _ => Err(err(n, format!("{line:?}"), "<kind> <name> <x> <y>")),
            }
        };
        match words[0] {
            "canvas" => match words.get(1..) {
                Some([w, h]) => self.size = Some((number(w, n)?, number(h, n)?)),
                _ => return Err(err(n, format!("{line:?}"), "canvas <width> <height>")),
            },
            "region" => {
                let owner = match words.get(1).copied() {
                    Some("~land") => Owner::OffBoardLand,
                    Some("~sea") => Owner::OffBoardSea,
                    Some(p) => Owner::Province(prov(p, n)?),
                    None => return Err(err(n, "no owner".into(), "region <owner> <x,y> ...")),
                };
                self.regions.push(Region {
                    owner,
                    rings: vec![ring(&words[2..], n)?],
                });
            }
            "hole" => {
                let r = ring(&words[1..], n)?;
                self.regions
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
                self.unit[l as usize] = Some(point(n)?);
            }
            "label" | "sc" | "dislodged" => {
                let p = prov(words.get(1).copied().unwrap_or(""), n)?;
                let at = Some(point(n)?);
                match words[0] {
                    "label" => self.label[p as usize] = at,
                    "sc" => self.centre[p as usize] = at,
                    _ => self.dislodged[p as usize] = at,
                }
            }
            "strait" => match words.get(1..) {
                Some([a, b, x1, y1, x2, y2]) => self.straits.push(Strait {
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
        Ok(())
    }

    /// The board, once every province has a region, label and dislodged
    /// point, every location a unit point and exactly the centres a marker.
    fn complete(self, map: &'static Map) -> Result<Board, BoardError> {
        let err = board_error;
        let PartialBoard {
            size,
            regions,
            unit,
            label,
            centre,
            dislodged,
            straits,
        } = self;
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
            map,
            paths: regions.iter().map(region_path).collect(),
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

impl Board {
    /// Unit points that lie outside their province's regions (on a board
    /// that parsed): a unit drawn in the wrong province misleads every
    /// reader of the map. One sentence per stray point.
    pub fn stray_unit_points(&self, map: &Map) -> Vec<String> {
        (0..map.location_count())
            .filter_map(|l| {
                let prov = map.prov_of(l as u8);
                let at = self.unit[l];
                let inside = self
                    .regions
                    .iter()
                    .any(|r| r.owner == Owner::Province(prov) && inside_rings(&r.rings, at));
                (!inside).then(|| {
                    format!(
                        "the unit point of {} ({:.1}, {:.1}) lies outside {}'s regions",
                        map.loc(l as u8).abbr,
                        at.0,
                        at.1,
                        map.prov(prov).abbr
                    )
                })
            })
            .collect()
    }
}

/// Whether `at` is inside a polygon with holes (even-odd over its rings).
fn inside_rings(rings: &[Vec<(f64, f64)>], at: (f64, f64)) -> bool {
    let mut inside = false;
    for ring in rings {
        let mut j = ring.len() - 1;
        for i in 0..ring.len() {
            let ((xi, yi), (xj, yj)) = (ring[i], ring[j]);
            if (yi > at.1) != (yj > at.1) && at.0 < (xj - xi) * (at.1 - yi) / (yj - yi) + xi {
                inside = !inside;
            }
            j = i;
        }
    }
    inside
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

/// The standard board, parsed once.
pub fn board() -> Result<&'static Board, RenderError> {
    board_for(Map::standard())
}

/// Boards parsed so far (bundled, on first use) and installed, by map id.
fn boards() -> &'static RwLock<Vec<(String, &'static Board)>> {
    static BOARDS: OnceLock<RwLock<Vec<(String, &'static Board)>>> = OnceLock::new();
    BOARDS.get_or_init(|| RwLock::new(Vec::new()))
}

/// The board of `map`: its bundled geometry, or the geometry the operator
/// installed with it ([`install_board`]). A map without geometry has no
/// image; the error says so.
pub fn board_for(map: &Map) -> Result<&'static Board, RenderError> {
    let known = |list: &[(String, &'static Board)]| {
        list.iter().find(|(id, _)| id == map.id()).map(|(_, b)| *b)
    };
    if let Some(b) = known(&boards().read().unwrap_or_else(|e| e.into_inner())) {
        return Ok(b);
    }
    let Some((_, text)) = BUNDLED_BOARDS.iter().find(|(id, _)| *id == map.id()) else {
        return Err(RenderError::State(format!(
            "the map {} has no board geometry, so it has no image",
            map.id()
        )));
    };
    let Some(registered) = find_map(map.id()) else {
        return Err(RenderError::State(format!(
            "the map {} is not loaded",
            map.id()
        )));
    };
    let parsed = Board::parse(text, registered).map_err(|e| RenderError::State(e.to_string()))?;
    Ok(remember(parsed))
}

/// Keeps a parsed board for the life of the process (the first one kept
/// for an id wins, so two threads parsing at once agree).
fn remember(board: Board) -> &'static Board {
    let mut list = boards().write().unwrap_or_else(|e| e.into_inner());
    if let Some((_, b)) = list.iter().find(|(id, _)| id == board.map.id()) {
        return b;
    }
    let leaked: &'static Board = Box::leak(Box::new(board));
    list.push((leaked.map.id().to_string(), leaked));
    leaked
}

/// Parses the geometry an operator supplied with an installed map and
/// draws that map with it from now on.
pub fn install_board(map: &'static Map, text: &str) -> Result<&'static Board, BoardError> {
    Ok(remember(Board::parse(text, map)?))
}

/// A position to draw.
#[derive(Debug, Clone, Default)]
pub struct MapPosition {
    /// The map it is on.
    pub map: MapRef,
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
    /// Fog of War: the provinces the map's reader sees (by bit); every
    /// other province is drawn as fog, with no unit and its centre's owner
    /// unknown. `None`: the whole board is seen.
    pub fog: Option<Bits>,
}

impl MapPosition {
    /// The current position of a game (no orders).
    pub fn of_game(g: &Diplomacy) -> MapPosition {
        MapPosition {
            map: MapRef::new(g.map()),
            title: g.phase_name(),
            units: g.units().to_vec(),
            dislodged: g.dislodged().iter().map(|d| d.unit).collect(),
            owners: g.owners().to_vec(),
            orders: Vec::new(),
            players: Vec::new(),
            retreats: retreat_options(g),
            fog: None,
        }
    }

    /// The position as `power` sees it in a Fog of War game (the whole
    /// position otherwise, or once the game has ended): only the units in
    /// the provinces it sees, the other provinces as fog. The legend's
    /// centre counts stay the true ones, which every power knows; the owner
    /// of a centre in the fog is not drawn.
    pub fn seen_by(g: &Diplomacy, power: Power) -> MapPosition {
        if !g.fog_hides() {
            return MapPosition::of_game(g);
        }
        let seen = g.seen_by(power);
        MapPosition {
            owners: g.owners().to_vec(),
            fog: seen.sight(),
            ..MapPosition::of_game(&seen)
        }
    }

    /// Whether the reader of this map sees province `p`.
    pub fn sees(&self, p: u8) -> bool {
        self.fog.is_none_or(|b| b & (1u128 << p) != 0)
    }
}

/// The legal retreats of each dislodged unit, as the engine offers them to
/// its owner (the retreat choices of the owner's view).
fn retreat_options(g: &Diplomacy) -> Vec<(u8, Vec<u8>)> {
    use games::seam::{ChoiceStyle, Game};
    let m = g.map();
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
