//! Diplomacy online-game rules in the engine: missed deadlines and civil
//! disorder, takeover, and secret draw votes.

use games::diplomacy::geo::Power;
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::{Game, Outcome, TurnReport};
use std::collections::BTreeMap;

fn new() -> Diplomacy {
    Diplomacy::new_game(DiplomacyOptions::default(), 3).unwrap()
}

/// Everyone awaited sends `text` (or, for seats in `missed`, the host's default action).
fn phase(g: &mut Diplomacy, texts: &[(usize, &str)], missed: &[usize]) -> TurnReport {
    let mut acts = BTreeMap::new();
    for s in g.awaiting() {
        let a = if missed.contains(&s) {
            g.default_action(s)
        } else {
            let t = texts
                .iter()
                .find(|(x, _)| *x == s)
                .map_or("done", |(_, t)| *t);
            g.parse_action(s, t).unwrap()
        };
        acts.insert(s, a);
    }
    g.resolve(acts)
}

#[test]
fn two_missed_movement_phases_mean_civil_disorder_until_takeover() {
    let mut g = new();
    let eng = std_power("England").index();
    phase(&mut g, &[], &[eng]); // Spring 1901: missed (units hold)
    assert_eq!(g.missed_moves(std_power("England")), 1);
    assert!(!g.in_disorder(std_power("England")));
    assert!(g.awaiting().contains(&eng));
    let r = phase(&mut g, &[], &[eng]); // Fall 1901: missed again
    assert!(g.in_disorder(std_power("England")), "{}", r.public);
    assert!(r.public.contains("civil disorder"));
    assert!(!g.awaiting().contains(&eng));
    assert!(g.seat_open(eng));
    assert!(!g.seat_open(std_power("France").index()));
    // Units of a power in civil disorder stay on the board and hold.
    assert_eq!(
        g.units()
            .iter()
            .filter(|u| u.power == std_power("England"))
            .count(),
        3
    );
    assert!(g.take_over(eng));
    assert!(!g.seat_open(eng));
    assert!(!g.in_disorder(std_power("England")));
    assert_eq!(g.missed_moves(std_power("England")), 0);
    assert!(!g.take_over(eng));
}

#[test]
fn a_miss_between_orders_does_not_count_twice() {
    let mut g = new();
    let fra = std_power("France").index();
    phase(&mut g, &[], &[fra]);
    phase(&mut g, &[(fra, "A Par - Bur\ndone")], &[]);
    assert_eq!(g.missed_moves(std_power("France")), 0);
    while g.phase_name().contains("Winter") {
        phase(&mut g, &[], &[]);
    }
    phase(&mut g, &[], &[fra]);
    assert!(!g.in_disorder(std_power("France")));
}

#[test]
fn draw_votes_are_secret_until_unanimous() {
    let mut voted = new();
    let mut quiet = new();
    let before: Vec<_> = (0..7).map(|s| voted.view(Some(s))).collect();
    let r1 = phase(&mut voted, &[(0, "draw\ndone"), (3, "draw\ndone")], &[]);
    let r2 = phase(&mut quiet, &[], &[]);
    assert_eq!(r1, r2, "the report must not reveal votes");
    for s in (0..7).map(Some).chain([None]) {
        assert_eq!(voted.view(s), quiet.view(s), "view of {s:?} reveals a vote");
    }
    assert_eq!(before.len(), 7);
    assert!(voted.outcome().is_none());
    // Votes persist; once every survivor agrees the game is a shared draw.
    let all: Vec<(usize, &str)> = (0..7).map(|s| (s, "draw\ndone")).collect();
    let r = phase(&mut voted, &all, &[]);
    assert!(r.public.contains("draw"), "{}", r.public);
    assert_eq!(voted.outcome(), Some(Outcome::Draw((0..7).collect())));
}

#[test]
fn civil_disorder_counts_as_accepting_a_draw() {
    let mut g = new();
    let tur = std_power("Turkey").index();
    phase(&mut g, &[], &[tur]);
    phase(&mut g, &[], &[tur]);
    assert!(g.in_disorder(std_power("Turkey")));
    while g.phase_name().contains("Winter") {
        phase(&mut g, &[], &[]);
    }
    let votes: Vec<(usize, &str)> = (0..6).map(|s| (s, "draw\ndone")).collect();
    phase(&mut g, &votes, &[]);
    assert_eq!(g.outcome(), Some(Outcome::Draw((0..7).collect())));
}

/// Every awaited power is played by the AI (`level`), except the seats in `texts`.
fn phase_with_ai(g: &mut Diplomacy, texts: &[(usize, &str)], level: &str) -> TurnReport {
    use games::seam::AiBudget;
    let mut acts = BTreeMap::new();
    for s in g.awaiting() {
        let a = match texts.iter().find(|(x, _)| *x == s) {
            Some((_, t)) => g.parse_action(s, t).unwrap(),
            None => g.ai_action(s, level, AiBudget::iterations(1), s as u64),
        };
        acts.insert(s, a);
    }
    g.resolve(acts)
}

#[test]
fn powers_played_by_the_ai_accept_a_draw_the_others_agree_on() {
    let mut g = new();
    // Five people, Russia and Turkey played by the AI; Italy does not vote yet.
    let mut texts: Vec<(usize, &str)> = (0..4).map(|s| (s, "draw\ndone")).collect();
    texts.push((4, "done"));
    let r = phase_with_ai(&mut g, &texts, "default");
    assert!(g.outcome().is_none(), "Italy has not voted: {}", r.public);
    // The votes stand; Italy's completes the agreement.
    let texts: Vec<(usize, &str)> = (0..5)
        .map(|s| (s, if s == 4 { "draw\ndone" } else { "done" }))
        .collect();
    phase_with_ai(&mut g, &texts, "default");
    assert_eq!(g.outcome(), Some(Outcome::Draw((0..7).collect())));
}

#[test]
fn seven_ai_powers_never_agree_to_a_draw_by_themselves() {
    let mut g = new();
    for _ in 0..6 {
        phase_with_ai(&mut g, &[], "random");
    }
    assert!(g.outcome().is_none());
    // One person among the AIs is the only voter: their vote decides.
    while !g.awaiting().contains(&2) {
        phase_with_ai(&mut g, &[], "random");
    }
    phase_with_ai(&mut g, &[(2, "draw\ndone")], "random");
    let survivors: Vec<usize> = (0..7).filter(|&s| g.alive(Power::new(s as u8))).collect();
    assert_eq!(g.outcome(), Some(Outcome::Draw(survivors)));
}

/// Whoever takes over a power starts with no draw vote: the vote of the
/// player who left (which nobody can see) must not decide for the newcomer.
#[test]
fn a_taken_over_power_does_not_inherit_the_old_players_draw_vote() {
    let mut g = new();
    let tur = std_power("Turkey").index();
    // Turkey votes for a draw, then misses two movement phases.
    phase(&mut g, &[(tur, "draw\ndone")], &[]);
    while !g.in_disorder(std_power("Turkey")) {
        phase(&mut g, &[], &[tur]);
    }
    assert!(g.seat_open(tur));
    assert!(g.take_over(tur));
    while !g.phase_name().contains("movement") {
        phase(&mut g, &[], &[]);
    }
    // Everyone else votes; the newcomer orders without a vote: no draw.
    let votes: Vec<(usize, &str)> = (0..6).map(|s| (s, "draw\ndone")).collect();
    phase(&mut g, &votes, &[]);
    assert_eq!(g.outcome(), None);
    // Once the newcomer votes too, it is a draw.
    let all: Vec<(usize, &str)> = (0..7).map(|s| (s, "draw\ndone")).collect();
    phase(&mut g, &all, &[]);
    while g.outcome().is_none() && !g.phase_name().contains("movement") {
        phase(&mut g, &all, &[]);
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw((0..7).collect())));
}

#[test]
fn an_end_year_before_the_game_starts_is_refused_saying_what_would_do() {
    let options = DiplomacyOptions {
        end_year: Some(1800),
        ..DiplomacyOptions::default()
    };
    let e = Diplomacy::new_game(options, 3).map(drop).unwrap_err();
    assert_eq!(
        e.to_string(),
        "end_year 1800 is before the game starts (1901); give 1901 or later, or leave it out for no limit."
    );
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
