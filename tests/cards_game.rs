//! Invisible through the `Game` seam, as the host drives it.

use std::collections::BTreeMap;

use games::cards::{Invisible, InvisibleOptions, Move, Solver};
use games::seam::{AiBudget, ChoiceStyle, Game, Outcome};
use proptest::prelude::*;

fn new(opts: InvisibleOptions, seed: u64) -> Invisible {
    Invisible::new_game(opts, seed).unwrap()
}

/// Plays a game to the end with the given AI level per seat, checking the
/// seam's contract on every turn; returns the final game.
fn play_out(mut g: Invisible, levels: [&str; 2], seed: u64) -> Invisible {
    for turn in 0..1000u64 {
        let awaiting = g.awaiting();
        if awaiting.is_empty() {
            assert!(g.outcome().is_some());
            return g;
        }
        assert_eq!(awaiting.len(), 1);
        let seat = awaiting[0];
        let other = 1 - seat;
        assert!(g.view(Some(other)).choices.is_empty());
        let view = g.view(Some(seat));
        assert!(!view.choices.is_empty());
        for c in &view.choices {
            assert_eq!(c.style, ChoiceStyle::Button);
            assert!(g.parse_action(seat, &c.text).is_ok(), "{c:?}");
        }
        assert!(
            view.board.lines().all(|l| l.chars().count() < 80),
            "{}",
            view.board
        );
        let mv = g.ai_action(seat, levels[seat], AiBudget::iterations(1), seed ^ turn);
        g.validate(seat, &mv).unwrap();
        // The host stores the state between turns.
        let stored = serde_json::to_string(&g).unwrap();
        g = serde_json::from_str(&stored).unwrap();
        g.resolve(BTreeMap::from([(seat, mv)]));
    }
    panic!("game did not end");
}

fn diff(g: &Invisible) -> i64 {
    g.position().score_diff()
}

#[test]
fn options_from_empty_json() {
    let o: InvisibleOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(o, InvisibleOptions::default());
    let g = new(o, 1);
    assert_eq!(Invisible::seat_count(&InvisibleOptions::default()), 2);
    assert_eq!(g.awaiting(), vec![0]);
    let o: InvisibleOptions =
        serde_json::from_str(r#"{"decks": [[100, -1], [200, 300]]}"#).unwrap();
    let g = new(o, 1);
    assert_eq!(g.position().decks, [vec![100, -1], vec![200, 300]]);
    let bad: InvisibleOptions = serde_json::from_str(r#"{"n": 51}"#).unwrap();
    assert!(Invisible::new_game(bad, 1).is_err());
    let bad: InvisibleOptions = serde_json::from_str(r#"{"decks": [[], [1]]}"#).unwrap();
    assert!(Invisible::new_game(bad, 1).is_err());
}

#[test]
fn same_seed_same_deal() {
    let a = new(InvisibleOptions::default(), 9);
    let b = new(InvisibleOptions::default(), 9);
    let c = new(InvisibleOptions::default(), 10);
    assert_eq!(a.position().decks, b.position().decks);
    assert_ne!(a.position().decks, c.position().decks);
}

#[test]
fn spec_example_played_exactly_ends_at_minus_100() {
    let o = InvisibleOptions {
        decks: Some((vec![100, -1], vec![200, 300])),
        ..Default::default()
    };
    let g = play_out(new(o, 0), ["exact", "exact"], 0);
    assert_eq!(diff(&g), -100);
    assert_eq!(g.outcome(), Some(Outcome::Win(1)));
    assert!(g.view(None).status.contains("Player 2 wins"));
}

#[test]
fn exact_vs_exact_reaches_solver_value() {
    for seed in 0..20 {
        let opts = InvisibleOptions {
            n: 20,
            m: 20,
            ..Default::default()
        };
        let g = new(opts, seed);
        let v = Solver::for_position(g.position()).root_value();
        let end = play_out(g, ["exact", "exact"], seed);
        assert_eq!(diff(&end), v, "seed {seed}");
    }
}

#[test]
fn exact_guarantees_its_value_against_random() {
    for seed in 0..20 {
        let g = new(InvisibleOptions::default(), seed);
        let v = Solver::for_position(g.position()).root_value();
        let p1 = play_out(g.clone(), ["exact", "random"], seed);
        assert!(diff(&p1) >= v, "seed {seed}: {} < {v}", diff(&p1));
        let p2 = play_out(g, ["random", "exact"], seed);
        assert!(diff(&p2) <= v, "seed {seed}: {} > {v}", diff(&p2));
    }
}

#[test]
fn wrong_turn_and_empty_deck_are_refused_with_hints() {
    let o = InvisibleOptions {
        decks: Some((vec![5], vec![7])),
        ..Default::default()
    };
    let mut g = new(o, 0);
    let e = g.parse_action(1, "play").unwrap_err();
    assert!(e.problem.contains("not your turn"));
    let e = g.parse_action(0, "dance").unwrap_err();
    assert!(e.problem.contains("dance"));
    assert!(e.expected.contains("`play`") && e.expected.contains("`pass`"));
    assert_eq!(g.parse_action(0, " P ").unwrap(), Move::Play);
    g.resolve(BTreeMap::from([(0, Move::Play)]));
    g.resolve(BTreeMap::from([(1, Move::Play)]));
    let e = g.parse_action(0, "play").unwrap_err();
    assert!(e.problem.contains("deck is empty"));
    assert!(e.expected.contains("only legal move is `pass`"));
    let labels: Vec<String> = g
        .view(Some(0))
        .choices
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert_eq!(labels, vec!["Pass (you +5, opponent +7)".to_string()]);
    // An illegal stored action resolves as a pass.
    let r = g.resolve(BTreeMap::from([(0, Move::Play)]));
    assert!(r.public.contains("passes"), "{}", r.public);
    assert_eq!(g.position().scores, [5, 7]);
}

#[test]
fn passes_end_the_game_and_forfeit_decides_it() {
    let mut g = new(InvisibleOptions::default(), 3);
    g.resolve(BTreeMap::from([(0, Move::Pass)]));
    assert_eq!(
        g.view(Some(1))
            .choices
            .iter()
            .find(|c| c.text == "pass")
            .unwrap()
            .label,
        "Pass (ends the game)"
    );
    g.resolve(BTreeMap::from([(1, Move::Pass)]));
    assert_eq!(g.outcome(), Some(Outcome::Draw(vec![0, 1])));
    assert!(g.awaiting().is_empty());
    assert!(g.parse_action(0, "pass").is_err());

    let mut g = new(InvisibleOptions::default(), 3);
    g.resolve(BTreeMap::from([(0, Move::Play)]));
    g.forfeit(1);
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert!(g.awaiting().is_empty());
    assert_eq!(g.default_action(0), Move::Pass);
}

#[test]
fn ai_levels_and_unknown_level() {
    assert_eq!(Invisible::ai_levels()[0], "exact");
    assert!(Invisible::ai_levels().contains(&"random"));
    let g = new(InvisibleOptions::default(), 5);
    let mv = g.ai_action(0, "no-such-level", AiBudget::iterations(1), 0);
    g.validate(0, &mv).unwrap();
}

proptest! {
    #[test]
    fn parse_action_never_panics(text in ".{0,200}", seat in 0usize..4, seed in any::<u64>()) {
        let g = new(InvisibleOptions::default(), seed);
        if let Err(e) = g.parse_action(seat, &text) {
            prop_assert!(!e.problem.is_empty() && !e.expected.is_empty());
        }
    }

    #[test]
    fn random_games_end_legally(seed in any::<u64>(), n in 1usize..=50, m in 1usize..=50) {
        let opts = InvisibleOptions { n, m, max_value: 1_000_000, ..Default::default() };
        let g = play_out(new(opts, seed), ["random", "random"], seed);
        prop_assert!(g.outcome().is_some());
    }
}
