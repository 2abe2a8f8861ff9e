//! Invariants checked after every action of many random games: no floating
//! ball, a full field, ball and garbage conservation, queue order, and a
//! state that survives serialisation.

use games::puzzle::field::{CELLS, Cell, Side};
use games::puzzle::garbage::Kind;
use games::puzzle::record::ai_seed;
use games::puzzle::{PuzzleDuel, PuzzleOptions};
use games::seam::{AiBudget, Game};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn garbage_total(s: &Side) -> u32 {
    let (fh, fs) = s.field.garbage_counts();
    let (qh, qs) = s.queues.garbage_counts();
    fh + fs + qh + qs
}

fn hard_total(s: &Side) -> u32 {
    s.field.garbage_counts().0 + s.queues.garbage_counts().0
}

/// Plays one game with the given levels, checking every action.
fn check_game(seed: u64, levels: [&str; 2], max_actions: usize) {
    let mut g = PuzzleDuel::new_game(
        PuzzleOptions {
            random_first: seed.is_multiple_of(2),
            fair_start: seed.is_multiple_of(3),
            ..Default::default()
        },
        seed,
    )
    .unwrap();
    let mut n = 0;
    while let Some(seat) = g.mover() {
        if n >= max_actions {
            break;
        }
        let other = 1 - seat;
        let before = g.clone();
        let a = g.ai_action(
            seat,
            levels[seat],
            AiBudget::iterations(10),
            ai_seed(seed, n as u64),
        );
        assert!(g.validate(seat, &a).is_ok(), "AI gave an illegal action");
        g.resolve(BTreeMap::from([(seat, a)]));
        let r = g.last.clone().unwrap();
        n += 1;
        for s in &g.sides {
            // Full field: refills leave no hole, and so nothing floats.
            assert!(!s.field.cells.contains(&Cell::Empty));
            assert!(s.field.is_settled());
        }
        // Mover: garbage removed leaves; weakening turns hard into soft;
        // nothing else changes the mover's garbage total.
        let (b, a_) = (&before.sides[seat], &g.sides[seat]);
        assert_eq!(garbage_total(a_) + r.o, garbage_total(b), "mover garbage");
        assert!(hard_total(a_) <= hard_total(b));
        assert_eq!(hard_total(b) - hard_total(a_), r.w, "hard hits");
        // Mover's queues: only popped from the front.
        for x in 0..9 {
            let old: Vec<Kind> = b.queues.0[x].iter().copied().collect();
            let new: Vec<Kind> = a_.queues.0[x].iter().copied().collect();
            assert!(old.ends_with(&new), "queue {x} popped out of order");
        }
        // Opponent: its field is untouched, its queues only grow at the
        // back with the garbage sent.
        let (b, a_) = (&before.sides[other], &g.sides[other]);
        assert_eq!(b.field, a_.field);
        let mut pushed = 0;
        for x in 0..9 {
            let old: Vec<Kind> = b.queues.0[x].iter().copied().collect();
            let new: Vec<Kind> = a_.queues.0[x].iter().copied().collect();
            assert!(new.starts_with(&old), "queue {x} not appended");
            for k in &new[old.len()..] {
                assert_eq!(Some(*k), r.sent_kind);
                pushed += 1;
            }
        }
        assert_eq!(pushed, r.sent_count);
        // Ball conservation on the mover's field: removed balls were
        // replaced one for one.
        assert_eq!(
            g.sides[seat]
                .field
                .cells
                .iter()
                .filter(|c| **c != Cell::Empty)
                .count(),
            CELLS
        );
        assert_eq!(r.c as usize, r.size as usize);
        assert!(r.c >= 5);
    }
    // The serialised state reloads to the same game and stays small.
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.len() < 4000, "state is {} bytes", json.len());
    let back: PuzzleDuel = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
}

#[test]
fn invariants_hold_in_full_games() {
    for seed in 0..6 {
        check_game(seed, ["random", "greedy"], 400);
    }
    check_game(100, ["default:1", "random"], 400);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn invariants_hold_for_random_seeds(seed in any::<u64>()) {
        check_game(seed, ["random", "random"], 120);
    }

    #[test]
    fn parse_action_never_panics(text in ".{0,12}", seed in 0u64..50, seat in 0usize..3) {
        let g = PuzzleDuel::new_game(PuzzleOptions::default(), seed).unwrap();
        if let Ok(a) = g.parse_action(seat, &text) {
            prop_assert!(g.validate(seat, &a).is_ok());
        }
    }

    #[test]
    fn the_same_seed_and_moves_replay_exactly(seed in any::<u64>()) {
        let mut a = PuzzleDuel::new_game(PuzzleOptions::default(), seed).unwrap();
        let mut b = a.clone();
        for n in 0..20u64 {
            let Some(seat) = a.mover() else { break };
            let act = a.ai_action(seat, "random", AiBudget::iterations(1), n);
            a.resolve(BTreeMap::from([(seat, act)]));
            b.resolve(BTreeMap::from([(seat, act)]));
            prop_assert_eq!(&a, &b);
        }
    }
}
