//! Property tests: no panics on any text; adjudication invariants on random positions.

use games::diplomacy::Diplomacy;
use games::diplomacy::geo::{BitIter, LocId, Map, Power, Terrain};
use games::diplomacy::judge::adjudicate_movement;
use games::diplomacy::order::{Order, OrderKind, Unit, UnitKind, parse_order};
use games::seam::Game;
use proptest::prelude::*;

/// A legal position: distinct provinces, armies on land, fleets on sea or a coast.
fn position() -> impl Strategy<Value = Vec<Unit>> {
    proptest::collection::vec((0u8..76, 0usize..7, any::<bool>(), any::<bool>()), 0..34).prop_map(
        |raw| {
            let m = Map::standard();
            let mut used = 0u128;
            let mut units = Vec::new();
            for (p, pw, fleet, coast) in raw {
                if used & (1u128 << p) != 0 {
                    continue;
                }
                let prov = m.prov(p);
                let kind = match prov.terrain {
                    Terrain::Impassable => continue,
                    Terrain::Sea => UnitKind::Fleet,
                    Terrain::Land => UnitKind::Army,
                    Terrain::Coast => {
                        if fleet {
                            UnitKind::Fleet
                        } else {
                            UnitKind::Army
                        }
                    }
                };
                let loc = if kind == UnitKind::Fleet && !prov.coasts.is_empty() {
                    prov.coasts[usize::from(coast)]
                } else {
                    p
                };
                used |= 1u128 << p;
                units.push(Unit {
                    power: Power::new(pw as u8),
                    kind,
                    loc,
                });
            }
            units
        },
    )
}

/// Syntactically valid orders for (mostly) the units on the board, aimed
/// mostly at neighbours so that supports, convoys and bounces interact.
fn orders_for(units: &[Unit], picks: &[(u8, u8, u8, u8, bool)]) -> Vec<(Power, Order)> {
    let m = Map::standard();
    let near = |l: LocId, pick: u8| -> LocId {
        let p = m.prov_of(l);
        let adj: Vec<u8> = BitIter(m.army_adj(p) | m.prov_fleet_adj(p)).collect();
        if adj.is_empty() || pick.is_multiple_of(5) {
            pick % 76
        } else {
            adj[pick as usize % adj.len()]
        }
    };
    let mut out = Vec::new();
    for (i, &(kind, a, b, c, flag)) in picks.iter().enumerate() {
        if units.is_empty() {
            break;
        }
        let u = units[i % units.len()];
        let other = units[a as usize % units.len()];
        let k = match kind % 5 {
            0 => OrderKind::Hold,
            1 | 2 => OrderKind::Move {
                to: near(u.loc, b),
                via_convoy: flag && c.is_multiple_of(3),
            },
            3 => OrderKind::Support {
                unit: None,
                from: other.loc,
                to: if flag { Some(near(other.loc, b)) } else { None },
            },
            _ => OrderKind::Convoy {
                from: other.loc,
                to: near(other.loc, c),
            },
        };
        let power = if c.is_multiple_of(11) {
            Power::new(c % 7)
        } else {
            u.power
        };
        out.push((
            power,
            Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind: k,
            },
        ));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics(s in ".{0,60}") {
        let _ = parse_order(Map::standard(), &s);
    }

    #[test]
    fn parser_never_panics_on_order_like_text(s in "(A|F|a|f|Build|Remove|waive)? ?[a-zA-Z/()\\- ]{0,30}") {
        let _ = parse_order(Map::standard(), &s);
        let g = Diplomacy::new_game(Default::default(), 1).unwrap();
        for seat in 0..7 {
            let _ = g.parse_action(seat, &s);
        }
    }

    #[test]
    fn adjudication_invariants(
        units in position(),
        picks in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), any::<bool>()), 0..40),
        rot in any::<usize>(),
    ) {
        let m = Map::standard();
        let mut orders = orders_for(&units, &picks);
        // At most one order per unit, so that order permutation cannot change
        // which order "wins" for a unit.
        let mut seen = 0u128;
        orders.retain(|(_, o)| {
            let p = m.prov_of(o.at().unwrap());
            let fresh = seen & (1u128 << p) == 0;
            seen |= 1u128 << p;
            fresh
        });
        let r = adjudicate_movement(m, &units, &orders);
        prop_assert_eq!(r.orders.len(), orders.len());
        // Never two units in one province.
        let mut occ = 0u128;
        for u in &r.final_units {
            let p = m.prov_of(u.loc);
            prop_assert!(occ & (1u128 << p) == 0, "two units in {}", m.prov(p).abbr);
            occ |= 1u128 << p;
        }
        // Every unit is either on the board or dislodged.
        prop_assert_eq!(r.final_units.len() + r.dislodged.len(), units.len());
        // The same result for the orders in another order.
        let n = orders.len().max(1);
        let mut perm: Vec<usize> = (0..orders.len()).collect();
        perm.rotate_left(rot % n);
        perm.reverse();
        let shuffled: Vec<(Power, Order)> = perm.iter().map(|&i| orders[i]).collect();
        let r2 = adjudicate_movement(m, &units, &shuffled);
        for (k, &i) in perm.iter().enumerate() {
            prop_assert_eq!(r.orders[i], r2.orders[k]);
        }
        let mut a = r.final_units.clone();
        let mut b = r2.final_units.clone();
        a.sort();
        b.sort();
        prop_assert_eq!(a, b);
        let mut da: Vec<_> = r.dislodged.iter().map(|d| (d.unit, d.attacker_from)).collect();
        let mut db: Vec<_> = r2.dislodged.iter().map(|d| (d.unit, d.attacker_from)).collect();
        da.sort();
        db.sort();
        prop_assert_eq!(da, db);
        // And the same units in another order.
        let mut rev = units.clone();
        rev.reverse();
        let r3 = adjudicate_movement(m, &rev, &orders);
        prop_assert_eq!(&r.orders, &r3.orders);
    }
}
