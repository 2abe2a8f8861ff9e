//! The structured detail of a resolved phase, carried in
//! [`TurnReport::detail`](crate::seam::TurnReport::detail) so a
//! renderer draws the orders and their results without adjudicating again.

use crate::diplomacy::geo::Power;
use crate::diplomacy::judge::{Dislodgement, OrderOutcome, PhaseKind, Reason};
use crate::diplomacy::order::{Order, Unit};
use serde::{Deserialize, Serialize};

/// One order as adjudicated: who gave it, what it was, and how it went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicatedOrder {
    /// The power that gave the order.
    pub power: Power,
    /// The order as adjudicated (after the phase's legality filter).
    pub order: Order,
    /// Whether it succeeded (DATC meaning, see [`OrderOutcome`]).
    pub success: bool,
    /// Why it was illegal or failed.
    pub reason: Option<Reason>,
}

/// What one resolved phase did: every adjudicated order with its outcome,
/// and the units it dislodged, disbanded, built or removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PhaseDetail {
    /// The kind of phase that was resolved (`None` only in a default value).
    pub phase: Option<PhaseKind>,
    /// The adjudicated orders in the order they were judged (seat order).
    pub orders: Vec<AdjudicatedOrder>,
    /// Units dislodged by a movement phase, with their attackers.
    #[serde(default)]
    pub dislodged: Vec<Dislodgement>,
    /// Units disbanded in a retreat phase.
    #[serde(default)]
    pub disbanded: Vec<Unit>,
    /// Units built in an adjustment phase.
    #[serde(default)]
    pub built: Vec<Unit>,
    /// Units removed in an adjustment phase (ordered or by civil disorder).
    #[serde(default)]
    pub removed: Vec<Unit>,
}

impl PhaseDetail {
    /// The detail of a phase from the orders judged and their outcomes.
    pub fn new(phase: PhaseKind, orders: &[(Power, Order)], outcomes: &[OrderOutcome]) -> Self {
        PhaseDetail {
            phase: Some(phase),
            orders: orders
                .iter()
                .zip(outcomes)
                .map(|(&(power, order), oc)| AdjudicatedOrder {
                    power,
                    order,
                    success: oc.success,
                    reason: oc.reason,
                })
                .collect(),
            ..Default::default()
        }
    }

    /// As JSON for the turn report.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}
