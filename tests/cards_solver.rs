//! The Invisible solver against the spec's example, an independent brute
//! force that keeps the whole stack, and metamorphic properties.

use std::collections::HashMap;

use games::cards::rules::{JAM, Move, Position};
use games::cards::solver::{Solver, solve};
use proptest::prelude::*;

/// (next card of each deck, seat to move, whole stack, last move was a pass on an empty stack)
type Key = (usize, usize, usize, Vec<(usize, i64)>, bool);

/// Brute-force minimax straight from the spec's wording: the state is the
/// whole stack (owner, card), memoised on everything but the scores.
struct Brute<'a> {
    a: &'a [i64],
    b: &'a [i64],
    memo: HashMap<Key, i64>,
}

impl<'a> Brute<'a> {
    fn new(a: &'a [i64], b: &'a [i64]) -> Self {
        Brute {
            a,
            b,
            memo: HashMap::new(),
        }
    }

    /// Points each player scores from `stack` per the spec: own score cards
    /// above every jam the opponent put there.
    fn score(stack: &[(usize, i64)]) -> [i64; 2] {
        let mut pts = [0; 2];
        for (p, pt) in pts.iter_mut().enumerate() {
            let top_opp_jam = stack.iter().rposition(|&(o, c)| o != p && c == JAM);
            let from = top_opp_jam.map_or(0, |k| k + 1);
            *pt = stack[from..]
                .iter()
                .filter(|&&(o, c)| o == p && c != JAM)
                .map(|&(_, c)| c)
                .sum();
        }
        pts
    }

    /// P1 − P2 of what is still to be scored.
    fn future(
        &mut self,
        i: usize,
        j: usize,
        t: usize,
        stack: Vec<(usize, i64)>,
        passed_empty: bool,
    ) -> i64 {
        let key = (i, j, t, stack.clone(), passed_empty);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut options = Vec::new();
        // Pass.
        if stack.is_empty() {
            if passed_empty {
                options.push(0);
            } else {
                options.push(self.future(i, j, 1 - t, Vec::new(), true));
            }
        } else {
            let s = Self::score(&stack);
            options.push(s[0] - s[1] + self.future(i, j, 1 - t, Vec::new(), false));
        }
        // Play.
        let deck = if t == 0 { self.a } else { self.b };
        let k = if t == 0 { i } else { j };
        if k < deck.len() {
            let mut st = stack.clone();
            st.push((t, deck[k]));
            let (ni, nj) = if t == 0 { (i + 1, j) } else { (i, j + 1) };
            options.push(self.future(ni, nj, 1 - t, st, false));
        }
        let v = if t == 0 {
            *options.iter().max().unwrap()
        } else {
            *options.iter().min().unwrap()
        };
        self.memo.insert(key, v);
        v
    }

    fn root(&mut self) -> i64 {
        self.future(0, 0, 0, Vec::new(), false)
    }
}

fn card() -> impl Strategy<Value = i64> {
    prop_oneof![1 => Just(JAM), 3 => 1i64..=20]
}

fn deck(max: usize) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(card(), 1..=max)
}

#[test]
fn spec_example_is_minus_100() {
    assert_eq!(solve(&[100, -1], &[200, 300]), -100);
    let mut b = Brute::new(&[100, -1], &[200, 300]);
    assert_eq!(b.root(), -100);
}

#[test]
fn tiny_hand_checked_cases() {
    // P1 plays 5 and P2 jams it, or nobody plays: nothing is ever scored.
    assert_eq!(solve(&[5], &[JAM]), 0);
    // P1 plays 5, P2 answers with 1 (better for P2 than letting 5 through
    // alone), P1 has nothing left and must pass: 5 - 1.
    assert_eq!(solve(&[5], &[1]), 4);
    // Only jams: nobody can score.
    assert_eq!(solve(&[JAM, JAM], &[JAM]), 0);
}

/// Pins how the end rule is read (see `rules.rs`): the game ends after two
/// passes *on an empty stack*. Here P2 can answer P1's clearing pass by
/// passing, and P1 then still gets to move; under the other reading (any two
/// passes in a row end the game) this position would be worth 0, not -1.
/// The spec's example is -100 under both readings.
#[test]
fn end_rule_needs_two_passes_on_an_empty_stack() {
    assert_eq!(solve(&[1, JAM], &[1, 1, 1]), -1);
    let mut b = Brute::new(&[1, JAM], &[1, 1, 1]);
    assert_eq!(b.root(), -1);
}

#[test]
fn full_size_decks_solve() {
    let decks = games::cards::deal::deal(50, 50, 1_000_000, 25, 42);
    let v = solve(&decks[0], &decks[1]);
    let p1: i64 = decks[0].iter().filter(|&&c| c > 0).sum();
    let p2: i64 = decks[1].iter().filter(|&&c| c > 0).sum();
    assert!(-p2 <= v && v <= p1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn solver_matches_brute_force(a in deck(6), b in deck(6)) {
        let mut brute = Brute::new(&a, &b);
        prop_assert_eq!(solve(&a, &b), brute.root());
    }

    /// From positions reached by random play (stack possibly non-empty), the
    /// value and every action value agree with the brute force.
    #[test]
    fn mid_game_values_match_brute_force(a in deck(5), b in deck(5), moves in prop::collection::vec(any::<bool>(), 0..14)) {
        let solver = Solver::new(&a, &b);
        let mut brute = Brute::new(&a, &b);
        let mut pos = Position::new([a.clone(), b.clone()]);
        for play in moves {
            if pos.over { break; }
            let mv = if play && pos.can_play() { Move::Play } else { Move::Pass };
            pos.apply(mv).unwrap();
        }
        let bv = |brute: &mut Brute, p: &Position| {
            if p.over { p.score_diff() } else {
                p.score_diff() + brute.future(p.next[0], p.next[1], p.to_move, p.stack.clone(), p.passed_on_empty)
            }
        };
        prop_assert_eq!(solver.value(&pos), bv(&mut brute, &pos));
        for (mv, v) in solver.action_values(&pos) {
            let mut next = pos.clone();
            next.apply(mv).unwrap();
            prop_assert_eq!(v, bv(&mut brute, &next));
        }
    }

    /// Scaling every score card by k scales the value by k.
    #[test]
    fn scaling_scores_scales_value(a in deck(12), b in deck(12), k in 1i64..=50) {
        let scale = |d: &[i64]| d.iter().map(|&c| if c == JAM { JAM } else { c * k }).collect::<Vec<_>>();
        prop_assert_eq!(solve(&scale(&a), &scale(&b)), k * solve(&a, &b));
    }

    /// Raising one of player 1's score cards never lowers the value.
    #[test]
    fn raising_p1_card_never_lowers_value(a in deck(12), b in deck(12), at in any::<prop::sample::Index>(), up in 0i64..=30) {
        let k = at.index(a.len());
        prop_assume!(a[k] != JAM);
        let mut raised = a.clone();
        raised[k] += up;
        prop_assert!(solve(&raised, &b) >= solve(&a, &b));
    }

    /// Raising one of player 2's score cards never raises the value.
    #[test]
    fn raising_p2_card_never_raises_value(a in deck(12), b in deck(12), at in any::<prop::sample::Index>(), up in 0i64..=30) {
        let k = at.index(b.len());
        prop_assume!(b[k] != JAM);
        let mut raised = b.clone();
        raised[k] += up;
        prop_assert!(solve(&a, &raised) <= solve(&a, &b));
    }

    /// Swapping the decks and who moves first negates the value.
    #[test]
    fn swapping_roles_negates(a in deck(12), b in deck(12)) {
        let v = Solver::new(&a, &b).root_value();
        prop_assert_eq!(Solver::new(&b, &a).root_value_with_first(1), -v);
    }

    /// A player can always pass, so a player without score cards cannot gain:
    /// the value lies between −(P2's card total) and P1's card total, and has
    /// the sign forced when one side has no score card.
    #[test]
    fn value_bounds(a in deck(12), b in deck(12)) {
        let v = solve(&a, &b);
        let s1: i64 = a.iter().filter(|&&c| c != JAM).sum();
        let s2: i64 = b.iter().filter(|&&c| c != JAM).sum();
        prop_assert!(-s2 <= v && v <= s1);
        if s2 == 0 { prop_assert!(v >= 0); }
        if s1 == 0 { prop_assert!(v <= 0); }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The O(n·m) lane construction gives exactly the chain-walk tables.
    #[test]
    fn lane_tables_equal_chain_tables(a in deck(30), b in deck(30)) {
        prop_assert!(Solver::new(&a, &b).same_tables(&Solver::new_by_chains(&a, &b)));
    }

    /// Same at full size with realistic values and jam rates.
    #[test]
    fn lane_tables_equal_chain_tables_full_size(seed in any::<u64>(), jam in 0u8..=100) {
        let d = games::cards::deal::deal(50, 50, 1_000_000, jam, seed);
        prop_assert!(Solver::new(&d[0], &d[1]).same_tables(&Solver::new_by_chains(&d[0], &d[1])));
    }
}
