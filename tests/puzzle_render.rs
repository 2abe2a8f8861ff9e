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

/// `gamehost puzzle ...` with `args`, feeding `stdin`; returns the output.
fn gamehost_puzzle(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .arg("puzzle")
        .args(args)
        .env_remove("GAMEHOST_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// `puzzle render` draws the position of a `simulate --json` record: the
/// start at turn 0, the final position by default, and the position after
/// any turn, the very image the engine's position at that point gives.
#[test]
fn the_cli_renders_a_records_position_at_a_turn() {
    use games::puzzle::MoveRecord;
    use games::puzzle::record::{RecordHeader, simulate};
    use games::seam::AiBudget;
    let sim = gamehost_puzzle(
        &["simulate", "--seed", "3", "--ai", "random", "--json"],
        b"",
    );
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let text = String::from_utf8(sim.stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.jsonl");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap();

    // The final position, the same as the simulated game's.
    let (end, rec) = simulate(
        3,
        PuzzleOptions::default(),
        ["random", "random"],
        AiBudget::default,
    )
    .unwrap();
    assert_eq!(rec.to_json_lines(), text, "the CLI record is this game");
    let last = gamehost_puzzle(&["render", file], b"");
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    assert_eq!(last.stdout, render_puzzle_png(&end).unwrap());
    if std::env::var_os("PUZZLE_OUT").is_some() {
        std::fs::write("/tmp/puzzle-render-last.png", &last.stdout).unwrap();
    }

    // The start, from stdin.
    let start = gamehost_puzzle(&["render", "-", "--turn", "0"], text.as_bytes());
    assert!(
        start.status.success(),
        "{}",
        String::from_utf8_lossy(&start.stderr)
    );
    let fresh = PuzzleDuel::create(PuzzleOptions::default(), 3).unwrap();
    assert_eq!(start.stdout, render_puzzle_png(&fresh).unwrap());
    assert_ne!(start.stdout, last.stdout);

    // The end of turn 4: the record's actions up to it, played again.
    let header: RecordHeader = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut g = PuzzleDuel::create(header.options, header.seed).unwrap();
    for m in rec.moves.iter().filter(|m: &&MoveRecord| m.turn <= 4) {
        g.play(m.player, m.x, m.y).unwrap();
    }
    let mid = gamehost_puzzle(&["render", file, "--turn", "4"], b"");
    assert!(
        mid.status.success(),
        "{}",
        String::from_utf8_lossy(&mid.stderr)
    );
    assert_eq!(mid.stdout, render_puzzle_png(&g).unwrap());
    if std::env::var_os("PUZZLE_OUT").is_some() {
        std::fs::write("/tmp/puzzle-render-t4.png", &mid.stdout).unwrap();
    }

    // A turn after the end, a record that does not reproduce, and a file
    // that is not a record are clear errors.
    let last_turn = rec.moves.last().unwrap().turn;
    let beyond = gamehost_puzzle(
        &["render", file, "--turn", &(last_turn + 1).to_string()],
        b"",
    );
    assert!(!beyond.status.success());
    let err = String::from_utf8_lossy(&beyond.stderr);
    assert!(
        err.contains(&format!("from 0 (the start) to {last_turn}")),
        "{err}"
    );
    let mut lines: Vec<&str> = text.lines().collect();
    let tampered = lines[2].replacen("\"turn\":", "\"turn\":9", 1);
    lines[2] = &tampered;
    let bad = gamehost_puzzle(&["render", "-"], lines.join("\n").as_bytes());
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("line 3"), "{err}");
    let junk = gamehost_puzzle(&["render", "-"], b"not a record\n");
    assert!(!junk.status.success());
    assert!(String::from_utf8_lossy(&junk.stderr).contains("line 1"));
}
