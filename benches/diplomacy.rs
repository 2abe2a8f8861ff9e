//! Adjudication speed: the 22-unit Spring 1901 opening and a crowded 34-unit
//! midgame with convoys and supports.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use games::diplomacy::game::opening_units;
use games::diplomacy::geo::{Map, Power};
use games::diplomacy::judge::adjudicate_movement;
use games::diplomacy::order::{Order, parse_order};

fn orders(m: &Map, list: &[(Power, &str)]) -> Vec<(Power, Order)> {
    list.iter()
        .map(|&(p, s)| (p, parse_order(m, s).expect(s)))
        .collect()
}

/// A typical opening: every unit has an order.
pub fn opening_orders(m: &Map) -> Vec<(Power, Order)> {
    let [austria, england, france, germany, italy, russia, turkey] = standard_powers();
    orders(
        m,
        &[
            (austria, "A Vie - Gal"),
            (austria, "A Bud - Ser"),
            (austria, "F Tri - Alb"),
            (england, "F Lon - Nth"),
            (england, "F Edi - Nwg"),
            (england, "A Lvp - Yor"),
            (france, "F Bre - Mao"),
            (france, "A Par - Bur"),
            (france, "A Mar S A Par - Bur"),
            (germany, "F Kie - Den"),
            (germany, "A Ber - Kie"),
            (germany, "A Mun - Ruh"),
            (italy, "F Nap - Ion"),
            (italy, "A Rom - Apu"),
            (italy, "A Ven H"),
            (russia, "F Stp/sc - Bot"),
            (russia, "A Mos - Ukr"),
            (russia, "A War - Gal"),
            (russia, "F Sev - Bla"),
            (turkey, "F Ank - Bla"),
            (turkey, "A Con - Bul"),
            (turkey, "A Smy - Con"),
        ],
    )
}

// The midgame is the one the map legibility test draws.
#[path = "../tests/support/diplomacy_positions.rs"]
#[allow(dead_code)]
mod positions;

fn bench(c: &mut Criterion) {
    let m = Map::standard();
    let units = opening_units();
    let o = opening_orders(m);
    c.bench_function("diplomacy/opening_22_units", |b| {
        b.iter(|| adjudicate_movement(m, black_box(&units), black_box(&o)))
    });
    let (mu, mo) = positions::midgame_units_orders(m);
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

/// The standard map's seven powers, in its table's order.
fn standard_powers() -> [Power; 7] {
    std::array::from_fn(|i| Power::new(i as u8))
}
