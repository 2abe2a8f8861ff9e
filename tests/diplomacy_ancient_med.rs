//! Ancient Mediterranean (issue 36), the first map after the standard one,
//! played from its data file: its published setup, its special places
//! (Byzantium and Athens joining two seas, the navigable Nile, the
//! straits an army crosses), seeded games between AIs played to their
//! end, and the adjudicator's invariants on random positions of this map.

#[path = "support/diplomacy_play.rs"]
mod diplomacy_play;
use diplomacy_play::play_out;

use games::diplomacy::geo::{Map, find_map};
use games::diplomacy::judge::adjudicate_movement;
use games::diplomacy::order::{Order, OrderKind, Unit, UnitKind, parse_order};
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::{Game, Outcome};
use proptest::prelude::*;

fn ancient_med() -> &'static Map {
    find_map("ancient_med").expect("Ancient Mediterranean is bundled")
}

fn options() -> DiplomacyOptions {
    DiplomacyOptions {
        map: "ancient_med".into(),
        ..Default::default()
    }
}

#[test]
fn the_published_setup() {
    let m = ancient_med();
    assert_eq!(m.title(), "Ancient Mediterranean");
    assert_eq!(
        m.power_names(),
        "Carthage, Egypt, Greece, Persia, Rome",
        "seats in alphabetical order, as vDiplomacy and DPjudge"
    );
    assert_eq!(m.supply_centres().count(), 34);
    assert_eq!(m.victory_centres(), 18);
    assert_eq!(m.start_year(), 1);
    let g = Diplomacy::new_game(options(), 1).unwrap();
    assert_eq!(Diplomacy::seat_count(&options()), 5);
    assert_eq!(g.phase_name(), "Spring 1 movement");
    let mut units: Vec<String> = g
        .units()
        .iter()
        .map(|u| {
            format!(
                "{} {}",
                g.power_name(u.power),
                games::diplomacy::order::unit_name(m, u)
            )
        })
        .collect();
    units.sort();
    assert_eq!(
        units,
        [
            "Carthage A Car",
            "Carthage A Cir",
            "Carthage F Tha",
            "Egypt A Mem",
            "Egypt A Thb",
            "Egypt F Ale",
            "Greece A Ath",
            "Greece A Mac",
            "Greece F Spa",
            "Persia A Ant",
            "Persia A Dam",
            "Persia F Sid",
            "Rome A Rav",
            "Rome A Rom",
            "Rome F Nea",
        ]
    );
    for p in m.powers() {
        assert_eq!(m.home_centres(p).count(), 3, "{}", m.power_name(p));
        assert_eq!(g.centre_count(p), 3);
    }
    // The classic variants belong to the standard map.
    let e = Diplomacy::new_game(
        DiplomacyOptions {
            variant: "fva".into(),
            ..options()
        },
        1,
    )
    .unwrap_err()
    .0;
    assert!(
        e.contains("`fva` is not a variant of the Ancient Mediterranean map"),
        "{e}"
    );
    // Fog of War and a choice of powers work on any map.
    let fog = Diplomacy::new_game(
        DiplomacyOptions {
            variant: "fog".into(),
            powers: "rome,carthage".into(),
            ..options()
        },
        1,
    )
    .unwrap();
    assert!(fog.fog_of_war());
    assert_eq!(fog.units().len(), 6);
    // Players name powers by name, three letters or a unique initial.
    for (typed, power) in [("persia", "Persia"), ("Per", "Persia"), ("e", "Egypt")] {
        assert_eq!(
            m.parse_power(typed).map(|p| m.power_name(p)),
            Some(power),
            "{typed}"
        );
    }
}

/// Plays one movement phase of `orders` (power name, order) on a fresh
/// game whose units are `units`; the units after it, as `A Xyz` per power.
fn after_movement(units: &[(&str, &str)], orders: &[(&str, &str)]) -> Vec<String> {
    let m = ancient_med();
    let units: Vec<Unit> = units
        .iter()
        .map(|(p, u)| {
            let (kind, at) = u.split_once(' ').unwrap();
            Unit {
                power: m.parse_power(p).unwrap(),
                kind: if kind == "F" {
                    UnitKind::Fleet
                } else {
                    UnitKind::Army
                },
                loc: m.loc_by_abbr(at).unwrap(),
            }
        })
        .collect();
    let orders: Vec<_> = orders
        .iter()
        .map(|(p, o)| (m.parse_power(p).unwrap(), parse_order(m, o).unwrap()))
        .collect();
    let r = adjudicate_movement(m, &units, &orders);
    let mut out: Vec<String> = r
        .final_units
        .iter()
        .map(|u| games::diplomacy::order::unit_name(m, u))
        .collect();
    out.sort();
    out
}

#[test]
fn the_special_places_of_the_board() {
    // Byzantium joins the Black Sea and the Aegean for a fleet.
    assert_eq!(
        after_movement(&[("Greece", "F aeg")], &[("Greece", "F aeg - byz")]),
        ["F Byz"]
    );
    assert_eq!(
        after_movement(&[("Greece", "F byz")], &[("Greece", "F byz - bla")]),
        ["F Bla"]
    );
    // Athens is a canal between the Ionian and Aegean seas.
    assert_eq!(
        after_movement(&[("Greece", "F ion")], &[("Greece", "F ion - ath")]),
        ["F Ath"]
    );
    assert_eq!(
        after_movement(&[("Greece", "F ath")], &[("Greece", "F ath - aeg")]),
        ["F Aeg"]
    );
    // The Nile: a fleet sails from Alexandria up to Memphis.
    assert_eq!(
        after_movement(&[("Egypt", "F ale")], &[("Egypt", "F ale - mem")]),
        ["F Mem"]
    );
    // Armies cross the straits of Gibraltar and Messina without a convoy.
    assert_eq!(
        after_movement(&[("Carthage", "A mau")], &[("Carthage", "A mau - sag")]),
        ["A Sag"]
    );
    assert_eq!(
        after_movement(&[("Rome", "A nea")], &[("Rome", "A nea - sic")]),
        ["A Sic"]
    );
    // The Baleares take an army only by convoy.
    let m = ancient_med();
    let (sag, bal) = (
        m.prov_by_abbr("sag").unwrap(),
        m.prov_by_abbr("bal").unwrap(),
    );
    assert_eq!(m.army_adj(sag) & 1u128 << bal, 0);
    assert_eq!(
        after_movement(
            &[("Carthage", "A sag"), ("Carthage", "F ber")],
            &[
                ("Carthage", "A sag - bal via convoy"),
                ("Carthage", "F ber C A sag - bal"),
            ],
        ),
        ["A Bal", "F Ber"]
    );
}

#[test]
fn seeded_games_between_ais_play_to_their_end() {
    for (level, seed) in [("default", 31), ("dumbbot", 32), ("heuristic", 33)] {
        let mut g = Diplomacy::new_game(options(), seed).unwrap();
        let phases = play_out(&mut g, level, seed, 600, |_| {});
        let outcome = g.outcome();
        assert!(
            outcome.is_some(),
            "{level}: no end after {phases} phases:\n{}",
            g.view(None).board
        );
        if let Some(Outcome::Win(seat)) = outcome {
            let p = g.power_of_seat(seat).unwrap();
            assert!(g.centre_count(p) >= 18, "{level}: won with too few");
        }
        // Every unit stands where its kind may, on this map's places.
        let m = ancient_med();
        for u in g.units() {
            assert!((u.loc as usize) < m.location_count());
        }
        // The same seed plays the same game.
        let mut again = Diplomacy::new_game(options(), seed).unwrap();
        play_out(&mut again, level, seed, 600, |_| {});
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            serde_json::to_string(&again).unwrap(),
            "{level}"
        );
        // A saved game loads again on its map.
        let saved = serde_json::to_string(&g).unwrap();
        assert!(saved.contains("\"map\":\"ancient_med\""));
        let back: Diplomacy = serde_json::from_str(&saved).unwrap();
        assert_eq!(back.map().id(), "ancient_med");
    }
}

/// A random position of this map: one unit per province at most, on
/// ground its kind may stand on, for any power.
fn position() -> impl Strategy<Value = Vec<Unit>> {
    let m = ancient_med();
    let places: Vec<(u8, UnitKind)> = (0..m.location_count() as u8)
        .flat_map(|l| {
            let p = m.prov(m.prov_of(l));
            let mut kinds = Vec::new();
            if p.terrain != games::diplomacy::geo::Terrain::Sea && m.loc(l).coast.is_none() {
                kinds.push((l, UnitKind::Army));
            }
            if m.fleet_adj(l) != 0 && (p.coasts.is_empty() || m.loc(l).coast.is_some()) {
                kinds.push((l, UnitKind::Fleet));
            }
            kinds
        })
        .collect();
    proptest::sample::subsequence(places, 10..30).prop_flat_map(move |picked| {
        let n = picked.len();
        proptest::collection::vec(0..5u8, n).prop_map(move |owners| {
            let mut used = 0u128;
            let mut units = Vec::new();
            for ((loc, kind), owner) in picked.iter().zip(owners) {
                let p = m.prov_of(*loc);
                if used >> p & 1 == 1 {
                    continue;
                }
                used |= 1 << p;
                units.push(Unit {
                    power: games::diplomacy::geo::Power::new(owner),
                    kind: *kind,
                    loc: *loc,
                });
            }
            units
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever each unit is ordered (a legal move or support picked from
    /// the menus of its power, or nothing), the adjudicator keeps every
    /// unit it did not dislodge, never puts two units in a province, and
    /// moves a unit only to a place its kind may reach from where it stood.
    #[test]
    fn adjudication_invariants_on_this_map(units in position(), pick in any::<u64>()) {
        let m = ancient_med();
        let orders: Vec<_> = units
            .iter()
            .enumerate()
            .filter_map(|(i, u)| {
                let legal = legal_orders(m, &units, u);
                (!legal.is_empty())
                    .then(|| (u.power, legal[(pick.rotate_left(i as u32) as usize) % legal.len()]))
            })
            .collect();
        let r = adjudicate_movement(m, &units, &orders);
        prop_assert_eq!(r.final_units.len() + r.dislodged.len(), units.len());
        let mut seen = 0u128;
        for u in &r.final_units {
            let p = m.prov_of(u.loc);
            prop_assert!(seen >> p & 1 == 0, "two units in {}", m.prov(p).abbr);
            seen |= 1 << p;
            let before = units.iter().find(|b| b.power == u.power && b.kind == u.kind
                && (b.loc == u.loc || reaches(m, b, u.loc, &units)));
            prop_assert!(before.is_some(), "{:?} came from nowhere", u);
        }
    }
}

/// Moves to every neighbour and supports of every neighbour's hold: the
/// orders a unit's menu would hold for a plain move or support.
fn legal_orders(m: &Map, units: &[Unit], u: &Unit) -> Vec<Order> {
    let mut out = vec![Order::Unit {
        unit: Some(u.kind),
        at: u.loc,
        kind: OrderKind::Hold,
    }];
    let reach: u128 = match u.kind {
        UnitKind::Army => m.army_adj(m.prov_of(u.loc)),
        UnitKind::Fleet => m.fleet_adj(u.loc),
    };
    for to in games::diplomacy::geo::BitIter(reach) {
        out.push(Order::Unit {
            unit: Some(u.kind),
            at: u.loc,
            kind: OrderKind::Move {
                to,
                via_convoy: false,
            },
        });
    }
    let provinces: u128 = match u.kind {
        UnitKind::Army => m.army_adj(m.prov_of(u.loc)),
        UnitKind::Fleet => m.fleet_prov_adj(u.loc),
    };
    for other in units {
        if provinces >> m.prov_of(other.loc) & 1 == 1 {
            out.push(Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind: OrderKind::Support {
                    unit: Some(other.kind),
                    from: other.loc,
                    to: None,
                },
            });
        }
    }
    out
}

/// Whether `u` could have reached `to` by one move (or convoy) this phase.
fn reaches(m: &Map, u: &Unit, to: u8, _units: &[Unit]) -> bool {
    match u.kind {
        UnitKind::Army => m.army_adj(m.prov_of(u.loc)) >> m.prov_of(to) & 1 == 1,
        UnitKind::Fleet => m.fleet_adj(u.loc) >> to & 1 == 1,
    }
}
