//! Invisible solver speed at the spec's largest size (n = m = 50).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use games::cards::deal::deal;
use games::cards::rules::{Move, Position};
use games::cards::solver::{Solver, solve};

fn bench(c: &mut Criterion) {
    // Seeded deals: 25% jams (the game's default mix) and no jams at all.
    let mixed = deal(50, 50, 1_000_000, 25, 1);
    let no_jam = deal(50, 50, 1_000_000, 0, 2);
    c.bench_function("cards solve n=m=50 (25% jams)", |b| {
        b.iter(|| solve(black_box(&mixed[0]), black_box(&mixed[1])))
    });
    c.bench_function("cards solve n=m=50 (no jams)", |b| {
        b.iter(|| solve(black_box(&no_jam[0]), black_box(&no_jam[1])))
    });
    // The simple O(n·m·min(n, m)) chain-walk builder, for comparison.
    c.bench_function("cards solve n=m=50 (25% jams, chain walk)", |b| {
        b.iter(|| Solver::new_by_chains(black_box(&mixed[0]), black_box(&mixed[1])).root_value())
    });
    // What the `exact` AI does each turn: solve, then value both moves
    // from a mid-game position with a non-empty stack.
    let mut pos = Position::new(mixed.clone());
    for mv in [Move::Play, Move::Play, Move::Pass, Move::Play, Move::Play] {
        let _ = pos.apply(mv);
    }
    c.bench_function("cards exact AI move n=m=50", |b| {
        b.iter(|| Solver::for_position(black_box(&pos)).best_move(&pos))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
