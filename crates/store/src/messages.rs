//! Posted messages (migration 0010): the messages a front-end posted for a
//! game and keeps editing (the lobby, the message that opens each turn),
//! and the thread a game moved into. Stored so an edit after a restart finds
//! the message posted before it.

use super::{StoreError, Tx};
use crate::db::args;

/// One message a front-end posted for a game, under a stable key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostedMessage {
    /// The game.
    pub game_id: i64,
    /// What the message is for: `lobby`, `turn:3`, `thread`.
    pub key: String,
    /// The channel (or thread) it is in.
    pub channel_id: String,
    /// The message's id in the front-end.
    pub message_id: String,
    /// Its text as posted, before any status line was added.
    pub content: String,
}

impl Tx<'_> {
    /// The message a game posted under `key`, if any.
    pub fn posted_message(
        &self,
        game_id: i64,
        key: &str,
    ) -> Result<Option<PostedMessage>, StoreError> {
        self.conn
            .row(
                "SELECT channel_id, message_id, content FROM posted_messages \
                 WHERE game_id = ?1 AND key = ?2",
                args![game_id, key],
            )?
            .map(|r| {
                Ok(PostedMessage {
                    game_id,
                    key: key.to_string(),
                    channel_id: r.get(0)?,
                    message_id: r.get(1)?,
                    content: r.get(2)?,
                })
            })
            .transpose()
    }

    /// Remembers (or replaces) the message a game posted under its key.
    pub fn set_posted_message(&self, m: &PostedMessage) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO posted_messages (game_id, key, channel_id, message_id, content) \
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, key) DO UPDATE SET \
             channel_id = excluded.channel_id, message_id = excluded.message_id, \
             content = excluded.content",
            args![m.game_id, m.key, m.channel_id, m.message_id, m.content],
        )?;
        Ok(())
    }

    /// Moves a game to another channel (its thread): commands typed there
    /// find it, its announcements go there, and the channel it left is free
    /// for another game.
    pub fn move_game_to_channel(&self, game_id: i64, channel_id: &str) -> Result<(), StoreError> {
        let n = self.conn.exec(
            "UPDATE games SET channel_id = ?2 WHERE id = ?1",
            args![game_id, channel_id],
        )?;
        super::expect_one(n, "games", game_id)
    }
}
