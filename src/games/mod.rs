//! The game engines: pure, deterministic, and joined to the host by one seam.

pub mod seam;
pub mod tournament;
// gamehost:games — one `pub mod <game>;` line per engine.
pub mod battle;
pub mod cards;
pub mod diplomacy;
pub mod puzzle;
