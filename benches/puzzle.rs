//! Puzzle duel benches: actions applied per second, and the default AI's
//! decision time (goal: under 1 s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use games::puzzle::{PuzzleAction, PuzzleDuel, PuzzleOptions};
use games::seam::{AiBudget, Game};
use std::hint::black_box;

/// A mid-game position: 30 actions of greedy play from a fixed seed.
fn midgame() -> PuzzleDuel {
    let mut g = PuzzleDuel::new_game(PuzzleOptions::default(), 5).unwrap();
    for n in 0..30 {
        let Some(seat) = g.mover() else { break };
        let a = g.ai_action(seat, "greedy", AiBudget::iterations(1), n);
        g.play(seat, a.x, a.y).unwrap();
    }
    g
}

fn bench(c: &mut Criterion) {
    // Actions applied: the same 50 precomputed actions from a fresh game
    // (parse/validate included via `play`).
    let start = PuzzleDuel::new_game(PuzzleOptions::default(), 1).unwrap();
    let mut moves: Vec<(usize, PuzzleAction)> = Vec::new();
    let mut g = start.clone();
    while let Some(seat) = g.mover() {
        if moves.len() == 50 {
            break;
        }
        let a = g.default_action(seat);
        g.play(seat, a.x, a.y).unwrap();
        moves.push((seat, a));
    }
    let mut group = c.benchmark_group("puzzle_apply");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("actions", |b| {
        b.iter(|| {
            let mut g = start.clone();
            for (seat, a) in &moves {
                g.play(*seat, a.x, a.y).unwrap();
            }
            black_box(g)
        })
    });
    group.finish();

    let mid = midgame();
    let seat = mid.mover().unwrap();
    let mut group = c.benchmark_group("puzzle_ai");
    group.sample_size(20);
    for level in ["greedy", "default", "default:8"] {
        group.bench_function(level, |b| {
            b.iter(|| {
                black_box(mid.ai_action(
                    seat,
                    level,
                    AiBudget {
                        iterations: None,
                        deadline: None,
                    },
                    7,
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
