//! The pace of the bot's requests to Discord: under the global limit with
//! a player's turn first (`global_rate`), one request at a time to each
//! channel (`channel_turns`), and how long a 429 that reached the caller
//! asked it to wait (`rate_limited`). Nothing here knows what is sent.

pub mod channel_turns;
pub mod global_rate;
pub mod rate_limited;
