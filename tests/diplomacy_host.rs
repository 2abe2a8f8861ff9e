//! Diplomacy behind the host: per-phase deadlines from the engine, with a fake clock.

use gamehost::host::{DeadlineEvent, Host, HostSettings, ManualClock, NewGame, Registry};
use gamehost::store::{Store, TimeoutPolicy};
use std::sync::Arc;

#[test]
fn movement_deadline_is_48_hours_and_resolves_with_holds() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = Host::new(
        Arc::new(Store::open(&dir.path().join("d.db")).unwrap()),
        Registry::default().with::<gamehost::games::diplomacy::Diplomacy>(),
        clock.clone(),
        HostSettings {
            ai_budget_ms: 50,
            reminder_percent: 0,
        },
    );
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: "dip".into(),
            creator_id: "u0".into(),
            creator_name: "U0".into(),
            options: serde_json::Value::Null,
            seed: Some(1),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    for s in 1..7 {
        host.join(id, &format!("u{s}"), &format!("U{s}"), Some(s))
            .unwrap();
    }
    host.start(id, "u0").unwrap();
    let dl = host.view(id, None).unwrap().deadline.unwrap();
    assert_eq!(dl, 1_000_000 + 48 * 3600 * 1000);
    // Six powers are done; England never answers.
    for s in (0..7).filter(|&s| s != 1) {
        host.submit(Some(id), &format!("u{s}"), "done").unwrap();
    }
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    clock.advance(48 * 3600 * 1000);
    let ev = host.fire_due_deadlines().unwrap();
    assert_eq!(ev, vec![DeadlineEvent::Resolved(id)]);
    let v = host.view(id, None).unwrap();
    assert!(format!("{v:?}").contains("Fall 1901"), "{v:?}");
}
