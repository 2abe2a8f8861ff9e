//! The orders a power may give now, unit by unit, for menus: every
//! candidate order is put to [`Diplomacy::check_order`], the very check a
//! typed line goes through, so a menu offers exactly what the adjudicator
//! takes and the rules live in one place.
//!
//! Where a typed line the engine accepts is not offered as written, the
//! menu offers the same order in one spelling, or leaves out an order that
//! can never do anything (checked by the property test below):
//! - a fleet's move or retreat to a split-coast province with one
//!   reachable coast is offered with that coast (`F Gas - Spa/nc`, not
//!   `F Gas - Spa`): the same order;
//! - an army's move to a province it cannot reach by land is offered as
//!   `A Lon - Nwy`, the same order as `A Lon - Nwy via convoy`; to a
//!   neighbour both the land move and, when a convoy route exists,
//!   `A Bre - Gas via convoy` are offered (they differ);
//! - a move in a retreat phase is offered as the retreat (`A Mun R Boh`);
//! - a support to move is offered to the province (`S F Gas - Spa`, which
//!   supports the fleet to whichever coast it moves), not to a coast;
//! - a support to move is offered only where the supported unit may legally
//!   move (by the same check): `A Par S A Mos - Bur` is accepted when typed
//!   but is always void, so the menu does not list it.

use super::Diplomacy;
use crate::diplomacy::geo::{LocId, Map, Power};
use crate::diplomacy::judge::PhaseKind;
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};

impl Diplomacy {
    /// The units `power` gives orders to this phase: its units in movement
    /// and in a Winter with removals, its dislodged units in retreats; none
    /// in a Winter with builds (see [`Diplomacy::legal_builds`]).
    pub fn orderable_units(&self, power: Power) -> Vec<Unit> {
        match self.phase {
            PhaseKind::Movement => self
                .units
                .iter()
                .filter(|u| u.power == power)
                .copied()
                .collect(),
            PhaseKind::Retreat => self
                .dislodged
                .iter()
                .map(|d| d.unit)
                .filter(|u| u.power == power)
                .collect(),
            PhaseKind::Adjustment => {
                let m = self.map();
                let n = crate::diplomacy::judge::adjust::adjustment_count(
                    m,
                    &self.units,
                    &self.owners,
                    power,
                );
                if n < 0 {
                    self.units
                        .iter()
                        .filter(|u| u.power == power)
                        .copied()
                        .collect()
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// Every legal order for the unit of `power` at `at` now, in a stable
    /// order (hold, moves, supports, convoys; retreats, disband), each as
    /// [`Diplomacy::check_order`] returns it. Empty when there is no such
    /// unit of `power` to order.
    pub fn legal_unit_orders(&self, power: Power, at: LocId) -> Vec<Order> {
        if self.fog_hides() {
            // Supports and convoys only of the units the power sees.
            return self.seen_by(power).legal_unit_orders(power, at);
        }
        let m = self.map();
        let Some(unit) = self
            .orderable_units(power)
            .into_iter()
            .find(|u| m.prov_of(u.loc) == m.prov_of(at))
        else {
            return Vec::new();
        };
        let provinces: Vec<LocId> = (0..m.province_count() as LocId).collect();
        let all_locs: Vec<LocId> = (0..m.location_count() as LocId).collect();
        // Armies never use coasts: their destinations are provinces.
        let destinations = match unit.kind {
            UnitKind::Army => &provinces,
            UnitKind::Fleet => &all_locs,
        };
        let order = |kind| Order::Unit {
            unit: Some(unit.kind),
            at: unit.loc,
            kind,
        };
        let candidates = match self.phase {
            PhaseKind::Movement => self.movement_candidates(power, &unit, destinations),
            PhaseKind::Retreat => destinations
                .iter()
                .map(|&to| order(OrderKind::Retreat { to }))
                .chain([order(OrderKind::Disband)])
                .collect(),
            PhaseKind::Adjustment => vec![order(OrderKind::Disband)],
        };
        let legal: Vec<Order> = candidates
            .into_iter()
            .filter_map(|o| self.legal_order(power, o))
            .collect();
        // A fleet whose move is legal to a coast and to the bare province
        // of a split-coast province is offered the coasts only.
        prefer_coasts(self.map(), legal)
    }

    /// The movement orders to check for `unit`: hold, moves (convoyed too,
    /// for an army's neighbours), supports of every other unit and, for a
    /// fleet, convoys of every army.
    fn movement_candidates(&self, power: Power, unit: &Unit, destinations: &[LocId]) -> Vec<Order> {
        let m = self.map();
        let provinces: Vec<LocId> = (0..m.province_count() as LocId).collect();
        let order = |kind| Order::Unit {
            unit: Some(unit.kind),
            at: unit.loc,
            kind,
        };
        let mut candidates = Vec::new();
        candidates.push(order(OrderKind::Hold));
        for &to in destinations {
            candidates.push(order(OrderKind::Move {
                to,
                via_convoy: false,
            }));
        }
        if unit.kind == UnitKind::Army {
            // A convoyed move to a neighbour differs from the land
            // move; to any other province the plain move is the
            // convoyed one (kept below only where adjacent).
            let adjacent = m.army_adj(m.prov_of(unit.loc));
            for &to in provinces.iter().filter(|&&p| adjacent & (1u128 << p) != 0) {
                candidates.push(order(OrderKind::Move {
                    to,
                    via_convoy: true,
                }));
            }
        }
        for other in self.units.iter().filter(|u| u.loc != unit.loc) {
            candidates.push(order(OrderKind::Support {
                unit: Some(other.kind),
                from: other.loc,
                to: None,
            }));
            for &to in &provinces {
                let support = order(OrderKind::Support {
                    unit: Some(other.kind),
                    from: other.loc,
                    to: Some(to),
                });
                // Checked first: it is cheap and rules out most.
                if self.legal_order(power, support).is_some() && self.may_move(other, to) {
                    candidates.push(support);
                }
            }
        }
        if unit.kind == UnitKind::Fleet {
            for army in self.units.iter().filter(|u| u.kind == UnitKind::Army) {
                for &to in &provinces {
                    candidates.push(order(OrderKind::Convoy { from: army.loc, to }));
                }
            }
        }
        candidates
    }
}

/// A fleet whose move is legal to a coast and to the bare province of a
/// split-coast province is offered the coasts only; repeats are dropped.
fn prefer_coasts(m: &Map, mut legal: Vec<Order>) -> Vec<Order> {
    let coast_of = |o: &Order| match o {
        Order::Unit {
            kind: OrderKind::Move { to, .. } | OrderKind::Retreat { to },
            ..
        } => Some(*to),
        _ => None,
    };
    let coasted: Vec<LocId> = legal
        .iter()
        .filter_map(coast_of)
        .filter(|&l| m.loc(l).coast.is_some())
        .map(|l| m.prov_of(l))
        .collect();
    legal.retain(|o| coast_of(o).is_none_or(|l| m.loc(l).coast.is_some() || !coasted.contains(&l)));
    legal.dedup();
    legal
}

impl Diplomacy {
    /// Whether `unit` may legally move to province `to` now (to its main
    /// location or any coast, by land or by convoy), by the check a typed
    /// move goes through: a support of any other move is void.
    fn may_move(&self, unit: &Unit, to: LocId) -> bool {
        let m = self.map();
        let coasts = &m.prov(m.prov_of(to)).coasts;
        std::iter::once(to).chain(coasts.iter().copied()).any(|to| {
            let mv = Order::Unit {
                unit: Some(unit.kind),
                at: unit.loc,
                kind: OrderKind::Move {
                    to,
                    via_convoy: false,
                },
            };
            self.legal_order(unit.power, mv).is_some()
        })
    }

    /// What `power` has not ordered yet this phase with `orders` pending,
    /// as a sentence for a reminder (`None`: nothing is missing). Units
    /// without orders are counted and named; builds and removals owed are
    /// counted. Readiness is not asked for: at a deadline the orders a power
    /// sent stand as they are (the host keeps a partial action), so a power
    /// with every unit ordered loses nothing by not saying `done`.
    pub fn missing_orders(&self, power: Power, orders: &[Order]) -> Option<String> {
        let m = self.map();
        let units = self.orderable_units(power);
        match self.phase {
            PhaseKind::Movement | PhaseKind::Retreat => {
                let without = self.units_without_orders(power, orders);
                if without.is_empty() {
                    return None;
                }
                let names: Vec<String> = without
                    .iter()
                    .map(|u| crate::diplomacy::order::unit_name(m, u))
                    .collect();
                let noun = match (self.phase, units.len()) {
                    (PhaseKind::Movement, 1) => "unit",
                    (PhaseKind::Movement, _) => "units",
                    (_, 1) => "dislodged unit",
                    _ => "dislodged units",
                };
                let fate = match (self.phase, without.len()) {
                    (PhaseKind::Movement, 1) => "has no order ({}); it holds",
                    (PhaseKind::Movement, _) => "have no order ({}); they hold",
                    (_, 1) => "has no order ({}); it disbands",
                    _ => "have no order ({}); they disband",
                }
                .replace("{}", &names.join(", "));
                Some(format!(
                    "{} of {} {noun} {fate} at the deadline.",
                    without.len(),
                    units.len()
                ))
            }
            PhaseKind::Adjustment => {
                let n = crate::diplomacy::judge::adjust::adjustment_count(
                    m,
                    &self.units,
                    &self.owners,
                    power,
                );
                if n > 0 && self.build_choices(power).is_empty() {
                    return None;
                }
                let builds = orders
                    .iter()
                    .filter(|o| matches!(o, Order::Build { .. } | Order::Waive))
                    .count() as i32;
                let removals = orders
                    .iter()
                    .filter(|o| matches!(o, Order::Unit { .. }))
                    .count() as i32;
                let plural = |k: i32, word: &str| {
                    if k == 1 {
                        word.to_string()
                    } else {
                        format!("{word}s")
                    }
                };
                if n > 0 && builds < n {
                    Some(format!(
                        "{} of {n} {} not ordered; a build not ordered is waived at the deadline.",
                        n - builds,
                        plural(n, "build")
                    ))
                } else if n < 0 && removals < -n {
                    Some(format!(
                        "{} of {} {} not ordered; at the deadline the rules choose which units go.",
                        -n - removals,
                        -n,
                        plural(-n, "removal")
                    ))
                } else {
                    None
                }
            }
        }
    }

    /// The legal builds of `power` now (each site and unit type), and
    /// `Waive` when it may build at all.
    pub fn legal_builds(&self, power: Power) -> Vec<Order> {
        if self.phase != PhaseKind::Adjustment {
            return Vec::new();
        }
        let mut out: Vec<Order> = self
            .build_choices(power)
            .into_iter()
            .filter_map(|o| self.legal_order(power, o))
            .collect();
        if self.legal_order(power, Order::Waive).is_some() {
            out.push(Order::Waive);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    //! The property of issue 15: for positions reached by seeded play, the
    //! menus offer exactly the orders a typed line is accepted for, up to
    //! the spellings and void supports listed in the module comment.

    use super::super::{Diplomacy, DiplomacyOptions, map};
    use crate::diplomacy::geo::{Map, Power, std_power};
    use crate::diplomacy::judge::PhaseKind;
    use crate::diplomacy::order::{Order, OrderKind, UnitKind};
    use crate::seam::{AiBudget, Game};
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_chacha::ChaCha8Rng;
    use std::collections::{BTreeMap, BTreeSet};

    /// Positions of every phase kind, reached by seeded play: DumbBot for
    /// some powers (it supports, so units get dislodged) and random moves
    /// for the others; `per_kind` of each kind, the first ones past Spring
    /// 1901 so that boards differ from the opening.
    fn positions(per_kind: usize) -> Vec<Diplomacy> {
        positions_with(DiplomacyOptions::default(), per_kind)
    }

    /// [`positions`] of games with `options` (another map).
    fn positions_with(options: DiplomacyOptions, per_kind: usize) -> Vec<Diplomacy> {
        let mut out: Vec<Diplomacy> = Vec::new();
        let count = |out: &[Diplomacy], k: PhaseKind| out.iter().filter(|g| g.phase() == k).count();
        for seed in 0..40u64 {
            let mut g = Diplomacy::new_game(options.clone(), seed).unwrap();
            for step in 0..14u64 {
                if g.outcome().is_some() {
                    break;
                }
                let k = g.phase();
                if step > 0 && count(&out, k) < per_kind {
                    out.push(g.clone());
                }
                let mut acts = BTreeMap::new();
                for s in g.awaiting() {
                    let level = if (s as u64 + seed).is_multiple_of(2) {
                        "dumbbot"
                    } else {
                        "random"
                    };
                    let a = g.ai_action(s, level, AiBudget::iterations(1), seed * 100 + step);
                    acts.insert(s, a);
                }
                g.resolve(acts);
            }
            if [
                PhaseKind::Movement,
                PhaseKind::Retreat,
                PhaseKind::Adjustment,
            ]
            .iter()
            .all(|&k| count(&out, k) >= per_kind)
            {
                break;
            }
        }
        out
    }

    /// Every line a player could type for the unit at `me` (`A Par`), whatever
    /// the rules say: each order kind to every location on the map.
    fn typed_unit_lines(g: &Diplomacy, me: &str, kind: UnitKind) -> Vec<String> {
        let m = g.map();
        let locs: Vec<&str> = (0..m.location_count())
            .map(|l| m.loc(l as u8).abbr.as_str())
            .collect();
        let mut lines = vec![format!("{me} H"), format!("{me} D")];
        for to in &locs {
            lines.push(format!("{me} - {to}"));
            lines.push(format!("{me} - {to} via convoy"));
            lines.push(format!("{me} R {to}"));
        }
        if g.phase() == PhaseKind::Movement {
            for other in g.units() {
                let them = format!("{} {}", other.kind.letter(), m.loc(other.loc).abbr);
                lines.push(format!("{me} S {them}"));
                for to in &locs {
                    lines.push(format!("{me} S {them} - {to}"));
                    if kind == UnitKind::Fleet && other.kind == UnitKind::Army {
                        lines.push(format!("{me} C {them} - {to}"));
                    }
                }
            }
        }
        lines
    }

    /// The menu's spelling of an accepted typed order (see the module
    /// comment), or `None` for a support the menu leaves out as void.
    fn as_offered(g: &Diplomacy, power: Power, o: Order) -> Option<Order> {
        let m = g.map();
        let Order::Unit { unit, at, kind } = o else {
            return Some(o);
        };
        let with = |kind| Order::Unit { unit, at, kind };
        let fleet = unit == Some(UnitKind::Fleet);
        // The one coast a fleet's bare split-coast destination stands for.
        // An army's destination is its province: `A Wal - Spa/nc` is
        // accepted typed and is the same order as `A Wal - Spa`.
        let coast_of = |to: u8, retreat: bool| -> u8 {
            if !fleet {
                return m.prov_of(to);
            }
            if m.loc(to).coast.is_some() {
                return to;
            }
            let ok: Vec<u8> = m
                .prov(m.prov_of(to))
                .coasts
                .iter()
                .copied()
                .filter(|&c| {
                    let k = if retreat {
                        OrderKind::Retreat { to: c }
                    } else {
                        OrderKind::Move {
                            to: c,
                            via_convoy: false,
                        }
                    };
                    g.check_order(power, with(k)).is_ok()
                })
                .collect();
            assert!(ok.len() <= 1, "a bare province accepted with two coasts");
            ok.first().copied().unwrap_or(to)
        };
        Some(match kind {
            OrderKind::Move { to, via_convoy } if g.phase() == PhaseKind::Retreat => {
                assert!(!via_convoy);
                with(OrderKind::Retreat {
                    to: coast_of(to, true),
                })
            }
            OrderKind::Retreat { to } => with(OrderKind::Retreat {
                to: coast_of(to, true),
            }),
            OrderKind::Move { to, via_convoy } => {
                let adjacent = m.army_adj(m.prov_of(at)) & (1u128 << m.prov_of(to)) != 0;
                with(OrderKind::Move {
                    to: coast_of(to, false),
                    via_convoy: via_convoy && !fleet && adjacent,
                })
            }
            OrderKind::Support {
                unit: su,
                from,
                to: Some(to),
            } => {
                let province = m.prov_of(to);
                let supported = g.units().iter().find(|u| u.loc == from)?;
                let mut dests = std::iter::once(province).chain(m.prov(province).coasts.clone());
                let may = dests.any(|d| {
                    let mv = format!(
                        "{} {} - {}",
                        supported.kind.letter(),
                        m.loc(from).abbr,
                        m.loc(d).abbr
                    );
                    g.line_verdict(supported.power, &mv).is_some()
                });
                if !may {
                    return None;
                }
                with(OrderKind::Support {
                    unit: su,
                    from,
                    to: Some(province),
                })
            }
            // A convoy carries an army: to the province, whatever coast is typed.
            OrderKind::Convoy { from, to } => with(OrderKind::Convoy {
                from,
                to: m.prov_of(to),
            }),
            k => with(k),
        })
    }

    fn check_position(g: &Diplomacy, rng: &mut ChaCha8Rng, units_per_power: usize) -> usize {
        let m: &Map = g.map();
        let mut checked = 0;
        for p in m.powers() {
            let mut units = g.orderable_units(p);
            units.shuffle(rng);
            for u in units.iter().take(units_per_power) {
                let offered = g.legal_unit_orders(p, u.loc);
                let offered_set: BTreeSet<String> =
                    offered.iter().map(|o| o.canonical(m)).collect();
                assert_eq!(offered_set.len(), offered.len(), "an order offered twice");
                // Every offered order passes the typed check, unchanged.
                for o in &offered {
                    let line = o.canonical(m);
                    let typed = g.line_verdict(p, &line);
                    assert_eq!(
                        typed.as_ref().map(|t| t.canonical(m)),
                        Some(line.clone()),
                        "{}: offered but not accepted typed",
                        g.phase_name()
                    );
                }
                // Every accepted typed line is offered (in the menu's
                // spelling), and nothing else is.
                let me = format!("{} {}", u.kind.letter(), m.loc(u.loc).abbr);
                let mut accepted = BTreeSet::new();
                for line in typed_unit_lines(g, &me, u.kind) {
                    let Some(o) = g.line_verdict(p, &line) else {
                        continue;
                    };
                    if let Some(o) = as_offered(g, p, o) {
                        accepted.insert(o.canonical(m));
                    }
                }
                assert_eq!(
                    offered_set,
                    accepted,
                    "{}: {me}: offered (left) and accepted typed (right) differ",
                    g.phase_name()
                );
                checked += 1;
            }
            // Builds: every typed build or waive accepted is offered, and back.
            if g.phase() == PhaseKind::Adjustment {
                let offered: BTreeSet<String> =
                    g.legal_builds(p).iter().map(|o| o.canonical(m)).collect();
                let mut accepted = BTreeSet::new();
                for l in 0..m.location_count() {
                    for k in ["A", "F"] {
                        let line = format!("Build {k} {}", m.loc(l as u8).abbr);
                        // An army is built in the province, whatever coast
                        // is typed (`Build A Stp/nc` builds `A Stp`).
                        if let Some(o) = g.line_verdict(p, &line) {
                            let o = match o {
                                Order::Build {
                                    unit: UnitKind::Army,
                                    at,
                                } => Order::Build {
                                    unit: UnitKind::Army,
                                    at: m.prov_of(at),
                                },
                                o => o,
                            };
                            accepted.insert(o.canonical(m));
                        }
                    }
                }
                if g.line_verdict(p, "Waive").is_some() {
                    accepted.insert("Waive".to_string());
                }
                assert_eq!(offered, accepted, "{}: builds of {p:?}", g.phase_name());
                for o in &offered {
                    assert!(g.line_verdict(p, o).is_some(), "{o}");
                }
            }
        }
        checked
    }

    #[test]
    fn menus_offer_exactly_the_orders_a_typed_line_is_accepted_for() {
        check_menus(positions(3));
    }

    /// The same property on Ancient Mediterranean, read from its data file:
    /// its Nile, canals and straits are adjacency like any other.
    #[test]
    fn menus_offer_exactly_the_orders_a_typed_line_is_accepted_for_on_ancient_med() {
        check_menus(positions_with(
            DiplomacyOptions {
                map: "ancient_med".into(),
                ..Default::default()
            },
            3,
        ));
    }

    /// The property on every position of `ps` (three of each phase kind).
    fn check_menus(ps: Vec<Diplomacy>) {
        let kinds: Vec<PhaseKind> = ps.iter().map(|g| g.phase()).collect();
        for k in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            assert_eq!(kinds.iter().filter(|&&x| x == k).count(), 3, "{kinds:?}");
        }
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let mut units = 0;
        for g in &ps {
            // Every unit in retreats and adjustments; two of each power's in
            // movement (each unit's typed lines are thousands; all of them
            // take about 4 s).
            let per_power = if g.phase() == PhaseKind::Movement {
                2
            } else {
                34
            };
            units += check_position(g, &mut rng, per_power);
        }
        assert!(units >= 40, "only {units} units checked");
    }

    /// Plays one phase: `orders` for France, every other power holds.
    fn play(g: &mut Diplomacy, orders: &str) {
        let mut acts = BTreeMap::new();
        for s in g.awaiting() {
            acts.insert(s, g.parse_action(s, "done").unwrap());
        }
        let france = g.seat_of(std_power("France")).unwrap();
        let mut a = g.parse_action(france, orders).unwrap();
        a.ready = true;
        acts.insert(france, a);
        g.resolve(acts);
    }

    #[test]
    fn the_menus_spell_coasts_and_convoys_once_and_leave_out_void_supports() {
        let m = map();
        let mut g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
        play(&mut g, "F Bre - Mao\nA Par - Pic\nA Mar - Spa");
        play(&mut g, "A Pic - Bre");
        play(&mut g, "Build A Par");
        assert_eq!(g.phase_name(), "Spring 1902 movement");
        let p = std_power("France");
        let offered = |at: &str| -> Vec<String> {
            g.legal_unit_orders(p, m.loc_by_abbr(at).unwrap())
                .iter()
                .map(|o| o.canonical(m))
                .collect()
        };
        let bre = offered("bre");
        // Gascony by land and, with the fleet in the Mid-Atlantic, by convoy:
        // two different orders.
        assert!(bre.contains(&"A Bre - Gas".to_string()), "{bre:?}");
        assert!(
            bre.contains(&"A Bre - Gas via convoy".to_string()),
            "{bre:?}"
        );
        // Support only for moves the supported unit can make.
        assert!(bre.contains(&"A Bre S A Spa - Gas".to_string()), "{bre:?}");
        assert!(g.check_line(p, "A Bre S A Mun - Pic").is_ok());
        assert!(!bre.contains(&"A Bre S A Mun - Pic".to_string()), "{bre:?}");
        // A fleet reaching both coasts of Spain: both coasts, not the
        // bare province (which is refused when typed).
        let mao = offered("mao");
        assert!(mao.contains(&"F Mao - Spa/nc".to_string()), "{mao:?}");
        assert!(mao.contains(&"F Mao - Spa/sc".to_string()), "{mao:?}");
        assert!(!mao.contains(&"F Mao - Spa".to_string()), "{mao:?}");
        assert!(g.check_line(p, "F Mao - Spa").is_err());
        // The fleet convoys the army to Gascony (its convoy route).
        assert!(mao.contains(&"F Mao C A Bre - Gas".to_string()), "{mao:?}");
        // A plain move to a province reached only by convoy is the
        // convoyed move: not offered twice.
        assert!(bre.contains(&"A Bre - Por".to_string()), "{bre:?}");
        assert!(g.check_line(p, "A Bre - Por via convoy").is_ok());
        assert!(
            !bre.contains(&"A Bre - Por via convoy".to_string()),
            "{bre:?}"
        );
    }

    #[test]
    fn missing_orders_counts_units_builds_and_dislodged_units_without_orders() {
        let m = map();
        let mut g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
        let p = std_power("France");
        let line = |g: &Diplomacy, l: &str| g.check_line(p, l).unwrap();
        assert_eq!(
            g.missing_orders(p, &[line(&g, "A Par - Bur")]).as_deref(),
            Some("2 of 3 units have no order (F Bre, A Mar); they hold at the deadline.")
        );
        let all = ["F Bre - Mao", "A Par - Pic", "A Mar - Spa"].map(|l| line(&g, l));
        assert_eq!(g.missing_orders(p, &all), None);
        play(&mut g, "F Bre - Mao\nA Par - Pic\nA Mar - Spa");
        play(&mut g, "A Pic - Bre");
        assert_eq!(
            g.missing_orders(p, &[]).as_deref(),
            Some("1 of 1 build not ordered; a build not ordered is waived at the deadline.")
        );
        assert_eq!(g.missing_orders(p, &[line(&g, "Build A Par")]), None);
        assert_eq!(g.missing_orders(p, &[line(&g, "Waive")]), None);
        // A power with nothing to adjust owes nothing.
        assert_eq!(g.missing_orders(std_power("Germany"), &[]), None);
        // Retreats: every power with a dislodged unit owes its order.
        let retreat = positions(1)
            .into_iter()
            .find(|g| g.phase() == PhaseKind::Retreat)
            .unwrap();
        let d = retreat.dislodged()[0].unit;
        let text = retreat.missing_orders(d.power, &[]).unwrap();
        assert!(text.contains("dislodged unit"), "{text}");
        assert!(
            text.contains(&crate::diplomacy::order::unit_name(m, &d)),
            "{text}"
        );
        assert!(
            text.ends_with("at the deadline.") && text.contains("disband"),
            "{text}"
        );
        let disband = retreat
            .check_line(
                d.power,
                &format!("{} D", crate::diplomacy::order::unit_name(m, &d)),
            )
            .unwrap();
        let others = retreat
            .dislodged()
            .iter()
            .filter(|x| x.unit.power == d.power)
            .count();
        if others == 1 {
            assert_eq!(retreat.missing_orders(d.power, &[disband]), None);
        }
    }
}
