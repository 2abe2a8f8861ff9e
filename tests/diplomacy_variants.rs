//! Variants on the classic map (`variant=fva|gvi|etv`, `powers=`): seats,
//! starting positions and neutral centres, and seeded AI games of each
//! variant played to their end. The published starting units are checked
//! against vDiplomacy's rules in the engine's own unit tests
//! (`diplomacy::game::variant`).

#[path = "support/host_builder.rs"]
mod host_builder;

#[path = "support/diplomacy_play.rs"]
mod diplomacy_play;
use diplomacy_play::play_out;

use games::diplomacy::geo::Map;
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::{Game, Outcome};
use std::collections::BTreeMap;

fn variant(name: &str) -> DiplomacyOptions {
    DiplomacyOptions {
        variant: name.into(),
        ..Default::default()
    }
}

#[test]
fn a_two_player_variant_seats_its_two_powers_and_leaves_the_rest_neutral() {
    let m = Map::standard();
    for (name, powers) in [
        ("fva", [std_power("France"), std_power("Austria")]),
        ("gvi", [std_power("Germany"), std_power("Italy")]),
        ("etv", [std_power("England"), std_power("Turkey")]),
    ] {
        let options = variant(name);
        assert_eq!(Diplomacy::seat_count(&options), 2, "{name}");
        let g = Diplomacy::new_game(options, 1).unwrap();
        assert_eq!(g.playing_powers(), powers, "{name}");
        assert_eq!(g.seat_name(0), m.power_name(powers[0]));
        assert_eq!(g.seat_name(1), m.power_name(powers[1]));
        assert_eq!(g.awaiting(), [0, 1]);
        // 3 home centres each; the other 28 centres are neutral.
        for p in m.powers() {
            let expected = if powers.contains(&p) { 3 } else { 0 };
            assert_eq!(g.centre_count(p), expected, "{name}: {p:?}");
        }
        let neutral = m
            .supply_centres()
            .filter(|&c| g.owners()[c as usize].is_none())
            .count();
        assert_eq!(neutral, 28, "{name}");
        assert_eq!(g.units().len(), 6, "{name}");
        // The board lists only the two powers.
        let board = g.view(None).board;
        for p in m.powers() {
            assert_eq!(
                board.contains(m.power_name(p)),
                powers.contains(&p),
                "{name}: {board}"
            );
        }
    }
}

#[test]
fn a_subset_of_the_classic_powers_plays_with_the_others_neutral() {
    let options = DiplomacyOptions {
        powers: "russia,turkey,austria".into(),
        ..Default::default()
    };
    assert_eq!(Diplomacy::seat_count(&options), 3);
    let g = Diplomacy::new_game(options, 1).unwrap();
    assert_eq!(
        g.playing_powers(),
        [
            std_power("Russia"),
            std_power("Turkey"),
            std_power("Austria")
        ]
    );
    assert_eq!(g.units().len(), 4 + 3 + 3);
    assert_eq!(g.centre_count(std_power("Russia")), 4);
    assert_eq!(g.centre_count(std_power("France")), 0);
    // Seat 0 is Russia: its orders are Russia's.
    let a = g.parse_action(0, "A mos - ukr").unwrap();
    assert!(g.validate(0, &a).is_ok());
    let e = g.parse_action(0, "A vie - gal").unwrap_err();
    assert!(
        e.problem.contains("vie") || e.problem.contains("Vienna"),
        "{e:?}"
    );
}

#[test]
fn bad_variant_options_are_refused_with_what_would_be_right() {
    let e = Diplomacy::new_game(variant("chaos"), 1).unwrap_err().0;
    assert!(
        e.contains("`chaos` is not a variant") && e.contains("`etv`"),
        "{e}"
    );
    let e = Diplomacy::new_game(
        DiplomacyOptions {
            powers: "france".into(),
            ..Default::default()
        },
        1,
    )
    .unwrap_err()
    .0;
    assert!(e.contains("at least two"), "{e}");
}

#[test]
fn seeded_ai_games_of_each_variant_play_to_their_end() {
    for (name, seed) in [("fva", 11), ("gvi", 12), ("etv", 13)] {
        let mut g = Diplomacy::new_game(variant(name), seed).unwrap();
        let phases = play_out(&mut g, "default", seed, 400, only_the_variants_powers);
        let outcome = g.outcome();
        assert!(
            outcome.is_some(),
            "{name}: no end after {phases} phases:\n{}",
            g.view(None).board
        );
        if let Some(Outcome::Win(seat)) = outcome {
            let p = g.power_of_seat(seat).unwrap();
            assert!(
                g.centre_count(p) >= 18,
                "{name}: {p:?} won with {}",
                g.centre_count(p)
            );
        }
        // The same seed plays the same game.
        let mut again = Diplomacy::new_game(variant(name), seed).unwrap();
        play_out(&mut again, "default", seed, 400, |_| {});
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            serde_json::to_string(&again).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_game_saved_before_variants_loads_with_all_seven_powers() {
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 3).unwrap();
    let mut json: serde_json::Value = serde_json::to_value(&g).unwrap();
    let state = json.as_object_mut().unwrap();
    state.remove("seats");
    let options = state["options"].as_object_mut().unwrap();
    options.remove("variant");
    options.remove("powers");
    let old: Diplomacy = serde_json::from_value(json).unwrap();
    assert_eq!(
        old.playing_powers(),
        Map::standard().powers().collect::<Vec<_>>()
    );
    assert_eq!(old.awaiting().len(), 7);
}

#[test]
fn the_host_seats_a_variant_by_its_powers_and_plays_it() {
    use host::{NewGame, TimeoutPolicy};

    let dir = tempfile::tempdir().unwrap();
    let host = host_builder::standard_host(&dir.path().join("v.db"));
    // The options as a player types them on Discord.
    let options = host::parse_game_options("variant=etv").unwrap();
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("g".into()),
            channel_id: "c".into(),
            creator_id: "alice".into(),
            creator_name: "Alice".into(),
            options,
            seed: Some(5),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    // Two seats only: a third player is refused.
    assert!(host.join(id, "carol", "Carol", None).is_err());
    host.start(id, "alice").unwrap();
    let view = host.view(id, Some("alice")).unwrap();
    let roles: Vec<&str> = view.seats.iter().map(|s| s.role.as_str()).collect();
    assert_eq!(roles, ["England", "Turkey"]);
    // Alice plays England: her fleets start at sea.
    host.submit(
        Some(id),
        "alice",
        "F nth - nwy\nF eng - mao\nA lon - wal\ndone",
    )
    .unwrap();
    host.submit(
        Some(id),
        "bob",
        "F ank - bla\nA con - bul\nA smy - arm\ndone",
    )
    .unwrap();
    let after = host.view(id, None).unwrap();
    assert_eq!(after.turn, 1);
    let board = after.view.unwrap().board;
    // Every order succeeded, and only the two powers are listed.
    assert_eq!(
        board,
        "Fall 1901 movement\nEngland   3 SC  F Mao, A Wal, F Nwy\nTurkey    3 SC  F Bla, A Bul, A Arm\n"
    );
}

#[test]
fn a_seat_missing_its_deadline_is_counted_against_its_own_power() {
    // In France vs Austria seat 0 is France (Power index 2) and seat 1
    // Austria (index 0): the records of the seat's power change, not those
    // of the power whose index is the seat number.
    let mut g = Diplomacy::new_game(variant("fva"), 1).unwrap();
    let mut actions = BTreeMap::new();
    actions.insert(0, g.default_action(0));
    actions.insert(1, g.parse_action(1, "A vie - gal\ndone").unwrap());
    g.resolve(actions);
    assert_eq!(g.missed_moves(std_power("France")), 1);
    assert_eq!(g.missed_moves(std_power("Austria")), 0);
    assert_eq!(g.missed_moves(std_power("England")), 0);
    // A second miss puts France, seat 0, in civil disorder, which leaves
    // Austria, seat 1, the last power playing: it wins.
    let mut actions = BTreeMap::new();
    actions.insert(0, g.default_action(0));
    actions.insert(1, g.parse_action(1, "done").unwrap());
    g.resolve(actions);
    assert!(g.in_disorder(std_power("France")));
    assert!(!g.in_disorder(std_power("Austria")));
    assert_eq!(g.outcome(), Some(Outcome::Win(1)));
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}

/// Only the variant's powers ever have units.
fn only_the_variants_powers(g: &Diplomacy) {
    assert!(g.units().iter().all(|u| g.seat_of(u.power).is_some()));
}
