//! The Diplomacy map stays legible in real positions: no province name is
//! covered by a unit token, an order's arrow or another name, every token
//! carries its power's initial, and the legend names each power with its
//! centre count and player.
//!
//! The tokens and arrows are computed here from the board's anchor points
//! and the orders, not taken from the renderer's own obstacle list; the
//! names are where the renderer places them, and the SVG is checked to draw
//! them exactly there.

#[path = "support/diplomacy_positions.rs"]
mod positions;

use gamehost::cli::diplomacy::record_position;
use games::diplomacy::geo::Map;
use games::diplomacy::order::{Order, OrderKind};
use games::diplomacy::record::Record;
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::Game;
use render::diplomacy::{MapPosition, board, diplomacy_svg};
use render::diplomacy_layout::{
    ARROW_GAP, HEAD_LEN, Pt, Rect, label_box, label_text, place_labels, segment_rect_distance,
    shorten,
};

/// A position's drawn things a name must stay off, computed independently.
struct Drawn {
    boxes: Vec<(String, Rect)>,
    lines: Vec<(String, Pt, Pt, f64)>,
    heads: Vec<(String, Pt)>,
}

fn drawn(pos: &MapPosition) -> Drawn {
    let m = Map::standard();
    let b = board().unwrap();
    let unit = |l: u8| b.unit[l as usize];
    let moved_from = |l: u8| {
        if pos.dislodged.iter().any(|u| u.loc == l) {
            b.dislodged[m.prov_of(l) as usize]
        } else {
            unit(l)
        }
    };
    let mut d = Drawn {
        boxes: Vec::new(),
        lines: Vec::new(),
        heads: Vec::new(),
    };
    // Tokens: radius 11 (army) or 22x22 (fleet), outline 1.5 or 3.
    for u in &pos.units {
        let name = format!("unit at {}", m.loc(u.loc).abbr);
        d.boxes.push((name, Rect::around(unit(u.loc), 12.0)));
    }
    for u in &pos.dislodged {
        let at = b.dislodged[m.prov_of(u.loc) as usize];
        let name = format!("dislodged unit of {}", m.loc(u.loc).abbr);
        d.boxes.push((name, Rect::around(at, 12.5)));
    }
    for (at, opts) in &pos.retreats {
        let from = b.dislodged[m.prov_of(*at) as usize];
        for &to in opts {
            let name = format!("retreat option {}", m.loc(to).abbr);
            d.lines.push((name.clone(), from, unit(to), 1.0));
            d.boxes.push((name, Rect::around(unit(to), 6.5)));
        }
    }
    for (_, o, ok) in &pos.orders {
        let name = o.canonical(m);
        let Order::Unit { at, kind, .. } = *o else {
            continue;
        };
        let from = moved_from(at);
        let mid = |a: Pt, c: Pt| ((a.0 + c.0) / 2.0, (a.1 + c.1) / 2.0);
        let (tip, cross) = match kind {
            OrderKind::Move { to, .. } | OrderKind::Retreat { to } => {
                let tip = shorten(from, unit(to), ARROW_GAP);
                (Some(tip), mid(from, tip))
            }
            OrderKind::Support { from: sf, to, .. } => {
                let target = to.map_or(unit(sf), |t| mid(unit(sf), unit(t)));
                let tip = shorten(from, target, 6.0);
                (Some(tip), mid(from, tip))
            }
            OrderKind::Convoy { from: cf, to } => {
                d.lines.push((name.clone(), unit(cf), from, 1.0));
                d.lines.push((name.clone(), from, unit(to), 1.0));
                (None, from)
            }
            OrderKind::Hold => {
                d.boxes.push((name.clone(), Rect::around(from, 16.0)));
                (None, (from.0 + 12.0, from.1 - 12.0))
            }
            OrderKind::Disband => (None, from),
        };
        if let Some(tip) = tip {
            // The shaft (width 2.5) and the head's middle (half-width 7.5).
            d.lines.push((name.clone(), from, tip, 1.25));
            d.heads
                .push((name.clone(), shorten(from, tip, HEAD_LEN / 2.0)));
        }
        if !ok {
            d.boxes
                .push((format!("failure cross of {name}"), Rect::around(cross, 7.5)));
        }
    }
    d
}

/// Asserts that no name overlaps anything drawn, or another name, and that
/// the SVG draws each name where it was placed.
fn assert_legible(what: &str, pos: &MapPosition) {
    let m = Map::standard();
    let b = board().unwrap();
    let labels = place_labels(b, pos);
    let d = drawn(pos);
    let svg = diplomacy_svg(pos).unwrap();
    let mut placed: Vec<(String, Rect)> = Vec::new();
    for (prov, &at) in m.provinces().iter().zip(&labels) {
        let text = label_text(&prov.abbr);
        let r = label_box(at, &text);
        for (name, o) in &d.boxes {
            assert!(!r.overlaps(o), "{what}: {text} is under the {name}");
        }
        for (name, a, c, half) in &d.lines {
            assert!(
                segment_rect_distance(*a, *c, &r) >= *half,
                "{what}: {text} is under the line of {name}"
            );
        }
        for (name, h) in &d.heads {
            assert!(
                r.distance_to(*h) >= 7.5,
                "{what}: {text} is under the arrowhead of {name}"
            );
        }
        for (other, o) in &placed {
            assert!(!r.overlaps(o), "{what}: {text} overlaps {other}");
        }
        assert!(
            r.x0 >= 0.0 && r.y0 >= 0.0 && r.x1 <= b.size.0 && r.y1 <= b.size.1,
            "{what}: {text} is off the board"
        );
        let drawn_at = format!(r#"x="{:.1}" y="{:.1}""#, at.0, at.1 + 4.0);
        assert!(
            svg.contains(&format!("{drawn_at} fill=\"#1d3557\">{text}<"))
                || svg.contains(&format!("{drawn_at} fill=\"#3a2f1e\">{text}<")),
            "{what}: {text} is not drawn at its place"
        );
        placed.push((text, r));
    }
    // Most names stay at their authored spot or near it: placement moves a
    // name only as far as it must.
    let moved = labels
        .iter()
        .zip(&b.label)
        .filter(|(a, h)| (a.0 - h.0).hypot(a.1 - h.1) > 40.0)
        .count();
    assert!(moved <= 8, "{what}: {moved} names moved far from home");
    // Every token carries its power's initial.
    for (u, dislodged) in pos
        .units
        .iter()
        .map(|u| (u, false))
        .chain(pos.dislodged.iter().map(|u| (u, true)))
    {
        let (x, y) = if dislodged {
            b.dislodged[m.prov_of(u.loc) as usize]
        } else {
            b.unit[u.loc as usize]
        };
        let ink = render::diplomacy::power_style(Map::standard(), u.power).2;
        let initial = render::diplomacy::power_initial(Map::standard(), u.power);
        let token = format!(
            r#"<text x="{x:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="{ink}">{initial}</text>"#,
            y + 5.0
        );
        assert!(svg.contains(&token), "{what}: no initial on {u:?}");
    }
}

fn opening_with_orders() -> MapPosition {
    let text = std::fs::read_to_string("docs/diplomacy-opening.json").unwrap();
    let rec: Record = serde_json::from_str(&text).unwrap();
    record_position(Map::standard(), &rec, true).unwrap()
}

#[test]
fn names_are_clear_in_the_opening_with_its_orders() {
    let pos = opening_with_orders();
    assert_eq!(pos.orders.len(), 22);
    assert_legible("opening orders", &pos);
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    assert_legible("opening", &MapPosition::of_game(&g));
}

#[test]
fn names_are_clear_in_a_crowded_midgame() {
    let pos = positions::midgame();
    assert_eq!(pos.units.len(), 34);
    assert!(pos.orders.iter().any(|o| !o.2), "some orders fail");
    assert_legible("midgame", &pos);
}

#[test]
fn the_legend_names_each_power_with_its_centres_and_player() {
    let mut pos = opening_with_orders();
    pos.players = vec![
        (std_power("Austria"), "Al <the & great>".into()),
        (std_power("Turkey"), "A very long player name indeed".into()),
    ];
    let svg = diplomacy_svg(&pos).unwrap();
    let m = Map::standard();
    for p in m.powers() {
        let n = pos.owners.iter().filter(|o| **o == Some(p)).count();
        assert!(
            svg.contains(&format!(">{} {n} SC<", m.power_name(p))),
            "{p:?}"
        );
    }
    assert!(svg.contains(">Russia 4 SC<"));
    assert!(svg.contains(">Al &lt;the &amp; great&gt;<"));
    assert!(svg.contains(">A very long playe…<"), "long names are cut");
    assert!(svg.contains(&pos.title));
    let png = render::diplomacy::render_position_png(&pos).unwrap();
    assert!(png.len() < 1_000_000, "{} bytes", png.len());
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
