//! Diplomacy: the standard map, order notation, a DATC v3.0 adjudicator and
//! the full game flow behind the host's [`Game`](crate::seam::Game) seam.
//!
//! - [`geo`]: the map, authored in `geo/standard.txt`, with dense ids;
//! - [`order`]: order types, the forgiving parser and canonical printing;
//! - [`judge`]: movement (Kruijswijk + Szykman), retreats, adjustments;
//! - [`record`]: adjudication of `datc.jsonl`-shaped records (CLI, tests);
//! - [`game`]: phases, centres, victory, draws and the seam implementation.

mod ai;
#[cfg(test)]
mod ai_fog_tests;
mod ai_seat;
mod best_response;
mod dumbbot;
mod engine;
pub mod game;
pub mod geo;
pub mod judge;
pub mod order;
pub mod record;
mod search;
pub mod tournament;

pub use game::{Diplomacy, DiplomacyAction, DiplomacyOptions};
