//! Diplomacy's own part of the bot: the order desk in a player's DMs and
//! the texts of press. The generic parts reach them as `crate::desk` and
//! `crate::press` (wired in `lib.rs`) and ask everything else of a game
//! through the seam.

pub(crate) mod desk;
pub(crate) mod press;
