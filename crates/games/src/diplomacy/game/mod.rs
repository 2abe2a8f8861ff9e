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
//! - the orders a power sent stand at the deadline, `done` or not; so a
//!   reminder goes only to a power with a unit (or a build or removal)
//!   still without an order ([`Game::outstanding`]);
//! - a power that forfeits stays on the board in civil disorder (never
//!   awaited again); if only one power is still playing, it wins.
//!
//! Layout: this file holds the state types and the [`Game`] impl, which
//! hands each step to its module: [`state`] (accessors, legal builds, the
//! orders a phase adjudicates), [`validate`] (order lines and actions),
//! [`phases`] (resolution and phase flow) and [`view`] (the board view).

mod detail;
mod menu;
mod phases;
mod press_rule;
mod state;
mod validate;
mod variant;
mod view;

pub use detail::{AdjudicatedOrder, PhaseDetail};
pub use menu::OrderChoice;
pub use press_rule::PressRule;
pub use variant::{Setup, setup};

use super::geo::{BitIter, Bits, Map, Power, ProvId};
use super::judge::{Dislodgement, PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use super::order::{Order, OrderKind, Unit, UnitKind};
use crate::seam::{
    ActionError, AiBudget, Game, OptionsError, Outcome, Outstanding, Seat, TurnReport, View,
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
    /// A variant on the classic map: `classic` (default), `fva` (France vs
    /// Austria), `gvi` (Germany vs Italy) or `etv` (England vs Turkey).
    pub variant: String,
    /// The classic game with only these powers (names or initials, comma
    /// separated, at least two); the others' centres start neutral.
    pub powers: String,
    /// The press rule: `full` (default), `anonymous`, `public-only` or
    /// `gunboat` (see [`PressRule`]).
    pub press: PressRule,
}

impl Default for DiplomacyOptions {
    fn default() -> Self {
        DiplomacyOptions {
            victory_centres: 18,
            end_year: None,
            movement_hours: 48,
            adjustment_hours: 24,
            extensions: 1,
            variant: String::new(),
            powers: String::new(),
            press: PressRule::Full,
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
    /// Messages for the player about the last message: changed orders.
    pub notes: Vec<String>,
    /// Lines of the last message that were refused, each distinct line
    /// once, with why (see [`Refusal`]).
    #[serde(default)]
    pub refused: Vec<Refusal>,
    /// Refused lines of the last message beyond those listed in `refused`.
    #[serde(default)]
    pub more_refused: usize,
    /// The host filled this in at a missed deadline ([`Game::default_action`]).
    #[serde(default)]
    pub missed: bool,
    /// The AI made this action ([`Game::ai_action`]): the power counts as
    /// accepting a draw, so AI seats never block the humans' agreement.
    #[serde(default)]
    pub ai: bool,
}

/// One refused line of a player's message, listed once however often it
/// was repeated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The line as typed (cut to a quotable length).
    pub line: String,
    /// Why it was refused.
    pub problem: String,
    /// What would be right, when it says more than the phase's hint
    /// (empty: the receipt ends with the hint once, counting pending orders).
    pub expected: String,
    /// How many times the line was in the message.
    pub times: usize,
}

/// The state of a game of Diplomacy.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Diplomacy {
    options: DiplomacyOptions,
    /// The power each seat plays (seat `i` plays `seats[i]`): all seven in
    /// the classic game, fewer in a variant. Games saved before variants
    /// had all seven.
    #[serde(default = "all_powers")]
    seats: Vec<Power>,
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
    /// The most centres any power has owned after a Fall.
    #[serde(default)]
    peak_centres: u8,
    /// Consecutive Falls since [`Self::peak_centres`] last rose: the AI votes
    /// for a draw once the game has stalled ([`Diplomacy::stalled`]).
    #[serde(default)]
    still_years: u8,
    outcome: Option<Outcome>,
    rng: ChaCha8Rng,
}

/// The most refused lines one message's answer lists (the rest are counted).
const MAX_ERRORS_LISTED: usize = 5;

/// Consecutive missed movement phases that put a power in civil disorder.
pub const MISSES_FOR_DISORDER: u8 = 2;
/// Years in which no power grew beyond the largest size any power had
/// reached, after which the game counts as stalled (nobody is getting
/// closer to a solo) and AI seats vote for a draw.
pub const STALL_YEARS: u8 = 5;

fn all_powers() -> Vec<Power> {
    Power::ALL.to_vec()
}

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

    /// Seven in the classic game; a variant's or `powers`' count otherwise
    /// (invalid options are refused by `new_game`, which says why).
    fn seat_count(options: &Self::Options) -> usize {
        setup(map(), &options.variant, &options.powers).map_or(7, |s| s.powers.len())
    }

    fn new_game(options: Self::Options, seed: u64) -> Result<Self, OptionsError> {
        if options.victory_centres == 0 || options.victory_centres > 34 {
            return Err(OptionsError(
                "victory_centres must be between 1 and 34 (18 is standard).".into(),
            ));
        }
        let m = map();
        let start = setup(m, &options.variant, &options.powers)?;
        // The playing powers own their home centres; every other centre
        // starts neutral.
        let mut owners = vec![None; m.province_count()];
        for (i, p) in m.provinces().iter().enumerate() {
            owners[i] = p.home.filter(|h| start.powers.contains(h));
        }
        Ok(Diplomacy {
            options,
            seats: start.powers,
            year: 1901,
            season: Season::Spring,
            phase: PhaseKind::Movement,
            units: start.units,
            owners,
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            draw_votes: [false; 7],
            disorder: [false; 7],
            missed_moves: [0; 7],
            ai_held: [false; 7],
            peak_centres: 0,
            still_years: 0,
            outcome: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.power_of_seat(seat)
            .map(|p| p.name().to_string())
            .unwrap_or_else(|| format!("Seat {seat}"))
    }

    fn awaiting(&self) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&seat| self.power_needs_to_act(self.seats[seat]))
            .collect()
    }

    /// Each line is an order, or one of `done`, `clear`, `draw`, `no draw`.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, ActionError> {
        self.parse_message(seat, text)
    }

    fn validate(&self, seat: Seat, action: &Self::Action) -> Result<(), ActionError> {
        self.validate_action(seat, action)
    }

    fn combine(&self, seat: Seat, pending: Self::Action, new: Self::Action) -> Self::Action {
        self.combine_actions(seat, pending, new)
    }

    /// Notes and refused lines answer one message: the receipt shows them,
    /// the pending orders (`/orders list`, the turn log) do not keep them.
    fn settled(&self, _seat: Seat, action: Self::Action) -> Self::Action {
        DiplomacyAction {
            notes: Vec::new(),
            refused: Vec::new(),
            more_refused: 0,
            clear: false,
            ..action
        }
    }

    fn is_final(&self, _seat: Seat, action: &Self::Action) -> bool {
        action.ready
    }

    fn describe_action(&self, seat: Seat, action: &Self::Action) -> String {
        self.describe_orders(seat, action)
    }

    fn resolve(&mut self, actions: BTreeMap<Seat, Self::Action>) -> TurnReport {
        self.resolve_phase(actions)
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
        if let Some(p) = self.power_of_seat(seat) {
            self.disorder[p.index()] = true;
            let _ = writeln!(
                text,
                "{p} has left the game; its units are in civil disorder."
            );
            self.check_last_standing(&mut text);
        }
        TurnReport {
            public: text,
            private: BTreeMap::new(),
            detail: None,
        }
    }

    /// Open: a surviving power in civil disorder in a game still going on.
    fn seat_open(&self, seat: Seat) -> bool {
        self.power_of_seat(seat)
            .is_some_and(|p| self.outcome.is_none() && self.disorder[p.index()] && self.alive(p))
    }

    /// In play: alive and not in civil disorder.
    fn seat_in_play(&self, seat: Seat) -> bool {
        self.power_of_seat(seat)
            .is_some_and(|p| !self.disorder[p.index()] && self.alive(p))
    }

    /// The power leaves civil disorder with no missed deadlines counted. It
    /// is awaited again at once: in the current phase already if it has
    /// something to do (a unit to order, a retreat, an adjustment).
    fn take_over(&mut self, seat: Seat) -> bool {
        let Some(p) = self.power_of_seat(seat).filter(|_| self.seat_open(seat)) else {
            return false;
        };
        let i = p.index();
        self.disorder[i] = false;
        self.missed_moves[i] = 0;
        // Whoever takes the seat decides its draw vote from now on: the
        // one who left may have voted, and nobody can see that vote.
        self.ai_held[i] = false;
        self.draw_votes[i] = false;
        true
    }

    /// Units (or builds and removals) without an order; a power with all
    /// of them ordered owes nothing, ready or not: its orders stand at the
    /// deadline ([`Diplomacy::missing_orders`]).
    fn outstanding(&self, seat: Seat, pending: Option<&Self::Action>) -> Outstanding {
        let Some(power) = self.power_of_seat(seat) else {
            return Outstanding::Unknown;
        };
        let orders = pending.map(|a| a.orders.as_slice()).unwrap_or_default();
        match self.missing_orders(power, orders) {
            Some(text) => Outstanding::Missing(text),
            None => Outstanding::Nothing,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// Supply centres owned (sum-of-squares scoring).
    fn strength(&self, seat: Seat) -> u32 {
        self.power_of_seat(seat)
            .map_or(0, |p| self.centre_count(p) as u32)
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        self.board_view(viewer)
    }

    fn ai_levels() -> &'static [&'static str] {
        &["default", "random", "hold", "dumbbot", "heuristic"]
    }

    /// `default`: a sampled best response over DumbBot's policy
    /// ([`super::search`]), voting for a draw once the game has stalled.
    /// `heuristic`: the earlier default, a one-pass heuristic ([`super::ai`]).
    /// `random`: each unit moves to a random neighbour with probability 2/3
    /// (else holds), retreats are random, builds fill random home centres.
    /// `hold`: every unit holds; no builds; removals by civil disorder.
    /// `dumbbot`: a port of David Norman's DumbBot ([`super::dumbbot`]).
    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> Self::Action {
        let m = map();
        let mut a = DiplomacyAction {
            ready: true,
            ai: true,
            ..Default::default()
        };
        let Some(power) = self.power_of_seat(seat) else {
            return a;
        };
        if level == "hold" {
            return a;
        }
        if level == "dumbbot" {
            let orders = super::dumbbot::orders(self, power, seed)
                .into_iter()
                .filter(|o| self.check_line(power, &o.canonical(m)).is_ok())
                .collect();
            return DiplomacyAction { orders, ..a };
        }
        if level == "heuristic" {
            return DiplomacyAction {
                ai: true,
                ..super::ai::heuristic_orders(self, power, seed)
            };
        }
        if level != "random" {
            return DiplomacyAction {
                ai: true,
                ..super::ai::orders(self, power, &budget, seed)
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
