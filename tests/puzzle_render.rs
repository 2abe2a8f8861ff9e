//! Rendering: the compact text form and the PNG image.

use games::puzzle::field::Cell;
use games::puzzle::garbage::Kind;
use games::puzzle::{PuzzleDuel, PuzzleOptions};
use render::puzzle::image_size;
use render::{puzzle_svg, render_puzzle_png};

fn game_with_garbage() -> PuzzleDuel {
    let mut g = PuzzleDuel::create(PuzzleOptions::default(), 21).unwrap();
    g.sides[0].field.cells[0] = Cell::Hard;
    g.sides[0].field.cells[1] = Cell::Soft;
    g.sides[1].queues.0[4].extend([Kind::Soft, Kind::Hard, Kind::Soft]);
    g
}

#[test]
fn text_form_shows_both_garbage_kinds_and_queues() {
    let g = game_with_garbage();
    let t = g.text_board();
    let lines: Vec<&str> = t.lines().collect();
    // Title, letters, queue row, 15 rows, totals, legend.
    assert_eq!(lines.len(), 20);
    assert!(lines[3].starts_with("  1 #o"), "{}", lines[3]);
    assert!(lines[2].ends_with("q 000030000"), "{}", lines[2]);
    assert!(lines[0].contains("Player 1 *"));
    assert!(lines.iter().all(|l| l.chars().count() < 80));
    // One character per cell: the row text is the field row.
    assert!(lines[4].contains(&g.sides[0].field.rows()[1]));
}

#[test]
fn svg_marks_garbage_and_queue_counts() {
    let g = game_with_garbage();
    let svg = puzzle_svg(&g);
    assert!(svg.contains(">3</text>"), "queue count shown");
    assert!(svg.contains("<path"), "hard garbage drawn with a cross");
    assert!(
        svg.contains(">15</text>") && svg.contains(">i</text>"),
        "coordinates on the edges"
    );
}

#[test]
fn png_has_the_expected_header_and_size() {
    let g = game_with_garbage();
    let png = render_puzzle_png(&g).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), image_size());
    // Rendering is deterministic (embedded font, no system lookup).
    assert_eq!(render_puzzle_png(&g).unwrap(), png);
}

#[test]
fn bad_svg_is_an_error_not_a_panic() {
    assert!(render::svg::svg_to_png("<svg").is_err());
    assert!(
        render::svg::svg_to_png(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="99999" height="10"/>"#
        )
        .is_err()
    );
}
