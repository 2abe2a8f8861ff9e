//! Shared test support: a small hidden-move engine and host builders.
#![allow(dead_code)]

pub mod rps;

use gamehost::host::{Host, HostSettings, ManualClock, NewGame, Registry};
use gamehost::store::{Store, TimeoutPolicy};
use std::path::Path;
use std::sync::Arc;

/// A host on a real SQLite file with the test engine and a hand-moved clock.
pub fn host_at(path: &Path, clock: Arc<ManualClock>) -> Host {
    let store = Store::open(path).expect("open store");
    Host::new(
        Arc::new(store),
        Registry::default().with::<rps::Rps>(),
        clock,
        HostSettings {
            ai_budget_ms: 50,
            reminder_percent: 20,
        },
    )
}

/// A request for a rock-paper-scissors game in `channel` created by `alice`.
pub fn new_rps(channel: &str, turn_seconds: Option<u64>, policy: TimeoutPolicy) -> NewGame {
    NewGame {
        kind: "rps".into(),
        guild_id: Some("guild".into()),
        channel_id: channel.into(),
        creator_id: "alice".into(),
        creator_name: "Alice".into(),
        options: serde_json::Value::Null,
        seed: Some(7),
        turn_seconds,
        timeout_policy: policy,
        creator_plays: true,
    }
}
