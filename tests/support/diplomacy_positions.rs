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
    let [austria, england, france, germany, italy, russia, turkey] = standard_powers();
    use UnitKind::*;
    let units: Vec<Unit> = [
        (england, Fleet, "nth"),
        (england, Fleet, "eng"),
        (england, Army, "yor"),
        (england, Fleet, "nwg"),
        (england, Army, "nwy"),
        (england, Fleet, "ska"),
        (france, Fleet, "mao"),
        (france, Army, "bre"),
        (france, Army, "bur"),
        (france, Army, "pic"),
        (france, Fleet, "wes"),
        (france, Army, "spa"),
        (germany, Army, "ruh"),
        (germany, Army, "mun"),
        (germany, Fleet, "kie"),
        (germany, Army, "hol"),
        (germany, Fleet, "den"),
        (russia, Army, "war"),
        (russia, Army, "ukr"),
        (russia, Fleet, "bot"),
        (russia, Fleet, "sev"),
        (italy, Army, "ven"),
        (italy, Army, "tyr"),
        (italy, Fleet, "ion"),
        (italy, Army, "tun"),
        (italy, Fleet, "tys"),
        (austria, Army, "vie"),
        (austria, Army, "bud"),
        (austria, Army, "gal"),
        (austria, Army, "ser"),
        (turkey, Fleet, "bla"),
        (turkey, Army, "bul"),
        (turkey, Army, "rum"),
        (turkey, Fleet, "aeg"),
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
            (england, "A Yor - Bel"),
            (england, "F Nth C A Yor - Bel"),
            (england, "F Eng S A Yor - Bel"),
            (england, "F Nwg S A Nwy"),
            (england, "A Nwy - Swe"),
            (england, "F Ska S A Nwy - Swe"),
            (france, "A Pic - Bel"),
            (france, "A Bur S A Pic - Bel"),
            (france, "F Mao - Iri"),
            (france, "A Bre - Gas"),
            (france, "A Spa - Por"),
            (france, "F Wes - Naf"),
            (germany, "A Hol H"),
            (germany, "A Ruh S A Hol"),
            (germany, "F Kie - Hel"),
            (germany, "F Den - Swe"),
            (germany, "A Mun - Bur"),
            (russia, "A War - Gal"),
            (russia, "A Ukr S A War - Gal"),
            (russia, "F Bot - Swe"),
            (russia, "F Sev - Bla"),
            (italy, "A Tun - Tus"),
            (italy, "F Tys C A Tun - Tus"),
            (italy, "A Ven - Tri"),
            (italy, "A Tyr - Vie"),
            (italy, "F Ion - Aeg"),
            (austria, "A Vie S A Gal"),
            (austria, "A Bud S A Gal"),
            (austria, "A Gal H"),
            (austria, "A Ser - Bul"),
            (turkey, "F Bla - Sev"),
            (turkey, "A Rum S A Bul"),
            (turkey, "F Aeg S A Bul"),
            (turkey, "A Bul H"),
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

/// The standard map's seven powers, in its table's order.
fn standard_powers() -> [Power; 7] {
    std::array::from_fn(|i| Power::new(i as u8))
}
