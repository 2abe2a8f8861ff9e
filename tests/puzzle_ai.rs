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
    for level in PuzzleDuel::ai_levels().iter().chain(
        [
            "default:2",
            "default:classic",
            "default:beam=2/s3=1",
            "nonsense",
        ]
        .iter(),
    ) {
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

/// A position after `moves` random removals from the game of `seed`.
fn random_position(seed: u64, moves: u64) -> PuzzleDuel {
    let mut g = PuzzleDuel::new_game(
        PuzzleOptions {
            random_first: seed.is_multiple_of(2),
            ..Default::default()
        },
        seed,
    )
    .unwrap();
    for n in 0..moves {
        let Some(seat) = g.mover() else { break };
        let a = g.ai_action(seat, "random", AiBudget::iterations(1), seed ^ n);
        g.resolve(std::collections::BTreeMap::from([(seat, a)]));
    }
    g
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]

    /// `default` (three removals deep for its best few candidates) names a
    /// group of the mover on any reachable position, and under an iteration
    /// budget the same seed gives the same answer.
    #[test]
    fn default_is_legal_and_deterministic(
        seed in proptest::prelude::any::<u64>(),
        moves in 0u64..60,
        ai_seed in proptest::prelude::any::<u64>(),
        iterations in 1u64..400,
    ) {
        let g = random_position(seed, moves);
        let Some(seat) = g.mover() else { return Ok(()) };
        let a = g.ai_action(seat, "default", AiBudget::iterations(iterations), ai_seed);
        proptest::prop_assert!(g.validate(seat, &a).is_ok(), "{a:?}");
        let b = g.ai_action(seat, "default", AiBudget::iterations(iterations), ai_seed);
        proptest::prop_assert_eq!(a, b);
    }
}

#[test]
fn default_params_name_the_deep_search_and_the_classic_baseline() {
    use games::puzzle::ai::{DEFAULT_BEAM, DEFAULT_SAMPLES, Params, default_params};
    let d = default_params("").unwrap();
    assert_eq!(d, Params::default_level());
    assert_eq!((d.samples, d.beam), (DEFAULT_SAMPLES, DEFAULT_BEAM));
    assert_eq!(default_params("8").unwrap().samples, 8);
    assert_eq!(default_params("8").unwrap().beam, DEFAULT_BEAM);
    assert_eq!(
        default_params("classic").unwrap(),
        Params::classic(DEFAULT_SAMPLES)
    );
    let t = default_params("classic/beam=3/queue=1").unwrap();
    assert_eq!((t.beam, t.queue, t.samples), (3, 1.0, DEFAULT_SAMPLES));
}

/// A mistyped tuning level is refused with what was wrong, not played as
/// the default with the typo ignored; the engine says which levels it
/// accepts, and the host asks it (tests/ratings_ladder.rs, lobby).
#[test]
fn mistyped_puzzle_levels_are_refused() {
    use games::puzzle::ai::default_params;
    for (param, says) in [
        ("classic/bogus=2", "`bogus` is not a parameter"),
        ("beam", "`beam` is not `key=value`"),
        ("beam=many", "must be a finite number"),
        ("second=NaN", "must be a finite number"),
        ("queue=inf", "must be a finite number"),
        ("classicx", "is not `key=value`"),
    ] {
        let e = default_params(param).unwrap_err();
        assert!(e.contains(says), "{param}: {e}");
    }
    for ok in [
        "default",
        "greedy",
        "random",
        "default:8",
        "default:classic",
        "default:beam=3/s3=4",
    ] {
        let got = <PuzzleDuel as Game>::check_ai_level(ok);
        assert!(got.is_ok(), "{ok}: {got:?}");
    }
    for (bad, says) in [
        ("default:bogus=1", "`bogus` is not a parameter"),
        ("greedy:3", "`greedy` takes no parameter"),
        ("genius", "`genius` is not a puzzle AI level"),
        ("default:second=nan", "the value must be a finite number"),
        ("random:x", "`random` takes no parameter"),
    ] {
        let why = <PuzzleDuel as Game>::check_ai_level(bad).unwrap_err();
        assert!(why.contains(says), "{bad}: {why}");
    }
}
