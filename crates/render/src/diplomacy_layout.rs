//! Where things go on the Diplomacy map before any SVG is written: the boxes
//! of unit tokens, the thick segments of order arrows, and province names
//! placed where neither covers them.
//!
//! The drawing ([`super::diplomacy`]) uses exactly these shapes, so a name
//! placed clear of them here is clear of them in the image; the legibility
//! test checks the placed names against tokens and arrows it computes itself.

use super::diplomacy_board::{Board, MapPosition, Owner};
use games::diplomacy::order::{Order, OrderKind};

/// A point on the canvas.
pub type Pt = (f64, f64);

/// An axis-aligned box on the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Top edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Bottom edge.
    pub y1: f64,
}

impl Rect {
    /// The box of half-size `r` around `c`.
    pub fn around(c: Pt, r: f64) -> Rect {
        Rect {
            x0: c.0 - r,
            y0: c.1 - r,
            x1: c.0 + r,
            y1: c.1 + r,
        }
    }

    /// Whether two boxes share any area.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// The distance from `p` to the box (0 inside).
    pub fn distance_to(&self, p: Pt) -> f64 {
        let dx = (self.x0 - p.0).max(0.0).max(p.0 - self.x1);
        let dy = (self.y0 - p.1).max(0.0).max(p.1 - self.y1);
        (dx * dx + dy * dy).sqrt()
    }
}

/// A stroke drawn on the map: a straight segment with half its thickness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// Start.
    pub a: Pt,
    /// End.
    pub b: Pt,
    /// Half the drawn thickness (an arrowhead is a short, thick stroke).
    pub half_width: f64,
}

impl Stroke {
    /// Whether the stroke covers any of `r`.
    pub fn hits(&self, r: &Rect) -> bool {
        segment_rect_distance(self.a, self.b, r) < self.half_width
    }
}

/// The shortest distance between segment `a`-`b` and box `r` (0 if they meet).
pub fn segment_rect_distance(a: Pt, b: Pt, r: &Rect) -> f64 {
    // Clip the segment to the box (Liang-Barsky): any part inside means 0.
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let mut inside = true;
    for (p, q) in [
        (-dx, a.0 - r.x0),
        (dx, r.x1 - a.0),
        (-dy, a.1 - r.y0),
        (dy, r.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                inside = false;
                break;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if inside && t0 <= t1 {
        return 0.0;
    }
    // Otherwise the nearest pair involves an end of the segment or a corner of the box.
    let seg_dist = |p: Pt| {
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (cx, cy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
        (cx * cx + cy * cy).sqrt()
    };
    let corners = [(r.x0, r.y0), (r.x1, r.y0), (r.x0, r.y1), (r.x1, r.y1)];
    corners
        .iter()
        .map(|&c| seg_dist(c))
        .chain([r.distance_to(a), r.distance_to(b)])
        .fold(f64::INFINITY, f64::min)
}

/// Half the size of a unit token's box (radius 11 plus its outline).
pub const TOKEN_HALF: f64 = 12.5;
/// Font size of province names.
pub const LABEL_FONT: f64 = 12.0;
/// Advance of one character of the embedded monospace font at [`LABEL_FONT`].
pub const LABEL_CHAR: f64 = LABEL_FONT * 0.602;
/// How far an arrow stops short of the unit point it points at.
pub const ARROW_GAP: f64 = 13.0;
/// Length of an arrowhead (marker size 6 by stroke width 2.5).
pub const HEAD_LEN: f64 = 15.0;

/// The name drawn for a province ("Nwg").
pub fn label_text(abbr: &str) -> String {
    let mut c = abbr.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// The box a name centred on `c` covers (glyphs with their light halo).
pub fn label_box(c: Pt, text: &str) -> Rect {
    let half = text.chars().count() as f64 * LABEL_CHAR / 2.0 + 1.5;
    Rect {
        x0: c.0 - half,
        y0: c.1 - 6.5,
        x1: c.0 + half,
        y1: c.1 + 8.5,
    }
}

/// Where a unit at location `l` stands (the canvas corner for an id the map lacks).
pub fn unit_pt(b: &Board, l: u8) -> Pt {
    b.unit.get(l as usize).copied().unwrap_or((0.0, 0.0))
}

/// Where a unit dislodged from location `l` is drawn.
pub fn dislodged_pt(b: &Board, l: u8) -> Pt {
    let p = b.map.prov_of(l);
    b.dislodged.get(p as usize).copied().unwrap_or((0.0, 0.0))
}

/// `b` moved `by` pixels back towards `a`.
pub fn shorten(a: Pt, b: Pt, by: f64) -> Pt {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let d = (dx * dx + dy * dy).sqrt().max(1.0);
    (b.0 - dx / d * by, b.1 - dy / d * by)
}

/// How one order is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum OrderShape {
    /// A solid arrow (move, retreat).
    Arrow(Pt, Pt),
    /// A dashed arrow (support).
    SupportArrow(Pt, Pt),
    /// A dotted line through the convoying fleet.
    ConvoyPath([Pt; 3]),
    /// A ring around the unit (hold: radius 15; build: radius 16, dashed).
    Ring(Pt, f64, bool),
    /// Nothing but, if it failed, the cross (disband).
    Bare(Pt),
}

/// An order's shape and where its failure cross goes.
pub fn order_shape(b: &Board, o: &Order, pos: &MapPosition) -> Option<(OrderShape, Pt)> {
    let (at, kind) = match *o {
        Order::Unit { at, kind, .. } => (at, kind),
        Order::Build { at, .. } => {
            let c = unit_pt(b, at);
            return Some((OrderShape::Ring(c, 16.0, true), (c.0 + 13.0, c.1 - 13.0)));
        }
        _ => return None,
    };
    // Only dislodged units have orders while any are on the board (a retreat
    // phase): those start where the dislodged unit is drawn.
    let from = if pos.dislodged.iter().any(|u| u.loc == at) {
        dislodged_pt(b, at)
    } else {
        unit_pt(b, at)
    };
    let mid = |a: Pt, c: Pt| ((a.0 + c.0) / 2.0, (a.1 + c.1) / 2.0);
    Some(match kind {
        OrderKind::Move { to, .. } | OrderKind::Retreat { to } => {
            let end = shorten(from, unit_pt(b, to), ARROW_GAP);
            (OrderShape::Arrow(from, end), mid(from, end))
        }
        OrderKind::Support { from: sf, to, .. } => {
            let target = match to {
                Some(t) => mid(unit_pt(b, sf), unit_pt(b, t)),
                None => unit_pt(b, sf),
            };
            let end = shorten(from, target, 6.0);
            (OrderShape::SupportArrow(from, end), mid(from, end))
        }
        OrderKind::Convoy { from: cf, to } => (
            OrderShape::ConvoyPath([unit_pt(b, cf), from, unit_pt(b, to)]),
            from,
        ),
        OrderKind::Hold => (
            OrderShape::Ring(from, 15.0, false),
            (from.0 + 12.0, from.1 - 12.0),
        ),
        OrderKind::Disband => (OrderShape::Bare(from), from),
    })
}

/// The strokes of an arrow from `a` to `b` with its head at `b`.
fn arrow_strokes(a: Pt, b: Pt, half_width: f64, out: &mut Vec<Stroke>) {
    out.push(Stroke { a, b, half_width });
    let back = shorten(a, b, HEAD_LEN);
    out.push(Stroke {
        a: back,
        b,
        half_width: 7.5,
    });
}

/// Everything drawn over the provinces that a name must not sit under.
#[derive(Debug, Clone, Default)]
pub struct Obstacles {
    /// Unit tokens, rings, supply-centre markers and failure crosses.
    pub boxes: Vec<Rect>,
    /// Arrows and lines.
    pub strokes: Vec<Stroke>,
}

impl Obstacles {
    /// Whether `r` is clear of everything.
    pub fn clear(&self, r: &Rect) -> bool {
        !self.boxes.iter().any(|o| o.overlaps(r)) && !self.strokes.iter().any(|s| s.hits(r))
    }
}

/// The tokens, markers and order strokes of a position.
pub fn obstacles(b: &Board, pos: &MapPosition) -> Obstacles {
    let mut ob = Obstacles::default();
    for u in &pos.units {
        ob.boxes.push(Rect::around(unit_pt(b, u.loc), TOKEN_HALF));
    }
    for u in &pos.dislodged {
        ob.boxes
            .push(Rect::around(dislodged_pt(b, u.loc), TOKEN_HALF + 1.0));
    }
    for c in b.centre.iter().flatten() {
        ob.boxes.push(Rect::around(*c, 6.5));
    }
    for (at, options) in &pos.retreats {
        let from = dislodged_pt(b, *at);
        for &to in options {
            let end = unit_pt(b, to);
            ob.strokes.push(Stroke {
                a: from,
                b: end,
                half_width: 1.5,
            });
            ob.boxes.push(Rect::around(end, 7.0));
        }
    }
    for (_, o, ok) in &pos.orders {
        let Some((shape, cross)) = order_shape(b, o, pos) else {
            continue;
        };
        match shape {
            OrderShape::Arrow(a, c) | OrderShape::SupportArrow(a, c) => {
                arrow_strokes(a, c, 1.5, &mut ob.strokes)
            }
            OrderShape::ConvoyPath([a, c, d]) => {
                for (p, q) in [(a, c), (c, d)] {
                    ob.strokes.push(Stroke {
                        a: p,
                        b: q,
                        half_width: 1.25,
                    });
                }
            }
            OrderShape::Ring(c, r, _) => ob.boxes.push(Rect::around(c, r + 1.5)),
            OrderShape::Bare(_) => {}
        }
        if !ok {
            ob.boxes.push(Rect::around(cross, 8.0));
        }
    }
    ob
}

/// Whether `p` is inside the rings of `regions` (even-odd).
fn inside(regions: &[&[Vec<Pt>]], p: Pt) -> bool {
    let mut hit = false;
    for rings in regions {
        for ring in rings.iter() {
            let mut j = ring.len() - 1;
            for i in 0..ring.len() {
                let (a, c) = (ring[i], ring[j]);
                if (a.1 > p.1) != (c.1 > p.1) && p.0 < (c.0 - a.0) * (p.1 - a.1) / (c.1 - a.1) + a.0
                {
                    hit = !hit;
                }
                j = i;
            }
        }
    }
    hit
}

/// Offsets tried around a province's authored name point, nearest first.
fn candidates() -> &'static [Pt] {
    static C: std::sync::OnceLock<Vec<Pt>> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let mut v = vec![(0.0, 0.0)];
        for r in [7.0, 13.0, 19.0, 26.0, 34.0, 43.0, 53.0, 64.0, 76.0] {
            let steps = 16;
            for k in 0..steps {
                let a = std::f64::consts::TAU * k as f64 / steps as f64;
                v.push((r * a.cos(), r * a.sin() * 0.8));
            }
        }
        v
    })
}

/// The centre of each province's name (by province id), each placed at the
/// first spot near its authored point that is clear of every obstacle and
/// of the names placed before it, preferring spots wholly inside the
/// province, then spots whose centre is inside it. A name with no clear spot
/// keeps its authored point.
pub fn place_labels(b: &Board, pos: &MapPosition) -> Vec<Pt> {
    let m = b.map;
    let mut ob = obstacles(b, pos);
    let mut shapes: Vec<Vec<&[Vec<Pt>]>> = vec![Vec::new(); m.province_count()];
    for r in &b.regions {
        if let Owner::Province(p) = r.owner
            && let Some(s) = shapes.get_mut(p as usize)
        {
            s.push(&r.rings);
        }
    }
    let mut out = Vec::with_capacity(m.province_count());
    for (p, prov) in m.provinces().iter().enumerate() {
        let home = b.label[p];
        let text = label_text(&prov.abbr);
        let shape = &shapes[p];
        let whole_inside = |r: &Rect| {
            [
                (r.x0, r.y0),
                (r.x1, r.y0),
                (r.x0, r.y1),
                (r.x1, r.y1),
                ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0),
            ]
            .iter()
            .all(|&c| inside(shape, c))
        };
        let free = |c: Pt| {
            let r = label_box(c, &text);
            let on_canvas = r.x0 >= 0.0 && r.y0 >= 0.0 && r.x1 <= b.size.0 && r.y1 <= b.size.1;
            (on_canvas && ob.clear(&r)).then_some(r)
        };
        let spots = candidates().iter().map(|d| (home.0 + d.0, home.1 + d.1));
        let chosen = spots
            .clone()
            .find(|&c| free(c).is_some_and(|r| whole_inside(&r)))
            .or_else(|| {
                spots
                    .clone()
                    .find(|&c| free(c).is_some() && inside(shape, c))
            })
            .or_else(|| spots.clone().find(|&c| free(c).is_some()))
            .unwrap_or(home);
        ob.boxes.push(label_box(chosen, &text));
        out.push(chosen);
    }
    out
}
