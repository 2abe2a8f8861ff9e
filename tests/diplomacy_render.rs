//! The Diplomacy map image: a golden test of a few pixels, size and the record path.

use gamehost::cli::diplomacy::record_position;
use games::diplomacy::geo::Map;
use games::diplomacy::record::Record;
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::Game;
use render::render_diplomacy_png;
use resvg::tiny_skia::Pixmap;

fn rgb(p: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = p.pixel(x, y).unwrap();
    [c.red(), c.green(), c.blue()]
}

#[test]
fn opening_map_pixels() {
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    let png = render_diplomacy_png(&g).unwrap();
    assert!(png.len() < 1_000_000, "{} bytes", png.len());
    let p = Pixmap::decode_png(&png).unwrap();
    assert_eq!((p.width(), p.height()), (1193, 1235));
    // North Atlantic: sea blue.
    assert_eq!(rgb(&p, 240, 250), [0x9f, 0xc5, 0xe8]);
    // Paris: tinted French.
    assert_eq!(rgb(&p, 341, 689), [0xcb, 0xe8, 0xf8]);
    // Moscow: tinted Russian.
    assert_eq!(rgb(&p, 1021, 371), [0xec, 0xd0, 0xe0]);
    // Ruhr: plain land.
    assert_eq!(rgb(&p, 519, 569), [0xee, 0xe3, 0xc4]);
    // The Austrian army in Vienna: its token is Austrian vermillion (Okabe-Ito) left of its initial.
    assert_eq!(rgb(&p, 744 - 8, 694), [0xd5, 0x5e, 0x00]);
    // The legend strip under the board.
    assert_eq!(rgb(&p, 600, 1139 + 10), [0xf7, 0xf4, 0xec]);
}

#[test]
fn record_with_orders_renders() {
    let text = std::fs::read_to_string("docs/diplomacy-opening.json").unwrap();
    let rec: Record = serde_json::from_str(&text).unwrap();
    let pos = record_position(Map::standard(), &rec, true).unwrap();
    assert_eq!(pos.orders.len(), 22);
    // Mun - Bur bounces with Par - Bur (supported): it failed.
    assert!(pos.orders.iter().filter(|o| !o.2).count() >= 2);
    let _warm = render::diplomacy::render_position_png(&pos).unwrap();
    let t = std::time::Instant::now();
    let png = render::diplomacy::render_position_png(&pos).unwrap();
    // Printed, never asserted (timing belongs in benches).
    eprintln!("rendered {} bytes in {:?}", png.len(), t.elapsed());
    assert!(png.len() < 1_000_000);
}
