//! The game flow and the host seam.
//!
//! Phases: Spring movement, (retreats), Fall movement, (retreats), Winter
//! adjustments when any power has something to adjust. Centre ownership
//! changes after Fall (movement or retreats): a centre belongs to the power
//! whose unit stands on it, otherwise it keeps its owner. A power with 18
//! centres (option `victory_centres`) wins. A draw is agreed when every
//! surviving power has a standing draw vote (votes persist until withdrawn);
//! powers in civil disorder and powers whose last action came from the AI
//! count as accepting, but at least one other power must vote.
//! A power with neither units nor centres is eliminated.
//!
//! Seam choices:
//! - every surviving power that has something to do this phase is awaited
//!   (movement: powers with units; retreats: powers with dislodged units;
//!   adjustments: powers with builds or removals);
//! - an action is a set of orders typed one per line; [`Game::combine`] merges
//!   newly typed orders into the pending ones, a new order for a unit
//!   replacing the old one (the player is told in the receipt);
//! - an action is final once the player sends `done` (also `ready`,
//!   `submit`); until then they may keep adding or changing orders.
//!   `clear` drops the pending orders; `draw` / `no draw` set the vote;
//! - lines that fail to parse are reported and the other lines are kept: the
//!   action is refused only when no line was usable;
//! - units without orders hold; a missed retreat disbands; a missed
//!   adjustment waives builds or removes by the civil-disorder rule;
//! - a power that forfeits stays on the board in civil disorder (never
//!   awaited again); if only one power is still playing, it wins.

use super::geo::{BitIter, Bits, Map, Power, ProvId};
use super::judge::{
    Dislodgement, OrderOutcome, PhaseKind, adjudicate_adjustments, adjudicate_movement,
    adjudicate_retreats, adjust::adjustment_count, adjust::check_build, retreat::retreat_options,
};
use super::order::{Order, OrderKind, Unit, UnitKind, loc_name, parse_order, unit_name};
use crate::games::seam::{
    ActionChoice, ActionError, AiBudget, ChoiceStyle, Game, OptionsError, Outcome, Seat,
    TurnReport, View,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Options for a new game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DiplomacyOptions {
    /// Centres needed to win (18 in the rulebook).
    pub victory_centres: u32,
    /// If set, the game ends in a draw of the survivors after this year's Winter.
    pub end_year: Option<u16>,
    /// Hours for a movement phase (48); used when the game has no turn length set.
    pub movement_hours: u32,
    /// Hours for a retreat or adjustment phase (24); used likewise.
    pub adjustment_hours: u32,
    /// Deadline extensions players may ask for per phase (1; 0 = none).
    pub extensions: u32,
}

impl Default for DiplomacyOptions {
    fn default() -> Self {
        DiplomacyOptions {
            victory_centres: 18,
            end_year: None,
            movement_hours: 48,
            adjustment_hours: 24,
            extensions: 1,
        }
    }
}

/// The season of a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Season {
    /// Spring (movement and retreats).
    Spring,
    /// Fall (movement and retreats; centres change hands after it).
    Fall,
    /// Winter (adjustments).
    Winter,
}

/// One power's submission for a phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct DiplomacyAction {
    /// The orders, at most one per unit (builds and waives may repeat).
    pub orders: Vec<Order>,
    /// The player said `done`: resolution need not wait for more.
    pub ready: bool,
    /// `Some(true)` votes for a draw, `Some(false)` withdraws the vote.
    pub draw: Option<bool>,
    /// The player asked to drop earlier pending orders (`clear`).
    pub clear: bool,
    /// Messages for the player: refused lines, replaced orders.
    pub notes: Vec<String>,
    /// The host filled this in at a missed deadline ([`Game::default_action`]).
    #[serde(default)]
    pub missed: bool,
    /// The AI made this action ([`Game::ai_action`]): the power counts as
    /// accepting a draw, so AI seats never block the humans' agreement.
    #[serde(default)]
    pub ai: bool,
}

/// The state of a game of Diplomacy.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Diplomacy {
    options: DiplomacyOptions,
    year: u16,
    season: Season,
    phase: PhaseKind,
    units: Vec<Unit>,
    /// Owner of each province's centre, indexed by province id.
    owners: Vec<Option<Power>>,
    dislodged: Vec<Dislodgement>,
    standoffs: Vec<ProvId>,
    draw_votes: [bool; 7],
    disorder: [bool; 7],
    /// Consecutive movement phases each power missed (2 put it in civil disorder).
    #[serde(default)]
    missed_moves: [u8; 7],
    /// Powers whose last action came from the AI (they count as accepting a draw).
    #[serde(default)]
    ai_held: [bool; 7],
    outcome: Option<Outcome>,
    rng: ChaCha8Rng,
}

/// The most refused lines one message's answer lists (the rest are counted).
const MAX_ERRORS_LISTED: usize = 5;

/// Consecutive missed movement phases that put a power in civil disorder.
pub const MISSES_FOR_DISORDER: u8 = 2;

fn map() -> &'static Map {
    Map::standard()
}

fn starting_units(m: &Map) -> Vec<Unit> {
    use Power::*;
    use UnitKind::*;
    let list: [(Power, UnitKind, &str); 22] = [
        (Austria, Army, "vie"),
        (Austria, Army, "bud"),
        (Austria, Fleet, "tri"),
        (England, Fleet, "lon"),
        (England, Fleet, "edi"),
        (England, Army, "lvp"),
        (France, Fleet, "bre"),
        (France, Army, "par"),
        (France, Army, "mar"),
        (Germany, Fleet, "kie"),
        (Germany, Army, "ber"),
        (Germany, Army, "mun"),
        (Italy, Fleet, "nap"),
        (Italy, Army, "rom"),
        (Italy, Army, "ven"),
        (Russia, Fleet, "stp/sc"),
        (Russia, Army, "mos"),
        (Russia, Army, "war"),
        (Russia, Fleet, "sev"),
        (Turkey, Fleet, "ank"),
        (Turkey, Army, "con"),
        (Turkey, Army, "smy"),
    ];
    list.iter()
        .map(|&(power, kind, at)| Unit {
            power,
            kind,
            loc: m.loc_by_abbr(at).expect("start location"),
        })
        .collect()
}

/// The standard Spring 1901 units (22).
pub fn opening_units() -> Vec<Unit> {
    starting_units(map())
}

fn err(problem: impl Into<String>, expected: impl Into<String>) -> ActionError {
    ActionError::new(problem, expected)
}

impl Diplomacy {
    /// Current year.
    pub fn year(&self) -> u16 {
        self.year
    }
    /// Current season.
    pub fn season(&self) -> Season {
        self.season
    }
    /// Current phase kind.
    pub fn phase(&self) -> PhaseKind {
        self.phase
    }
    /// Units on the board.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// Units dislodged and awaiting retreat orders.
    pub fn dislodged(&self) -> &[Dislodgement] {
        &self.dislodged
    }
    /// Centre owners by province id.
    pub fn owners(&self) -> &[Option<Power>] {
        &self.owners
    }
    /// Number of centres a power owns.
    pub fn centre_count(&self, p: Power) -> usize {
        self.owners.iter().filter(|o| **o == Some(p)).count()
    }
    /// Whether a power is still in the game (has units or centres).
    pub fn alive(&self, p: Power) -> bool {
        self.centre_count(p) > 0 || self.units.iter().any(|u| u.power == p)
    }

    /// Whether a power is in civil disorder (left, or missed two movement deadlines).
    pub fn in_disorder(&self, p: Power) -> bool {
        self.disorder[p.index()]
    }

    /// Consecutive movement deadlines a power has missed.
    pub fn missed_moves(&self, p: Power) -> u8 {
        self.missed_moves[p.index()]
    }

    /// "Spring 1901 movement".
    pub fn phase_name(&self) -> String {
        let s = match self.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        };
        format!("{s} {} {}", self.year, self.phase.name())
    }

    fn standoff_bits(&self) -> Bits {
        self.standoffs.iter().fold(0, |b, &p| b | 1u128 << p)
    }

    fn occupied(&self) -> Bits {
        self.units
            .iter()
            .fold(0, |b, u| b | 1u128 << map().prov_of(u.loc))
    }

    /// Parses and checks one order line for `power` in the current phase.
    pub fn check_line(&self, power: Power, line: &str) -> Result<Order, ActionError> {
        let m = map();
        let o = parse_order(m, line).map_err(|e| err(e.problem, e.expected))?;
        let wrong_phase = |what: &str| {
            err(
                format!(
                    "`{}` is {what}, but this is the {} phase.",
                    super::order::quoted(line),
                    self.phase_name()
                ),
                match self.phase {
                    PhaseKind::Movement => {
                        "Now give hold, move, support or convoy orders, e.g. `A Par - Bur`."
                    }
                    PhaseKind::Retreat => {
                        "Now retreat or disband dislodged units, e.g. `A Mun R Boh` or `A Mun D`."
                    }
                    PhaseKind::Adjustment => {
                        "Now build, remove or waive, e.g. `Build A Par`, `Remove F Nth`, `Waive`."
                    }
                },
            )
        };
        let reason = match (self.phase, &o) {
            (
                PhaseKind::Movement,
                Order::Unit {
                    kind: OrderKind::Retreat { .. } | OrderKind::Disband,
                    ..
                },
            ) => {
                return Err(wrong_phase("a retreat or disband order"));
            }
            (PhaseKind::Movement, Order::Build { .. } | Order::Waive) => {
                return Err(wrong_phase("a build order"));
            }
            (PhaseKind::Retreat, Order::Build { .. } | Order::Waive) => {
                return Err(wrong_phase("a build order"));
            }
            (PhaseKind::Retreat, Order::Unit { kind, .. })
                if !matches!(
                    kind,
                    OrderKind::Retreat { .. }
                        | OrderKind::Disband
                        | OrderKind::Move {
                            via_convoy: false,
                            ..
                        }
                ) =>
            {
                return Err(wrong_phase("not a retreat or disband"));
            }
            (PhaseKind::Adjustment, Order::Unit { kind, .. }) if *kind != OrderKind::Disband => {
                return Err(wrong_phase("a unit order"));
            }
            (PhaseKind::Movement, _) => {
                let r = adjudicate_movement(m, &self.units, &[(power, o)]);
                r.orders[0].reason
            }
            (PhaseKind::Retreat, _) => {
                let r = adjudicate_retreats(
                    m,
                    &self.units,
                    &self.dislodged,
                    self.standoff_bits(),
                    &[(power, o)],
                );
                r.orders[0].reason
            }
            (PhaseKind::Adjustment, Order::Build { unit, at }) => {
                if adjustment_count(m, &self.units, &self.owners, power) <= 0 {
                    Some(super::judge::Reason::NoBuildsLeft)
                } else {
                    check_build(m, self.occupied(), &self.owners, power, *unit, *at).err()
                }
            }
            (PhaseKind::Adjustment, Order::Waive) => {
                if adjustment_count(m, &self.units, &self.owners, power) <= 0 {
                    Some(super::judge::Reason::NoBuildsLeft)
                } else {
                    None
                }
            }
            (PhaseKind::Adjustment, Order::Unit { .. }) => {
                if adjustment_count(m, &self.units, &self.owners, power) >= 0 {
                    Some(super::judge::Reason::NoRemovalsLeft)
                } else {
                    let r = adjudicate_adjustments(m, &self.units, &self.owners, &[(power, o)]);
                    r.orders[0].reason
                }
            }
        };
        match reason {
            Some(r)
                if r.is_illegal()
                    || matches!(
                        r,
                        super::judge::Reason::NoBuildsLeft | super::judge::Reason::NoRemovalsLeft
                    ) =>
            {
                Err(err(format!("`{line}`: {}.", r.text(m)), self.hint(power)))
            }
            _ => Ok(self.fill_unit(o)),
        }
    }

    fn fill_unit(&self, o: Order) -> Order {
        let m = map();
        let Some(at) = o.at() else { return o };
        let p = m.prov_of(at);
        let unit = self
            .units
            .iter()
            .chain(self.dislodged.iter().map(|d| &d.unit))
            .rfind(|u| m.prov_of(u.loc) == p);
        match (o, unit) {
            (Order::Unit { at: _, kind, .. }, Some(u)) => Order::Unit {
                unit: Some(u.kind),
                at: u.loc,
                kind,
            },
            _ => o,
        }
    }

    fn hint(&self, power: Power) -> String {
        let m = map();
        match self.phase {
            PhaseKind::Movement => {
                let us: Vec<String> = self
                    .units
                    .iter()
                    .filter(|u| u.power == power)
                    .map(|u| unit_name(m, u))
                    .collect();
                format!(
                    "Your units: {}. Write e.g. `A Par - Bur`, `F Lon S F Nth - Eng`, `F Nth C A Lon - Nwy`.",
                    us.join(", ")
                )
            }
            PhaseKind::Retreat => {
                let occ = self.occupied();
                let so = self.standoff_bits();
                let opts: Vec<String> = self
                    .dislodged
                    .iter()
                    .filter(|d| d.unit.power == power)
                    .map(|d| {
                        let o = retreat_options(m, occ, so, d);
                        let os: Vec<String> = o.iter().map(|&l| loc_name(m, l)).collect();
                        format!(
                            "{}: R {} or D",
                            unit_name(m, &d.unit),
                            if os.is_empty() {
                                "(none)".into()
                            } else {
                                os.join("/")
                            }
                        )
                    })
                    .collect();
                format!("Dislodged units: {}.", opts.join("; "))
            }
            PhaseKind::Adjustment => {
                let n = adjustment_count(m, &self.units, &self.owners, power);
                if n > 0 {
                    let b: Vec<String> = self
                        .build_choices(power)
                        .into_iter()
                        .map(|o| o.canonical(m))
                        .collect();
                    format!("You may build {n}: {} (or `Waive`).", b.join(", "))
                } else if n < 0 {
                    let us: Vec<String> = self
                        .units
                        .iter()
                        .filter(|u| u.power == power)
                        .map(|u| unit_name(m, u))
                        .collect();
                    format!("You must remove {}: one of {}.", -n, us.join(", "))
                } else {
                    "You have no adjustments this Winter.".into()
                }
            }
        }
    }

    /// The orders a phase adjudicates from the powers' actions: each power's
    /// orders in seat order, re-checked against the position so anything no
    /// longer legal is dropped. `resolve` and the exported phase records
    /// both use it, so an export replays exactly what was adjudicated.
    pub fn orders_to_adjudicate(
        &self,
        actions: &BTreeMap<Seat, DiplomacyAction>,
    ) -> Vec<(Power, Order)> {
        let m = map();
        let mut orders = Vec::new();
        for (&seat, a) in actions {
            let Some(p) = Power::from_index(seat) else {
                continue;
            };
            for o in &a.orders {
                if self.check_line(p, &o.canonical(m)).is_ok() {
                    orders.push((p, *o));
                }
            }
        }
        orders
    }

    /// Provinces where a standoff left them empty this phase (no retreats there).
    pub fn standoff_provinces(&self) -> Bits {
        self.standoff_bits()
    }

    /// Provinces with a unit on the board.
    pub fn occupied_provinces(&self) -> Bits {
        self.occupied()
    }

    /// Every legal build for `power` now (one per unit type and location).
    pub fn build_choices(&self, power: Power) -> Vec<Order> {
        let m = map();
        let occ = self.occupied();
        let mut out = Vec::new();
        for p in m.home_centres(power) {
            let prov = m.prov(p);
            let mut locs = vec![p];
            locs.extend(prov.coasts.iter().copied());
            for kind in [UnitKind::Army, UnitKind::Fleet] {
                for &l in &locs {
                    if check_build(m, occ, &self.owners, power, kind, l).is_ok()
                        && !(kind == UnitKind::Army && l != p)
                    {
                        out.push(Order::Build { unit: kind, at: l });
                    }
                }
            }
        }
        out
    }

    fn power_needs_to_act(&self, p: Power) -> bool {
        if self.disorder[p.index()] || self.outcome.is_some() {
            return false;
        }
        match self.phase {
            PhaseKind::Movement => self.units.iter().any(|u| u.power == p),
            PhaseKind::Retreat => self.dislodged.iter().any(|d| d.unit.power == p),
            // A power due builds but with no free home centre has nothing to decide.
            PhaseKind::Adjustment => {
                let n = adjustment_count(map(), &self.units, &self.owners, p);
                n < 0 || (n > 0 && !self.build_choices(p).is_empty())
            }
        }
    }

    fn survivors(&self) -> Vec<Seat> {
        Power::ALL
            .iter()
            .filter(|p| self.alive(**p))
            .map(|p| p.index())
            .collect()
    }

    /// After Fall: centres change hands, victory and elimination are checked,
    /// and the Winter phase starts if anyone has something to adjust.
    fn after_fall(&mut self, report: &mut String) {
        let m = map();
        for u in &self.units {
            let p = m.prov_of(u.loc);
            if m.prov(p).sc {
                self.owners[p as usize] = Some(u.power);
            }
        }
        let _ = write!(report, "\nCentres:");
        for p in Power::ALL {
            let _ = write!(report, " {} {}", p.name(), self.centre_count(p));
        }
        report.push('\n');
        for p in Power::ALL {
            if self.centre_count(p) as u32 >= self.options.victory_centres {
                self.outcome = Some(Outcome::Win(p.index()));
                let _ = writeln!(
                    report,
                    "{p} controls {} centres and wins!",
                    self.centre_count(p)
                );
                return;
            }
        }
        self.season = Season::Winter;
        self.phase = PhaseKind::Adjustment;
        let _ = m;
        if self.awaiting().is_empty() {
            // Nobody has to decide anything; waived builds need no phase.
            self.next_year(report);
        }
    }

    fn next_year(&mut self, report: &mut String) {
        if self.options.end_year.is_some_and(|y| self.year >= y) {
            let s = self.survivors();
            let _ = writeln!(
                report,
                "The game reached its final year and ends in a draw."
            );
            self.outcome = Some(Outcome::Draw(s));
            return;
        }
        self.year += 1;
        self.season = Season::Spring;
        self.phase = PhaseKind::Movement;
    }

    fn check_last_standing(&mut self, report: &mut String) {
        if self.outcome.is_some() {
            return;
        }
        let active: Vec<Power> = Power::ALL
            .iter()
            .copied()
            .filter(|&p| self.alive(p) && !self.disorder[p.index()])
            .collect();
        let alive: Vec<Power> = Power::ALL
            .iter()
            .copied()
            .filter(|&p| self.alive(p))
            .collect();
        if alive.len() == 1 || (active.len() == 1 && alive.len() > 1) {
            let w = if alive.len() == 1 {
                alive[0]
            } else {
                active[0]
            };
            let _ = writeln!(report, "{w} is the last power playing and wins.");
            self.outcome = Some(Outcome::Win(w.index()));
        }
    }

    fn results_text(
        &self,
        orders: &[(Power, Order)],
        outcomes: &[OrderOutcome],
        text: &mut String,
    ) {
        let m = map();
        let mut last = None;
        for ((p, o), oc) in orders.iter().zip(outcomes) {
            if last != Some(*p) {
                let _ = writeln!(text, "{p}:");
                last = Some(*p);
            }
            let _ = write!(text, "  {}", o.canonical(m));
            if !oc.success {
                match oc.reason {
                    Some(r) => {
                        let _ = write!(text, "  (fails: {})", r.text(m));
                    }
                    None => text.push_str("  (fails)"),
                }
            }
            text.push('\n');
        }
    }
}

impl Game for Diplomacy {
    type Action = DiplomacyAction;
    type Options = DiplomacyOptions;
    const KIND: &'static str = "diplomacy";
    // Orders are secret (by DM) and a whole power's orders are one message;
    // seven players read the map and write several orders each, so a phase
    // needs at least 10 min (retreats and adjustments get half) and a day
    // by default.
    const MAX_ACTION_CHARS: usize = 4000;
    const MIN_TURN_SECONDS: u64 = 600;
    const DEFAULT_TURN_SECONDS: u64 = 86_400;
    const BOARD_IMAGE: Option<&'static str> = Some("diplomacy-map");

    fn seat_count(_options: &Self::Options) -> usize {
        7
    }

    fn new_game(options: Self::Options, seed: u64) -> Result<Self, OptionsError> {
        if options.victory_centres == 0 || options.victory_centres > 34 {
            return Err(OptionsError(
                "victory_centres must be between 1 and 34 (18 is standard).".into(),
            ));
        }
        let m = map();
        let mut owners = vec![None; m.province_count()];
        for (i, p) in m.provinces().iter().enumerate() {
            owners[i] = p.home;
        }
        Ok(Diplomacy {
            options,
            year: 1901,
            season: Season::Spring,
            phase: PhaseKind::Movement,
            units: starting_units(m),
            owners,
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            draw_votes: [false; 7],
            disorder: [false; 7],
            missed_moves: [0; 7],
            ai_held: [false; 7],
            outcome: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn seat_name(&self, seat: Seat) -> String {
        Power::from_index(seat)
            .map(|p| p.name().to_string())
            .unwrap_or_else(|| format!("Seat {seat}"))
    }

    fn awaiting(&self) -> Vec<Seat> {
        Power::ALL
            .iter()
            .filter(|&&p| self.power_needs_to_act(p))
            .map(|p| p.index())
            .collect()
    }

    /// Each line is an order, or one of `done`, `clear`, `draw`, `no draw`.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, ActionError> {
        let Some(power) = Power::from_index(seat) else {
            return Err(err(
                format!("Seat {seat} is not a power."),
                "Seats are 0 (Austria) to 6 (Turkey).",
            ));
        };
        if self.outcome.is_some() {
            return Err(err("The game is over.", "No more orders are taken."));
        }
        let mut a = DiplomacyAction::default();
        let mut errors = Vec::new();
        let mut any_ok = false;
        for line in text.split(['\n', ';']) {
            let l = line.trim();
            if l.is_empty() {
                continue;
            }
            match l.to_ascii_lowercase().trim_end_matches(['.', '!']) {
                "done" | "ready" | "submit" | "end" | "finish" | "finished" => {
                    a.ready = true;
                    any_ok = true;
                    continue;
                }
                "clear" | "reset" => {
                    a.clear = true;
                    a.orders.clear();
                    any_ok = true;
                    continue;
                }
                "draw" | "vote draw" | "propose draw" => {
                    a.draw = Some(true);
                    any_ok = true;
                    continue;
                }
                "no draw" | "nodraw" | "withdraw draw" | "cancel draw" => {
                    a.draw = Some(false);
                    any_ok = true;
                    continue;
                }
                _ => {}
            }
            match self.check_line(power, l) {
                Ok(o) => {
                    any_ok = true;
                    push_order(&mut a, o, map());
                }
                Err(e) => errors.push(e),
            }
        }
        // A message of thousands of bad lines is answered with a few of
        // them and a count, not thousands of errors.
        let unlisted = errors.len().saturating_sub(MAX_ERRORS_LISTED);
        let more = (unlisted > 0).then(|| format!("({unlisted} more lines not understood.)"));
        if !any_ok {
            return Err(match errors.len() {
                0 => err("No orders found.", self.hint(power)),
                1 => errors.remove(0),
                _ => err(
                    errors
                        .iter()
                        .take(MAX_ERRORS_LISTED)
                        .map(|e| e.problem.clone())
                        .chain(more)
                        .collect::<Vec<_>>()
                        .join(" "),
                    errors[0].expected.clone(),
                ),
            });
        }
        for e in errors.iter().take(MAX_ERRORS_LISTED) {
            a.notes
                .push(format!("Not accepted: {} {}", e.problem, e.expected));
        }
        a.notes.extend(more);
        Ok(a)
    }

    fn validate(&self, seat: Seat, action: &Self::Action) -> Result<(), ActionError> {
        let Some(power) = Power::from_index(seat) else {
            return Err(err(
                format!("Seat {seat} is not a power."),
                "Seats are 0 to 6.",
            ));
        };
        for o in &action.orders {
            self.check_line(power, &o.canonical(map()))?;
        }
        Ok(())
    }

    fn combine(&self, _seat: Seat, pending: Self::Action, new: Self::Action) -> Self::Action {
        let m = map();
        let mut a = if new.clear {
            DiplomacyAction::default()
        } else {
            pending
        };
        a.notes.clear();
        for o in new.orders {
            push_order(&mut a, o, m);
        }
        a.ready = a.ready || new.ready;
        if new.draw.is_some() {
            a.draw = new.draw;
        }
        a.notes.extend(new.notes);
        a
    }

    fn is_final(&self, _seat: Seat, action: &Self::Action) -> bool {
        action.ready
    }

    fn describe_action(&self, _seat: Seat, action: &Self::Action) -> String {
        let m = map();
        let mut s = String::new();
        for o in &action.orders {
            let _ = writeln!(s, "{}", o.canonical(m));
        }
        if action.orders.is_empty() {
            s.push_str("(no orders: units hold)\n");
        }
        match action.draw {
            Some(true) => s.push_str("Votes for a draw.\n"),
            Some(false) => s.push_str("Withdraws any draw vote.\n"),
            None => {}
        }
        s.push_str(if action.ready {
            "Done.\n"
        } else {
            "Not final: send `done` when ready.\n"
        });
        for n in &action.notes {
            let _ = writeln!(s, "{n}");
        }
        s.trim_end().to_string()
    }

    fn resolve(&mut self, actions: BTreeMap<Seat, Self::Action>) -> TurnReport {
        let m = map();
        let mut text = format!("{}\n", self.phase_name());
        if self.outcome.is_some() {
            text.push_str("The game is over.\n");
            return TurnReport {
                public: text,
                private: BTreeMap::new(),
            };
        }
        let orders = self.orders_to_adjudicate(&actions);
        for (&seat, a) in &actions {
            let Some(p) = Power::from_index(seat) else {
                continue;
            };
            if self.phase == PhaseKind::Movement {
                if a.missed {
                    self.missed_moves[seat] = self.missed_moves[seat].saturating_add(1);
                    if self.missed_moves[seat] >= MISSES_FOR_DISORDER && !self.disorder[seat] {
                        self.disorder[seat] = true;
                        let _ = writeln!(
                            text,
                            "{p} missed {MISSES_FOR_DISORDER} movement deadlines in a row and is in civil disorder until someone takes the seat."
                        );
                    }
                } else {
                    self.missed_moves[seat] = 0;
                }
            }
            self.ai_held[seat] = a.ai;
            if let Some(v) = a.draw {
                self.draw_votes[seat] = v;
            }
        }
        match self.phase {
            PhaseKind::Movement => {
                let r = adjudicate_movement(m, &self.units, &orders);
                self.results_text(&orders, &r.orders, &mut text);
                self.units = r.final_units;
                self.dislodged = r.dislodged;
                self.standoffs = BitIter(r.standoffs).collect();
                for d in &self.dislodged {
                    let _ = writeln!(
                        text,
                        "Dislodged: {} {} (from {}).",
                        d.unit.power,
                        unit_name(m, &d.unit),
                        loc_name(m, d.attacker_from)
                    );
                }
                if !self.dislodged.is_empty() {
                    self.phase = PhaseKind::Retreat;
                } else if self.season == Season::Spring {
                    self.season = Season::Fall;
                } else {
                    self.after_fall(&mut text);
                }
            }
            PhaseKind::Retreat => {
                let r = adjudicate_retreats(
                    m,
                    &self.units,
                    &self.dislodged,
                    self.standoff_bits(),
                    &orders,
                );
                self.results_text(&orders, &r.orders, &mut text);
                for u in &r.disbanded {
                    let _ = writeln!(text, "Disbanded: {} {}.", u.power, unit_name(m, u));
                }
                self.units = r.final_units;
                self.dislodged.clear();
                self.standoffs.clear();
                self.phase = PhaseKind::Movement;
                if self.season == Season::Spring {
                    self.season = Season::Fall;
                } else {
                    self.after_fall(&mut text);
                }
            }
            PhaseKind::Adjustment => {
                let r = adjudicate_adjustments(m, &self.units, &self.owners, &orders);
                self.results_text(&orders, &r.orders, &mut text);
                for u in &r.civil_disorder {
                    let _ = writeln!(
                        text,
                        "Removed in civil disorder: {} {}.",
                        u.power,
                        unit_name(m, u)
                    );
                }
                self.units = r.final_units;
                self.next_year(&mut text);
            }
        }
        for p in Power::ALL {
            if !self.alive(p) && self.outcome.is_none() {
                self.draw_votes[p.index()] = false;
            }
        }
        self.check_last_standing(&mut text);
        if self.outcome.is_none() {
            let s = self.survivors();
            // Powers in civil disorder or played by the AI count as accepting;
            // the others must all agree, and at least one must have voted.
            let voters: Vec<Seat> = s
                .iter()
                .copied()
                .filter(|&p| !self.disorder[p] && !self.ai_held[p])
                .collect();
            if !voters.is_empty() && voters.iter().all(|&p| self.draw_votes[p]) {
                let _ = writeln!(text, "All surviving powers agreed to a draw.");
                self.outcome = Some(Outcome::Draw(s));
            }
        }
        if self.outcome.is_none() {
            let _ = writeln!(text, "Next: {}.", self.phase_name());
        }
        TurnReport {
            public: text,
            private: BTreeMap::new(),
        }
    }

    /// Units hold, retreats disband, builds are waived, removals follow the
    /// civil-disorder rule; the miss is marked so that two consecutive missed
    /// movement phases put the power in civil disorder.
    fn default_action(&self, _seat: Seat) -> Self::Action {
        DiplomacyAction {
            ready: true,
            missed: true,
            ..Default::default()
        }
    }

    /// A configured turn length applies to movement phases, half of it to
    /// retreats and adjustments; without one, the options' hours (48 / 24).
    fn turn_seconds(&self, configured: Option<u64>) -> Option<u64> {
        let movement = self.phase == PhaseKind::Movement;
        match configured {
            Some(c) if movement => Some(c),
            Some(c) => Some((c / 2).max(1)),
            None => {
                let h = if movement {
                    self.options.movement_hours
                } else {
                    self.options.adjustment_hours
                };
                (h > 0).then_some(u64::from(h) * 3600)
            }
        }
    }

    /// The `extensions` option: one per phase unless the game says otherwise.
    fn extensions_per_turn(&self) -> u32 {
        self.options.extensions
    }

    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        let mut text = String::new();
        if let Some(p) = Power::from_index(seat) {
            self.disorder[seat] = true;
            let _ = writeln!(
                text,
                "{p} has left the game; its units are in civil disorder."
            );
            self.check_last_standing(&mut text);
        }
        TurnReport {
            public: text,
            private: BTreeMap::new(),
        }
    }

    /// Open: a surviving power in civil disorder in a game still going on.
    fn seat_open(&self, seat: Seat) -> bool {
        Power::from_index(seat)
            .is_some_and(|p| self.outcome.is_none() && self.disorder[seat] && self.alive(p))
    }

    /// In play: alive and not in civil disorder.
    fn seat_in_play(&self, seat: Seat) -> bool {
        Power::from_index(seat).is_some_and(|p| !self.disorder[seat] && self.alive(p))
    }

    /// The power leaves civil disorder with no missed deadlines counted. It
    /// is awaited again at once: in the current phase already if it has
    /// something to do (a unit to order, a retreat, an adjustment).
    fn take_over(&mut self, seat: Seat) -> bool {
        if !self.seat_open(seat) {
            return false;
        }
        self.disorder[seat] = false;
        self.missed_moves[seat] = 0;
        // Whoever takes the seat decides its draw vote from now on: the
        // one who left may have voted, and nobody can see that vote.
        self.ai_held[seat] = false;
        self.draw_votes[seat] = false;
        true
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        let m = map();
        let mut board = format!("{}\n", self.phase_name());
        for p in Power::ALL {
            if !self.alive(p) {
                continue;
            }
            let us: Vec<String> = self
                .units
                .iter()
                .filter(|u| u.power == p)
                .map(|u| unit_name(m, u))
                .collect();
            // Wrap unit lists so board lines stay under 80 characters.
            let mut line = format!("{:<8} {:>2} SC ", p.name(), self.centre_count(p));
            for (k, u) in us.iter().enumerate() {
                if line.len() + u.len() + 2 > 78 {
                    let _ = writeln!(board, "{}", line.trim_end());
                    line = " ".repeat(15);
                }
                line.push(' ');
                line.push_str(u);
                if k + 1 < us.len() {
                    line.push(',');
                }
            }
            let _ = writeln!(board, "{}", line.trim_end());
        }
        for d in &self.dislodged {
            let _ = writeln!(
                board,
                "Dislodged: {} {}",
                d.unit.power,
                unit_name(m, &d.unit)
            );
        }
        let status = match &self.outcome {
            Some(Outcome::Win(s)) => format!("{} won.", self.seat_name(*s)),
            Some(Outcome::Draw(s)) => {
                format!(
                    "Draw between {}.",
                    s.iter()
                        .map(|&x| self.seat_name(x))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            None => {
                let w: Vec<String> = self.awaiting().iter().map(|&s| self.seat_name(s)).collect();
                format!("{}: waiting for {}.", self.phase_name(), w.join(", "))
            }
        };
        let mut choices = Vec::new();
        if let Some(seat) = viewer
            && self.awaiting().contains(&seat)
        {
            {
                let power = Power::ALL[seat];
                choices.push(ActionChoice {
                    label: "Done".into(),
                    text: "done".into(),
                    style: ChoiceStyle::Button,
                });
                choices.push(ActionChoice {
                    label: "Vote draw".into(),
                    text: "draw".into(),
                    style: ChoiceStyle::Button,
                });
                match self.phase {
                    PhaseKind::Retreat => {
                        let occ = self.occupied();
                        let so = self.standoff_bits();
                        for d in self.dislodged.iter().filter(|d| d.unit.power == power) {
                            for l in retreat_options(m, occ, so, d) {
                                let o = Order::Unit {
                                    unit: Some(d.unit.kind),
                                    at: d.unit.loc,
                                    kind: OrderKind::Retreat { to: l },
                                };
                                let t = o.canonical(m);
                                choices.push(ActionChoice {
                                    label: t.clone(),
                                    text: t,
                                    style: ChoiceStyle::Select,
                                });
                            }
                            let o = Order::Unit {
                                unit: Some(d.unit.kind),
                                at: d.unit.loc,
                                kind: OrderKind::Disband,
                            };
                            let t = o.canonical(m);
                            choices.push(ActionChoice {
                                label: t.clone(),
                                text: t,
                                style: ChoiceStyle::Select,
                            });
                        }
                    }
                    PhaseKind::Adjustment => {
                        let n = adjustment_count(m, &self.units, &self.owners, power);
                        if n > 0 {
                            for o in self.build_choices(power) {
                                let t = o.canonical(m);
                                choices.push(ActionChoice {
                                    label: t.clone(),
                                    text: t,
                                    style: ChoiceStyle::Select,
                                });
                            }
                            choices.push(ActionChoice {
                                label: "Waive".into(),
                                text: "Waive".into(),
                                style: ChoiceStyle::Select,
                            });
                        } else {
                            for u in self.units.iter().filter(|u| u.power == power) {
                                let t = Order::Unit {
                                    unit: Some(u.kind),
                                    at: u.loc,
                                    kind: OrderKind::Disband,
                                }
                                .canonical(m);
                                choices.push(ActionChoice {
                                    label: t.clone(),
                                    text: t,
                                    style: ChoiceStyle::Select,
                                });
                            }
                        }
                    }
                    PhaseKind::Movement => {}
                }
            }
        }
        View {
            board,
            status,
            choices,
        }
    }

    fn ai_levels() -> &'static [&'static str] {
        &["default", "random", "hold"]
    }

    /// `default`: the heuristic power of [`super::ai`] (DumbBot-like).
    /// `random`: each unit moves to a random neighbour with probability 2/3
    /// (else holds), retreats are random, builds fill random home centres.
    /// `hold`: every unit holds; no builds; removals by civil disorder.
    fn ai_action(&self, seat: Seat, level: &str, _budget: AiBudget, seed: u64) -> Self::Action {
        let m = map();
        let mut a = DiplomacyAction {
            ready: true,
            ai: true,
            ..Default::default()
        };
        let Some(power) = Power::from_index(seat) else {
            return a;
        };
        if level == "hold" {
            return a;
        }
        if level != "random" {
            return DiplomacyAction {
                ai: true,
                ..super::ai::orders(self, power, seed)
            };
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (self.year as u64) << 8 ^ seat as u64);
        match self.phase {
            PhaseKind::Movement => {
                for u in self.units.iter().filter(|u| u.power == power) {
                    let p = m.prov_of(u.loc);
                    let targets: Vec<u8> = match u.kind {
                        UnitKind::Army => BitIter(m.army_adj(p)).collect(),
                        UnitKind::Fleet => BitIter(m.fleet_adj(u.loc)).collect(),
                    };
                    if !targets.is_empty() && rng.gen_range(0..3) < 2 {
                        let to = targets[rng.gen_range(0..targets.len())];
                        let o = Order::Unit {
                            unit: Some(u.kind),
                            at: u.loc,
                            kind: OrderKind::Move {
                                to,
                                via_convoy: false,
                            },
                        };
                        a.orders.push(o);
                    }
                }
            }
            PhaseKind::Retreat => {
                let occ = self.occupied();
                let so = self.standoff_bits();
                for d in self.dislodged.iter().filter(|d| d.unit.power == power) {
                    let opts = retreat_options(m, occ, so, d);
                    let kind = if opts.is_empty() {
                        OrderKind::Disband
                    } else {
                        OrderKind::Retreat {
                            to: opts[rng.gen_range(0..opts.len())],
                        }
                    };
                    a.orders.push(Order::Unit {
                        unit: Some(d.unit.kind),
                        at: d.unit.loc,
                        kind,
                    });
                }
            }
            PhaseKind::Adjustment => {
                let mut n = adjustment_count(m, &self.units, &self.owners, power);
                let mut used: Bits = 0;
                let mut choices = self.build_choices(power);
                while n > 0 && !choices.is_empty() {
                    let i = rng.gen_range(0..choices.len());
                    let o = choices.swap_remove(i);
                    let p = m.prov_of(o.at().unwrap_or(0));
                    if used & 1u128 << p == 0 {
                        used |= 1u128 << p;
                        a.orders.push(o);
                        n -= 1;
                    }
                }
            }
        }
        a
    }
}

/// Adds an order, replacing an earlier one for the same unit (and saying so).
fn push_order(a: &mut DiplomacyAction, o: Order, m: &Map) {
    if let Order::Unit { at, .. } = o {
        let p = m.prov_of(at);
        if let Some(i) = a
            .orders
            .iter()
            .position(|x| matches!(x, Order::Unit { at: a2, .. } if m.prov_of(*a2) == p))
        {
            let old = a.orders.remove(i);
            a.notes.push(format!(
                "Replaced `{}` with `{}`.",
                old.canonical(m),
                o.canonical(m)
            ));
        }
    }
    a.orders.push(o);
}
