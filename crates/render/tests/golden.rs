//! Golden images of the Diplomacy openings, on the standard map and on
//! Ancient Mediterranean: the map drawn now must match a committed PNG
//! (tests/data/opening-golden.png and ancient-med-opening-golden.png,
//! drawn at a third of the size to keep the files small) within a tolerance that absorbs
//! anti-aliasing differences and nothing a player would see. Regenerate it
//! after an intended change with `GOLDEN_UPDATE=1 cargo test -p render
//! --test golden`, and look at it before committing.

use games::diplomacy::order::Unit;
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::Game;
use render::diplomacy::{MapPosition, diplomacy_svg};
use render::svg::svg_to_pixmap;
use resvg::tiny_skia::Pixmap;

/// The scale the golden image is drawn at.
const SCALE: f32 = 1.0 / 3.0;
/// Where the golden image lives.
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/opening-golden.png");
/// A pixel differs when a channel moves by more than this (anti-aliasing
/// moves edges by a few levels; every power's tint is further than that
/// from plain land in some channel).
const PIXEL_TOLERANCE: u8 = 16;
/// At most this share of pixels may differ.
const MAX_DIFFERING: f64 = 0.001;

/// Where Ancient Mediterranean's golden image lives.
const ANCIENT_GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/ancient-med-opening-golden.png"
);

/// The opening as every new game starts.
fn opening() -> MapPosition {
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    MapPosition::of_game(&g)
}

/// Ancient Mediterranean's opening.
fn ancient_opening() -> MapPosition {
    let options = DiplomacyOptions {
        map: "ancient_med".into(),
        ..Default::default()
    };
    MapPosition::of_game(&Diplomacy::new_game(options, 1).unwrap())
}

fn draw(pos: &MapPosition) -> Pixmap {
    svg_to_pixmap(&diplomacy_svg(pos).unwrap(), SCALE).unwrap()
}

/// The share of pixels of `a` and `b` that differ beyond the tolerance.
fn differing(a: &Pixmap, b: &Pixmap) -> f64 {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let n = a
        .data()
        .chunks_exact(4)
        .zip(b.data().chunks_exact(4))
        .filter(|(p, q)| (0..3).any(|k| p[k].abs_diff(q[k]) > PIXEL_TOLERANCE))
        .count();
    n as f64 / (a.width() * a.height()) as f64
}

/// `pos` drawn now matches the golden image at `path` (which
/// `GOLDEN_UPDATE=1` draws again).
fn assert_matches_golden(pos: &MapPosition, path: &str) {
    let now = draw(pos);
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(path, now.encode_png().unwrap()).unwrap();
    }
    let golden = Pixmap::load_png(path).expect("the golden image (GOLDEN_UPDATE=1 draws it)");
    let share = differing(&now, &golden);
    assert!(
        share <= MAX_DIFFERING,
        "{:.3}% of the pixels differ from {path}",
        share * 100.0
    );
}

#[test]
fn the_opening_matches_the_golden_image() {
    assert_matches_golden(&opening(), GOLDEN);
}

#[test]
fn the_ancient_mediterranean_opening_matches_its_golden_image() {
    let pos = ancient_opening();
    assert_matches_golden(&pos, ANCIENT_GOLDEN);
    // One Roman army moved is seen.
    let m = pos.map.get();
    let mut moved = pos.clone();
    let (rom, etr) = (m.loc_by_abbr("rom").unwrap(), m.loc_by_abbr("etr").unwrap());
    moved.units.iter_mut().find(|u| u.loc == rom).unwrap().loc = etr;
    let golden = Pixmap::load_png(ANCIENT_GOLDEN).unwrap();
    let share = differing(&draw(&moved), &golden);
    assert!(share > MAX_DIFFERING, "a moved army differs by {share}");
}

/// The tolerance is tight enough to notice what a player would: one army
/// in another province, or one centre changing hands.
#[test]
fn the_tolerance_catches_one_moved_unit_or_centre() {
    let m = games::diplomacy::geo::Map::standard();
    let golden = Pixmap::load_png(GOLDEN).unwrap();
    let mut moved = opening();
    let vie = m.loc_by_abbr("vie").unwrap();
    let tyr = m.loc_by_abbr("tyr").unwrap();
    let u: &mut Unit = moved.units.iter_mut().find(|u| u.loc == vie).unwrap();
    u.loc = tyr;
    let share = differing(&draw(&moved), &golden);
    assert!(share > MAX_DIFFERING, "a moved army differs by {share}");
    let mut taken = opening();
    let ber = m.prov_by_abbr("ber").unwrap() as usize;
    taken.owners[ber] = Some(std_power("Russia"));
    let share = differing(&draw(&taken), &golden);
    assert!(share > MAX_DIFFERING, "a centre taken differs by {share}");
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
