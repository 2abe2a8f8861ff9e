//! Movement-phase adjudication, in the order of the rulebook, one stage a
//! file:
//!
//! 1. [`legality`]: `Judge::place_units` and `Judge::bind_orders` bind each
//!    order to the unit it names (orders for missing or foreign units are
//!    rejected); `Judge::check_legality` makes each bound order a [`Node`]
//!    (illegal orders become holds and keep their reason), with convoy
//!    routes decided by the power's own convoy intents and
//!    `legality::useful_fleets`;
//! 2. [`matching`]: supports and convoys count only for the unit whose real
//!    order they match;
//! 3. [`resolver`]: every move, support and convoy is a node of
//!    Kruijswijk's guess-and-check resolver, deciding with the strengths
//!    (attack, defend, prevent, hold); a cycle with no single consistent
//!    answer goes to the Szykman rule or the circular movement rule;
//! 4. [`outcomes`]: dislodgements, final positions and standoffs, and each
//!    order's result and reason.
//!
//! All per-province state lives in fixed arrays indexed by dense province id
//! and neighbour sets are 128-bit masks, so the resolver itself never
//! allocates.
//!
//! Rule choices (DATC v3.0 preferences, 2023 rulebook):
//! - an army moving to an adjacent province goes by convoy only if the order
//!   says "via convoy" or a fleet of the same power is ordered to convoy it
//!   (4.A.3); a "via convoy" move with no route fails, with no land fallback;
//! - a move to a non-adjacent coastal province is always by convoy;
//! - a fleet moving to a split-coast province without a coast uses the only
//!   reachable coast, and is illegal when two are reachable (4.B.1, 4.B.2);
//! - the coast written on the ordered unit is ignored; a support that
//!   names a coast counts only for a fleet moving to that coast (6.B.9),
//!   one without a coast for either;
//! - the supported unit's type in a support order is not checked;
//! - convoy paradoxes: Szykman rule (the convoys in the paradox fail);
//!   circular movement: all moves of the ring succeed.

use super::{OrderOutcome, PhaseKind, Reason};

mod legality;
mod matching;
mod outcomes;
mod resolver;

use crate::diplomacy::geo::{BitIter, Bits, LocId, Map, Power, ProvId, Terrain};
use crate::diplomacy::order::{Order, OrderKind, Unit, UnitKind};
pub(crate) use legality::fleet_target;

/// Provinces supported by the fixed-size arrays.
const MAX_PROVINCES: usize = 96;
/// "No province", "no unit", "no power" in the `u8`-indexed arrays.
const NONE: u8 = u8::MAX;
/// "No order" in [`Judge::order_of`].
const NO_ORDER: u16 = u16::MAX;

/// A unit dislodged in the movement phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dislodgement {
    /// The unit, at the place it was dislodged from.
    pub unit: Unit,
    /// The province the successful attacker came from.
    pub attacker_from: ProvId,
    /// Whether that attacker came by convoy (then the dislodged unit may
    /// retreat to the attacker's origin, 2023 rules / DATC 6.H.11).
    pub by_convoy: bool,
}

/// Everything a movement phase produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementResult {
    /// One outcome per submitted order, in input order.
    pub orders: Vec<OrderOutcome>,
    /// Units after the phase (dislodged units excluded).
    pub final_units: Vec<Unit>,
    /// Dislodged units with their attackers.
    pub dislodged: Vec<Dislodgement>,
    /// Provinces left vacant by a standoff (closed to retreats).
    pub standoffs: Bits,
}

/// How an army's move gets to its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// Over land (every fleet move, and army moves with no convoy intent).
    Land,
    /// By convoy only: the move fails if the convoy does (no land fallback).
    ConvoyOnly,
    /// Convoy intent shown by a fleet of the same power (4.A.3): by convoy
    /// if the convoy succeeds, over land otherwise.
    ConvoyOrLand,
}

/// A normalised, legal order of the unit in one province: one resolver node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    /// No unit in the province.
    Empty,
    /// A hold, or an illegal order (which holds).
    Hold,
    /// A move to province `to`.
    Move { to: ProvId, route: Route },
    /// Support for the unit in `supported` to hold.
    SupportHold { supported: ProvId },
    /// Support for the unit in `supported` to move to `target`;
    /// `target_coast` is the coast written for it (`NONE` if none).
    SupportMove {
        supported: ProvId,
        target: ProvId,
        target_coast: LocId,
    },
    /// Convoy of the army in `army` to `target`.
    Convoy { army: ProvId, target: ProvId },
}

/// Where a node stands in the guess-and-check resolver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolution {
    /// Not looked at yet (or its guess was undone).
    Unresolved,
    /// Its current result is a guess that a cycle depends on.
    Guessing,
    /// Its result is final.
    Resolved,
}

/// All state of one movement adjudication, indexed by province.
struct Judge<'m> {
    map: &'m Map,
    /// Index in `units` of the unit in each province (`NONE` if empty).
    unit_at: [u8; MAX_PROVINCES],
    /// The exact location (with coast) of each province's unit.
    unit_loc: [LocId; MAX_PROVINCES],
    /// The kind of each province's unit.
    unit_kind: [UnitKind; MAX_PROVINCES],
    /// The power owning each province's unit (`NONE` if empty).
    owner: [u8; MAX_PROVINCES],
    /// Index in `orders` of the order bound to each province's unit.
    order_of: [u16; MAX_PROVINCES],
    /// The location (with coast) a move ends at, for coast-checked supports
    /// and final positions.
    move_target_loc: [LocId; MAX_PROVINCES],
    /// The node of each province's unit.
    node: [Node; MAX_PROVINCES],
    /// Whether the order was legal (an illegal one holds and fails).
    legal: [bool; MAX_PROVINCES],
    /// Why a support or convoy counts for nobody (its unit did something else).
    void_reason: [Option<Reason>; MAX_PROVINCES],
    /// Provinces with a unit.
    occupied: Bits,
    /// The provinces whose units move into each province.
    movers_into: [Bits; MAX_PROVINCES],
    /// The provinces whose units support each province's unit.
    supporters: [Bits; MAX_PROVINCES],
    /// The fleets ordered to convoy each province's army.
    convoyers: [Bits; MAX_PROVINCES],
    /// Each node's result: move succeeds, support given, convoy not disrupted.
    result: [bool; MAX_PROVINCES],
    /// Each node's resolver state.
    resolution: [Resolution; MAX_PROVINCES],
    /// The province whose unit dislodged each province's unit (`NONE` if
    /// none), set by [`Judge::settle_positions`].
    dislodged_by: [ProvId; MAX_PROVINCES],
    /// The nodes whose guesses the current resolution depends on.
    dependencies: [ProvId; 2 * MAX_PROVINCES],
    /// How many of `dependencies` are in use.
    n_dependencies: usize,
}

#[inline]
fn bit(p: u8) -> Bits {
    1u128 << p
}

/// Adjudicates a movement phase. `orders` are `(power, order)` pairs as
/// submitted; units without a (legal) order hold.
pub fn adjudicate_movement(map: &Map, units: &[Unit], orders: &[(Power, Order)]) -> MovementResult {
    assert!(
        map.province_count() <= MAX_PROVINCES,
        "map too large for the adjudicator"
    );
    let mut outcomes = vec![OrderOutcome::FAIL; orders.len()];
    let mut judge = Judge::new(map);
    judge.place_units(units);
    judge.bind_orders(units, orders, &mut outcomes);
    judge.check_legality(orders, &mut outcomes);
    judge.match_supports_and_convoys(&mut outcomes);
    judge.resolve_all();
    let (final_units, dislodged, final_occupied) = judge.settle_positions(units);
    let standoffs = judge.standoffs(final_occupied);
    judge.report_outcomes(&mut outcomes);
    MovementResult {
        orders: outcomes,
        final_units,
        dislodged,
        standoffs,
    }
}
