//! The default Diplomacy AI: legal orders in every phase, and the tournament figures.

use games::diplomacy::tournament::{Lineup, play};
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::{AiBudget, Game};
use std::collections::BTreeMap;

#[test]
fn default_level_is_the_heuristic_ai() {
    assert_eq!(Diplomacy::ai_levels()[0], "default");
}

#[test]
fn every_ai_order_is_legal_in_every_phase() {
    for seed in 0..4u64 {
        let opts = DiplomacyOptions {
            end_year: Some(1912),
            ..Default::default()
        };
        let mut g = Diplomacy::new_game(opts, seed).unwrap();
        let mut phases = 0;
        while g.outcome().is_none() {
            let mut acts = BTreeMap::new();
            for s in g.awaiting() {
                let level = if s % 2 == 0 { "default" } else { "random" };
                let a = g.ai_action(s, level, AiBudget::iterations(1), seed + phases);
                assert!(a.ready);
                g.validate(s, &a).unwrap();
                // Round trip through the text a player would type.
                let text: Vec<String> = a
                    .orders
                    .iter()
                    .map(|o| o.canonical(games::diplomacy::geo::Map::standard()))
                    .collect();
                if !text.is_empty() {
                    let parsed = g.parse_action(s, &text.join("\n")).unwrap();
                    assert!(parsed.notes.is_empty(), "{:?}", parsed.notes);
                    assert_eq!(parsed.orders.len(), a.orders.len());
                }
                acts.insert(s, a);
            }
            g.resolve(acts);
            phases += 1;
            assert!(phases < 200);
        }
    }
}

#[test]
fn one_ai_beats_six_random_players() {
    let games = 14;
    let top = (0..games)
        .filter(|&i| play(i, 100 + i as u64, Lineup::OneAi, 1915).ai_top == Some(true))
        .count();
    assert!(top * 10 >= games as usize * 9, "AI on top in {top}/{games}");
}

#[test]
fn seven_ais_never_stall() {
    for i in 0..3 {
        let r = play(i, 7 + i as u64, Lineup::AllAi, 1912);
        assert_ne!(r.result, "stall");
        assert!(r.year <= 1912);
    }
}
