//! Several processes on one database: each host has an instance id, claims
//! the deadlines it fires and the games whose announcements it delivers
//! (for [`CLAIM_LEASE_MS`], renewed while it works), and registers itself
//! so that a process of another gamehost version is refused at start-up.

use super::{Host, HostError, OutboxItem, outbox_item};
use store::{INSTANCE_LIVE_MS, InstanceRow, StoreError, schema_version_known};

/// How long a claim on a deadline or a game's announcements lasts (ms)
/// unless renewed; the claim of a process killed mid-way is taken over
/// after it. Short, so another process delivers a dead one's announcements
/// within 10 s: at most the lease plus its own next look at the outbox
/// ([`CLAIM_RENEW_EVERY_MS`]), 8 s.
pub const CLAIM_LEASE_MS: i64 = 6_000;

/// How often a process renews the claims it holds, and looks for work whose
/// claim has lapsed (ms): a third of [`CLAIM_LEASE_MS`], so one late renewal
/// (a slow query, a busy machine) does not lose a claim.
pub const CLAIM_RENEW_EVERY_MS: i64 = CLAIM_LEASE_MS / 3;

/// How often a running process should call [`Host::heartbeat`] (ms): well
/// within [`store::INSTANCE_LIVE_MS`].
pub const HEARTBEAT_EVERY_MS: i64 = INSTANCE_LIVE_MS / 3;

/// Games whose announcements one call to [`Host::claim_unsent`] claims.
const CLAIM_GAMES: u32 = 50;

/// Deadlines one call to [`Host::fire_due_deadlines`] claims.
pub(crate) const CLAIM_DEADLINES: u32 = 100;

/// A fresh instance id for this process: its pid and a random part, so two
/// processes (on one machine or two) never share one.
pub fn new_instance_id() -> String {
    format!("p{}-{:08x}", std::process::id(), rand::random::<u32>())
}

impl Host {
    /// The host with the instance id its claims are made under (by default
    /// [`new_instance_id`]).
    pub fn with_instance_id(mut self, id: impl Into<String>) -> Host {
        self.instance_id = id.into();
        self
    }

    /// This host's instance id.
    pub fn instance_id(&self) -> &str {
        &self.instance_id
    }

    /// Claims games with undelivered announcements for this instance and
    /// returns their announcements, oldest first, at most `limit`. Another
    /// process on the same PostgreSQL database gets other games; a game
    /// this process claimed stays its own while it keeps claiming (the
    /// lease is renewed), so its announcements go out in order.
    pub fn claim_unsent(&self, limit: u32) -> Result<Vec<OutboxItem>, HostError> {
        let now = self.now();
        let rows = self.store.write(|tx| {
            tx.claim_unsent_outbox(&self.instance_id, now, CLAIM_LEASE_MS, CLAIM_GAMES, limit)
        })?;
        Ok(rows.into_iter().map(outbox_item).collect())
    }

    /// Registers this instance as running gamehost `version`; refused
    /// ([`StoreError::VersionInUse`]) while an instance of another version
    /// is alive (heartbeat within [`INSTANCE_LIVE_MS`]).
    pub fn register_instance(&self, version: &str) -> Result<(), HostError> {
        let now = self.now();
        self.store.write(|tx| {
            // Instances silent for ten times the live window are gone for good.
            tx.delete_instance(&self.instance_id, now - 10 * INSTANCE_LIVE_MS)?;
            let other = tx
                .live_instances(now - INSTANCE_LIVE_MS)?
                .into_iter()
                .find(|i| i.version != version);
            if let Some(other) = other {
                return Err(HostError::Store(StoreError::VersionInUse {
                    ours: version.to_string(),
                    theirs: other.version,
                    instance: other.id,
                    age_s: (now - other.heartbeat_at) / 1000,
                    live_s: INSTANCE_LIVE_MS / 1000,
                }));
            }
            tx.upsert_instance(&InstanceRow {
                id: self.instance_id.clone(),
                version: version.to_string(),
                schema_version: schema_version_known(),
                started_at: now,
                heartbeat_at: now,
            })?;
            Ok(())
        })
    }

    /// Tells other processes this instance is alive (call every
    /// [`HEARTBEAT_EVERY_MS`]); false if it was not registered (then
    /// register again).
    pub fn heartbeat(&self) -> Result<bool, HostError> {
        let now = self.now();
        Ok(self
            .store
            .write(|tx| tx.heartbeat_instance(&self.instance_id, now))?)
    }

    /// Forgets this instance and gives up its claims, so another process
    /// takes its work over at once (a clean stop).
    pub fn unregister_instance(&self) -> Result<(), HostError> {
        let now = self.now();
        Ok(self.store.write(|tx| {
            tx.release_claims(&self.instance_id)?;
            tx.delete_instance(&self.instance_id, now - 10 * INSTANCE_LIVE_MS)
        })?)
    }
}
