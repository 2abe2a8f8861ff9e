//! The one host builder of the tests: every test host is a real SQLite file
//! opened through [`host_on`]. It stands alone (no other support module), so
//! a test file that needs nothing else includes it with
//! `#[path = "support/host_builder.rs"] mod host_builder;`.
#![allow(dead_code)]

use host::{
    Clock, DeadlineEvent, GameId, Host, HostSettings, ManualClock, NewGame, Occupant, Registry,
    TimeoutPolicy,
};
use std::path::Path;
use std::sync::Arc;
use store::Store;

/// A host on the SQLite file at `path` with `registry`, `clock` and `settings`.
pub fn host_on(
    path: &Path,
    registry: Registry,
    clock: Arc<dyn Clock>,
    settings: HostSettings,
) -> Host {
    let store = Store::open(path).expect("open store");
    Host::new(Arc::new(store), registry, clock, settings)
}

/// Settings with an AI budget of `ai_budget_ms` per decision and reminders
/// at `reminder_percent` of the turn left (0: none).
pub fn settings(ai_budget_ms: u64, reminder_percent: u8) -> HostSettings {
    HostSettings {
        ai_budget_ms,
        reminder_percent,
    }
}

/// A host on `path` with `registry`, a hand-moved `clock`, an AI budget of
/// `ai_budget_ms` and reminders at a fifth of the turn left.
pub fn host_with(
    path: &Path,
    registry: Registry,
    clock: Arc<ManualClock>,
    ai_budget_ms: u64,
) -> Host {
    host_on(path, registry, clock, settings(ai_budget_ms, 20))
}

/// A host with only Diplomacy on `path`.
pub fn diplomacy_host(path: &Path, clock: Arc<ManualClock>, settings: HostSettings) -> Host {
    host_on(
        path,
        Registry::default().with::<games::diplomacy::Diplomacy>(),
        clock,
        settings,
    )
}

/// A host with every shipped engine on `path`, the clock at zero and the
/// default settings (for tests that read what others wrote).
pub fn standard_host(path: &Path) -> Host {
    host_on(
        path,
        Registry::standard(),
        Arc::new(ManualClock::at(0)),
        HostSettings::default(),
    )
}

/// A request for a Diplomacy game in channel `dip` created by user `u0`
/// (Ursula), with `options`, `seed` and no deadline.
pub fn diplomacy_request(options: serde_json::Value, seed: u64, creator_plays: bool) -> NewGame {
    NewGame {
        kind: "diplomacy".into(),
        guild_id: None,
        channel_id: "dip".into(),
        creator_id: "u0".into(),
        creator_name: "Ursula".into(),
        options,
        seed: Some(seed),
        turn_seconds: None,
        timeout_policy: TimeoutPolicy::Default,
        creator_plays,
    }
}

/// One Diplomacy phase of a host test: every awaited person but those in
/// `skip` sends `done`, the AIs move, then the 48-hour deadline passes if
/// the phase is still open.
pub fn phase_missing(host: &Host, clock: &ManualClock, id: GameId, skip: &[&str]) {
    let before = host.game(id).unwrap().turn;
    let view = host.view(id, None).unwrap();
    for s in view.seats.iter().filter(|s| s.awaited) {
        if let Occupant::User(u) = &s.occupant
            && !s.acted
            && !skip.contains(&u.as_str())
        {
            host.submit(Some(id), u, "done").unwrap();
        }
    }
    host.run_ai_turns(Some(id), 20).unwrap();
    if host.game(id).unwrap().turn == before {
        clock.advance(48 * 3600 * 1000);
        assert_eq!(
            host.fire_due_deadlines().unwrap(),
            vec![DeadlineEvent::Resolved(id)]
        );
    }
}
