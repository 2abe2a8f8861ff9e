//! A forfeit in a game that goes on keeps the other players' pending orders.

use gamehost::host::{Host, HostSettings, ManualClock, NewGame, Registry};
use gamehost::store::{Store, TimeoutPolicy};
use std::sync::Arc;

#[test]
fn one_power_forfeiting_keeps_the_others_orders() {
    let dir = tempfile::tempdir().unwrap();
    let host = Host::new(
        Arc::new(Store::open(&dir.path().join("g.db")).unwrap()),
        Registry::default().with::<gamehost::games::diplomacy::Diplomacy>(),
        Arc::new(ManualClock::at(0)),
        HostSettings::default(),
    );
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: None,
            channel_id: "c".into(),
            creator_id: "alice".into(),
            creator_name: "Alice".into(),
            options: serde_json::Value::Null,
            seed: Some(1),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    for _ in 2..7 {
        host.add_ai(id, "alice", Some("hold"), None).unwrap();
    }
    host.start(id, "alice").unwrap();
    host.submit(Some(id), "alice", "A Vie - Gal").unwrap();
    let before = host.own_pending(id, "alice").unwrap();
    assert!(before.is_some());
    host.forfeit(id, "bob").unwrap();
    assert_eq!(host.own_pending(id, "alice").unwrap(), before);
}
