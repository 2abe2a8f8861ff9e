//! Battle benches: simulated turns per second, random playouts per second,
//! and the default AI's decision time at its default budget.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use games::battle::ai::{self, Level, mc};
use games::battle::engine;
use games::battle::{Battle, BattleOptions};
use games::seam::{AiBudget, Game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn battle(seed: u64) -> Battle {
    Battle::new_game(BattleOptions::default(), seed).unwrap()
}

fn benches(c: &mut Criterion) {
    let b = battle(7);
    let setup = b.setup().clone();
    let start = *b.pos();

    let mut g = c.benchmark_group("battle");
    // One turn = both seats' random playout actions applied to a position.
    g.throughput(Throughput::Elements(1000));
    g.bench_function("1000 simulated turns", |bench| {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        bench.iter(|| {
            let mut p = start;
            for _ in 0..1000 {
                if p.result.is_some() {
                    p = start;
                }
                let a = [0, 1].map(|x| mc::playout_act(&setup, &p, x, &mut rng));
                engine::apply(&setup, &mut p, a, &mut rng, &mut ());
            }
            black_box(p)
        })
    });
    g.throughput(Throughput::Elements(100));
    g.bench_function("100 playouts", |bench| {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        bench.iter(|| {
            for _ in 0..100 {
                let mut p = start;
                black_box(mc::playout(&setup, &mut p, &mut rng));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("battle decision");
    g.sample_size(10);
    g.bench_function("default AI, default budget, first turn", |bench| {
        let mut s = 0;
        bench.iter(|| {
            s += 1;
            black_box(ai::choose(
                &setup,
                &start,
                0,
                &Level::Default,
                AiBudget {
                    iterations: None,
                    deadline: None,
                },
                s,
            ))
        })
    });
    g.bench_function("mc:1000, first turn", |bench| {
        let mut s = 0;
        bench.iter(|| {
            s += 1;
            black_box(ai::choose(
                &setup,
                &start,
                0,
                &Level::Mc(1000),
                AiBudget {
                    iterations: None,
                    deadline: None,
                },
                s,
            ))
        })
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
