//! The press rule a Diplomacy game is played under (`press=` among its
//! options). The engine only carries it: the host relays the messages and
//! enforces the rule, since press is talk between players, not a move.

use serde::{Deserialize, Serialize};

/// Who may say what to whom through the bot, chosen when the game is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PressRule {
    /// Any power to any power; the message is signed with the sender's
    /// power and player name.
    #[default]
    Full,
    /// Any power to any power, signed with the power only: the player
    /// behind it is never revealed while the game runs.
    Anonymous,
    /// Only broadcasts to every power (`to:all`), signed with the power.
    PublicOnly,
    /// No press at all: every relay is refused.
    Gunboat,
}

impl PressRule {
    /// The option's value as typed (`full`, `anonymous`, `public-only`, `gunboat`).
    pub fn as_str(self) -> &'static str {
        match self {
            PressRule::Full => "full",
            PressRule::Anonymous => "anonymous",
            PressRule::PublicOnly => "public-only",
            PressRule::Gunboat => "gunboat",
        }
    }
}
