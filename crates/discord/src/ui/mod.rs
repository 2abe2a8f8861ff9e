//! What the bot shows: message building (mentions, limits, splitting),
//! button and menu encoding, shared text, press text and replays. Below the
//! commands, the event handlers and delivery; uses none of them.

pub mod components;
pub mod help;
pub mod messages;
pub mod privacy;
pub mod replay;
pub mod settings;
pub mod text;
