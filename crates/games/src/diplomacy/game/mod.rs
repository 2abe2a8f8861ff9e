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
//! - an action is a set of orders typed one per line; `Game::combine` merges
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
//!   still without an order (`Game::outstanding`);
//! - a power that forfeits stays on the board in civil disorder (never
//!   awaited again); if only one power is still playing, it wins.
//!
//! Layout: this file holds the state types; the `Game` impl
//! (`super::engine`) sits above this module beside the AIs and hands each
//! step to a module here: [`state`] (accessors, legal builds, the
//! orders a phase adjudicates), [`validate`] (order lines and actions),
//! [`phases`] (resolution and phase flow), [`view`] (the board view) and
//! [`fog`] (what each power sees in a Fog of War game).

mod detail;
mod fog;
mod guide;
mod legality;
mod menu;
mod order_choice;
mod phases;
mod press_rule;
mod state;
mod validate;
mod variant;
mod view;

pub use detail::{AdjudicatedOrder, PhaseDetail};
pub use fog::order_provinces;
pub use order_choice::OrderChoice;
pub use press_rule::PressRule;
pub use validate::is_draw_vote;
pub use variant::{Setup, is_fog_variant, setup};

use super::geo::{Map, MapRef, Power, ProvId, StartingUnit};
use super::judge::{Dislodgement, PhaseKind};
use super::order::{Order, Unit, UnitKind};
use crate::seam::{ActionError, Outcome};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Options for a new game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DiplomacyOptions {
    /// The map the game is played on, by id (`standard` when empty): a
    /// bundled map or one the operator installed.
    pub map: String,
    /// Centres needed to win; `None`: the map's (18 on the standard map).
    pub victory_centres: Option<u32>,
    /// If set, the game ends in a draw of the survivors after this year's Winter.
    pub end_year: Option<u16>,
    /// Hours for a movement phase (48); used when the game has no turn length set.
    pub movement_hours: u32,
    /// Hours for a retreat or adjustment phase (24); used likewise.
    pub adjustment_hours: u32,
    /// Deadline extensions players may ask for per phase (1; 0 = none).
    pub extensions: u32,
    /// A variant on the map: `classic` (default: the map's full game),
    /// `fog` (the full game under Fog of War) or one of the map file's
    /// `variant` lines (on the standard map `fva`, France vs Austria;
    /// `gvi`, Germany vs Italy; `etv`, England vs Turkey).
    pub variant: String,
    /// The full game with only these powers (names or initials, comma
    /// separated, at least two); the others' centres start neutral.
    pub powers: String,
    /// The press rule: `full` (default), `anonymous`, `public-only` or
    /// `gunboat` (see [`PressRule`]).
    pub press: PressRule,
    /// Fog of War: each power sees only what lies around its units and
    /// centres until the game ends (see the `fog` module). `variant=fog`
    /// is the classic game with this set.
    pub fog: bool,
}

impl Default for DiplomacyOptions {
    fn default() -> Self {
        DiplomacyOptions {
            map: String::new(),
            victory_centres: None,
            end_year: None,
            movement_hours: 48,
            adjustment_hours: 24,
            extensions: 1,
            variant: String::new(),
            powers: String::new(),
            press: PressRule::Full,
            fog: false,
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
    /// The host filled this in at a missed deadline ([`crate::seam::Game::default_action`]).
    #[serde(default)]
    pub missed: bool,
    /// The AI made this action ([`crate::seam::Game::ai_action`]): the power counts as
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
///
/// The fields are visible to the rest of `diplomacy` so that its `Game`
/// impl (`super::engine`) can live beside the AIs it calls, above this
/// module, instead of the rules calling their own AIs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Diplomacy {
    pub(super) options: DiplomacyOptions,
    /// The map, saved as its id. Games saved before maps were data played
    /// on the standard map.
    #[serde(default = "MapRef::standard")]
    pub(super) map: MapRef,
    /// The power each seat plays (seat `i` plays `seats[i]`): every power
    /// of the map in the full game, fewer in a variant. Games saved before
    /// variants had the standard map's seven.
    #[serde(default = "standard_powers")]
    pub(super) seats: Vec<Power>,
    pub(super) year: u16,
    pub(super) season: Season,
    pub(super) phase: PhaseKind,
    pub(super) units: Vec<Unit>,
    /// Owner of each province's centre, indexed by province id.
    pub(super) owners: Vec<Option<Power>>,
    pub(super) dislodged: Vec<Dislodgement>,
    pub(super) standoffs: Vec<ProvId>,
    /// Standing draw votes, by [`Power::index`] (one per power of the map).
    pub(super) draw_votes: Vec<bool>,
    /// Powers in civil disorder, by [`Power::index`].
    pub(super) disorder: Vec<bool>,
    /// Consecutive movement phases each power missed (2 put it in civil
    /// disorder). Games saved before this was kept were standard, so the
    /// default has the standard map's seven powers, as below.
    #[serde(default = "standard_power_counts")]
    pub(super) missed_moves: Vec<u8>,
    /// Powers whose last action came from the AI (they count as accepting a draw).
    #[serde(default = "standard_power_flags")]
    pub(super) ai_held: Vec<bool>,
    /// The most centres any power has owned after a Fall.
    #[serde(default)]
    pub(super) peak_centres: u8,
    /// Consecutive Falls since [`Self::peak_centres`] last rose: the AI votes
    /// for a draw once the game has stalled ([`Diplomacy::stalled`]).
    #[serde(default)]
    pub(super) still_years: u8,
    pub(super) outcome: Option<Outcome>,
    pub(super) rng: ChaCha8Rng,
    /// In a copy made by [`Diplomacy::seen_by`], the provinces its power
    /// sees (a renderer draws the rest as fog); `None` in a game itself.
    /// Never stored: copies are made from the stored game when needed.
    #[serde(skip)]
    pub(super) sight: Option<super::geo::Bits>,
    /// The host ended the game without an outcome of the engine's (an
    /// abort, an abandoned game): the fog lifts as at any end. Never
    /// stored: the host sets it on every load of a game that is over.
    #[serde(skip)]
    pub(super) over_for_host: bool,
}

/// The most refused lines one message's answer lists (the rest are counted).
const MAX_ERRORS_LISTED: usize = 5;

/// Consecutive missed movement phases that put a power in civil disorder.
pub const MISSES_FOR_DISORDER: u8 = 2;
/// Years in which no power grew beyond the largest size any power had
/// reached, after which the game counts as stalled (nobody is getting
/// closer to a solo) and AI seats vote for a draw.
pub const STALL_YEARS: u8 = 5;

/// The standard map, for the tests of the modules below.
#[cfg(test)]
pub(super) fn map() -> &'static Map {
    Map::standard()
}

fn standard_powers() -> Vec<Power> {
    Map::standard().powers().collect()
}

fn standard_power_flags() -> Vec<bool> {
    vec![false; Map::standard().power_count()]
}

fn standard_power_counts() -> Vec<u8> {
    vec![0; Map::standard().power_count()]
}

/// A map's starting units as units on the board.
fn starting_units(units: &[StartingUnit]) -> Vec<Unit> {
    units
        .iter()
        .map(|u| Unit {
            power: u.power,
            kind: if u.fleet {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            },
            loc: u.loc,
        })
        .collect()
}

/// The standard map's Spring 1901 units (22).
pub fn opening_units() -> Vec<Unit> {
    starting_units(Map::standard().starting_units())
}

fn err(problem: impl Into<String>, expected: impl Into<String>) -> ActionError {
    ActionError::new(problem, expected)
}
