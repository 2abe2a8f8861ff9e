//! Orders: the types players write, their canonical printing, and the parser.

mod parse;

pub use parse::{ParseError, edit_distance, parse_order, suggest_province};

use super::geo::{LocId, Map, Power};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Army or fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitKind {
    /// An army (land only, may be convoyed).
    Army,
    /// A fleet (sea and coasts).
    Fleet,
}

impl UnitKind {
    /// `A` or `F`.
    pub fn letter(self) -> &'static str {
        match self {
            UnitKind::Army => "A",
            UnitKind::Fleet => "F",
        }
    }
    /// `army` or `fleet`.
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Army => "army",
            UnitKind::Fleet => "fleet",
        }
    }
}

/// A unit on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Who owns it.
    pub power: Power,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it stands (a coast for fleets in split-coast provinces).
    pub loc: LocId,
}

/// What a unit order tells the unit to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrderKind {
    /// Stay put.
    Hold,
    /// Move (or be convoyed) to a location.
    Move {
        /// Destination as written (main location or a coast).
        to: LocId,
        /// The player wrote "via convoy".
        via_convoy: bool,
    },
    /// Support a unit holding (`to: None`) or moving to `to`.
    Support {
        /// The supported unit's type, if written.
        unit: Option<UnitKind>,
        /// Where the supported unit stands.
        from: LocId,
        /// Where it moves, for a support to move.
        to: Option<LocId>,
    },
    /// Convoy an army from `from` to `to`.
    Convoy {
        /// Where the army stands.
        from: LocId,
        /// Where it is going.
        to: LocId,
    },
    /// Retreat a dislodged unit.
    Retreat {
        /// Where to.
        to: LocId,
    },
    /// Disband a dislodged unit (retreat phase) or remove a unit (adjustments).
    Disband,
}

/// One order as typed, before it is checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Order {
    /// An order to a unit on the board.
    Unit {
        /// The unit's type, if written (checked against the board).
        unit: Option<UnitKind>,
        /// Where the unit is.
        at: LocId,
        /// What it does.
        kind: OrderKind,
    },
    /// Build a unit (Winter).
    Build {
        /// Army or fleet.
        unit: UnitKind,
        /// Where (a coast for fleets in split-coast provinces).
        at: LocId,
    },
    /// Give up one build (Winter).
    Waive,
}

impl Order {
    /// The location of the ordered unit or build, if any.
    pub fn at(&self) -> Option<LocId> {
        match *self {
            Order::Unit { at, .. } | Order::Build { at, .. } => Some(at),
            Order::Waive => None,
        }
    }

    /// The canonical text: `A Par - Bur`, `F Lon S F Nth - Eng`,
    /// `F Nth C A Lon - Nwy`, `A Lon - Nwy via convoy`, `A Mun R Boh`,
    /// `A Mun D`, `Build F Stp/sc`, `Waive`. An omitted unit type prints as `?`
    /// only when the order could not be matched to a unit.
    pub fn canonical(&self, map: &Map) -> String {
        let mut s = String::with_capacity(24);
        let unit = |u: Option<UnitKind>| u.map(|u| u.letter()).unwrap_or("?");
        match *self {
            Order::Unit { unit: u, at, kind } => {
                let _ = write!(s, "{} {}", unit(u), loc_name(map, at));
                match kind {
                    OrderKind::Hold => s.push_str(" H"),
                    OrderKind::Move { to, via_convoy } => {
                        let _ = write!(s, " - {}", loc_name(map, to));
                        if via_convoy {
                            s.push_str(" via convoy");
                        }
                    }
                    OrderKind::Support { unit: su, from, to } => {
                        let _ = write!(s, " S {} {}", unit(su), loc_name(map, from));
                        if let Some(to) = to {
                            let _ = write!(s, " - {}", loc_name(map, to));
                        }
                    }
                    OrderKind::Convoy { from, to } => {
                        let _ = write!(s, " C A {} - {}", loc_name(map, from), loc_name(map, to));
                    }
                    OrderKind::Retreat { to } => {
                        let _ = write!(s, " R {}", loc_name(map, to));
                    }
                    OrderKind::Disband => s.push_str(" D"),
                }
            }
            Order::Build { unit: u, at } => {
                let _ = write!(s, "Build {} {}", u.letter(), loc_name(map, at));
            }
            Order::Waive => s.push_str("Waive"),
        }
        s
    }

    /// Fills in the unit type from the board when the player left it out, and
    /// drops a coast on an army's destination (armies never use coasts).
    pub fn with_unit(self, kind: UnitKind) -> Order {
        match self {
            Order::Unit { at, kind: k, .. } => Order::Unit {
                unit: Some(kind),
                at,
                kind: k,
            },
            o => o,
        }
    }
}

/// The canonical short name of a location: `Par`, `Spa/nc`.
pub fn loc_name(map: &Map, l: LocId) -> String {
    let a = &map.loc(l).abbr;
    let mut c = a.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// A unit printed as `A Par` / `F Spa/nc`.
pub fn unit_name(map: &Map, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), loc_name(map, u.loc))
}
