//! Servers the bot has greeted (migration 0012): the greeting posted when
//! the bot joins a server goes out once, whichever process sees the join.

use super::{StoreError, Tx};
use crate::db::args;

impl Tx<'_> {
    /// Claims the greeting of `guild_id` at `at_ms`: true for the first
    /// claim ever, false when the server was greeted (or claimed) before.
    pub fn claim_guild_greeting(&self, guild_id: &str, at_ms: i64) -> Result<bool, StoreError> {
        let inserted = self.conn.exec(
            "INSERT INTO greeted_guilds (guild_id, greeted_at) VALUES (?1, ?2) \
             ON CONFLICT (guild_id) DO NOTHING",
            args![guild_id, at_ms],
        )?;
        Ok(inserted == 1)
    }
}
