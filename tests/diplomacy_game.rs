//! Game flow through the host seam: phases, orders, centres, victory, draws.

use games::diplomacy::geo::Map;
use games::diplomacy::judge::PhaseKind;
use games::diplomacy::{Diplomacy, DiplomacyAction, DiplomacyOptions};
use games::seam::{AiBudget, Game, Outcome};
use std::collections::BTreeMap;

const ENG: usize = 1;
const GER: usize = 3;
const RUS: usize = 5;

fn new() -> Diplomacy {
    Diplomacy::new_game(DiplomacyOptions::default(), 7).unwrap()
}

/// Resolves with the given orders for some seats and `done` (hold) for the others.
fn play(g: &mut Diplomacy, orders: &[(usize, &str)]) -> String {
    let mut acts = BTreeMap::new();
    for s in g.awaiting() {
        acts.insert(s, g.default_action(s));
    }
    for &(s, text) in orders {
        let a = g
            .parse_action(s, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(a.notes.is_empty(), "{:?}", a.notes);
        acts.insert(s, a);
    }
    g.resolve(acts).public
}

#[test]
fn setup_and_seats() {
    let g = new();
    assert_eq!(Diplomacy::seat_count(&DiplomacyOptions::default()), 7);
    assert_eq!(g.seat_name(0), "Austria");
    assert_eq!(g.seat_name(6), "Turkey");
    assert_eq!(g.awaiting(), (0..7).collect::<Vec<_>>());
    assert_eq!(g.units().len(), 22);
    assert_eq!(g.phase_name(), "Spring 1901 movement");
    let o: DiplomacyOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(o.victory_centres, None);
    assert_eq!(
        Diplomacy::new_game(o.clone(), 1).unwrap().victory_centres(),
        18
    );
    assert_eq!(Diplomacy::ai_levels()[0], "default");
}

#[test]
fn orders_combine_and_become_final_on_done() {
    let g = new();
    let a = g.parse_action(ENG, "F Lon - Nth\nF Edi - Nwg").unwrap();
    assert!(!g.is_final(ENG, &a));
    let b = g.parse_action(ENG, "A Lvp - Yor\nF Lon - Eng").unwrap();
    let c = g.combine(ENG, a, b);
    assert_eq!(c.orders.len(), 3);
    assert!(
        c.notes
            .iter()
            .any(|n| n.contains("Changed `F Lon - Nth` to `F Lon - Eng`")),
        "{:?}",
        c.notes
    );
    let d = g.combine(ENG, c, g.parse_action(ENG, "done").unwrap());
    assert!(g.is_final(ENG, &d));
    let text = g.describe_action(ENG, &d);
    assert!(
        text.contains("F Edi - Nwg")
            && text.contains("A Lvp - Yor")
            && text.contains("F Lon - Eng"),
        "{text}"
    );
    // `clear` drops pending orders.
    let e = g.combine(ENG, d, g.parse_action(ENG, "clear").unwrap());
    assert!(e.orders.is_empty());
}

#[test]
fn bad_input_gets_clear_messages_and_keeps_the_rest() {
    let g = new();
    let e = g.parse_action(ENG, "A Pari - Bur").unwrap_err();
    assert!(
        e.problem.contains("pari") && e.expected.contains("Paris"),
        "{e}"
    );
    let e = g.parse_action(ENG, "A Par - Bur").unwrap_err();
    assert!(e.problem.contains("belongs to France"), "{e}");
    let e = g.parse_action(ENG, "A Yor - Lon").unwrap_err();
    assert!(e.problem.contains("no unit in Yorkshire"), "{e}");
    assert!(
        e.expected.contains("F Lon") && e.expected.contains("A Lvp"),
        "{e}"
    );
    let e = g.parse_action(GER, "F Kie - Mun").unwrap_err();
    assert!(e.problem.contains("inland"), "{e}");
    let e = g.parse_action(GER, "Build A Kie").unwrap_err();
    assert!(e.problem.contains("movement phase"), "{e}");
    let e = g.parse_action(GER, "A Mun R Boh").unwrap_err();
    assert!(e.problem.contains("retreat"), "{e}");
    // One bad line among good ones: the good ones are kept, the bad one reported.
    let a = g
        .parse_action(ENG, "F Lon - Nth\nA Lvp - Pari\nF Edi - Nwg")
        .unwrap();
    assert_eq!(a.orders.len(), 2);
    assert!(
        a.refused.iter().any(|r| r.problem.contains("pari")),
        "{:?}",
        a.refused
    );
    // Two orders for one unit in one message: the later one wins, and the player is told.
    let a = g.parse_action(ENG, "F Lon - Nth\nF Lon - Eng").unwrap();
    assert_eq!(a.orders.len(), 1);
    assert!(
        a.notes
            .iter()
            .any(|n| n.contains("kept the last, `F Lon - Eng`")),
        "{:?}",
        a.notes
    );
    assert!(g.validate(ENG, &a).is_ok());
}

#[test]
fn a_year_of_holds_goes_round() {
    let mut g = new();
    play(&mut g, &[]);
    assert_eq!(g.phase_name(), "Fall 1901 movement");
    play(&mut g, &[]);
    // Nobody has anything to adjust: straight to Spring 1902.
    assert_eq!(g.phase_name(), "Spring 1902 movement");
    assert!(g.outcome().is_none());
}

#[test]
fn capture_and_build() {
    let mut g = new();
    play(
        &mut g,
        &[
            (GER, "F Kie - Den\nA Mun - Ruh\ndone"),
            (RUS, "A War - Gal"),
        ],
    );
    play(&mut g, &[(GER, "A Ruh - Bel")]);
    let m = Map::standard();
    let den = m.prov_by_abbr("den").unwrap() as usize;
    assert_eq!(g.owners()[den], Some(std_power("Germany")));
    assert_eq!(g.phase(), PhaseKind::Adjustment);
    assert_eq!(g.awaiting(), vec![GER]);
    assert!(!g.view(Some(GER)).choices.is_empty());
    let e = g.parse_action(GER, "Build A Ber").unwrap_err();
    assert!(e.problem.contains("occupied"), "{e}");
    let report = play(&mut g, &[(GER, "Build F Kie\nBuild A Mun")]);
    assert!(
        report.contains("Build F Kie") && report.contains("Build A Mun"),
        "{report}"
    );
    assert_eq!(
        g.units()
            .iter()
            .filter(|u| u.power == std_power("Germany"))
            .count(),
        5
    );
    assert_eq!(g.phase_name(), "Spring 1902 movement");
}

#[test]
fn dislodgement_retreat_phase() {
    let mut g = new();
    // Spring: Austria and Italy set up; Fall: Vienna supported into Tyrolia's neighbour.
    play(&mut g, &[(0, "A Vie - Tyr\nA Bud - Vie"), (4, "A Ven H")]);
    play(&mut g, &[(0, "A Tyr - Ven\nF Tri S A Tyr - Ven")]);
    assert_eq!(g.phase(), PhaseKind::Retreat);
    assert_eq!(g.awaiting(), vec![4]);
    let v = g.view(Some(4));
    assert!(
        v.choices.iter().any(|c| c.text == "A Ven D"),
        "{:?}",
        v.choices
    );
    let r = v
        .choices
        .iter()
        .find(|c| c.text.starts_with("A Ven R"))
        .unwrap()
        .text
        .clone();
    g.parse_action(4, &r).unwrap();
    let e = g.parse_action(4, "A Ven R Tri").unwrap_err();
    assert!(e.problem.contains("Trieste"), "{e}");
    play(&mut g, &[(4, &r)]);
    assert_eq!(g.phase(), PhaseKind::Adjustment);
}

#[test]
fn unanimous_draw_and_victory_and_forfeit() {
    let mut g = new();
    let mut acts = BTreeMap::new();
    for s in 0..7 {
        acts.insert(s, g.parse_action(s, "draw\ndone").unwrap());
    }
    acts.insert(
        2,
        DiplomacyAction {
            ready: true,
            ..Default::default()
        },
    );
    g.resolve(acts);
    assert!(g.outcome().is_none(), "France did not vote");
    play(&mut g, &[(2, "draw")]);
    assert_eq!(g.outcome(), Some(Outcome::Draw((0..7).collect())));
    assert!(g.awaiting().is_empty());

    let mut g = Diplomacy::new_game(
        DiplomacyOptions {
            victory_centres: Some(4),
            end_year: None,
            ..Default::default()
        },
        1,
    )
    .unwrap();
    play(&mut g, &[]);
    play(&mut g, &[]);
    assert_eq!(g.outcome(), Some(Outcome::Win(RUS)));

    let mut g = new();
    for s in 0..6 {
        g.forfeit(s);
    }
    assert_eq!(g.outcome(), Some(Outcome::Win(6)));
}

#[test]
fn random_ai_games_run_and_serialize() {
    let mut g = Diplomacy::new_game(
        DiplomacyOptions {
            victory_centres: Some(18),
            end_year: Some(1910),
            ..Default::default()
        },
        3,
    )
    .unwrap();
    let mut turns = 0;
    while g.outcome().is_none() && turns < 200 {
        let mut acts = BTreeMap::new();
        for s in g.awaiting() {
            let a = g.ai_action(
                s,
                "random",
                AiBudget::iterations(1),
                turns as u64 * 7 + s as u64,
            );
            assert!(g.validate(s, &a).is_ok(), "{:?}", a);
            acts.insert(s, a);
        }
        g.resolve(acts);
        let m = Map::standard();
        let mut occ = 0u128;
        for u in g.units() {
            let p = m.prov_of(u.loc);
            assert!(occ & (1u128 << p) == 0);
            occ |= 1u128 << p;
        }
        let json = serde_json::to_string(&g).unwrap();
        assert!(json.len() < 8000, "state is {} bytes", json.len());
        g = serde_json::from_str(&json).unwrap();
        turns += 1;
    }
    assert!(g.outcome().is_some(), "the game ends by 1910");
}

#[test]
fn board_lines_fit_and_status_names_waiting_powers() {
    let g = new();
    let v = g.view(None);
    assert!(v.board.lines().all(|l| l.len() < 80), "{}", v.board);
    assert!(
        v.board.contains("Russia") && v.board.contains("F Stp/sc"),
        "{}",
        v.board
    );
    assert!(v.status.contains("waiting for Austria"), "{}", v.status);
    assert!(v.choices.is_empty(), "spectators get no choices");
    let v = g.view(Some(ENG));
    assert!(v.choices.iter().any(|c| c.text == "done"));
    for c in &v.choices {
        assert!(g.parse_action(ENG, &c.text).is_ok(), "{}", c.text);
    }
}

#[test]
fn missed_removal_uses_civil_disorder() {
    // Winter 1901 with Berlin lost to Russia: Germany (3 units, 2 centres)
    // must remove one and sends nothing.
    let g = new();
    let m = Map::standard();
    let mut v = serde_json::to_value(&g).unwrap();
    let ber = m.prov_by_abbr("ber").unwrap() as usize;
    v["owners"][ber] = serde_json::json!("Russia");
    v["phase"] = serde_json::json!("Adjustment");
    v["season"] = serde_json::json!("Winter");
    let mut g: Diplomacy = serde_json::from_value(v).unwrap();
    // Russia is due a build but every home centre is occupied: not awaited.
    assert_eq!(g.awaiting(), vec![GER]);
    let e = g.parse_action(GER, "Build A Kie").unwrap_err();
    assert!(e.problem.contains("no builds"), "{e}");
    let report = play(&mut g, &[]);
    assert!(
        report.contains("Removed in civil disorder: Germany A Ber"),
        "{report}"
    );
    assert_eq!(
        g.units()
            .iter()
            .filter(|u| u.power == std_power("Germany"))
            .count(),
        2
    );
    assert_eq!(g.phase_name(), "Spring 1902 movement");
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}

/// Saved powers are numbers since maps became data: a stored state naming
/// a power, place or table its map does not have is reported as corrupt
/// when it is loaded, not left to panic when a phase indexes past a table.
#[test]
fn a_stored_state_outside_its_map_is_refused_on_load() {
    let registry = host::Registry::standard();
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    let good = serde_json::to_value(&g).unwrap();
    assert!(registry.load("diplomacy", &good.to_string()).is_ok());
    let corrupt = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        edit(&mut v);
        match registry.load("diplomacy", &v.to_string()) {
            Ok(_) => panic!("{v} loaded"),
            Err(e) => e.to_string(),
        }
    };
    for (what, edit) in [
        (
            "a unit's power",
            &(|v: &mut serde_json::Value| v["units"][0]["power"] = 99.into())
                as &dyn Fn(&mut serde_json::Value),
        ),
        ("a unit's place", &|v: &mut serde_json::Value| {
            v["units"][0]["loc"] = 200.into()
        }),
        ("a seat's power", &|v: &mut serde_json::Value| {
            v["seats"][6] = 7.into()
        }),
        ("a centre's owner", &|v: &mut serde_json::Value| {
            v["owners"][0] = 42.into()
        }),
        ("the draw votes", &|v: &mut serde_json::Value| {
            v["draw_votes"] = serde_json::json!([false])
        }),
        ("the owners", &|v: &mut serde_json::Value| {
            v["owners"] = serde_json::json!([])
        }),
    ] {
        let e = corrupt(edit);
        assert!(e.contains("Standard map"), "{what}: {e}");
    }
}
