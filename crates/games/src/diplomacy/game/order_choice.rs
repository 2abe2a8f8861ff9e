//! The kinds of order a player picks after the unit: the order desk's
//! buttons, below both the menu that offers them and the checks that
//! name them.

use crate::diplomacy::order::{Order, OrderKind};

/// What a player picks after the unit: the buttons of the order desk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OrderChoice {
    /// Stay put.
    Hold,
    /// Move (convoyed moves included).
    Move,
    /// Support a unit holding or moving.
    Support,
    /// Convoy an army (fleets at sea).
    Convoy,
    /// Retreat a dislodged unit.
    Retreat,
    /// Disband a dislodged unit, or remove a unit in Winter.
    Disband,
    /// Build in a home centre.
    Build,
    /// Give up a build.
    Waive,
}

impl OrderChoice {
    /// The kind of an order.
    pub fn of(o: &Order) -> OrderChoice {
        match o {
            Order::Unit { kind, .. } => match kind {
                OrderKind::Hold => OrderChoice::Hold,
                OrderKind::Move { .. } => OrderChoice::Move,
                OrderKind::Support { .. } => OrderChoice::Support,
                OrderKind::Convoy { .. } => OrderChoice::Convoy,
                OrderKind::Retreat { .. } => OrderChoice::Retreat,
                OrderKind::Disband => OrderChoice::Disband,
            },
            Order::Build { .. } => OrderChoice::Build,
            Order::Waive => OrderChoice::Waive,
        }
    }

    /// The button label.
    pub fn label(self) -> &'static str {
        match self {
            OrderChoice::Hold => "Hold",
            OrderChoice::Move => "Move",
            OrderChoice::Support => "Support",
            OrderChoice::Convoy => "Convoy",
            OrderChoice::Retreat => "Retreat",
            OrderChoice::Disband => "Disband",
            OrderChoice::Build => "Build",
            OrderChoice::Waive => "Waive",
        }
    }
}
