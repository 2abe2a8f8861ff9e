//! The leaf evaluation and its fit to solved positions (`gamehost battle
//! fit-eval`): the fitter recovers known weights, solved samples are
//! seeded and well-formed, a race the turn limit cuts short reads as a
//! draw, and the command refuses bad arguments with the accepted range.

use gamehost::cli::battle::{FitEvalArgs, fit_eval};
use games::battle::ai::eval::{self, Features, Weights};
use games::battle::ai::fit::{self, Sample};
use games::battle::rules::data::Roster;
use games::battle::{Battle, BattleOptions};

/// Features spread over their range by a fixed sequence (no generator).
fn grid_features() -> Vec<Features> {
    let mut out = Vec::new();
    for i in 0..21 {
        for j in 0..21 {
            for k in 0..5 {
                let race = -1.0 + 0.1 * f64::from(i);
                let material = -1.0 + 0.1 * f64::from(j);
                let alive = -1.0 + 0.5 * f64::from(k);
                out.push(Features {
                    race,
                    material: 0.5 * material + 0.3 * race,
                    alive,
                    past_limit: false,
                });
            }
        }
    }
    out
}

#[test]
fn the_fit_recovers_the_weights_that_made_the_values() {
    let truth = Weights {
        race: 1.4,
        material: 0.6,
        alive: 0.3,
        squash: true,
    };
    let samples: Vec<Sample> = grid_features()
        .into_iter()
        .map(|features| Sample {
            features,
            value: truth.value(&features),
        })
        .collect();
    let fitted = fit::fit(&samples);
    assert!(fitted.squash);
    for (got, want) in [
        (fitted.race, truth.race),
        (fitted.material, truth.material),
        (fitted.alive, truth.alive),
    ] {
        assert!(
            (got - want).abs() < 0.05,
            "fitted {fitted:?}, truth {truth:?}"
        );
    }
    assert!(fit::mean_squared_error(&samples, &fitted) < 1e-4);
    assert!(fit::mean_squared_error(&samples, &Weights::HAND) > 0.01);
    // No samples: the hand-set weights in the squashed form, not a panic.
    let empty = fit::fit(&[]);
    assert_eq!(empty.race, eval::RACE_WEIGHT);
    assert_eq!(fit::mean_squared_error(&[], &empty), 0.0);
}

#[test]
fn solved_samples_are_seeded_and_well_formed() {
    let roster = Roster::builtin();
    let mut solved = 0;
    for index in 0..12 {
        let a = fit::solved_samples(roster, 2, 7, index, 50, 20_000);
        let b = fit::solved_samples(roster, 2, 7, index, 50, 20_000);
        assert_eq!(a, b, "battle {index} is not reproducible");
        let Some(samples) = a else { continue };
        solved += 1;
        assert!(!samples.is_empty() && samples.len() <= 50);
        for s in &samples {
            assert!((-1.0..=1.0).contains(&s.value), "{s:?}");
            let f = &s.features;
            for x in [f.race, f.material, f.alive] {
                assert!((-1.0..=1.0).contains(&x), "{s:?}");
            }
        }
    }
    assert!(solved >= 2, "only {solved} of 12 battles solved");
}

#[test]
fn a_race_the_turn_limit_cuts_short_is_a_draw() {
    let options = BattleOptions {
        team_size: 3,
        turn_limit: Some(100),
        ..Default::default()
    };
    let battle = Battle::with_roster(Roster::builtin(), &options, 11).unwrap();
    let (setup, mut pos) = (battle.setup().clone(), *battle.pos());
    let early = eval::features(&setup, &pos);
    assert!(!early.past_limit, "{early:?}");
    // One turn left: three full teams cannot all fall in one exchange.
    pos.turn = 99;
    let late = eval::features(&setup, &pos);
    assert!(late.past_limit, "{late:?}");
    let fitted = Weights {
        squash: true,
        ..Weights::HAND
    };
    assert_eq!(fitted.value(&late), 0.0);
    // The hand-set form ignores the limit, as the search always did.
    assert_eq!(Weights::HAND.value(&late), Weights::HAND.value(&early));
    assert_eq!(
        eval::evaluate(&setup, battle.pos()),
        Weights::HAND.value(&early)
    );
}

#[test]
fn fit_eval_refuses_bad_arguments_and_reports_out_of_sample() {
    let args = FitEvalArgs {
        roots: 16,
        per_root: 40,
        seed: 3,
        max_states: 20_000,
        threads: 2,
    };
    for (bad, expected) in [
        (
            FitEvalArgs {
                roots: 1,
                ..args.clone()
            },
            "--roots is 2 to 100000, got 1",
        ),
        (
            FitEvalArgs {
                per_root: 0,
                ..args.clone()
            },
            "--per-root is 1 to 100000, got 0",
        ),
        (
            FitEvalArgs {
                max_states: 1,
                ..args.clone()
            },
            "could be solved under 1 states",
        ),
    ] {
        let err = fit_eval(&bad).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}");
    }
    let one = fit_eval(&args).unwrap();
    let again = fit_eval(&FitEvalArgs {
        threads: 1,
        ..args.clone()
    })
    .unwrap();
    assert!(one.roots >= 2 && one.samples > 0, "{one:?}");
    assert_eq!(one.fitted, again.fitted, "threads changed the fit");
    assert_eq!(one.held_out_error, again.held_out_error);
    assert!(one.held_out_error.0 > 0.0 && one.held_out_error.1 > 0.0);
}
