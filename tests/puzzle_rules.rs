//! Rules of the puzzle duel: garbage formula, catching garbage, gravity and
//! refills, group finding, turn order, end of the game, notation and view.

use games::puzzle::engine::remove_group;
use games::puzzle::field::{CELLS, Cell, Field, HEIGHT, Queues, Side, WIDTH, idx};
use games::puzzle::garbage::{Kind, garbage_sent};
use games::puzzle::groups::{component_of, find_groups};
use games::puzzle::{EndReason, PuzzleAction, PuzzleDuel, PuzzleOptions, notation};
use games::seam::{ChoiceStyle, Game, Outcome};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

/// A full field with no two equal neighbours (so no group at all).
fn no_group_field() -> Field {
    let mut cells = [Cell::Empty; CELLS];
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            cells[idx(x, y)] = Cell::Color(((x + 2 * y) % 3) as u8);
        }
    }
    Field { cells }
}

/// `no_group_field` with the bottom rows replaced by `rows`.
fn field_with_bottom(rows: &str) -> Field {
    let drawn = Field::parse(rows).unwrap();
    let mut f = no_group_field();
    for i in 0..CELLS {
        if drawn.cells[i] != Cell::Empty {
            f.cells[i] = drawn.cells[i];
        }
    }
    f
}

fn side(field: Field) -> Side {
    Side {
        field,
        queues: Queues::default(),
    }
}

fn cell(name: &str) -> usize {
    let (x, y) = notation::parse_cell(name).unwrap();
    idx(x - 1, y - 1)
}

#[test]
fn formula_table_at_the_boundaries() {
    // (c, o + w) -> (kind, count), worked out by hand from the spec.
    let table = [
        (34, 0, Kind::Soft, 17), // 17.34
        (34, 1, Kind::Soft, 17), // 17.49
        (34, 2, Kind::Soft, 17), // 17.94
        (34, 3, Kind::Soft, 18), // 18.69
        (35, 0, Kind::Hard, 11), // 0.6 * 18.375 = 11.025
        (35, 1, Kind::Hard, 11), // 0.6 * 18.525 = 11.115
        (35, 2, Kind::Hard, 11), // 0.6 * 18.975 = 11.385
        (35, 3, Kind::Hard, 11), // 0.6 * 19.725 = 11.835
        (10, 0, Kind::Soft, 1),  // exactly 1.5 -> 1 (float 0.015*100 must not matter)
        (5, 0, Kind::Soft, 0),
        (8, 0, Kind::Soft, 0), // 0.96
        (9, 0, Kind::Soft, 1), // 1.215
        (20, 10, Kind::Soft, 21),
        (100, 0, Kind::Hard, 90), // exactly 90
        (40, 0, Kind::Hard, 14),  // 14.4
    ];
    for (c, s, kind, count) in table {
        // Split o + w both ways: only the sum matters.
        assert_eq!(garbage_sent(c, s, 0), (kind, count), "c={c} s={s}");
        assert_eq!(garbage_sent(c, 0, s), (kind, count), "c={c} s={s}");
    }
}

#[test]
fn formula_matches_exact_rationals_everywhere() {
    // 0.015 = 3/200, 0.15 = 30/200, 0.6 = 3/5: an independent exact form.
    for c in 0..=135u64 {
        for s in 0..=300u64 {
            let base = 3 * c * c + 30 * s * s; // 200 * (0.015c^2 + 0.15s^2)
            let want = if c >= 35 {
                (Kind::Hard, (3 * base / 1000) as u32)
            } else {
                (Kind::Soft, (base / 200) as u32)
            };
            assert_eq!(garbage_sent(c as u32, s as u32, 0), want, "c={c} s={s}");
        }
    }
}

#[test]
fn soft_caught_by_one_hard_weakened_by_one() {
    // Bottom three rows; the red group is a14..e14.
    let f = field_with_bottom(
        "o#G#GGBGB
         RRRRRBG#B
         GBGBGRBRG",
    );
    let mut s = side(f);
    let g = component_of(&s.field, cell("a14"));
    assert_eq!(g.len(), 5);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let r = remove_group(&mut s, &g, &mut rng);
    assert_eq!((r.c, r.o, r.w), (5, 1, 2));
    assert_eq!((r.kind, r.count), (Kind::Soft, 1)); // 0.375 + 1.35
    // The two hard balls became soft and fell one row; the soft ball is gone.
    assert_eq!(s.field.cells[cell("b14")], Cell::Soft);
    assert_eq!(s.field.cells[cell("d14")], Cell::Soft);
    assert_eq!(s.field.cells[cell("a14")], Cell::Color(1)); // a12 of the base pattern fell
    // The hard ball at h14 touched no removed ball: untouched.
    assert_eq!(s.field.cells[cell("h14")], Cell::Hard);
    assert!(s.field.is_settled());
    assert!(!s.field.cells.contains(&Cell::Empty));
}

#[test]
fn hard_with_two_removed_neighbours_is_removed() {
    let f = field_with_bottom(
        "RR#BGBGBG
         GR#RBGBGB
         GRRRBGBGB",
    );
    let mut s = side(f);
    let g = component_of(&s.field, cell("b15"));
    assert_eq!(g.len(), 7);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let r = remove_group(&mut s, &g, &mut rng);
    // c14 touches b14, d14, c15: removed (o and w); c13 touches b13: weakened (w).
    assert_eq!((r.c, r.o, r.w), (7, 1, 2));
    // Column c kept only the weakened ball, which fell to the bottom.
    assert_eq!(s.field.cells[cell("c15")], Cell::Soft);
}

#[test]
fn garbage_is_never_part_of_a_group() {
    // Only the bottom row; the rows above are empty.
    let f = Field::parse("RRoRRGBGB").unwrap();
    // Red balls on both sides of a soft ball: two groups of 2, not one of 4.
    let g = component_of(&f, cell("a15"));
    assert_eq!(g.len(), 2);
    assert!(component_of(&f, cell("c15")).is_empty());
}

#[test]
fn refill_pops_the_queue_first_lowest_then_random() {
    // Column a loses three balls (a13..a15 red, plus b15..c15 for size 5).
    let f = field_with_bottom(
        "R#GBGBGBG
         RGBGBGBGB
         RRRBGBGBG",
    );
    let mut s = side(f);
    s.queues.0[0].extend([Kind::Hard, Kind::Soft]);
    s.queues.0[1].extend([Kind::Soft, Kind::Hard, Kind::Hard]);
    let above: Vec<Cell> = (0..12).map(|y| s.field.get(0, y)).collect();
    let g = component_of(&s.field, cell("a15"));
    assert_eq!(g.len(), 5);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let r = remove_group(&mut s, &g, &mut rng);
    // b14's hard... b13 is hard and touches a13 only: weakened.
    assert_eq!((r.c, r.o, r.w), (5, 0, 1));
    // Column a: the 12 balls above fell 3 rows, keeping their order.
    for (y, c) in above.iter().enumerate() {
        assert_eq!(s.field.get(0, y + 3), *c, "a{}", y + 4);
    }
    // The first popped (hard) ends lowest, then soft, then a random colour.
    assert_eq!(s.field.get(0, 2), Cell::Hard);
    assert_eq!(s.field.get(0, 1), Cell::Soft);
    assert!(matches!(s.field.get(0, 0), Cell::Color(_)));
    assert!(s.queues.0[0].is_empty());
    // Column b lost one ball: one pop from its queue, the rest waits in order.
    assert_eq!(s.field.get(1, 0), Cell::Soft);
    assert_eq!(
        s.queues.0[1].iter().copied().collect::<Vec<_>>(),
        vec![Kind::Hard, Kind::Hard]
    );
}

/// Naive flood fill: label propagation until nothing changes.
fn naive_groups(f: &Field) -> BTreeSet<Vec<u8>> {
    let mut label: Vec<usize> = (0..CELLS).collect();
    loop {
        let mut changed = false;
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let i = idx(x, y);
                let Cell::Color(c) = f.cells[i] else { continue };
                let mut ns = vec![];
                if x + 1 < WIDTH {
                    ns.push(idx(x + 1, y));
                }
                if y + 1 < HEIGHT {
                    ns.push(idx(x, y + 1));
                }
                for n in ns {
                    if f.cells[n] == Cell::Color(c) && label[n] != label[i] {
                        let m = label[n].min(label[i]);
                        label[n] = m;
                        label[i] = m;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut by: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
    for (i, l) in label.iter().enumerate() {
        if matches!(f.cells[i], Cell::Color(_)) {
            by.entry(*l).or_default().push(i as u8);
        }
    }
    by.into_values().filter(|v| v.len() >= 5).collect()
}

#[test]
fn group_finder_matches_naive_flood_fill() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for round in 0..400 {
        let mut f = Field::random(&mut rng);
        // Sprinkle garbage and, for half the fields, use only two colours
        // so that big snaking groups appear.
        let garbage_rate = rng.gen_range(0.0..0.4);
        for c in f.cells.iter_mut() {
            if round % 2 == 0 && *c == Cell::Color(2) {
                *c = Cell::Color(rng.gen_range(0..2));
            }
            if rng.gen_bool(garbage_rate) {
                *c = if rng.gen_bool(0.5) {
                    Cell::Soft
                } else {
                    Cell::Hard
                };
            }
        }
        let engine: BTreeSet<Vec<u8>> = find_groups(&f).into_iter().map(|g| g.cells).collect();
        assert_eq!(engine, naive_groups(&f), "round {round}");
    }
}

fn stuck_vs_ok(first_stuck: bool, second_stuck: bool) -> PuzzleDuel {
    let ok = field_with_bottom("RRRRRGBGB");
    let mk = |stuck: bool| side(if stuck { no_group_field() } else { ok.clone() });
    PuzzleDuel::from_sides([mk(first_stuck), mk(second_stuck)], 0, 1, 5)
}

#[test]
fn a_player_without_a_group_loses_and_both_draw() {
    let g = stuck_vs_ok(true, false);
    assert_eq!(g.outcome(), Some(Outcome::Win(1)));
    assert!(g.awaiting().is_empty());
    let g = stuck_vs_ok(true, true);
    assert_eq!(g.outcome(), Some(Outcome::Draw(vec![0, 1])));
    // The second player stuck: the first moves, then the second loses.
    let mut g = stuck_vs_ok(false, true);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.awaiting(), vec![0]);
    let a = g.parse_action(0, "a15").unwrap();
    g.resolve(BTreeMap::from([(0, a)]));
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert!(matches!(
        g.finish.as_ref().unwrap().reason,
        EndReason::Stuck { ref seats } if seats == &vec![1]
    ));
}

#[test]
fn turn_order_first_then_second_then_next_turn() {
    let mut g = PuzzleDuel::new_game(PuzzleOptions::default(), 11).unwrap();
    assert_eq!((g.turn, g.awaiting()), (1, vec![0]));
    let a = g.default_action(0);
    g.resolve(BTreeMap::from([(0, a)]));
    assert_eq!((g.turn, g.awaiting()), (1, vec![1]));
    // Seat 0 may not move now, and says whose move it is.
    let e = g.parse_action(0, "a1").unwrap_err();
    assert!(e.problem.contains("not Player 1's move"), "{e}");
    let a = g.default_action(1);
    g.resolve(BTreeMap::from([(1, a)]));
    assert_eq!((g.turn, g.awaiting()), (2, vec![0]));
}

#[test]
fn random_first_can_pick_either_seat() {
    let firsts: BTreeSet<usize> = (0..20)
        .map(|seed| {
            let o = PuzzleOptions {
                random_first: true,
                ..Default::default()
            };
            let g = PuzzleDuel::new_game(o, seed).unwrap();
            assert_eq!(g.awaiting(), vec![g.first]);
            g.first
        })
        .collect();
    assert_eq!(firsts, BTreeSet::from([0, 1]));
}

#[test]
fn first_players_garbage_reaches_second_queue_at_once() {
    // A 20-ball red group sends 6 soft garbage to the second player.
    let big = field_with_bottom(
        "GBGBGBGBG
         RRRRRRRRR
         RRRRRRRRR
         RRGBGBGBG",
    );
    let mut g = PuzzleDuel::from_sides([side(big), side(field_with_bottom("RRRRRGBGB"))], 0, 1, 3);
    let r = g.play(0, 1, 13).unwrap();
    assert_eq!((r.c, r.sent_kind, r.sent_count), (20, Some(Kind::Soft), 6));
    assert_eq!(g.sides[1].queues.total(), 6);
    assert_eq!(r.queues[1].iter().sum::<usize>(), 6);
    // The second player's removal refills from that queue in the same turn.
    let before_field_garbage = g.sides[1].field.garbage_counts();
    g.play(1, 1, 15).unwrap();
    let (h, s) = g.sides[1].field.garbage_counts();
    let queued = g.sides[1].queues.total() as u32;
    assert_eq!(
        h + s + queued,
        before_field_garbage.0 + before_field_garbage.1 + 6
    );
}

#[test]
fn turn_limit_scores_lower_wins() {
    let ok = field_with_bottom("RRRRRGBGB");
    let mut s0 = side(ok.clone());
    let mut s1 = side(ok);
    s0.queues.0[3].extend([Kind::Hard, Kind::Hard]); // score 4
    s1.queues.0[8].extend([Kind::Soft, Kind::Soft, Kind::Soft]); // score 3
    let mut g = PuzzleDuel::from_sides([s0, s1], 0, 1, 3);
    g.options.max_turns = 1;
    g.play(0, 1, 15).unwrap();
    g.play(1, 1, 15).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(1)));
    assert_eq!(
        g.finish.as_ref().unwrap().reason,
        EndReason::TurnLimit { scores: [4, 3] }
    );
    // Equal scores draw.
    let ok = field_with_bottom("RRRRRGBGB");
    let mut g = PuzzleDuel::from_sides([side(ok.clone()), side(ok)], 0, 1, 3);
    g.options.max_turns = 1;
    g.play(0, 1, 15).unwrap();
    g.play(1, 1, 15).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw(vec![0, 1])));
}

#[test]
fn spec_turn_limit_is_200() {
    assert_eq!(PuzzleOptions::default().max_turns, 200);
    let o: PuzzleOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(o, PuzzleOptions::default());
    assert!(
        PuzzleDuel::new_game(
            PuzzleOptions {
                max_turns: 0,
                ..Default::default()
            },
            1
        )
        .is_err()
    );
}

#[test]
fn fair_start_gives_identical_fields() {
    let o = PuzzleOptions {
        fair_start: true,
        ..Default::default()
    };
    let g = PuzzleDuel::new_game(o, 77).unwrap();
    assert_eq!(g.sides[0].field, g.sides[1].field);
    let g = PuzzleDuel::new_game(PuzzleOptions::default(), 77).unwrap();
    assert_ne!(g.sides[0].field, g.sides[1].field);
}

#[test]
fn notation_accepts_both_forms() {
    assert_eq!(notation::parse_cell("c7"), Ok((3, 7)));
    assert_eq!(notation::parse_cell(" C7 "), Ok((3, 7)));
    assert_eq!(notation::parse_cell("3,7"), Ok((3, 7)));
    assert_eq!(notation::parse_cell("(3, 7)"), Ok((3, 7)));
    assert_eq!(notation::parse_cell("i15"), Ok((9, 15)));
    for bad in [
        "j1", "a16", "a0", "0,1", "10,1", "1,16", "foo", "", "c", "3,", "ä3",
    ] {
        assert!(notation::parse_cell(bad).is_err(), "{bad}");
    }
    assert_eq!(notation::format_cell(3, 7), "c7");
}

#[test]
fn refusals_say_why_and_how_many_groups() {
    let f = field_with_bottom(
        "o#BRBRBRB
         RRRGGGBGB
         RRRRRBGBG",
    );
    let mut f = f;
    f.cells[idx(4, 0)] = Cell::Empty; // a hole, only possible in a built position
    let g = PuzzleDuel::from_sides([side(f.clone()), side(f)], 0, 1, 1);
    let n = g.groups_of(0).len();
    assert_eq!(n, 1);
    let e = g.parse_action(0, "a13").unwrap_err();
    assert!(e.problem.contains("soft garbage"), "{e}");
    assert!(
        e.expected.contains("1 group is available: a14 (red 8)"),
        "{e}"
    );
    let e = g.parse_action(0, "b13").unwrap_err();
    assert!(e.problem.contains("hard garbage"), "{e}");
    let e = g.parse_action(0, "d14").unwrap_err();
    assert!(e.problem.contains("green group of 3"), "{e}");
    let e = g.parse_action(0, "e1").unwrap_err();
    assert!(e.problem.contains("empty"), "{e}");
    let e = g.parse_action(0, "z9").unwrap_err();
    assert!(e.expected.contains("c7"), "{e}");
    assert!(e.expected.contains("1 group is available"), "{e}");
    assert_eq!(g.parse_action(0, "c15"), Ok(PuzzleAction { x: 3, y: 15 }));
}

#[test]
fn view_offers_one_select_per_group_to_the_mover_only() {
    let g = PuzzleDuel::new_game(PuzzleOptions::default(), 5).unwrap();
    let v = g.view(Some(0));
    assert_eq!(v.choices.len(), g.groups_of(0).len());
    assert!(!v.choices.is_empty());
    for c in &v.choices {
        assert_eq!(c.style, ChoiceStyle::Select);
        let a = g.parse_action(0, &c.text).unwrap();
        assert!(g.validate(0, &a).is_ok());
        assert!(
            c.label.starts_with("red")
                || c.label.starts_with("green")
                || c.label.starts_with("blue")
        );
    }
    let sizes: Vec<usize> = v
        .choices
        .iter()
        .map(|c| c.label.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(
        sizes.windows(2).all(|w| w[0] >= w[1]),
        "largest first: {sizes:?}"
    );
    assert!(g.view(Some(1)).choices.is_empty());
    assert!(g.view(None).choices.is_empty());
    assert!(v.board.lines().all(|l| l.chars().count() < 80));
    assert!(v.status.contains("Player 1 to move"));
}

#[test]
fn forfeit_gives_the_other_seat_the_win() {
    let mut g = PuzzleDuel::new_game(PuzzleOptions::default(), 5).unwrap();
    g.forfeit(1);
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert!(g.awaiting().is_empty());
    assert!(g.parse_action(0, "a1").is_err());
}

#[test]
fn resolve_with_a_stale_action_plays_the_default() {
    let mut g = PuzzleDuel::new_game(PuzzleOptions::default(), 8).unwrap();
    let r = g.resolve(BTreeMap::from([(0, PuzzleAction { x: 99, y: 0 })]));
    assert!(r.public.contains("no legal move"), "{}", r.public);
    assert_eq!(g.awaiting(), vec![1]);
}
