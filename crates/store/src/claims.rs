//! Work shared by several processes on one database (migration 0009):
//! claims on due deadlines and on games' undelivered announcements, each
//! with a lease, and the table of running instances.
//!
//! On PostgreSQL a claim selects its rows `FOR UPDATE SKIP LOCKED` (rows
//! another process is claiming or changing are passed over, never waited
//! for) and records the claimant and the lease's end in the row itself, so
//! a process that read the row before another's claim committed re-checks
//! it against the claimed version and passes it over too. A claim whose
//! lease ended (its process died) is taken over. On SQLite one process owns
//! the file, so a claim is simply granted.

use super::db::{Row, args};
use super::{DeadlineRow, OutboxRow, StoreError, Tx};

/// How long an instance counts as alive after its last heartbeat (ms).
pub const INSTANCE_LIVE_MS: i64 = 30_000;

/// A row of `instances`: a process running on this database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceRow {
    /// The process's instance id.
    pub id: String,
    /// Its gamehost version.
    pub version: String,
    /// The schema version it runs on.
    pub schema_version: i64,
    /// When it started (ms).
    pub started_at: i64,
    /// Its last heartbeat (ms).
    pub heartbeat_at: i64,
}

impl Tx<'_> {
    /// The row-locking clause of a claim: PostgreSQL's `SKIP LOCKED`, so
    /// concurrent claimants split the work instead of waiting on each other.
    fn skip_locked(&self, lock: &'static str) -> &'static str {
        if self.conn.is_pg() { lock } else { "" }
    }

    /// Claims up to `limit` deadlines or reminders due at `now` for
    /// `owner` until `now + lease_ms`: those unclaimed, already `owner`'s,
    /// or whose lease has ended. Oldest due first.
    pub fn claim_due_deadlines(
        &self,
        owner: &str,
        now: i64,
        lease_ms: i64,
        limit: u32,
    ) -> Result<Vec<DeadlineRow>, StoreError> {
        let sql = format!(
            "SELECT game_id, turn, due_at, remind_at, extensions_used, idle_deadlines FROM deadlines \
             WHERE (due_at <= ?1 OR (remind_at IS NOT NULL AND remind_at <= ?1)) \
             AND (claimed_by IS NULL OR claimed_by = ?2 OR claimed_until <= ?1 OR ?4 = 0) \
             ORDER BY due_at, game_id LIMIT ?3{}",
            self.skip_locked(" FOR UPDATE SKIP LOCKED")
        );
        let shared = i64::from(self.conn.is_pg());
        let due = self
            .conn
            .rows(&sql, args![now, owner, limit, shared])?
            .iter()
            .map(DeadlineRow::from_row)
            .collect::<Result<Vec<_>, _>>()?;
        for d in &due {
            self.conn.exec(
                "UPDATE deadlines SET claimed_by = ?2, claimed_until = ?3 WHERE game_id = ?1",
                args![d.game_id, owner, now.saturating_add(lease_ms)],
            )?;
        }
        Ok(due)
    }

    /// Gives up `owner`'s claim on a game's deadline (it was handled).
    pub fn release_deadline(&self, game_id: i64, owner: &str) -> Result<(), StoreError> {
        self.conn.exec(
            "UPDATE deadlines SET claimed_by = NULL, claimed_until = NULL \
             WHERE game_id = ?1 AND claimed_by = ?2",
            args![game_id, owner],
        )?;
        Ok(())
    }

    /// Claims the games with undelivered announcements (at most `games`,
    /// the oldest announcement first) for `owner` until `now + lease_ms`,
    /// and returns their undelivered announcements, oldest first, at most
    /// `limit`. A game is claimed whole so one process delivers its
    /// announcements in order.
    pub fn claim_unsent_outbox(
        &self,
        owner: &str,
        now: i64,
        lease_ms: i64,
        games: u32,
        limit: u32,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let sql = format!(
            "SELECT g.id FROM games g \
             WHERE g.id IN (SELECT o.game_id FROM outbox o WHERE o.sent_at IS NULL) \
             AND (g.outbox_claimed_by IS NULL OR g.outbox_claimed_by = ?2 \
                  OR g.outbox_claimed_until <= ?1 OR ?4 = 0) \
             ORDER BY (SELECT MIN(o.id) FROM outbox o WHERE o.game_id = g.id AND o.sent_at IS NULL) \
             LIMIT ?3{}",
            self.skip_locked(" FOR NO KEY UPDATE OF g SKIP LOCKED")
        );
        let shared = i64::from(self.conn.is_pg());
        let ids = self
            .conn
            .rows(&sql, args![now, owner, games, shared])?
            .iter()
            .map(|r: &Row| r.get::<i64>(0))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rows = Vec::new();
        for id in ids {
            self.conn.exec(
                "UPDATE games SET outbox_claimed_by = ?2, outbox_claimed_until = ?3 WHERE id = ?1",
                args![id, owner, now.saturating_add(lease_ms)],
            )?;
            rows.extend(self.unsent_outbox_of_game(id)?);
        }
        rows.sort_by_key(|r| r.id);
        rows.truncate(limit as usize);
        Ok(rows)
    }

    /// Extends every claim `owner` holds to `until`: the holder's renewal
    /// while it works through a batch that outlasts the lease.
    pub fn renew_claims(&self, owner: &str, until: i64) -> Result<usize, StoreError> {
        let deadlines = self.conn.exec(
            "UPDATE deadlines SET claimed_until = ?2 WHERE claimed_by = ?1",
            args![owner, until],
        )?;
        let games = self.conn.exec(
            "UPDATE games SET outbox_claimed_until = ?2 WHERE outbox_claimed_by = ?1",
            args![owner, until],
        )?;
        Ok(deadlines + games)
    }

    /// Gives up every claim `owner` holds (a process stopping cleanly, so
    /// another takes its work over at once).
    pub fn release_claims(&self, owner: &str) -> Result<(), StoreError> {
        self.conn.exec(
            "UPDATE deadlines SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?1",
            args![owner],
        )?;
        self.conn.exec(
            "UPDATE games SET outbox_claimed_by = NULL, outbox_claimed_until = NULL \
             WHERE outbox_claimed_by = ?1",
            args![owner],
        )?;
        Ok(())
    }

    /// The instances whose last heartbeat is after `since`, oldest first.
    pub fn live_instances(&self, since: i64) -> Result<Vec<InstanceRow>, StoreError> {
        self.conn
            .rows(
                "SELECT id, version, schema_version, started_at, heartbeat_at FROM instances \
                 WHERE heartbeat_at > ?1 ORDER BY started_at, id",
                args![since],
            )?
            .iter()
            .map(|r| {
                Ok(InstanceRow {
                    id: r.get(0)?,
                    version: r.get(1)?,
                    schema_version: r.get(2)?,
                    started_at: r.get(3)?,
                    heartbeat_at: r.get(4)?,
                })
            })
            .collect()
    }

    /// Records an instance as running (again: a fresh start and heartbeat).
    pub fn upsert_instance(&self, row: &InstanceRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO instances (id, version, schema_version, started_at, heartbeat_at) \
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (id) DO UPDATE SET version = excluded.version, \
             schema_version = excluded.schema_version, started_at = excluded.started_at, \
             heartbeat_at = excluded.heartbeat_at",
            args![
                row.id,
                row.version,
                row.schema_version,
                row.started_at,
                row.heartbeat_at
            ],
        )?;
        Ok(())
    }

    /// Moves an instance's heartbeat to `now`; false if it is not recorded.
    pub fn heartbeat_instance(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        Ok(self.conn.exec(
            "UPDATE instances SET heartbeat_at = ?2 WHERE id = ?1",
            args![id, now],
        )? == 1)
    }

    /// Forgets an instance (it stopped), and every instance silent since
    /// before `stale_before`.
    pub fn delete_instance(&self, id: &str, stale_before: i64) -> Result<(), StoreError> {
        self.conn.exec(
            "DELETE FROM instances WHERE id = ?1 OR heartbeat_at < ?2",
            args![id, stale_before],
        )?;
        Ok(())
    }
}
