//! Direct-message channels (migration 0011): the channel a front-end opened
//! to write to each user privately, remembered so that a DM costs no
//! request to open it again, across restarts and processes.

use super::{StoreError, Tx};
use crate::db::args;

impl Tx<'_> {
    /// The direct-message channel remembered for `user_id`, if any.
    pub fn dm_channel(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        self.conn
            .row(
                "SELECT channel_id FROM dm_channels WHERE user_id = ?1",
                args![user_id],
            )?
            .map(|r| r.get(0))
            .transpose()
    }

    /// Remembers (or replaces) the direct-message channel of `user_id`.
    pub fn set_dm_channel(&self, user_id: &str, channel_id: &str) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?1, ?2) \
             ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            args![user_id, channel_id],
        )?;
        Ok(())
    }

    /// Forgets the direct-message channel of `user_id` (Discord no longer
    /// knows it), so the next DM opens it again.
    pub fn forget_dm_channel(&self, user_id: &str) -> Result<(), StoreError> {
        self.conn
            .exec("DELETE FROM dm_channels WHERE user_id = ?1", args![user_id])?;
        Ok(())
    }
}
