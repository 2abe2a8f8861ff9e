//! The replay of a stored Diplomacy game: a seeded AI game played to its
//! end on a real SQLite file, replayed as an animated GIF whose frames are
//! the phases (first the opening with its orders), through the library and
//! through `gamehost diplomacy replay`. Every phase's map also stays legible.

#[path = "support/host_builder.rs"]
mod host_builder;

use gamehost::cli::diplomacy::export_game;
use host::{GameId, Host, ManualClock, Registry};
use render::diplomacy::{IMAGE_HEIGHT, WIDTH, diplomacy_svg};
use render::diplomacy_layout::{label_box, label_text, obstacles, place_labels};
use render::replay::{SCALES, encode_gif, kept_frames, replay_gif, replay_positions};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use store::GameStatus;

/// Plays a seeded seven-AI game to its end (1903) on a SQLite file.
fn play_game(db: &Path) -> (Host, GameId) {
    let host = host_builder::host_on(
        db,
        Registry::standard(),
        Arc::new(ManualClock::at(0)),
        host_builder::settings(1000, 0),
    );
    let id = host
        .create_game(host_builder::diplomacy_request(
            serde_json::json!({"end_year": 1903}),
            5,
            false,
        ))
        .unwrap();
    for s in 0..7 {
        let level = if s % 3 == 0 { "random" } else { "heuristic" };
        host.add_ai(id, "u0", Some(level), Some(s)).unwrap();
    }
    host.start(id, "u0").unwrap();
    for _ in 0..100 {
        host.run_ai_turns(Some(id), 50).unwrap();
        if host.game(id).unwrap().status != GameStatus::Running {
            break;
        }
    }
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    (host, id)
}

/// Decodes a GIF into its frames, composed as a viewer shows them (RGBA).
fn frames(gif_bytes: &[u8]) -> (u16, u16, Vec<Vec<u8>>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(gif_bytes).unwrap();
    let (w, h) = (d.width(), d.height());
    let mut canvas = vec![0u8; w as usize * h as usize * 4];
    let mut out = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!((f.left, f.top, f.width, f.height), (0, 0, w, h));
        for (dst, src) in canvas.chunks_exact_mut(4).zip(f.buffer.chunks_exact(4)) {
            if src[3] != 0 {
                dst.copy_from_slice(src);
            }
        }
        out.push(canvas.clone());
    }
    (w, h, out)
}

/// The mean difference per channel between two RGBA images.
fn difference(a: &[u8], b: &[u8]) -> f64 {
    let sum: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| (*x as i64 - *y as i64).unsigned_abs())
        .sum();
    sum as f64 / a.len() as f64
}

#[test]
fn a_finished_ai_game_replays_phase_by_phase() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (host, id) = play_game(&db);
    let phases = export_game(&host, id).unwrap();
    let positions = replay_positions(&host, id).unwrap();
    assert_eq!(positions.len(), phases.len(), "one frame per phase");
    assert!(positions[0].title.contains("Spring 1901"));
    assert!(
        !positions[0].orders.is_empty(),
        "the opening with its orders"
    );
    assert_eq!(positions[0].orders.len(), phases[0].orders.len());
    assert!(positions.last().unwrap().orders.is_empty());
    assert!(
        positions.iter().any(|p| !p.dislodged.is_empty()),
        "the game has a retreat phase"
    );
    // The legend names the AI seats.
    assert_eq!(positions[0].players.len(), 7);

    // Every phase's map keeps its names clear of the tokens and arrows.
    let b = render::diplomacy::board().unwrap();
    for pos in &positions {
        let ob = obstacles(b, pos);
        let m = games::diplomacy::geo::Map::standard();
        for (prov, at) in m.provinces().iter().zip(place_labels(b, pos)) {
            let r = label_box(at, &label_text(&prov.abbr));
            assert!(ob.clear(&r), "{}: {} is covered", pos.title, prov.abbr);
        }
    }

    let (gif_bytes, n, scale) = replay_gif(&host, id).unwrap();
    assert_eq!(n, phases.len());
    assert_eq!(scale, SCALES[0], "a short game fits at the first scale");
    let (w, h, decoded) = frames(&gif_bytes);
    assert_eq!(decoded.len(), phases.len(), "frame count = phases");
    assert_eq!(
        (w as f32, h as f32),
        (
            (WIDTH as f32 * scale).round(),
            (IMAGE_HEIGHT as f32 * scale).round()
        )
    );
    // The first frame is the opening with its orders: it matches that
    // position drawn alone, and not the last position.
    let opening = render::svg::svg_to_pixmap(&diplomacy_svg(&positions[0]).unwrap(), scale)
        .unwrap()
        .data()
        .to_vec();
    let last =
        render::svg::svg_to_pixmap(&diplomacy_svg(positions.last().unwrap()).unwrap(), scale)
            .unwrap()
            .data()
            .to_vec();
    let to_first = difference(&decoded[0], &opening);
    let to_last = difference(&decoded[0], &last);
    assert!(
        to_first < 2.0,
        "first frame differs from the opening by {to_first}"
    );
    assert!(
        to_last > 2.0 * to_first + 0.5,
        "the first frame is not the last position"
    );
    let end = difference(decoded.last().unwrap(), &last);
    assert!(
        end < 2.0,
        "last frame differs from the final position by {end}"
    );
    if std::env::var_os("REPLAY_OUT").is_some() {
        std::fs::write("/tmp/replay-test.gif", &gif_bytes).unwrap();
    }

    // The command writes the same replay.
    let out = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .args(["diplomacy", "replay", "--game", &id.to_string(), "--db"])
        .arg(&db)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, gif_bytes);
    // A game that does not exist is a clear error.
    let out = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .args(["diplomacy", "replay", "--game", "999", "--db"])
        .arg(&db)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("999"));
}

#[test]
fn long_games_keep_first_and_last_frames() {
    assert_eq!(kept_frames(5, 240), vec![0, 1, 2, 3, 4]);
    let k = kept_frames(1000, 240);
    assert_eq!(k.len(), 240);
    assert_eq!((k[0], k[239]), (0, 999));
    assert!(k.windows(2).all(|w| w[0] < w[1]));
    assert!(
        encode_gif(&[], 0.5).is_err(),
        "no frames is an error, not a panic"
    );
}
