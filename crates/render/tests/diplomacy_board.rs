//! The map images' geometry (assets/diplomacy/standard-map.txt and every
//! other bundled board) against the rules' map: the drawn borders are the
//! adjacency, the regions tile the
//! canvas, split coasts stand by their own seas, and nothing is cut at an
//! edge. The same checks as tools/diplomacy-map/check_borders.py, which runs
//! when the data is generated.

use games::diplomacy::geo::{Map, Terrain, bundled_maps};
use render::diplomacy::{BOARD_DATA, Board, HEIGHT, Owner, WIDTH, board, board_for};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Shared boundary (px) that makes a border; a corner touch is under 1 px.
const MIN_BORDER: f64 = 3.0;
/// How close (px) two outlines must run to count as one shared edge.
const TOUCH: f64 = 0.3;
/// Sampling step (px) along outlines.
const STEP: f64 = 0.5;
/// A split coast's seas border the province within this distance (px) of its unit point.
const COAST_REACH: f64 = 130.0;
/// The coasts of one province stand at least this far apart (px).
const COAST_APART: f64 = 30.0;
/// Grid cell (px) of the segment index.
const CELL: f64 = 4.0;

type Pt = (f64, f64);

/// A key per owner: province id, or 254/255 for off-board land/water.
fn key(o: Owner) -> usize {
    match o {
        Owner::Province(p) => p as usize,
        Owner::OffBoardLand => 254,
        Owner::OffBoardSea => 255,
    }
}

fn seg_dist(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

fn ring_segments(ring: &[Pt]) -> impl Iterator<Item = (Pt, Pt)> + '_ {
    (0..ring.len()).map(move |i| (ring[i], ring[(i + 1) % ring.len()]))
}

/// Every outline segment, indexed by grid cell.
struct Segments {
    segs: Vec<(Pt, Pt, usize)>,
    grid: HashMap<(i64, i64), Vec<usize>>,
}

impl Segments {
    fn new(b: &Board) -> Segments {
        let mut segs = Vec::new();
        let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for r in &b.regions {
            for ring in &r.rings {
                for (a, c) in ring_segments(ring) {
                    let i = segs.len();
                    segs.push((a, c, key(r.owner)));
                    let cx = |v: f64| (v / CELL).floor() as i64;
                    for gx in cx(a.0.min(c.0) - TOUCH)..=cx(a.0.max(c.0) + TOUCH) {
                        for gy in cx(a.1.min(c.1) - TOUCH)..=cx(a.1.max(c.1) + TOUCH) {
                            grid.entry((gx, gy)).or_default().push(i);
                        }
                    }
                }
            }
        }
        Segments { segs, grid }
    }

    /// Owners other than `own` whose outline runs within TOUCH of `p`.
    fn owners_near(&self, p: Pt, own: usize, out: &mut HashSet<usize>) {
        out.clear();
        let cell = ((p.0 / CELL).floor() as i64, (p.1 / CELL).floor() as i64);
        for &i in self.grid.get(&cell).map_or(&[][..], |v| v.as_slice()) {
            let (a, c, o) = self.segs[i];
            if o != own && seg_dist(p, a, c) < TOUCH {
                out.insert(o);
            }
        }
    }
}

/// Shared border length per owner pair, and per province the sampled points of
/// its outline that touch each other owner.
struct Borders {
    length: BTreeMap<(usize, usize), f64>,
    touching: HashMap<(usize, usize), Vec<Pt>>,
}

fn borders(b: &Board) -> Borders {
    let idx = Segments::new(b);
    let mut one_side: HashMap<(usize, usize), f64> = HashMap::new();
    let mut touching: HashMap<(usize, usize), Vec<Pt>> = HashMap::new();
    let mut near = HashSet::new();
    for r in &b.regions {
        let own = key(r.owner);
        for ring in &r.rings {
            for (a, c) in ring_segments(ring) {
                let len = ((c.0 - a.0).powi(2) + (c.1 - a.1).powi(2)).sqrt();
                let n = (len / STEP).ceil().max(1.0) as usize;
                for k in 0..n {
                    let t = (k as f64 + 0.5) / n as f64;
                    let p = (a.0 + t * (c.0 - a.0), a.1 + t * (c.1 - a.1));
                    idx.owners_near(p, own, &mut near);
                    for &o in &near {
                        *one_side.entry((own, o)).or_default() += len / n as f64;
                        touching.entry((own, o)).or_default().push(p);
                    }
                }
            }
        }
    }
    // A pair's border is what both sides agree on.
    let mut length = BTreeMap::new();
    for (&(a, c), &l) in &one_side {
        if a < c {
            let other = one_side.get(&(c, a)).copied().unwrap_or(0.0);
            length.insert((a, c), l.min(other));
        }
    }
    Borders { length, touching }
}

fn adjacent(m: &Map, p: usize, q: usize) -> bool {
    let bit = |bits: u128, i: usize| bits >> i & 1 == 1;
    bit(m.army_adj(p as u8), q) || bit(m.prov_fleet_adj(p as u8), q)
}

fn name(m: &Map, k: usize) -> String {
    match k {
        254 => "off-board land".into(),
        255 => "off-board water".into(),
        p => m.prov(p as u8).abbr.clone(),
    }
}

/// Even-odd point in polygon over all of a region's rings.
fn inside(rings: &[Vec<Pt>], p: Pt) -> bool {
    let mut odd = false;
    for ring in rings {
        for (a, c) in ring_segments(ring) {
            if (a.1 > p.1) != (c.1 > p.1) && p.0 < a.0 + (p.1 - a.1) / (c.1 - a.1) * (c.0 - a.0) {
                odd = !odd;
            }
        }
    }
    odd
}

fn in_province(b: &Board, p: u8, at: Pt) -> bool {
    b.regions
        .iter()
        .any(|r| r.owner == Owner::Province(p) && inside(&r.rings, at))
}

fn area(ring: &[Pt]) -> f64 {
    ring_segments(ring)
        .map(|(a, c)| a.0 * c.1 - c.0 * a.1)
        .sum::<f64>()
        .abs()
        / 2.0
}

/// Every bundled map with its board.
fn bundled_boards() -> Vec<(&'static Map, &'static Board)> {
    bundled_maps()
        .into_iter()
        .map(|m| (m, board_for(m).expect("every bundled map has a board")))
        .collect()
}

#[test]
fn the_board_data_parses_for_the_standard_map_at_the_drawn_size() {
    let b = board().expect("the bundled board data parses");
    assert_eq!(b.size, (WIDTH, HEIGHT));
    assert_eq!(b.unit.len(), Map::standard().location_count());
    let ids: Vec<&str> = bundled_boards().iter().map(|(m, _)| m.id()).collect();
    assert_eq!(ids, ["standard", "ancient_med"]);
}

#[test]
fn every_adjacent_pair_shares_a_border_and_no_other_pair_does() {
    for (m, b) in bundled_boards() {
        let (pairs, straits) = check_borders(m, b);
        if m.id() == "standard" {
            // 206 adjacent province pairs (army or fleet) on the standard
            // map; only Denmark-Sweden is crossed over water (the Sound).
            assert_eq!((pairs, straits), (206, 1));
        }
    }
}

/// The borders of `b` against `m`'s adjacency: the adjacent pairs and
/// the straits.
fn check_borders(m: &Map, b: &Board) -> (usize, usize) {
    let br = borders(b);
    let straits: HashSet<(usize, usize)> = b
        .straits
        .iter()
        .map(|st| {
            let (p, q) = st.provinces;
            (p.min(q) as usize, p.max(q) as usize)
        })
        .collect();
    let impassable = |p: usize| p < 254 && m.prov(p as u8).terrain == Terrain::Impassable;
    let mut problems = Vec::new();
    let mut pairs = 0;
    for p in 0..m.province_count() {
        for q in p + 1..m.province_count() {
            let shared = br.length.get(&(p, q)).copied().unwrap_or(0.0);
            let (pn, qn) = (name(m, p), name(m, q));
            if adjacent(m, p, q) {
                pairs += 1;
                if straits.contains(&(p, q)) {
                    if shared >= MIN_BORDER {
                        problems.push(format!(
                            "{pn}-{qn} is a listed strait but shares {shared:.1} px"
                        ));
                    }
                } else if shared < MIN_BORDER {
                    problems.push(format!("{pn}-{qn} are adjacent but share {shared:.1} px"));
                }
            } else if shared >= MIN_BORDER && !impassable(p) && !impassable(q) {
                problems.push(format!(
                    "{pn}-{qn} are not adjacent but share {shared:.1} px"
                ));
            }
        }
    }
    for &(p, q) in &straits {
        if !adjacent(m, p, q) {
            problems.push(format!(
                "strait {}-{} is no adjacency",
                name(m, p),
                name(m, q)
            ));
        }
    }
    assert!(problems.is_empty(), "{}: {}", m.id(), problems.join("\n"));
    (pairs, straits.len())
}

#[test]
fn split_coasts_stand_by_the_seas_they_reach() {
    for (m, b) in bundled_boards() {
        check_split_coasts(m, b);
    }
}

fn check_split_coasts(m: &Map, b: &Board) {
    let br = borders(b);
    let mut problems = Vec::new();
    for (p, prov) in m.provinces().iter().enumerate() {
        if prov.coasts.is_empty() {
            continue;
        }
        let seas: Vec<usize> = (0..m.province_count())
            .filter(|&s| m.is_sea(s as u8) && br.touching.contains_key(&(p, s)))
            .collect();
        let dist = |s: usize, u: Pt| {
            br.touching[&(p, s)]
                .iter()
                .map(|q| ((q.0 - u.0).powi(2) + (q.1 - u.1).powi(2)).sqrt())
                .fold(f64::INFINITY, f64::min)
        };
        for &c in &prov.coasts {
            let u = b.unit[c as usize];
            let cname = &m.loc(c).abbr;
            let reach: Vec<usize> = seas
                .iter()
                .copied()
                .filter(|&s| m.fleet_prov_adj(c) >> s & 1 == 1)
                .collect();
            let nearest = seas
                .iter()
                .copied()
                .min_by(|&x, &y| dist(x, u).total_cmp(&dist(y, u)))
                .unwrap();
            if !reach.contains(&nearest) {
                problems.push(format!(
                    "{cname}: the nearest sea is {}, out of its reach",
                    name(m, nearest)
                ));
            }
            for &s in &reach {
                if dist(s, u) > COAST_REACH {
                    problems.push(format!(
                        "{cname}: {} borders {:.0} px away",
                        name(m, s),
                        dist(s, u)
                    ));
                }
            }
        }
        for (i, &c) in prov.coasts.iter().enumerate() {
            for &d in &prov.coasts[i + 1..] {
                let (u, v) = (b.unit[c as usize], b.unit[d as usize]);
                let apart = ((u.0 - v.0).powi(2) + (u.1 - v.1).powi(2)).sqrt();
                if apart < COAST_APART {
                    problems.push(format!(
                        "{} and {} stand {apart:.0} px apart",
                        m.loc(c).abbr,
                        m.loc(d).abbr
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}: {}", m.id(), problems.join("\n"));
}

#[test]
fn the_regions_tile_the_canvas_without_gaps_or_overlaps() {
    for (_, b) in bundled_boards() {
        check_tiling(b);
    }
}

fn check_tiling(b: &Board) {
    let (width, height) = b.size;
    let total: f64 = b
        .regions
        .iter()
        .map(|r| area(&r.rings[0]) - r.rings[1..].iter().map(|h| area(h)).sum::<f64>())
        .sum();
    let canvas = width * height;
    assert!(
        (total - canvas).abs() < 5.0,
        "regions cover {total:.0} of {canvas:.0} px²"
    );
    // Every probe point lies in exactly one region; a probe within 0.05 px of
    // an outline is ambiguous (the data is rounded to 0.1 px) and skipped.
    let idx = Segments::new(b);
    let on_outline = |p: Pt| {
        let cell = ((p.0 / CELL).floor() as i64, (p.1 / CELL).floor() as i64);
        idx.grid.get(&cell).is_some_and(|v| {
            v.iter()
                .any(|&i| seg_dist(p, idx.segs[i].0, idx.segs[i].1) < 0.05)
        })
    };
    let boxes: Vec<(f64, f64, f64, f64)> = b
        .regions
        .iter()
        .map(|r| {
            r.rings[0]
                .iter()
                .fold((f64::MAX, f64::MAX, f64::MIN, f64::MIN), |a, p| {
                    (a.0.min(p.0), a.1.min(p.1), a.2.max(p.0), a.3.max(p.1))
                })
        })
        .collect();
    let mut bad = Vec::new();
    let mut y = 3.537;
    while y < height {
        let mut x = 2.263;
        while x < width {
            let n = b
                .regions
                .iter()
                .zip(&boxes)
                .filter(|(_, bx)| x >= bx.0 && x <= bx.2 && y >= bx.1 && y <= bx.3)
                .filter(|(r, _)| inside(&r.rings, (x, y)))
                .count();
            if n != 1 && !on_outline((x, y)) {
                bad.push(format!("({x:.1}, {y:.1}) lies in {n} regions"));
            }
            x += 9.0;
        }
        y += 9.0;
    }
    assert!(
        bad.is_empty(),
        "{} probes: {}",
        bad.len(),
        bad.iter().take(10).cloned().collect::<Vec<_>>().join(", ")
    );
}

#[test]
fn land_provinces_are_whole_and_their_points_inside_them() {
    for (m, b) in bundled_boards() {
        check_points(m, b);
    }
}

fn check_points(m: &Map, b: &Board) {
    let (width, height) = b.size;
    let mut problems = Vec::new();
    for r in &b.regions {
        let Owner::Province(p) = r.owner else {
            continue;
        };
        if m.is_sea(p) {
            continue;
        }
        for &(x, y) in &r.rings[0] {
            if x < 2.0 || y < 2.0 || x > width - 2.0 || y > height - 2.0 {
                problems.push(format!(
                    "{} reaches the canvas edge at ({x}, {y})",
                    name(m, p as usize)
                ));
                break;
            }
        }
    }
    for (l, &u) in b.unit.iter().enumerate() {
        let loc = m.loc(l as u8);
        // A split coast's unit may stand just off its shore.
        let ok = in_province(b, loc.prov, u)
            || (loc.coast.is_some()
                && [(-12.0, 0.0), (12.0, 0.0), (0.0, -12.0), (0.0, 12.0)]
                    .iter()
                    .any(|d| in_province(b, loc.prov, (u.0 + d.0, u.1 + d.1))));
        if !ok {
            problems.push(format!("the unit point of {} lies outside it", loc.abbr));
        }
    }
    for (p, c) in b.centre.iter().enumerate() {
        if let Some(c) = c
            && !in_province(b, p as u8, *c)
        {
            problems.push(format!("the centre of {} lies outside it", name(m, p)));
        }
    }
    for (p, &at) in b.label.iter().enumerate() {
        if !in_province(b, p as u8, at) {
            problems.push(format!("the label of {} lies outside it", name(m, p)));
        }
    }
    for (p, &at) in b.dislodged.iter().enumerate() {
        if !in_province(b, p as u8, at) {
            problems.push(format!(
                "the dislodged point of {} lies outside it",
                name(m, p)
            ));
        }
    }
    assert!(problems.is_empty(), "{}: {}", m.id(), problems.join("\n"));
}

#[test]
fn broken_board_data_is_refused_with_the_line_and_what_was_expected() {
    let m = Map::standard();
    let cases = [
        (
            "canvas 10 10\nregion zzz 0,0 1,0 1,1\n",
            2,
            "unknown province",
        ),
        ("canvas 10 10\nregion par 0,0 1,0\n", 2, "at least 3 points"),
        ("canvas 10 10\nregion par 0,0 1;0 1,1\n", 2, "x,y"),
        ("canvas 10\n", 1, "canvas <width> <height>"),
        ("canvas 10 10\nhole 0,0 1,0 1,1\n", 2, "region first"),
        ("canvas 10 10\nunit par 1\n", 2, "<x> <y>"),
        ("canvas 10 10\nunit par 1 NaN\n", 2, "decimal number"),
        ("canvas 10 10\nwhat 1 2\n", 2, "unknown line kind"),
        ("region par 0,0 1,0 1,1\n", 0, "no canvas line"),
        ("canvas 10 10\nregion par 0,0 1,0 1,1\n", 0, "has no region"),
        ("canvas 10 10\ndislodged par 1\n", 2, "<x> <y>"),
        ("canvas 10 10\nstrait den swe\n", 2, "<x1> <y1> <x2> <y2>"),
    ];
    for (text, line, needle) in cases {
        let e = Board::parse(text, m).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
    // The real data with one province's region taken out is refused too.
    let without_paris: String = BOARD_DATA
        .lines()
        .filter(|l| !l.starts_with("region par "))
        .map(|l| format!("{l}\n"))
        .collect();
    let e = Board::parse(&without_paris, m).unwrap_err();
    assert!(e.to_string().contains("par has no region"), "{e}");
}
