//! Adjudication of the three kinds of phase.
//!
//! - [`movement`]: Lucas Kruijswijk's guess-and-check resolver ("The Math of
//!   Adjudication") with the Szykman rule for convoy paradoxes and "all
//!   moves succeed" for circular movement;
//! - [`retreat`]: retreats and disbands after a movement phase;
//! - [`adjust`]: Winter builds, removals and the 2023 civil-disorder rule.
//!
//! Rules follow the 2023 rulebook and the DATC v3.0 preferred options; each
//! choice is documented where it is made.

pub(crate) mod adjust;
mod movement;
pub(crate) mod retreat;

pub use adjust::{AdjustResult, adjudicate_adjustments};
pub use movement::{Dislodgement, MovementResult, adjudicate_movement};
pub use retreat::{RetreatResult, adjudicate_retreats};

use super::geo::{LocId, Map, Power, ProvId};
use super::order::{UnitKind, loc_name};
use serde::{Deserialize, Serialize};

/// The three kinds of phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PhaseKind {
    /// Spring or Fall orders.
    Movement,
    /// Retreats of dislodged units.
    Retreat,
    /// Winter builds and removals.
    Adjustment,
}

impl PhaseKind {
    /// Lower-case name as in `datc.jsonl`.
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreat",
            PhaseKind::Adjustment => "adjustment",
        }
    }
}

/// Why an order was illegal or failed. Small and `Copy` so the adjudicator
/// never allocates for it; [`Reason::text`] renders it for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    /// No unit stands in the province.
    NoUnit(ProvId),
    /// The unit belongs to another power.
    NotOwnUnit(ProvId, Power),
    /// The order names the wrong unit type.
    WrongUnitType(ProvId, UnitKind),
    /// A later order for the same unit replaced this one.
    Replaced,
    /// More than 65535 orders were sent in one phase; the rest were not read.
    TooManyOrders,
    /// This kind of order is not allowed in the current phase.
    WrongPhase(PhaseKind),
    /// A unit cannot move to where it already is.
    MoveToSelf,
    /// Armies cannot enter the sea.
    ArmyToSea(ProvId),
    /// Fleets cannot enter inland provinces.
    FleetInland(ProvId),
    /// The destination is not adjacent.
    NotAdjacent(ProvId),
    /// An army can only be convoyed between two coastal provinces.
    NoConvoyPossible(ProvId),
    /// The destination has two coasts reachable; the order must name one.
    CoastNeeded(ProvId),
    /// The named coast cannot be reached.
    CoastUnreachable(LocId),
    /// Only armies can be convoyed.
    FleetViaConvoy,
    /// The supporting unit could not itself move to the province.
    SupportUnreachable(ProvId),
    /// A unit cannot support itself or a move into its own province.
    SupportSelf,
    /// There is no unit to support or convoy there.
    TargetNoUnit(ProvId),
    /// The supported or convoyed unit was ordered to do something else.
    Mismatch(ProvId),
    /// The support was cut by an attack from this province.
    SupportCut(ProvId),
    /// The unit was dislodged by the unit from this province.
    Dislodged(ProvId),
    /// Only fleets at sea can convoy.
    ConvoyNotAtSea,
    /// The convoying fleet is on no possible route between the two provinces.
    ConvoyUseless(ProvId, ProvId),
    /// The convoy was part of a convoy paradox and fails (Szykman rule).
    ConvoyParadox,
    /// No chain of convoying fleets reached the destination.
    NoConvoyRoute,
    /// The move bounced in this province.
    Bounced(ProvId),
    /// The unit was not dislodged, so it cannot retreat.
    NotDislodged(ProvId),
    /// The retreat destination is occupied.
    RetreatOccupied(ProvId),
    /// A unit cannot retreat to where its attacker came from.
    RetreatToAttacker(ProvId),
    /// A unit cannot retreat to a province left empty by a standoff.
    RetreatStandoff(ProvId),
    /// Two or more units retreated to the same province; all are disbanded.
    RetreatClash(ProvId),
    /// Builds only in owned, vacant home centres.
    NotHomeCentre(ProvId),
    /// The centre is not owned by the building power.
    NotOwned(ProvId),
    /// The centre is occupied (or already built in).
    Occupied(ProvId),
    /// The power has no builds left / is not due any.
    NoBuildsLeft,
    /// The power has no removals due / left.
    NoRemovalsLeft,
    /// That unit was already removed.
    AlreadyRemoved,
}

impl Reason {
    /// Whether the reason makes the order illegal on its own, whatever the
    /// other orders are (such orders are refused when typed in a game).
    pub fn is_illegal(&self) -> bool {
        !matches!(
            self,
            Reason::Replaced
                | Reason::Mismatch(_)
                | Reason::SupportCut(_)
                | Reason::Dislodged(_)
                | Reason::NoConvoyRoute
                | Reason::ConvoyParadox
                | Reason::Bounced(_)
                | Reason::RetreatClash(_)
                | Reason::NoBuildsLeft
                | Reason::NoRemovalsLeft
                | Reason::AlreadyRemoved
        )
    }

    /// The reason as a sentence for players.
    pub fn text(&self, map: &Map) -> String {
        let p = |p: ProvId| map.prov(p).name.clone();
        match *self {
            Reason::NoUnit(x) => format!("there is no unit in {}", p(x)),
            Reason::NotOwnUnit(x, pw) => {
                format!("the unit in {} belongs to {}", p(x), map.power_name(pw))
            }
            Reason::WrongUnitType(x, k) => format!(
                "the unit in {} is an {}",
                p(x),
                if k == UnitKind::Army { "army" } else { "fleet" }
            )
            .replace("an fleet", "a fleet"),
            Reason::Replaced => "replaced by a later order for the same unit".into(),
            Reason::TooManyOrders => "too many orders in one phase (only 65535 are read)".into(),
            Reason::WrongPhase(ph) => format!("not allowed in the {} phase", ph.name()),
            Reason::MoveToSelf => "a unit cannot move to its own province".into(),
            Reason::ArmyToSea(x) => format!("an army cannot enter {} (sea)", p(x)),
            Reason::FleetInland(x) => format!("a fleet cannot enter {} (inland)", p(x)),
            Reason::NotAdjacent(x) => format!("{} is not adjacent", p(x)),
            Reason::NoConvoyPossible(x) => {
                format!("{} is not adjacent and cannot be reached by convoy", p(x))
            }
            Reason::CoastNeeded(x) => format!(
                "{} has two reachable coasts; name one, e.g. {}/nc",
                p(x),
                map.prov(x).abbr
            ),
            Reason::CoastUnreachable(l) => {
                format!("{} cannot be reached from here", loc_name(map, l))
            }
            Reason::FleetViaConvoy => "only armies can be convoyed".into(),
            Reason::SupportUnreachable(x) => format!("the supporting unit cannot reach {}", p(x)),
            Reason::SupportSelf => {
                "a unit cannot support itself or a move into its own province".into()
            }
            Reason::TargetNoUnit(x) => format!("there is no unit in {} to support or convoy", p(x)),
            Reason::Mismatch(x) => format!(
                "no effect: the unit in {} was ordered to do something else",
                p(x)
            ),
            Reason::SupportCut(x) => format!("support cut by the attack from {}", p(x)),
            Reason::Dislodged(x) => format!("dislodged by the unit from {}", p(x)),
            Reason::ConvoyNotAtSea => "only fleets at sea can convoy".into(),
            Reason::ConvoyUseless(a, d) => format!(
                "this fleet is on no possible convoy route from {} to {}",
                p(a),
                p(d)
            ),
            Reason::ConvoyParadox => "convoy paradox: the convoy fails (Szykman rule)".into(),
            Reason::NoConvoyRoute => "no convoy route (convoy missing or disrupted)".into(),
            Reason::Bounced(x) => format!("bounced in {}", p(x)),
            Reason::NotDislodged(x) => format!("the unit in {} was not dislodged", p(x)),
            Reason::RetreatOccupied(x) => format!("{} is occupied", p(x)),
            Reason::RetreatToAttacker(x) => format!("the attacker came from {}", p(x)),
            Reason::RetreatStandoff(x) => format!("{} was left empty by a standoff", p(x)),
            Reason::RetreatClash(x) => format!(
                "another unit also retreated to {}; both are disbanded",
                p(x)
            ),
            Reason::NotHomeCentre(x) => format!("{} is not a home centre of this power", p(x)),
            Reason::NotOwned(x) => format!("{} is not owned by this power", p(x)),
            Reason::Occupied(x) => format!("{} is occupied", p(x)),
            Reason::NoBuildsLeft => "no builds left".into(),
            Reason::NoRemovalsLeft => "no removals due".into(),
            Reason::AlreadyRemoved => "that unit was already removed".into(),
        }
    }
}

/// What happened to one submitted order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderOutcome {
    /// DATC meaning: the move/retreat happened, the hold was not dislodged,
    /// the support was given, the convoy was not disrupted, the build/removal executed.
    pub success: bool,
    /// Why it was illegal or failed (or, for a successful order, `None`).
    pub reason: Option<Reason>,
}

impl OrderOutcome {
    const FAIL: OrderOutcome = OrderOutcome {
        success: false,
        reason: None,
    };
}
