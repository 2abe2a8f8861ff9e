//! The battle AIs on random positions: every level answers legally and
//! stops asking the stopwatch once it says the time is up (the endgame
//! solver included), `mix` is reproducible under an iteration budget, and
//! the solver gives up when told to.

use games::battle::ai::{self, Level};
use games::battle::engine;
use games::battle::solver::{ENDGAME_MAX_STATES, Solution};
use games::battle::{Battle, BattleOptions};
use games::seam::{AiBudget, Game, Stopwatch};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A stopwatch that expires after it has been asked `limit` times and
/// counts the questions: a clock-free check that an AI honours its deadline.
#[derive(Debug)]
struct CountingStopwatch {
    limit: u64,
    asked: AtomicU64,
}

impl Stopwatch for CountingStopwatch {
    fn expired(&self) -> bool {
        self.asked.fetch_add(1, Ordering::Relaxed) >= self.limit
    }
}

/// A random position: a battle of `size` monsters a side played `turns`
/// turns by the random AI (or to its end).
fn random_position(seed: u64, size: usize, turns: u64) -> Battle {
    let mut b = Battle::new_game(
        BattleOptions {
            team_size: size,
            ..Default::default()
        },
        seed,
    )
    .unwrap();
    for t in 0..turns {
        if b.pos().result.is_some() {
            break;
        }
        let mut acts = [None, None];
        for (x, slot) in acts.iter_mut().enumerate() {
            if b.pos().awaits(x) {
                *slot = Some(ai::choose(
                    b.setup(),
                    b.pos(),
                    x,
                    &Level::Random,
                    AiBudget::default(),
                    seed ^ t,
                ));
            }
        }
        b.apply_acts(acts);
    }
    b
}

#[test]
fn every_level_answers_legally_and_stops_when_its_time_is_up() {
    let levels = [
        "default", "duct", "mix", "mc:200", "greedy", "random", "exact",
    ];
    for seed in 0..16u64 {
        let b = random_position(seed, 1 + (seed % 3) as usize, seed * 7 % 30);
        if b.pos().result.is_some() {
            continue;
        }
        for x in 0..2 {
            if !b.pos().awaits(x) {
                continue;
            }
            for name in levels {
                let level = Level::parse(name).unwrap();
                let limit = seed % 3;
                let watch = Arc::new(CountingStopwatch {
                    limit,
                    asked: AtomicU64::new(0),
                });
                let budget = AiBudget {
                    iterations: Some(5_000),
                    deadline: Some(watch.clone()),
                };
                let a = ai::choose(b.setup(), b.pos(), x, &level, budget, seed);
                assert!(engine::is_legal(b.setup(), b.pos(), x, a), "{name} {a:?}");
                // The endgame solver and the search each stop at their
                // first "expired": at most one question each after it.
                let asked = watch.asked.load(Ordering::Relaxed);
                assert!(
                    asked <= limit + 2,
                    "{name}: asked {asked} times (limit {limit})"
                );
            }
        }
    }
}

#[test]
fn mix_is_reproducible_under_an_iteration_budget_and_mixes() {
    let mut differs = false;
    for seed in 0..6u64 {
        let b = random_position(seed, 3, 2);
        let level = Level::parse("mix:800").unwrap();
        let a = ai::choose(b.setup(), b.pos(), 0, &level, AiBudget::default(), 9);
        let c = ai::choose(b.setup(), b.pos(), 0, &level, AiBudget::default(), 9);
        assert_eq!(a, c);
        let strategy = games::battle::ai::search::root_strategy(
            b.setup(),
            b.pos(),
            0,
            &AiBudget::default(),
            800,
            &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed),
        );
        let total: f64 = strategy.iter().map(|s| s.1).sum();
        assert!((total - 1.0).abs() < 1e-9, "{strategy:?}");
        for (act, p) in &strategy {
            assert!(*p > 0.0 && engine::is_legal(b.setup(), b.pos(), 0, *act));
        }
        differs |= strategy.len() > 1;
    }
    // Somewhere among these openings the equilibrium is a real mixture.
    assert!(differs);
}

#[test]
fn the_solver_gives_up_when_told_and_agrees_when_not() {
    for seed in 0..6u64 {
        let b = random_position(seed, 1, 0);
        let full = Solution::solve(b.setup(), b.pos(), ENDGAME_MAX_STATES);
        let free = Solution::solve_within(b.setup(), b.pos(), ENDGAME_MAX_STATES, &|| false);
        assert_eq!(full.is_some(), free.is_some());
        if let (Some(f), Some(g)) = (&full, &free) {
            assert_eq!(f.value(b.pos()), g.value(b.pos()));
            assert!(
                Solution::solve_within(b.setup(), b.pos(), ENDGAME_MAX_STATES, &|| true).is_none()
            );
        }
    }
}

#[test]
fn an_endgame_is_solved_once_and_later_turns_are_lookups() {
    use games::battle::solver::cached_solve;
    let mut solved = 0;
    for seed in 0..8u64 {
        let b = random_position(seed, 1, 1);
        if b.pos().result.is_some() {
            continue;
        }
        let budget = AiBudget::iterations(1);
        let Some(first) = cached_solve(b.setup(), b.pos(), ENDGAME_MAX_STATES, &budget) else {
            continue;
        };
        solved += 1;
        let fresh = Solution::solve(b.setup(), b.pos(), ENDGAME_MAX_STATES).unwrap();
        assert_eq!(first.value(b.pos()), fresh.value(b.pos()));
        // A later turn of the same battle is found in the cached solution.
        let mut later = b.clone();
        let mut acts = [None, None];
        for (x, slot) in acts.iter_mut().enumerate() {
            if later.pos().awaits(x) {
                *slot = engine::legal(later.setup(), later.pos(), x)
                    .as_slice()
                    .first()
                    .copied();
            }
        }
        later.apply_acts(acts);
        if later.pos().result.is_none() {
            let again =
                cached_solve(later.setup(), later.pos(), ENDGAME_MAX_STATES, &budget).unwrap();
            assert!(
                Arc::ptr_eq(&first, &again) || again.value(later.pos()) == fresh.value(later.pos())
            );
            assert_eq!(again.value(later.pos()), fresh.value(later.pos()));
        }
    }
    assert!(solved >= 3, "only {solved} endgames solved");
}

#[test]
fn default_and_hedge_are_deterministic_under_an_iteration_budget_on_random_positions() {
    for seed in 0..8u64 {
        let b = random_position(seed, 1 + (seed % 3) as usize, seed % 5);
        if b.pos().result.is_some() {
            continue;
        }
        for x in 0..2 {
            if !b.pos().awaits(x) {
                continue;
            }
            let level = Level::parse("default").unwrap();
            let a = ai::choose(
                b.setup(),
                b.pos(),
                x,
                &level,
                AiBudget::iterations(2_000),
                seed,
            );
            let c = ai::choose(
                b.setup(),
                b.pos(),
                x,
                &level,
                AiBudget::iterations(2_000),
                seed,
            );
            assert_eq!(a, c, "seed {seed} seat {x}");
            assert!(engine::is_legal(b.setup(), b.pos(), x, a));
        }
    }
}

#[test]
fn a_finished_battle_says_who_won_and_the_score() {
    // Random play to the end; the status counts the monsters still standing.
    let mut wins = 0;
    for seed in 1..=5u64 {
        let b = random_position(seed, 3, 500);
        let Some(engine::Res::Win(x)) = b.pos().result else {
            continue;
        };
        let x = usize::from(x);
        let status = b.view(None).status;
        let (won, lost) = (b.pos().alive(b.setup(), x), b.pos().alive(b.setup(), 1 - x));
        assert!(won >= 1 && lost == 0, "seed {seed}: {status}");
        assert!(
            status.starts_with(&format!("Player {} won, {won} monster", x + 1))
                && status.contains(&format!("standing to {lost}, after {} turns", b.pos().turn)),
            "seed {seed}: {status}"
        );
        wins += 1;
    }
    assert!(wins >= 3, "only {wins} of 5 random battles were won");
}
