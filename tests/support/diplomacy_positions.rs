//! Diplomacy positions shared by the map legibility test and the render
//! bench (included with `#[path]`, so it is not a module of `support`).

use games::diplomacy::geo::{Map, Power};
use games::diplomacy::judge::adjudicate_movement;
use games::diplomacy::order::{Order, Unit, UnitKind, parse_order};
use render::diplomacy::MapPosition;

fn orders(m: &Map, list: &[(Power, &str)]) -> Vec<(Power, Order)> {
    list.iter()
        .map(|&(p, s)| (p, parse_order(m, s).expect(s)))
        .collect()
}

/// A crowded 34-unit midgame with every kind of movement order (the
/// adjudication bench's position).
pub fn midgame_units_orders(m: &Map) -> (Vec<Unit>, Vec<(Power, Order)>) {
    use Power::*;
    use UnitKind::*;
    let units: Vec<Unit> = [
        (England, Fleet, "nth"),
        (England, Fleet, "eng"),
        (England, Army, "yor"),
        (England, Fleet, "nwg"),
        (England, Army, "nwy"),
        (England, Fleet, "ska"),
        (France, Fleet, "mao"),
        (France, Army, "bre"),
        (France, Army, "bur"),
        (France, Army, "pic"),
        (France, Fleet, "wes"),
        (France, Army, "spa"),
        (Germany, Army, "ruh"),
        (Germany, Army, "mun"),
        (Germany, Fleet, "kie"),
        (Germany, Army, "hol"),
        (Germany, Fleet, "den"),
        (Russia, Army, "war"),
        (Russia, Army, "ukr"),
        (Russia, Fleet, "bot"),
        (Russia, Fleet, "sev"),
        (Italy, Army, "ven"),
        (Italy, Army, "tyr"),
        (Italy, Fleet, "ion"),
        (Italy, Army, "tun"),
        (Italy, Fleet, "tys"),
        (Austria, Army, "vie"),
        (Austria, Army, "bud"),
        (Austria, Army, "gal"),
        (Austria, Army, "ser"),
        (Turkey, Fleet, "bla"),
        (Turkey, Army, "bul"),
        (Turkey, Army, "rum"),
        (Turkey, Fleet, "aeg"),
    ]
    .iter()
    .map(|&(power, kind, at)| Unit {
        power,
        kind,
        loc: m.loc_by_abbr(at).unwrap(),
    })
    .collect();
    assert_eq!(units.len(), 34);
    let o = orders(
        m,
        &[
            (England, "A Yor - Bel"),
            (England, "F Nth C A Yor - Bel"),
            (England, "F Eng S A Yor - Bel"),
            (England, "F Nwg S A Nwy"),
            (England, "A Nwy - Swe"),
            (England, "F Ska S A Nwy - Swe"),
            (France, "A Pic - Bel"),
            (France, "A Bur S A Pic - Bel"),
            (France, "F Mao - Iri"),
            (France, "A Bre - Gas"),
            (France, "A Spa - Por"),
            (France, "F Wes - Naf"),
            (Germany, "A Hol H"),
            (Germany, "A Ruh S A Hol"),
            (Germany, "F Kie - Hel"),
            (Germany, "F Den - Swe"),
            (Germany, "A Mun - Bur"),
            (Russia, "A War - Gal"),
            (Russia, "A Ukr S A War - Gal"),
            (Russia, "F Bot - Swe"),
            (Russia, "F Sev - Bla"),
            (Italy, "A Tun - Tus"),
            (Italy, "F Tys C A Tun - Tus"),
            (Italy, "A Ven - Tri"),
            (Italy, "A Tyr - Vie"),
            (Italy, "F Ion - Aeg"),
            (Austria, "A Vie S A Gal"),
            (Austria, "A Bud S A Gal"),
            (Austria, "A Gal H"),
            (Austria, "A Ser - Bul"),
            (Turkey, "F Bla - Sev"),
            (Turkey, "A Rum S A Bul"),
            (Turkey, "F Aeg S A Bul"),
            (Turkey, "A Bul H"),
        ],
    );
    (units, o)
}

/// The crowded midgame with its orders adjudicated (failed ones crossed out).
pub fn midgame() -> MapPosition {
    let m = Map::standard();
    let (units, orders) = midgame_units_orders(m);
    let outcomes = adjudicate_movement(m, &units, &orders).orders;
    let mut owners = vec![None; m.province_count()];
    for u in &units {
        let p = m.prov_of(u.loc);
        if m.prov(p).sc {
            owners[p as usize] = Some(u.power);
        }
    }
    MapPosition {
        title: "Fall 1905 (movement) orders".into(),
        owners,
        orders: orders
            .iter()
            .zip(&outcomes)
            .map(|(&(p, o), oc)| (p, o, oc.success))
            .collect(),
        units,
        ..MapPosition::default()
    }
}
