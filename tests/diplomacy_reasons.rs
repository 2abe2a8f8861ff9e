//! The reasons the movement judge gives for failed orders name the unit
//! that caused the failure: a cut support names a unit that can cut it.

use games::diplomacy::geo::Map;
use games::diplomacy::judge::{Reason, adjudicate_movement};
use games::diplomacy::order::{Unit, UnitKind, parse_order};

/// Adjudicates `orders` (power, order) on the standard map with `units`
/// (power, `A Xyz` / `F Xyz/ec`) and returns each order's failure reason
/// as players read it (`None` for an order that succeeded).
fn reasons(units: &[(&str, &str)], orders: &[(&str, &str)]) -> Vec<Option<String>> {
    let m = Map::standard();
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
    adjudicate_movement(m, &units, &orders)
        .orders
        .iter()
        .map(|o| {
            assert_eq!(o.success, o.reason.is_none(), "{o:?}");
            o.reason.as_ref().map(|r| r.text(m))
        })
        .collect()
}

fn cut_by(abbr: &str) -> Option<String> {
    let m = Map::standard();
    Some(Reason::SupportCut(m.prov_by_abbr(abbr).unwrap()).text(m))
}

#[test]
fn a_support_cut_by_a_third_unit_names_it_not_the_unit_it_is_aimed_at() {
    // Fall 1905 of a field game: Bulgaria's fleet attacks the supporter,
    // which cannot cut a support aimed at Bulgaria (DATC 6.D.15); the army
    // from Serbia does.
    let r = reasons(
        &[
            ("Russia", "A rum"),
            ("Russia", "F bla"),
            ("Turkey", "F bul/ec"),
            ("Austria", "A ser"),
        ],
        &[
            ("Russia", "A rum S F bla - bul"),
            ("Russia", "F bla - bul"),
            ("Turkey", "F bul/ec - rum"),
            ("Austria", "A ser - rum"),
        ],
    );
    assert_eq!(r[0], cut_by("ser"));
    assert_eq!(
        r[0].as_deref(),
        Some("support cut by the attack from Serbia")
    );
}

#[test]
fn the_unit_a_support_is_aimed_at_does_not_cut_it_6_d_15() {
    // DATC 6.D.15: the defender's attack on the supporter cuts nothing; the
    // support is given and Ankara is dislodged.
    let r = reasons(
        &[
            ("Russia", "F con"),
            ("Russia", "F bla"),
            ("Turkey", "F ank"),
        ],
        &[
            ("Russia", "F con S F bla - ank"),
            ("Russia", "F bla - ank"),
            ("Turkey", "F ank - con"),
        ],
    );
    assert_eq!(r[0], None, "the support is given");
    assert_eq!(r[1], None, "Ankara falls");
    assert_eq!(r[2].as_deref(), Some("bounced in Constantinople"));
}

#[test]
fn the_unit_a_support_is_aimed_at_fails_it_only_by_dislodging_it() {
    // The army in Bohemia, which Munich's support is aimed at, dislodges
    // Munich: the reason is the dislodgement, not a cut.
    let r = reasons(
        &[
            ("Germany", "A mun"),
            ("Germany", "A sil"),
            ("Austria", "A boh"),
            ("Austria", "A tyr"),
        ],
        &[
            ("Germany", "A mun S A sil - boh"),
            ("Germany", "A sil - boh"),
            ("Austria", "A boh - mun"),
            ("Austria", "A tyr S A boh - mun"),
        ],
    );
    assert_eq!(r[0].as_deref(), Some("dislodged by the unit from Bohemia"));
    assert_eq!(r[1], None, "Bohemia was left empty");
}

#[test]
fn an_attack_by_the_supporters_own_power_is_not_named() {
    // DATC 6.D.11-style: a power's own move into the supporter cuts
    // nothing; the foreign attack that does is the one named, whichever
    // province comes first.
    let r = reasons(
        &[
            ("Germany", "A mun"),
            ("Germany", "A ber"),
            ("Germany", "A sil"),
            ("Austria", "A boh"),
            ("Russia", "A war"),
        ],
        &[
            ("Germany", "A sil S A mun - boh"),
            ("Germany", "A mun - boh"),
            ("Germany", "A ber - sil"),
            ("Russia", "A war - sil"),
            ("Austria", "A boh H"),
        ],
    );
    assert_eq!(r[0], cut_by("war"));
}

#[test]
fn a_convoyed_attack_without_a_route_cuts_nothing_and_is_not_named() {
    // DATC 6.D.31-style: the army from London has no convoy (North Sea is
    // not ordered), so only the attack from Belgium cuts Holland's support.
    let r = reasons(
        &[
            ("England", "A lon"),
            ("England", "F nth"),
            ("Germany", "A hol"),
            ("Germany", "A kie"),
            ("France", "A ruh"),
            ("France", "A bel"),
        ],
        &[
            ("England", "A lon - hol via convoy"),
            ("Germany", "A hol S A kie - ruh"),
            ("Germany", "A kie - ruh"),
            ("France", "A bel - hol"),
            ("France", "A ruh H"),
        ],
    );
    assert_eq!(
        r[0].as_deref(),
        Some("no convoy route (convoy missing or disrupted)")
    );
    assert_eq!(r[1], cut_by("bel"));
}
