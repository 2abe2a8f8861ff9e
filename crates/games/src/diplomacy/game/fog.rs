//! Fog of War (`fog=true`, or `variant=fog` for the classic game): while
//! the game runs, each power sees only part of the board.
//!
//! What a power sees (vDiplomacy's Fog of War, where its rules are silent
//! the choices are ours and are tested below):
//! - the provinces of its own units (dislodged ones too, until they
//!   retreat) and of its own supply centres;
//! - every province adjacent to one of those by any unit type: an army
//!   in Spain sees Portugal and Gascony but also the Mid-Atlantic, the
//!   Western Mediterranean and the Gulf of Lyon, as a fleet there could
//!   reach them (so a unit on a coast sees what a fleet could reach from
//!   either coast, and a fleet at sea sees the coastal provinces it
//!   borders whatever the coast);
//! - in those provinces: every unit, and who owns each supply centre.
//!
//! Everyone sees the phase, every power's centre count, who is awaited,
//! who has acted and who is out of the game. Unseen centres' owners are
//! unknown: the position a power plays from ([`Diplomacy::seen_by`])
//! shows them as neutral (no memory of what was seen before is kept, so
//! a saved game needs nothing new).
//!
//! A power may support or convoy only units it sees: a line naming a unit
//! it cannot see is refused as if the province were empty (which is all
//! the power knows), so a refusal never tells it what stands there.
//!
//! Phase results (the turn report): the public part holds only what every
//! power knows (the phase, civil disorder, centre counts, wins and who is
//! out); each power privately gets its own orders and every other order
//! that touches a province it saw before the phase (the unit's province,
//! where it moves, supports or convoys to or from), with the outcomes,
//! and the dislodgements, disbands, builds and removals in those
//! provinces. So a unit that moves next to you is seen coming, and where
//! from. A support or convoy names only the units the power saw, and
//! says where it goes: a hidden army in Vienna supporting a move into
//! Tyrolia, which the power saw, reads `A unit you cannot see supports a
//! move into Tyr`, and a failure on such a line names no place (`support
//! cut`), so no hidden unit's place is ever given.
//!
//! Once the game ends nothing is hidden any more: every view shows the
//! whole board.

use super::{Diplomacy, PhaseDetail};
use crate::diplomacy::geo::{BitIter, Bits, Map, Power};
use crate::diplomacy::judge::Reason;
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind, unit_name};
use crate::seam::Seat;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One province as a bit.
fn bit(p: u8) -> Bits {
    1u128 << p
}

impl Diplomacy {
    /// Whether this is a Fog of War game (`fog=true` or `variant=fog`).
    pub fn fog_of_war(&self) -> bool {
        self.options.fog
    }

    /// Whether the fog hides anything now: a Fog of War game still running
    /// (at the end every view shows the whole board, whether the game ended
    /// by its rules or the host ended it: [`Diplomacy::end_by_host`]).
    pub fn fog_hides(&self) -> bool {
        self.options.fog && self.outcome.is_none() && !self.over_for_host
    }

    /// The host ended the game (aborted or abandoned) without an outcome
    /// of the engine's: from now on the fog hides nothing, so status,
    /// boards, history and replay all show the whole board.
    pub fn end_by_host(&mut self) {
        self.over_for_host = true;
    }

    /// The provinces `power` sees (see the module comment): those of its
    /// units and centres and every province adjacent to them by any unit
    /// type. The whole board in a game without fog, or once it ended.
    pub fn visible_provinces(&self, power: Power) -> Bits {
        let m = self.map();
        let all: Bits = if m.province_count() >= 128 {
            Bits::MAX
        } else {
            (1u128 << m.province_count()) - 1
        };
        if !self.fog_hides() {
            return all;
        }
        let own_units = self
            .units
            .iter()
            .chain(self.dislodged.iter().map(|d| &d.unit))
            .filter(|u| u.power == power)
            .fold(0, |b, u| b | bit(m.prov_of(u.loc)));
        let own_centres = self
            .owners
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(power))
            .fold(0, |b, (i, _)| b | bit(i as u8));
        let eyes = own_units | own_centres;
        BitIter(eyes).fold(eyes, |b, p| b | m.army_adj(p) | m.prov_fleet_adj(p))
    }

    /// The position as `power` sees it, for everything that answers that
    /// power (its menus, order checks, hints and its AI): only the units in
    /// provinces it sees, unseen centres shown neutral, other powers' draw
    /// votes unknown. The copy is not a fog game itself: it already holds
    /// only what the power may know. In a game without fog (or once it
    /// ended), a plain copy.
    pub fn seen_by(&self, power: Power) -> Diplomacy {
        let mut copy = self.clone();
        if !self.fog_hides() {
            return copy;
        }
        let m = self.map();
        let seen = self.visible_provinces(power);
        let shown = |p: u8| seen & bit(p) != 0;
        copy.options.fog = false;
        copy.sight = Some(seen);
        copy.units.retain(|u| shown(m.prov_of(u.loc)));
        copy.dislodged.retain(|d| shown(m.prov_of(d.unit.loc)));
        copy.standoffs.retain(|&p| shown(p));
        for (i, owner) in copy.owners.iter_mut().enumerate() {
            if !shown(i as u8) {
                *owner = None;
            }
        }
        for p in self.map().powers().filter(|&p| p != power) {
            copy.draw_votes[p.index()] = false;
        }
        copy
    }

    /// In a copy made by [`Diplomacy::seen_by`] under Fog of War, the
    /// provinces its power sees (the rest is drawn as fog); `None` for a
    /// game itself, and for a copy with nothing hidden.
    pub fn sight(&self) -> Option<Bits> {
        self.sight
    }

    /// A logged phase's report with every order and outcome, from its
    /// detail, for the history once a Fog of War game has ended (its public
    /// text left them out); the public text itself in other games.
    pub(in crate::diplomacy) fn unsealed_report(&self, report: &crate::seam::TurnReport) -> String {
        let detail = report
            .detail
            .as_ref()
            .and_then(|v| serde_json::from_value::<PhaseDetail>(v.clone()).ok());
        match detail {
            Some(d) if self.options.fog => {
                let (lines, _) = results_lines(self.map(), None, Bits::MAX, &d);
                format!(
                    "{}\nOrders (Fog of War, shown at the end):\n{lines}",
                    report.public.trim_end()
                )
            }
            _ => report.public.clone(),
        }
    }

    /// The visibility of every seat's power now, for the private results of
    /// the phase about to be resolved (judged from the position before it).
    pub(super) fn sight_by_seat(&self) -> Vec<(Seat, Power, Bits)> {
        self.seats
            .iter()
            .enumerate()
            .map(|(seat, &p)| (seat, p, self.visible_provinces(p)))
            .collect()
    }

    /// The public line of a Fog of War phase naming the powers it put out
    /// of the game (everyone sees centre counts, so everyone knows).
    pub(super) fn eliminated_text(&self, alive_before: &[Power], text: &mut String) {
        for &p in alive_before.iter().filter(|&&p| !self.alive(p)) {
            let _ = writeln!(
                text,
                "{} has no units or centres left and is out of the game.",
                self.power_name(p)
            );
        }
    }

    /// Each seat's private results of a Fog of War phase: the orders (and
    /// their outcomes) and the unit changes it could see, by the rule of
    /// the module comment, from `sight` taken before the phase.
    pub(super) fn fogged_results(
        &self,
        phase_name: &str,
        sight: &[(Seat, Power, Bits)],
        detail: &PhaseDetail,
    ) -> BTreeMap<Seat, String> {
        sight
            .iter()
            .map(|&(seat, viewer, seen)| {
                (seat, self.seen_results(phase_name, viewer, seen, detail))
            })
            .collect()
    }

    /// One power's view of a resolved phase (see [`Self::fogged_results`]).
    fn seen_results(&self, phase_name: &str, viewer: Power, seen: Bits, d: &PhaseDetail) -> String {
        let (lines, any) = results_lines(self.map(), Some(viewer), seen, d);
        let mut text = format!(
            "{phase_name}: what {} saw (Fog of War)\n{lines}",
            self.power_name(viewer)
        );
        if !any {
            text.push_str("Nothing you could see happened.\n");
        }
        text
    }
}

/// The orders of a phase `viewer` saw (all of them for `None` with every
/// province seen), each with its outcome, then the unit changes it saw;
/// and whether there was anything.
fn results_lines(m: &Map, viewer: Option<Power>, seen: Bits, d: &PhaseDetail) -> (String, bool) {
    let own = |p: Power| viewer == Some(p);
    let sees_unit = |u: &Unit| own(u.power) || seen & bit(m.prov_of(u.loc)) != 0;
    let mut text = String::new();
    let mut last = None;
    let mut any = false;
    for a in d
        .orders
        .iter()
        .filter(|a| own(a.power) || seen & order_provinces(m, &a.order) != 0)
    {
        if last != Some(a.power) {
            let _ = writeln!(text, "{}:", m.power_name(a.power));
            last = Some(a.power);
        }
        let (line, masked) = seen_order_text(m, &a.order, own(a.power), seen);
        let _ = write!(text, "  {line}");
        if !a.success {
            match a.reason {
                Some(r) => {
                    let _ = write!(text, "  (fails: {})", seen_reason_text(m, r, masked));
                }
                None => text.push_str("  (fails)"),
            }
        }
        text.push('\n');
        any = true;
    }
    for x in d.dislodged.iter().filter(|x| sees_unit(&x.unit)) {
        let _ = writeln!(
            text,
            "Dislodged: {} {}.",
            m.power_name(x.unit.power),
            unit_name(m, &x.unit)
        );
        any = true;
    }
    for (what, units) in [
        ("Disbanded", &d.disbanded),
        ("Built", &d.built),
        ("Removed", &d.removed),
    ] {
        for u in units.iter().filter(|u| sees_unit(u)) {
            let _ = writeln!(
                text,
                "{what}: {} {}.",
                m.power_name(u.power),
                unit_name(m, u)
            );
            any = true;
        }
    }
    (text, any)
}

/// An order as a power that saw it reads it, and whether it left out a
/// unit's place. A foreign support or convoy is shown because it touches a
/// province the power saw; it names only the units in provinces the power
/// saw, and says where a support or convoy goes, so the reader learns why
/// the line is there and no hidden unit's place:
/// `A Ser supports a unit you cannot see into Bul`,
/// `A unit you cannot see supports a move into Tyr`,
/// `A fleet you cannot see convoys A Lon - Nwy`. Moves are shown whole: a
/// unit that moves next to you is seen coming, and where from.
fn seen_order_text(m: &Map, o: &Order, own: bool, seen: Bits) -> (String, bool) {
    let Order::Unit { unit, at, kind } = *o else {
        return (o.canonical(m), false);
    };
    let sees = |l: u8| own || seen & bit(m.prov_of(l)) != 0;
    let name = |k: Option<UnitKind>, l: u8| {
        format!(
            "{} {}",
            k.map_or("?", |k| k.letter()),
            crate::diplomacy::order::loc_name(m, l)
        )
    };
    let loc = |l: u8| crate::diplomacy::order::loc_name(m, l);
    let text = match kind {
        OrderKind::Support { unit: su, from, to } if !sees(at) || !sees(from) => {
            let who = if sees(at) {
                name(unit, at)
            } else {
                "A unit you cannot see".to_string()
            };
            match (sees(from), to) {
                (true, None) => format!("{who} supports {}", name(su, from)),
                (true, Some(to)) => format!("{who} supports {} - {}", name(su, from), loc(to)),
                (false, None) => format!("{who} supports a unit you cannot see"),
                (false, Some(to)) if sees(at) => {
                    format!("{who} supports a unit you cannot see into {}", loc(to))
                }
                (false, Some(to)) => format!("{who} supports a move into {}", loc(to)),
            }
        }
        OrderKind::Convoy { from, to } if !sees(at) || !sees(from) => {
            match (sees(at), sees(from)) {
                (true, _) => format!(
                    "{} convoys an army you cannot see to {}",
                    name(unit, at),
                    loc(to)
                ),
                (false, true) => format!(
                    "A fleet you cannot see convoys {} - {}",
                    name(Some(UnitKind::Army), from),
                    loc(to)
                ),
                (false, false) => format!("A fleet you cannot see convoys an army to {}", loc(to)),
            }
        }
        _ => return (o.canonical(m), false),
    };
    (text, true)
}

/// Why an order failed, for a reader: in full, or for a line that left a
/// unit's place out ([`seen_order_text`]) without naming any place.
fn seen_reason_text(m: &Map, r: Reason, masked: bool) -> String {
    match r {
        _ if !masked => r.text(m),
        Reason::SupportCut(_) => "support cut".into(),
        Reason::Dislodged(_) => "dislodged".into(),
        _ => "no effect".into(),
    }
}

/// The provinces an order touches: the unit's, and where it moves,
/// retreats, supports or convoys from and to (a build's site). A power
/// reads another's order in its results when this meets what it saw.
pub fn order_provinces(m: &Map, o: &Order) -> Bits {
    let b = |l: u8| bit(m.prov_of(l));
    match *o {
        Order::Unit { at, kind, .. } => {
            b(at)
                | match kind {
                    OrderKind::Move { to, .. } | OrderKind::Retreat { to } => b(to),
                    OrderKind::Support { from, to, .. } => b(from) | to.map_or(0, b),
                    OrderKind::Convoy { from, to } => b(from) | b(to),
                    OrderKind::Hold | OrderKind::Disband => 0,
                }
        }
        Order::Build { at, .. } => b(at),
        Order::Waive => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Diplomacy, DiplomacyOptions, map};
    use crate::diplomacy::geo::{Bits, Power, std_power};
    use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};
    use crate::seam::{AiBudget, Game, Outcome, Seat};
    use std::collections::BTreeMap;

    fn fog_game() -> Diplomacy {
        let options = DiplomacyOptions {
            variant: "fog".into(),
            ..Default::default()
        };
        Diplomacy::new_game(options, 7).unwrap()
    }

    fn seat(g: &Diplomacy, p: Power) -> Seat {
        g.seat_of(p).unwrap()
    }

    fn sees(g: &Diplomacy, p: Power, abbr: &str) -> bool {
        g.visible_provinces(p) & 1u128 << map().prov_by_abbr(abbr).unwrap() != 0
    }

    /// Every unit `power` cannot see, as players write it (`A Mun`).
    fn hidden_units(g: &Diplomacy, power: Power) -> Vec<String> {
        let m = map();
        let seen = g.visible_provinces(power);
        g.units()
            .iter()
            .filter(|u| seen & 1u128 << m.prov_of(u.loc) == 0)
            .map(|u| crate::diplomacy::order::unit_name(m, u))
            .collect()
    }

    /// Resolves a phase with `orders` for the powers named, `done` for the rest.
    fn play(g: &mut Diplomacy, orders: &[(Power, &str)]) -> crate::seam::TurnReport {
        let mut acts = BTreeMap::new();
        for s in g.awaiting() {
            acts.insert(s, g.parse_action(s, "done").unwrap());
        }
        for &(p, text) in orders {
            let s = seat(g, p);
            let mut a = g.parse_action(s, text).unwrap();
            a.ready = true;
            acts.insert(s, a);
        }
        g.resolve(acts)
    }

    #[test]
    fn a_power_sees_around_its_units_and_centres_by_land_and_sea() {
        let g = fog_game();
        assert!(g.fog_of_war() && g.fog_hides());
        let e = std_power("England");
        for p in [
            "lon", "edi", "lvp", "wal", "yor", "cly", "nth", "eng", "nwg", "iri",
        ] {
            assert!(sees(&g, e, p), "England should see {p}");
        }
        // Neighbours of what it sees are not seen.
        for p in ["nwy", "bre", "par", "hol", "mun", "con"] {
            assert!(!sees(&g, e, p), "England should not see {p}");
        }
        // An army on a coast sees what a fleet there could reach, from
        // either coast (the rule is silent: our choice).
        let mut g = g;
        let m = map();
        g.units.push(Unit {
            power: e,
            kind: UnitKind::Army,
            loc: m.loc_by_abbr("spa").unwrap(),
        });
        for p in ["por", "gas", "mar", "mao", "wes", "lyo"] {
            assert!(sees(&g, e, p), "an army in Spain should see {p}");
        }
        // A centre sees its neighbours too, with no unit on it.
        g.owners[m.prov_by_abbr("tun").unwrap() as usize] = Some(e);
        assert!(sees(&g, e, "naf") && sees(&g, e, "ion") && sees(&g, e, "tys"));
        // Without fog, or once the game ends, everything is seen.
        g.outcome = Some(Outcome::Draw(vec![0, 1]));
        assert_eq!(
            g.visible_provinces(e).count_ones() as usize,
            m.province_count()
        );
        let plain = Diplomacy::new_game(DiplomacyOptions::default(), 7).unwrap();
        assert!(!plain.fog_of_war() && sees(&plain, e, "con"));
    }

    #[test]
    fn fog_is_an_option_of_any_variant_and_takes_a_power_list() {
        let fva = DiplomacyOptions {
            variant: "fva".into(),
            fog: true,
            ..Default::default()
        };
        let g = Diplomacy::new_game(fva, 1).unwrap();
        assert!(g.fog_of_war() && g.playing_powers().len() == 2);
        let three = DiplomacyOptions {
            variant: "fog".into(),
            powers: "england,france,germany".into(),
            ..Default::default()
        };
        assert_eq!(Diplomacy::seat_count(&three), 3);
        let g = Diplomacy::new_game(three, 1).unwrap();
        assert!(g.fog_of_war() && g.playing_powers().len() == 3);
    }

    #[test]
    fn boards_list_only_the_units_their_reader_sees() {
        let g = fog_game();
        let england = g.view(Some(seat(&g, std_power("England")))).board;
        assert!(
            england.contains("F Lon") && england.contains("A Lvp"),
            "{england}"
        );
        for u in hidden_units(&g, std_power("England")) {
            assert!(!england.contains(&u), "{u} leaked:\n{england}");
        }
        // Everyone sees every power's centre count.
        assert!(
            england.contains("Turkey") && england.contains(" 3 SC"),
            "{england}"
        );
        let public = g.view(None).board;
        for u in g.units() {
            let name = crate::diplomacy::order::unit_name(map(), u);
            assert!(!public.contains(&name), "{name} leaked:\n{public}");
        }
        assert!(public.contains("Russia    4 SC"), "{public}");
        // The rules' examples come from what the power sees.
        let rules = g.rules(Some(seat(&g, std_power("France"))));
        assert!(rules.contains("Fog of War"), "{rules}");
        let rules = own_part(&rules);
        for u in hidden_units(&g, std_power("France")) {
            assert!(!rules.contains(&u), "{u} leaked:\n{rules}");
        }
        let guide = g.phase_guide(std_power("France"), &[]);
        for u in hidden_units(&g, std_power("France")) {
            assert!(!guide.contains(&u), "{u} leaked:\n{guide}");
        }
    }

    #[test]
    fn a_hidden_unit_is_refused_as_if_its_province_were_empty() {
        let g = fog_game();
        let f = std_power("France");
        let line = "A Mar S A Mun - Bur";
        let fogged = g.check_line(f, line).unwrap_err();
        let mut empty = g.clone();
        let mun = map().prov_by_abbr("mun").unwrap();
        empty.units.retain(|u| map().prov_of(u.loc) != mun);
        assert_eq!(empty.check_line(f, line).unwrap_err(), fogged);
        // Without fog the same support is a legal order.
        let mut clear = g.clone();
        clear.options.fog = false;
        assert!(clear.check_line(f, line).is_ok());
        // A unit it sees may be supported.
        assert!(g.check_line(f, "A Mar S A Par - Bur").is_ok());
    }

    #[test]
    fn the_menus_offer_no_order_naming_an_unseen_unit() {
        let g = fog_game();
        let m = map();
        for &p in g.playing_powers() {
            let seen = g.visible_provinces(p);
            let visible_unit = |l: u8| seen & 1u128 << m.prov_of(l) != 0;
            let mut supports = 0;
            for u in g.orderable_units(p) {
                for o in g.legal_unit_orders(p, u.loc) {
                    if let Order::Unit {
                        kind: OrderKind::Support { from, .. } | OrderKind::Convoy { from, .. },
                        ..
                    } = o
                    {
                        assert!(visible_unit(from), "{p:?}: {}", o.canonical(m));
                        supports += 1;
                    }
                }
            }
            assert!(supports > 0, "{p:?} can support its own units");
        }
    }

    #[test]
    fn results_are_public_only_in_what_everyone_knows() {
        let mut g = fog_game();
        let r = play(
            &mut g,
            &[
                (std_power("France"), "A Par - Bur\nA Mar S A Par - Bur"),
                (std_power("Germany"), "A Mun - Bur"),
                (std_power("Russia"), "A War - Gal"),
            ],
        );
        assert!(r.public.contains("Spring 1901 movement"), "{}", r.public);
        assert!(
            r.public.contains("Next: Fall 1901 movement."),
            "{}",
            r.public
        );
        for word in ["Par", "Bur", "Mun", "War", "Gal", "France:"] {
            assert!(!r.public.contains(word), "{word} in public:\n{}", r.public);
        }
        let france = &r.private[&seat(&g, std_power("France"))];
        assert!(france.contains("A Par - Bur") && france.contains("A Mar S A Par - Bur"));
        // Germany's move touches Burgundy, which France saw.
        assert!(france.contains("A Mun - Bur"), "{france}");
        assert!(!france.contains("A War"), "{france}");
        let germany = &r.private[&seat(&g, std_power("Germany"))];
        assert!(germany.contains("A Par - Bur"), "{germany}");
        // Russia saw none of that; Austria saw Russia enter Galicia.
        let russia = &r.private[&seat(&g, std_power("Russia"))];
        assert!(!russia.contains("Bur"), "{russia}");
        let austria = &r.private[&seat(&g, std_power("Austria"))];
        assert!(austria.contains("A War - Gal"), "{austria}");
        let turkey = &r.private[&seat(&g, std_power("Turkey"))];
        assert!(
            turkey.contains("Nothing you could see happened."),
            "{turkey}"
        );
        // The detail keeps everything, for the history at the end.
        let all = g.report_after_end(&r);
        assert!(all.starts_with(r.public.trim_end()), "{all}");
        for order in ["A Par - Bur", "A Mun - Bur", "A War - Gal"] {
            assert!(all.contains(order), "{order} not in\n{all}");
        }
        assert!(g.hides_board());
    }

    #[test]
    fn a_seven_power_game_never_shows_a_power_a_unit_it_cannot_see() {
        let mut g = fog_game();
        for _ in 0..24 {
            if g.outcome().is_some() {
                break;
            }
            for &p in g.playing_powers() {
                let s = seat(&g, p);
                let hidden = hidden_units(&g, p);
                let rules = g.rules(Some(s));
                let mut texts = vec![g.view(Some(s)).board, own_part(&rules).to_string()];
                texts.push(g.phase_guide(p, &[]));
                texts.extend(g.view(Some(s)).choices.into_iter().map(|c| c.text));
                for u in g.orderable_units(p) {
                    let m = map();
                    texts.extend(g.legal_unit_orders(p, u.loc).iter().map(|o| o.canonical(m)));
                }
                for t in &texts {
                    for u in &hidden {
                        assert!(!has_unit(t, u), "{p:?} {}: {u} in\n{t}", g.phase_name());
                    }
                }
            }
            let before = g.clone();
            let mut acts = BTreeMap::new();
            for s in g.awaiting() {
                acts.insert(
                    s,
                    g.ai_action(s, "dumbbot", AiBudget::iterations(1), s as u64),
                );
            }
            let r = g.resolve(acts);
            let detail: super::PhaseDetail =
                serde_json::from_value(r.detail.clone().unwrap()).unwrap();
            for u in before.units() {
                let name = crate::diplomacy::order::unit_name(map(), u);
                assert!(
                    !has_unit(&r.public, &name),
                    "{name} in public:\n{}",
                    r.public
                );
            }
            for &p in before.playing_powers() {
                let seen = before.visible_provinces(p);
                let text = &r.private[&seat(&before, p)];
                assert!(text.contains("Fog of War"), "{text}");
                // A unit it did not see shows only by its move or retreat
                // into (or next to) a province it saw.
                for u in before.units().iter().filter(|u| {
                    seen & 1u128 << map().prov_of(u.loc) == 0
                        && !detail.orders.iter().any(|a| {
                            a.order.at() == Some(u.loc)
                                && matches!(
                                    a.order,
                                    Order::Unit {
                                        kind: OrderKind::Move { .. } | OrderKind::Retreat { .. },
                                        ..
                                    }
                                )
                                && super::order_provinces(map(), &a.order) & seen != 0
                        })
                }) {
                    let name = crate::diplomacy::order::unit_name(map(), u);
                    assert!(!has_unit(text, &name), "{p:?}: {name} in\n{text}");
                }
            }
        }
    }

    /// The part of the rules about the reader's own position (the general
    /// rules before it give fixed examples such as `A Mun S A Ber`).
    fn own_part(rules: &str) -> &str {
        rules
            .split("**You are")
            .nth(1)
            .expect("the rules address the power")
    }

    /// Whether `text` names unit `u` (`A Mun`) as a whole word, outside
    /// the rulebook's fixed examples (given to a power with no example of
    /// its own).
    fn has_unit(text: &str, u: &str) -> bool {
        let mut text = text.to_string();
        for example in [
            "`A Par - Bur`",
            "`F Lon S F Nth - Eng`",
            "`F Nth C A Lon - Nwy`",
        ] {
            text = text.replace(example, "");
        }
        text.match_indices(u).any(|(i, _)| {
            let after = text[i + u.len()..].chars().next();
            !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/')
        })
    }

    #[test]
    fn the_ai_plays_from_what_it_sees() {
        let mut g = fog_game();
        play(
            &mut g,
            &[
                (std_power("France"), "A Par - Bur\nA Mar - Spa\nF Bre - Mao"),
                (std_power("Germany"), "A Mun - Ruh\nF Kie - Hol"),
                (std_power("Turkey"), "A Con - Bul\nF Ank - Bla"),
            ],
        );
        let m = map();
        let levels = ["default", "dumbbot", "heuristic", "random"];
        for &p in g.playing_powers() {
            let s = seat(&g, p);
            let seen = g.seen_by(p);
            // Another position that differs only in what `p` cannot see.
            let mut other = g.clone();
            let hidden: Bits = !g.visible_provinces(p);
            other
                .units
                .retain(|u| hidden & 1u128 << m.prov_of(u.loc) == 0 || u.power == p);
            assert!(other.units.len() < g.units.len(), "{p:?} sees every unit");
            for level in levels {
                let budget = || AiBudget::iterations(4);
                let on_fog = g.ai_action(s, level, budget(), 11);
                assert_eq!(
                    on_fog,
                    seen.ai_action(s, level, budget(), 11),
                    "{p:?} {level}"
                );
                assert_eq!(
                    on_fog,
                    other.ai_action(s, level, budget(), 11),
                    "{p:?} {level}"
                );
                for o in &on_fog.orders {
                    assert!(g.check_order(p, *o).is_ok(), "{p:?} {level}: {o:?}");
                }
            }
        }
    }

    #[test]
    fn the_fog_lifts_when_the_game_ends() {
        let mut g = fog_game();
        g.outcome = Some(Outcome::Win(0));
        let public = g.view(None).board;
        assert!(
            public.contains("A Mun") && public.contains("F Ank"),
            "{public}"
        );
    }
}
