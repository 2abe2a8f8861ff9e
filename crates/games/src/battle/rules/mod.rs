//! The rule set of the battle as data (types, chart, moves, monsters).

pub mod data;
