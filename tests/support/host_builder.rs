//! The one host builder of the tests: a host on a real SQLite file with a
//! hand-moved clock, for the host tests (with the `rps` engine) and for the
//! bot harness (with the engines it registers).

use super::rps;
use host::{Host, HostSettings, ManualClock, NewGame, Registry};
use std::path::Path;
use std::sync::Arc;
use store::{Store, TimeoutPolicy};

/// A host on the SQLite file at `path` with `registry`, `clock` and an AI
/// budget of `ai_budget_ms` per decision.
pub fn host_with(
    path: &Path,
    registry: Registry,
    clock: Arc<ManualClock>,
    ai_budget_ms: u64,
) -> Host {
    let store = Store::open(path).expect("open store");
    Host::new(
        Arc::new(store),
        registry,
        clock,
        HostSettings {
            ai_budget_ms,
            reminder_percent: 20,
        },
    )
}

/// A host on a real SQLite file with the test engine and a hand-moved clock.
pub fn host_at(path: &Path, clock: Arc<ManualClock>) -> Host {
    host_with(path, Registry::default().with::<rps::Rps>(), clock, 50)
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
