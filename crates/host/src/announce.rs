//! Announcements: what the host asks a front-end to tell players, stored in
//! the outbox in the same transaction as the change they announce.

use games::seam::ActionChoice;
use serde::{Deserialize, Serialize};

/// Why an announcement was made; front-ends may style each differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnouncementKind {
    /// A game was created or its seats changed.
    Lobby,
    /// The game started.
    Started,
    /// A seat has acted (content hidden) and others are still awaited.
    Moved,
    /// A turn resolved: the public report and the new board.
    Turn,
    /// Something only one player may read (a private part of a turn report).
    Private,
    /// It is this user's move (sent to the user).
    Prompt,
    /// The deadline is close and this user has not acted (sent to the user).
    Reminder,
    /// The game ended with an outcome.
    Finished,
    /// The game was aborted.
    Aborted,
    /// A message from another power, relayed by the bot (sent to the user).
    Press,
}

/// One message for a channel or a user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announcement {
    /// The game it is about.
    pub game_id: i64,
    /// The game's kind.
    pub game_kind: String,
    /// The channel the game lives in (so a DM can link back to it).
    pub channel_id: String,
    /// Why it is sent.
    pub kind: AnnouncementKind,
    /// Turns resolved when it was written.
    pub turn: u32,
    /// The message text.
    pub text: String,
    /// The board (public view) as text, when the message shows it.
    pub board: Option<String>,
    /// Actions the recipient can take now (prompts only).
    pub choices: Vec<ActionChoice>,
    /// When the turn's deadline falls (ms since the epoch), for front-ends
    /// to show in each reader's time zone (reminders; `None` elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
}
