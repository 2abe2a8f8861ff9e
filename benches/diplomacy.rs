//! Adjudication speed: the 22-unit Spring 1901 opening and a crowded 34-unit
//! midgame with convoys and supports.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use games::diplomacy::game::opening_units;
use games::diplomacy::geo::{Map, Power};
use games::diplomacy::judge::adjudicate_movement;
use games::diplomacy::order::{Order, Unit, UnitKind, parse_order};

fn orders(m: &Map, list: &[(Power, &str)]) -> Vec<(Power, Order)> {
    list.iter()
        .map(|&(p, s)| (p, parse_order(m, s).expect(s)))
        .collect()
}

/// A typical opening: every unit has an order.
pub fn opening_orders(m: &Map) -> Vec<(Power, Order)> {
    use Power::*;
    orders(
        m,
        &[
            (Austria, "A Vie - Gal"),
            (Austria, "A Bud - Ser"),
            (Austria, "F Tri - Alb"),
            (England, "F Lon - Nth"),
            (England, "F Edi - Nwg"),
            (England, "A Lvp - Yor"),
            (France, "F Bre - Mao"),
            (France, "A Par - Bur"),
            (France, "A Mar S A Par - Bur"),
            (Germany, "F Kie - Den"),
            (Germany, "A Ber - Kie"),
            (Germany, "A Mun - Ruh"),
            (Italy, "F Nap - Ion"),
            (Italy, "A Rom - Apu"),
            (Italy, "A Ven H"),
            (Russia, "F Stp/sc - Bot"),
            (Russia, "A Mos - Ukr"),
            (Russia, "A War - Gal"),
            (Russia, "F Sev - Bla"),
            (Turkey, "F Ank - Bla"),
            (Turkey, "A Con - Bul"),
            (Turkey, "A Smy - Con"),
        ],
    )
}

fn midgame(m: &Map) -> (Vec<Unit>, Vec<(Power, Order)>) {
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

fn bench(c: &mut Criterion) {
    let m = Map::standard();
    let units = opening_units();
    let o = opening_orders(m);
    c.bench_function("diplomacy/opening_22_units", |b| {
        b.iter(|| adjudicate_movement(m, black_box(&units), black_box(&o)))
    });
    let (mu, mo) = midgame(m);
    c.bench_function("diplomacy/midgame_34_units", |b| {
        b.iter(|| adjudicate_movement(m, black_box(&mu), black_box(&mo)))
    });
    c.bench_function("diplomacy/parse_22_orders", |b| {
        b.iter(|| {
            for s in [
                "A Vie - Gal",
                "F Stp/sc - Bot",
                "A Mar S A Par - Bur",
                "F Mid-Atlantic Ocean - Spain(nc)",
            ] {
                black_box(parse_order(m, black_box(s)).ok());
            }
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
