//! The `outbox` table: announcements queued in a transaction, delivered
//! later, then pruned.

use super::*;

fn outbox_row(r: &Row) -> Result<OutboxRow, StoreError> {
    let id: i64 = r.get(0)?;
    let kind: String = r.get(2)?;
    Ok(OutboxRow {
        id,
        game_id: r.get(1)?,
        target: Target::from_parts(&kind, r.get(3)?).ok_or_else(|| StoreError::Corrupt {
            table: "outbox",
            key: format!("row {id}"),
            reason: format!("unknown target kind `{kind}`"),
        })?,
        payload: r.get(4)?,
        created_at: r.get(5)?,
    })
}

impl<'a> Tx<'a> {
    /// Queues an announcement for delivery.
    pub fn push_outbox(
        &self,
        game_id: i64,
        target: &Target,
        payload: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let (kind, id) = target.parts();
        self.conn.exec_later(
            "INSERT INTO outbox (game_id, target_kind, target_id, payload, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            args![game_id, kind, id, payload, now],
        )
    }

    /// Announcements not yet delivered, oldest first.
    pub fn unsent_outbox(&self, limit: u32) -> Result<Vec<OutboxRow>, StoreError> {
        self.conn
            .rows(
                "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE sent_at IS NULL ORDER BY id LIMIT ?1",
                args![limit],
            )?
            .iter()
            .map(outbox_row)
            .collect()
    }

    /// Undelivered announcements of one game, oldest first.
    pub fn unsent_outbox_of_game(&self, game_id: i64) -> Result<Vec<OutboxRow>, StoreError> {
        self.conn
            .rows(
                "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE sent_at IS NULL AND game_id = ?1 ORDER BY id",
                args![game_id],
            )?
            .iter()
            .map(outbox_row)
            .collect()
    }

    /// The undelivered announcements: how many, and when the oldest was
    /// written (milliseconds of the host's clock), for the operator's metrics.
    pub fn outbox_backlog(&self) -> Result<(i64, Option<i64>), StoreError> {
        let row = self.conn.one(
            "SELECT COUNT(*), MIN(created_at) FROM outbox WHERE sent_at IS NULL",
            args![],
        )?;
        Ok((row.get(0)?, row.get(1)?))
    }

    /// Calls `f` on every outbox row of a game, sent or not, oldest first,
    /// without holding them all in memory. A row whose target kind is unknown
    /// is passed as an `Err` naming it.
    pub fn each_outbox_row_of_game(
        &self,
        game_id: i64,
        mut f: impl FnMut(Result<OutboxRow, StoreError>),
    ) -> Result<(), StoreError> {
        self.conn.each(
            "SELECT id, game_id, target_kind, target_id, payload, created_at FROM outbox \
             WHERE game_id = ?1 ORDER BY id",
            args![game_id],
            |r| {
                f(outbox_row(&r));
                Ok(())
            },
        )
    }

    /// Marks an announcement as delivered; false if it was already marked.
    pub fn mark_sent(&self, id: i64, now: i64) -> Result<bool, StoreError> {
        let n = self.conn.exec(
            "UPDATE outbox SET sent_at = ?2 WHERE id = ?1 AND sent_at IS NULL",
            args![id, now],
        )?;
        Ok(n == 1)
    }

    /// Deletes at most `limit` announcements delivered before `sent_before`
    /// (oldest first); returns how many. Undelivered rows are never touched.
    pub fn prune_sent_outbox(&self, sent_before: i64, limit: u32) -> Result<usize, StoreError> {
        self.conn.exec(
            "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox \
             WHERE sent_at IS NOT NULL AND sent_at < ?1 ORDER BY id LIMIT ?2)",
            args![sent_before, limit],
        )
    }
}
