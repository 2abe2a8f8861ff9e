//! Image speed: the Diplomacy map of the crowded 34-unit midgame with its
//! orders (SVG alone and rasterised to PNG; the PNG encoding alone, at the
//! fast level beside tiny-skia's default), and the replay GIF of a stored
//! 20-year game (about a hundred phases).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use host::{GameId, Host, HostSettings, ManualClock, NewGame, Registry};
use render::diplomacy::{diplomacy_svg, render_position_png};
use render::replay::{replay_gif, replay_positions};
use render::svg::{encode_png, svg_to_pixmap};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use store::{GameStatus, Store, TimeoutPolicy};

// The midgame is the one the map legibility test draws.
#[path = "../tests/support/diplomacy_positions.rs"]
#[allow(dead_code)]
mod positions;

/// Plays a seeded seven-AI game through 1920 on a SQLite file at `db`
/// (random AIs: quick to play, and they keep all seven powers busy).
fn twenty_year_game(db: &Path) -> (Host, GameId) {
    let host = Host::new(
        Arc::new(Store::open(db).unwrap()),
        Registry::standard(),
        Arc::new(ManualClock::at(0)),
        HostSettings {
            ai_budget_ms: 1000,
            reminder_percent: 0,
        },
    );
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: None,
            channel_id: "bench".into(),
            creator_id: "u0".into(),
            creator_name: "Bench".into(),
            options: serde_json::json!({"end_year": 1920}),
            seed: Some(20),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: false,
        })
        .unwrap();
    for s in 0..7 {
        host.add_ai(id, "u0", Some("random"), Some(s)).unwrap();
    }
    host.start(id, "u0").unwrap();
    for _ in 0..1000 {
        host.run_ai_turns(Some(id), 50).unwrap();
        if host.game(id).unwrap().status != GameStatus::Running {
            break;
        }
    }
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    (host, id)
}

fn bench(c: &mut Criterion) {
    let pos = positions::midgame();
    assert_eq!(pos.units.len(), 34);
    c.bench_function("render/crowded_34_units_svg", |b| {
        b.iter(|| diplomacy_svg(black_box(&pos)).unwrap())
    });
    c.bench_function("render/crowded_34_units_png", |b| {
        b.iter(|| render_position_png(black_box(&pos)).unwrap())
    });
    // The PNG encoding alone: the fast level the bot uses beside
    // tiny-skia's default level, which it used before.
    let pixmap = svg_to_pixmap(&diplomacy_svg(&pos).unwrap(), 1.0).unwrap();
    c.bench_function("render/encode_png_fast", |b| {
        b.iter(|| encode_png(black_box(pixmap.clone())).unwrap())
    });
    c.bench_function("render/encode_png_default_level_baseline", |b| {
        b.iter(|| black_box(&pixmap).encode_png().unwrap())
    });

    let dir = tempfile::tempdir().unwrap();
    let (host, id) = twenty_year_game(&dir.path().join("bench.db"));
    let phases = replay_positions(&host, id).unwrap();
    let (gif, frames, scale) = replay_gif(&host, id).unwrap();
    eprintln!(
        "replay of a 20-year game: {} phases (the last {:?}), {frames} frames at scale {scale}, {} bytes",
        phases.len(),
        phases.last().map(|p| p.title.as_str()),
        gif.len()
    );
    let mut g = c.benchmark_group("render/replay");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    g.bench_function("twenty_year_game_gif", |b| {
        b.iter(|| replay_gif(black_box(&host), id).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
