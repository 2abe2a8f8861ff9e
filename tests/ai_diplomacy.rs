//! The Diplomacy AI levels beyond the default's own tests: `dumbbot` (the
//! port of David Norman's DumbBot) plays legal orders in every phase, is
//! reproducible from its seed, uses supports, and beats random players;
//! `default` gives legal orders in every phase kind on every board.

use games::diplomacy::geo::Map;
use games::diplomacy::order::{Order, OrderKind};
use games::diplomacy::tournament::{focus_seat, play_levels};
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::{AiBudget, Game};
use std::collections::BTreeMap;

/// Plays a game with `levels` to `end_year`, checking every AI action is
/// legal and round-trips through the text a player would type; returns
/// every action of the seats playing `watched`.
fn play_checked(seed: u64, levels: [&str; 7], end_year: u16, watched: &str) -> Vec<Order> {
    let opts = DiplomacyOptions {
        end_year: Some(end_year),
        ..Default::default()
    };
    let mut g = Diplomacy::new_game(opts, seed).unwrap();
    let mut seen = Vec::new();
    let mut phases = 0u64;
    while g.outcome().is_none() {
        let mut acts = BTreeMap::new();
        for s in g.awaiting() {
            let a = g.ai_action(s, levels[s], AiBudget::iterations(16), seed ^ phases);
            assert!(a.ready && a.ai);
            g.validate(s, &a).unwrap();
            let text: Vec<String> = a
                .orders
                .iter()
                .map(|o| o.canonical(Map::standard()))
                .collect();
            if !text.is_empty() {
                let parsed = g.parse_action(s, &text.join("\n")).unwrap();
                assert!(parsed.notes.is_empty(), "{:?}", parsed.notes);
                assert_eq!(parsed.orders.len(), a.orders.len());
            }
            if levels[s] == watched {
                seen.extend(a.orders.iter().copied());
            }
            acts.insert(s, a);
        }
        g.resolve(acts);
        phases += 1;
        assert!(phases < 200);
    }
    seen
}

#[test]
fn dumbbot_is_a_registered_level() {
    assert!(Diplomacy::ai_levels().contains(&"dumbbot"));
}

#[test]
fn dumbbot_orders_are_legal_in_every_phase_and_it_supports() {
    let mut support_holds = 0;
    let mut support_moves = 0;
    let mut builds = 0;
    for seed in 0..3u64 {
        let levels = [
            "dumbbot", "random", "dumbbot", "default", "dumbbot", "random", "dumbbot",
        ];
        for o in play_checked(seed, levels, 1912, "dumbbot") {
            match o {
                Order::Unit {
                    kind: OrderKind::Support { to: None, .. },
                    ..
                } => support_holds += 1,
                Order::Unit {
                    kind: OrderKind::Support { to: Some(_), .. },
                    ..
                } => support_moves += 1,
                Order::Build { .. } => builds += 1,
                _ => {}
            }
        }
    }
    // Collisions of its own units turn into supports of both kinds.
    assert!(
        support_holds > 0 && support_moves > 0,
        "{support_holds} {support_moves}"
    );
    assert!(builds > 0);
}

#[test]
fn dumbbot_is_reproducible_from_its_seed() {
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 5).unwrap();
    for s in 0..7 {
        let a = g.ai_action(s, "dumbbot", AiBudget::default(), 42);
        let b = g.ai_action(s, "dumbbot", AiBudget::default(), 42);
        assert_eq!(a, b);
        assert!(!a.orders.is_empty());
    }
    // Its choices are randomised: some seed plays differently.
    let first = g.ai_action(0, "dumbbot", AiBudget::default(), 0);
    assert!((1..50).any(|seed| g.ai_action(0, "dumbbot", AiBudget::default(), seed) != first));
}

#[test]
fn one_dumbbot_beats_six_random_players() {
    let games = 14u32;
    let top = (0..games)
        .filter(|&i| {
            let f = focus_seat(i);
            let levels = std::array::from_fn(|s| if s == f { "dumbbot" } else { "random" });
            play_levels(300 + u64::from(i), levels, Some(f), 1915, AiBudget::default).ai_top
                == Some(true)
        })
        .count();
    assert!(
        top * 10 >= games as usize * 9,
        "dumbbot on top in {top}/{games}"
    );
}

/// A stopwatch that expires after it has been asked `limit` times, and
/// counts how often it is asked: a clock-free way to check that an AI
/// stops thinking once its time is up.
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

/// Random positions: a game played `phases` phases by random players.
fn random_position(seed: u64, phases: u64) -> Diplomacy {
    let mut g = Diplomacy::new_game(DiplomacyOptions::default(), seed).unwrap();
    for k in 0..phases {
        if g.outcome().is_some() {
            break;
        }
        let acts = g
            .awaiting()
            .into_iter()
            .map(|s| (s, g.ai_action(s, "random", AiBudget::default(), seed ^ k)))
            .collect();
        g.resolve(acts);
    }
    g
}

#[test]
fn every_level_answers_legally_and_stops_when_its_time_is_up() {
    for seed in 0..12u64 {
        let g = random_position(seed, seed * 3 % 25);
        for s in g.awaiting() {
            for &level in Diplomacy::ai_levels() {
                let watch = std::sync::Arc::new(CountingStopwatch {
                    limit: seed % 4,
                    asked: Default::default(),
                });
                let budget = AiBudget {
                    iterations: None,
                    deadline: Some(watch.clone()),
                };
                let a = g.ai_action(s, level, budget, seed);
                g.validate(s, &a).unwrap();
                // Once the stopwatch said the time is up, it is not asked again.
                let asked = watch.asked.load(std::sync::atomic::Ordering::Relaxed);
                assert!(asked <= seed % 4 + 1, "{level}: asked {asked} times");
            }
        }
    }
}

#[test]
fn default_is_reproducible_under_an_iteration_budget() {
    for seed in [3u64, 9] {
        let g = random_position(seed, 4);
        for s in g.awaiting() {
            let a = g.ai_action(s, "default", AiBudget::iterations(60), seed);
            let b = g.ai_action(s, "default", AiBudget::iterations(60), seed);
            assert_eq!(a, b);
        }
    }
}

#[test]
fn one_default_beats_six_dumbbots() {
    let games = 14u32;
    let mut top = 0;
    let mut centres = 0;
    for i in 0..games {
        let f = focus_seat(i);
        let levels = std::array::from_fn(|s| if s == f { "default" } else { "dumbbot" });
        let r = play_levels(500 + u64::from(i), levels, Some(f), 1912, || {
            AiBudget::iterations(100)
        });
        top += usize::from(r.ai_top == Some(true));
        centres += r.powers[f].centres;
    }
    // Six dumbbots share 34 centres with it: an even share is under 5.
    assert!(
        centres as f64 / f64::from(games) >= 6.0,
        "{centres} centres"
    );
    assert!(top * 10 >= games as usize * 3, "on top in {top}/{games}");
}

#[test]
fn ai_only_games_end_once_stalled() {
    // No final year: only a solo or the AIs' draw votes can end the game.
    for seed in 0..3u64 {
        let mut g = Diplomacy::new_game(DiplomacyOptions::default(), seed).unwrap();
        let mut phases = 0u64;
        let mut stalled_seen = false;
        while g.outcome().is_none() {
            stalled_seen |= g.stalled();
            let acts = g
                .awaiting()
                .into_iter()
                .map(|s| {
                    (
                        s,
                        g.ai_action(s, "default", AiBudget::iterations(20), seed ^ phases),
                    )
                })
                .collect();
            g.resolve(acts);
            phases += 1;
            assert!(phases < 1000, "seed {seed}: no end after {phases} phases");
        }
        if let Some(games::seam::Outcome::Draw(_)) = g.outcome() {
            assert!(
                stalled_seen || g.stalled(),
                "a draw the AIs voted for only when stalled"
            );
        }
    }
}

/// Plays `phases` phases of a game with `options`, `default` at the even
/// seats and `dumbbot` / `random` at the odd ones, checking that every
/// `default` action is legal and reads back from its text; returns which
/// phase kinds (movement, retreat, adjustment) `default` answered in.
fn default_orders_checked(options: DiplomacyOptions, seed: u64, phases: u64) -> [bool; 3] {
    use games::diplomacy::judge::PhaseKind;
    let mut g = Diplomacy::new_game(options, seed).unwrap();
    let mut kinds = [false; 3];
    for k in 0..phases {
        if g.outcome().is_some() {
            break;
        }
        let mut acts = BTreeMap::new();
        for s in g.awaiting() {
            let level = match s % 4 {
                0 | 2 => "default",
                1 => "dumbbot",
                _ => "random",
            };
            let a = g.ai_action(s, level, AiBudget::iterations(24), seed ^ k);
            if level == "default" {
                g.validate(s, &a).unwrap();
                let text: Vec<String> = a.orders.iter().map(|o| o.canonical(g.map())).collect();
                if !text.is_empty() {
                    let parsed = g.parse_action(s, &text.join("\n")).unwrap();
                    assert!(parsed.notes.is_empty(), "{:?}", parsed.notes);
                    assert_eq!(parsed.orders.len(), a.orders.len());
                }
                let i = match g.phase() {
                    PhaseKind::Movement => 0,
                    PhaseKind::Retreat => 1,
                    PhaseKind::Adjustment => 2,
                };
                kinds[i] |= !a.orders.is_empty();
            }
            acts.insert(s, a);
        }
        g.resolve(acts);
    }
    kinds
}

/// The three boards the AI plays on: the standard map, Ancient
/// Mediterranean, and the standard map under Fog of War.
fn boards() -> [DiplomacyOptions; 3] {
    [
        DiplomacyOptions::default(),
        DiplomacyOptions {
            map: "ancient_med".into(),
            ..Default::default()
        },
        DiplomacyOptions {
            fog: true,
            ..Default::default()
        },
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]

    /// Every order `default` gives is legal, on every board, whatever the game.
    #[test]
    fn default_orders_are_legal_on_every_board(seed in 0u64..1_000_000, board in 0usize..3, phases in 1u64..30) {
        default_orders_checked(boards()[board].clone(), seed, phases);
    }
}

#[test]
fn default_answers_in_every_phase_kind_on_every_board() {
    for (b, options) in boards().into_iter().enumerate() {
        let mut kinds = [false; 3];
        for seed in 0..3u64 {
            let seen = default_orders_checked(options.clone(), 40 + seed, 40);
            for (k, s) in kinds.iter_mut().zip(seen) {
                *k |= s;
            }
        }
        assert_eq!(kinds, [true; 3], "board {b}: movement, retreat, adjustment");
    }
}
