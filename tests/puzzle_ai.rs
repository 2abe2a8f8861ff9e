//! The AIs: legal actions at every level, greedy really is greedy, and the
//! default level beats greedy in a small fair match.

use games::puzzle::ai::preview;
use games::puzzle::garbage::{Kind, garbage_sent};
use games::puzzle::{PuzzleDuel, PuzzleOptions, record};
use games::seam::{AiBudget, Game};
use host::ThinkingDeadline;
use std::time::{Duration, Instant};

#[test]
fn every_level_returns_a_legal_action() {
    let g = PuzzleDuel::new_game(PuzzleOptions::default(), 3).unwrap();
    for level in PuzzleDuel::ai_levels()
        .iter()
        .chain(["default:2", "nonsense"].iter())
    {
        let a = g.ai_action(0, level, AiBudget::iterations(20), 1);
        assert!(g.validate(0, &a).is_ok(), "{level}");
    }
    assert_eq!(PuzzleDuel::ai_levels()[0], "default");
}

#[test]
fn greedy_sends_the_most_garbage_now() {
    for seed in 0..20 {
        let g = PuzzleDuel::new_game(PuzzleOptions::default(), seed).unwrap();
        let val = |cells: &[u8]| {
            let (c, o, w) = preview(&g.sides[0].field, cells);
            let (k, n) = garbage_sent(c, o, w);
            if k == Kind::Hard { 2 * n } else { n }
        };
        let best = g
            .groups_of(0)
            .iter()
            .map(|gr| val(&gr.cells))
            .max()
            .unwrap();
        let a = g.ai_action(0, "greedy", AiBudget::iterations(1), 0);
        let i = games::puzzle::field::idx(a.x - 1, a.y - 1);
        let chosen = g.group_at(0, i).unwrap();
        assert_eq!(val(&chosen), best, "seed {seed}");
    }
}

#[test]
fn default_answers_by_an_expired_deadline() {
    let g = PuzzleDuel::new_game(PuzzleOptions::default(), 4).unwrap();
    let budget = AiBudget {
        iterations: None,
        deadline: Some(ThinkingDeadline::at(Instant::now() - Duration::from_millis(1)).stopwatch()),
    };
    let a = g.ai_action(0, "default:64", budget, 1);
    assert!(g.validate(0, &a).is_ok());
}

#[test]
fn default_beats_greedy_in_a_small_match() {
    let levels = vec!["default:1".to_string(), "greedy".to_string()];
    let r = record::tournament(&levels, 6, 12, || AiBudget::iterations(1_000));
    let p = &r[0];
    assert!(p.a_wins > p.b_wins, "{p:?}");
}

/// A stopwatch that expires after `limit` questions and counts them.
#[derive(Debug)]
struct CountingStopwatch {
    limit: u64,
    asked: std::sync::atomic::AtomicU64,
}

impl games::seam::Stopwatch for CountingStopwatch {
    fn expired(&self) -> bool {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            >= self.limit
    }
}

/// Plain `default` keeps deepening (more sampled rounds) while its
/// stopwatch allows, and stops at the first "time is up"; `default:N`
/// takes one round only, so it asks at most once per candidate.
#[test]
fn default_deepens_until_its_stopwatch_expires() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let g = PuzzleDuel::new_game(PuzzleOptions::default(), 6).unwrap();
    let candidates = g.groups_of(0).len() as u64;
    let ask = |level: &str, limit: u64| {
        let watch = Arc::new(CountingStopwatch {
            limit,
            asked: AtomicU64::new(0),
        });
        let budget = AiBudget {
            iterations: None,
            deadline: Some(watch.clone()),
        };
        let a = g.ai_action(0, level, budget, 1);
        assert!(g.validate(0, &a).is_ok(), "{level}");
        watch.asked.load(Ordering::Relaxed)
    };
    // Several rounds' worth of questions, then one "expired" ends it.
    let limit = 3 * candidates + 1;
    assert_eq!(ask("default", limit), limit + 1);
    // A fixed sample count never goes past its one round.
    assert!(ask("default:4", limit) <= candidates);
}

#[test]
fn default_is_reproducible_without_a_clock() {
    let g = PuzzleDuel::new_game(PuzzleOptions::default(), 8).unwrap();
    let a = g.ai_action(0, "default", AiBudget::default(), 5);
    let b = g.ai_action(0, "default", AiBudget::default(), 5);
    assert_eq!((a.x, a.y), (b.x, b.y));
}
