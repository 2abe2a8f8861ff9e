//! A forfeit in a game that goes on keeps the other players' pending orders.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{Host, HostSettings, ManualClock, NewGame, Registry};
use std::sync::Arc;
use store::TimeoutPolicy;

#[test]
fn one_power_forfeiting_keeps_the_others_orders() {
    let dir = tempfile::tempdir().unwrap();
    let host = diplomacy_host(
        dir.path(),
        Arc::new(ManualClock::at(0)),
        HostSettings::default(),
    );
    let id = host
        .create_game(alice_creates(1, None, TimeoutPolicy::Default))
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

/// A host with only Diplomacy, on a fresh database in `dir`.
fn diplomacy_host(dir: &std::path::Path, clock: Arc<ManualClock>, settings: HostSettings) -> Host {
    host_builder::diplomacy_host(&dir.join("g.db"), clock, settings)
}

/// Alice's request for a Diplomacy game in channel `c`, with her seated.
fn alice_creates(seed: u64, turn_seconds: Option<u64>, policy: TimeoutPolicy) -> NewGame {
    NewGame {
        kind: "diplomacy".into(),
        guild_id: None,
        channel_id: "c".into(),
        creator_id: "alice".into(),
        creator_name: "Alice".into(),
        options: serde_json::Value::Null,
        seed: Some(seed),
        turn_seconds,
        timeout_policy: policy,
        creator_plays: true,
    }
}

/// A started Diplomacy game: `alice` plays Austria, holding AIs the rest.
fn alice_against_holding_ais(host: &Host, policy: TimeoutPolicy) -> i64 {
    let id = host
        .create_game(alice_creates(1, Some(3600), policy))
        .unwrap();
    for _ in 1..7 {
        host.add_ai(id, "alice", Some("hold"), None).unwrap();
    }
    host.start(id, "alice").unwrap();
    // The AIs send their final orders; only Austria is awaited now.
    host.run_ai_turns(Some(id), 100).unwrap();
    id
}

fn position(host: &Host, id: i64) -> games::diplomacy::Diplomacy {
    serde_json::from_str(host.game(id).unwrap().state.as_deref().unwrap()).unwrap()
}

#[test]
fn a_forfeit_by_the_last_power_awaited_resolves_the_phase() {
    use games::diplomacy::game::Season;
    let dir = tempfile::tempdir().unwrap();
    let host = diplomacy_host(
        dir.path(),
        Arc::new(ManualClock::at(0)),
        HostSettings::default(),
    );
    let id = alice_against_holding_ais(&host, TimeoutPolicy::Default);
    assert_eq!(position(&host, id).season(), Season::Spring);
    let turn = host.game(id).unwrap().turn;
    host.forfeit(id, "alice").unwrap();
    // The forfeit entry, then Spring 1901 resolved with the AIs' orders.
    assert_eq!(host.game(id).unwrap().turn, turn + 2);
    assert_eq!(position(&host, id).season(), Season::Fall);
    // The AIs can be asked for their Fall orders: the game goes on.
    assert_eq!(host.ai_tasks_for(id).unwrap().len(), 6);
}

#[test]
fn a_forfeit_at_the_deadline_of_the_last_power_awaited_resolves_the_phase() {
    use games::diplomacy::game::Season;
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = diplomacy_host(dir.path(), clock.clone(), HostSettings::default());
    let id = alice_against_holding_ais(&host, TimeoutPolicy::Forfeit);
    clock.advance(49 * 3600 * 1000);
    host.fire_due_deadlines().unwrap();
    assert_eq!(position(&host, id).season(), Season::Fall);
    assert_eq!(host.ai_tasks_for(id).unwrap().len(), 6);
}

/// Plays a game where `alice` (Austria, her orders chosen by the default AI)
/// and six AIs fight, until a `target` phase awaits only her; then she
/// forfeits. With her the only power left to decide, nothing is left to
/// wait for: the phase must resolve at once. Returns false if no such
/// phase came within the bound (then the seed is not useful).
fn forfeit_in_phase(seed: u64, target: games::diplomacy::judge::PhaseKind) -> bool {
    use host::AiTask;
    let dir = tempfile::tempdir().unwrap();
    let host = diplomacy_host(
        dir.path(),
        Arc::new(ManualClock::at(0)),
        HostSettings {
            ai_budget_ms: 50,
            reminder_percent: 0,
        },
    );
    let id = host
        .create_game(alice_creates(seed, None, TimeoutPolicy::Default))
        .unwrap();
    for _ in 1..7 {
        host.add_ai(id, "alice", Some("default"), None).unwrap();
    }
    host.start(id, "alice").unwrap();
    for _ in 0..40 {
        host.run_ai_turns(Some(id), 100).unwrap();
        let row = host.game(id).unwrap();
        if row.status != store::GameStatus::Running {
            return false;
        }
        let g = position(&host, id);
        // The AIs have sent their orders: only those awaited and not done count.
        let left: Vec<usize> = host
            .view(id, None)
            .unwrap()
            .seats
            .iter()
            .filter(|s| s.awaited && !s.acted)
            .map(|s| s.seat)
            .collect();
        if left != vec![0] {
            return false;
        }
        if g.phase() == target {
            let before = (g.year(), g.season(), g.phase());
            host.forfeit(id, "alice").unwrap();
            let after = position(&host, id);
            assert_ne!(
                (after.year(), after.season(), after.phase()),
                before,
                "seed {seed}: the {target:?} phase froze after the forfeit"
            );
            return true;
        }
        let registry = Registry::default().with::<games::diplomacy::Diplomacy>();
        let task = AiTask {
            game_id: id,
            turn: row.turn,
            seat: 0,
            level: "default".into(),
            seed: seed ^ u64::from(row.turn),
            engine: registry
                .load("diplomacy", row.state.as_deref().unwrap())
                .unwrap(),
        };
        let action = task.think(50);
        host.submit_ai(&task, action).unwrap();
    }
    false
}

#[test]
fn a_forfeit_in_a_retreat_or_adjustment_phase_awaiting_only_the_forfeiter_resolves_it() {
    use games::diplomacy::judge::PhaseKind;
    for target in [PhaseKind::Adjustment, PhaseKind::Retreat] {
        let found = (1..12).any(|seed| forfeit_in_phase(seed, target));
        assert!(
            found,
            "no seed reached a {target:?} phase awaiting only Austria"
        );
    }
}
