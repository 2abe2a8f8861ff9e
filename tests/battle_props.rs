//! Property tests: HP stays in [0, H], a fainted monster never acts, the
//! battle ends exactly when a side has no monster left or the turn limit
//! is hit, and no text a player types makes the engine panic.

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use games::battle::engine::{self, Event, Res};
use games::battle::{Battle, BattleOptions};
use games::seam::Game;
use proptest::prelude::*;

fn check_run(seed: u64, n: usize, limit: u16, picks: &[u8]) {
    let o = BattleOptions {
        team_size: n,
        turn_limit: Some(limit),
        ..Default::default()
    };
    let mut b = Battle::new_game(o, seed).unwrap();
    let mut k = 0;
    while b.pos().result.is_none() {
        let before = *b.pos();
        let mut acts = [None, None];
        for x in 0..2 {
            let l = engine::legal(b.setup(), &before, x);
            assert_eq!(l.is_empty(), !before.awaits(x));
            if !l.is_empty() {
                acts[x] = Some(l.as_slice()[picks[k % picks.len()] as usize % l.len()]);
                k += 1;
            }
        }
        let ev = b.apply_acts(acts);
        // Replay the events on a copy: whoever acts must not have fainted.
        let mut hp = before.hp;
        let mut active = before.active;
        for e in &ev {
            match *e {
                Event::Switched { seat, to, .. } => {
                    assert!(
                        hp[seat as usize][to as usize] > 0,
                        "sent in a fainted monster"
                    );
                    active[seat as usize] = to;
                }
                Event::Hit { seat, left, .. } => {
                    let x = seat as usize;
                    assert!(
                        hp[x][active[x] as usize] > 0,
                        "a fainted monster attacked: {ev:?}"
                    );
                    hp[1 - x][active[1 - x] as usize] = left;
                }
                Event::Miss { seat, .. } => {
                    let x = seat as usize;
                    assert!(
                        hp[x][active[x] as usize] > 0,
                        "a fainted monster attacked: {ev:?}"
                    );
                }
                Event::Healed { seat, now, .. } => {
                    let x = seat as usize;
                    assert!(
                        hp[x][active[x] as usize] > 0,
                        "a fainted monster healed: {ev:?}"
                    );
                    hp[x][active[x] as usize] = now;
                }
                _ => {}
            }
        }
        let p = *b.pos();
        assert_eq!(hp, p.hp, "events and position agree");
        for x in 0..2 {
            for (i, m) in b.setup().teams[x].iter().enumerate() {
                assert!(p.hp[x][i] <= m.hp, "HP above max");
            }
        }
        let empty = [0, 1].map(|x| p.alive(b.setup(), x) == 0);
        let ended = empty[0] || empty[1] || p.turn >= limit;
        assert_eq!(
            p.result.is_some(),
            ended,
            "ends iff a side is out or the limit is hit"
        );
        match p.result {
            Some(Res::Win(w)) => assert!(empty[1 - w as usize] && !empty[w as usize]),
            Some(Res::Draw) => assert!(p.turn >= limit || (empty[0] && empty[1])),
            None => {}
        }
        if p.result.is_none() {
            // An active monster is alive unless its side is choosing a replacement.
            for x in 0..2 {
                assert_eq!(p.hp[x][p.active[x] as usize] == 0, p.need[x]);
            }
        }
        assert!(p.turn <= limit);
    }
    assert!(b.awaiting().is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn invariants_hold_in_random_battles(
        seed in any::<u64>(),
        n in 1usize..=6,
        limit in 1u16..=100,
        picks in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        check_run(seed, n, limit, &picks);
    }

    #[test]
    fn any_text_is_parsed_or_refused_without_panic(seed in any::<u64>(), text in ".{0,40}", seat in 0usize..3) {
        let b = Battle::new_game(BattleOptions::default(), seed).unwrap();
        if let Ok(a) = b.parse_action(seat, &text) {
            prop_assert!(b.validate(seat, &a).is_ok());
        }
        let d = Battle::new_game(BattleOptions { pick_teams: true, ..Default::default() }, seed).unwrap();
        // Non-ASCII case folding (the Kelvin sign lowercases to `k`) must not split a character.
        for t in ["pic\u{212A}", "PİCK x", "switch\u{212A}"] {
            let _ = d.parse_action(0, t);
            let _ = b.parse_action(0, t);
        }
        if let Ok(a) = d.parse_action(seat, &text) {
            prop_assert!(d.validate(seat, &a).is_ok());
        }
    }
}

#[test]
fn outcome_probabilities_sum_to_one() {
    for seed in 0..30 {
        let b = Battle::new_game(BattleOptions::default(), seed).unwrap();
        let p = b.pos();
        for a0 in engine::legal(b.setup(), p, 0).as_slice() {
            for a1 in engine::legal(b.setup(), p, 1).as_slice() {
                let outs = engine::outcomes(b.setup(), p, [Some(*a0), Some(*a1)]);
                let s: f64 = outs.iter().map(|o| o.0).sum();
                assert!((s - 1.0).abs() < 1e-12, "{s}");
            }
        }
    }
}
