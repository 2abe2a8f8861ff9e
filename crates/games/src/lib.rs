//! The game engines: pure, deterministic, and joined to the host by one seam.

// Purity the compiler checks: the clock and filesystem calls listed in
// this crate's clippy.toml are errors here (tests/purity.rs scans for the
// rest, and checks that no runtime, database or Discord crate is in this
// crate's dependency tree).
#![deny(clippy::disallowed_methods)]

pub mod clip;
pub mod seam;
pub mod tournament;
// gamehost:games — one `pub mod <game>;` line per engine.
pub mod battle;
pub mod cards;
pub mod diplomacy;
pub mod puzzle;
