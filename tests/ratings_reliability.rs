//! Reliability across takeovers: a newcomer taking over a seat must meet
//! the game's minimum reliability like one who joins, and each turn a seat
//! was awaited in counts for the person who held it then.

mod support;

use games::diplomacy::Diplomacy;
use host::{GameId, GameRules, Host, HostError, ManualClock, NewGame, Registry};
use std::sync::Arc;
use store::TimeoutPolicy;
use support::host_builder::host_with;
use support::rps::Rps;
use support::rps::new_rps;

fn new_host(dir: &std::path::Path, clock: Arc<ManualClock>) -> Host {
    host_with(
        &dir.join("r.db"),
        Registry::default().with::<Diplomacy>().with::<Rps>(),
        clock,
        50,
    )
}

/// A Diplomacy lobby in `channel` of the server `guild`: `u0` (its
/// creator) to `u6`, one a power; started unless rules are to be set.
fn diplomacy(host: &Host, channel: &str, rules: Option<GameRules>) -> GameId {
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: channel.into(),
            creator_id: "u0".into(),
            creator_name: "U0".into(),
            options: serde_json::Value::Null,
            seed: Some(3),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    if let Some(r) = rules {
        host.set_game_rules(id, "u0", r).unwrap();
    }
    for s in 1..7 {
        host.join(id, &format!("u{s}"), &format!("U{s}"), Some(s))
            .unwrap();
    }
    host.start(id, "u0").unwrap();
    id
}

/// `bob` misses one deadline of two rps rounds: 50% reliable.
fn make_bob_unreliable(host: &Host, clock: &ManualClock) {
    let id = host
        .create_game(NewGame {
            options: serde_json::json!({"wins": 3}),
            ..new_rps("rps", Some(60), TimeoutPolicy::Default)
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    host.submit(Some(id), "alice", "rock").unwrap();
    clock.advance(61_000);
    host.fire_due_deadlines().unwrap();
    host.submit(Some(id), "alice", "rock").unwrap();
    host.submit(Some(id), "bob", "rock").unwrap();
    host.abort(id, "alice", false).unwrap();
    assert_eq!(host.reliability(Some("guild"), "bob").unwrap().percent, 50);
}

#[test]
fn a_takeover_checks_the_games_minimum_reliability_like_a_join() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = new_host(dir.path(), clock.clone());
    make_bob_unreliable(&host, &clock);
    let id = diplomacy(
        &host,
        "dip",
        Some(GameRules {
            min_reliability: Some(80),
            ..GameRules::default()
        }),
    );
    let ger = std_power("Germany").index();
    host.forfeit(id, &format!("u{ger}")).unwrap();
    assert_eq!(host.open_seats(id).unwrap(), vec![ger]);
    match host.takeover(id, "bob", "Bob", None) {
        Err(HostError::User(m)) => assert!(
            m.contains("asks for a reliability of at least 80%; yours is 50%"),
            "{m}"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(host.open_seats(id).unwrap(), vec![ger]);
    // A reliable newcomer takes it.
    assert_eq!(host.takeover(id, "carol", "Carol", None).unwrap(), ger);
    assert!(host.open_seats(id).unwrap().is_empty());
}

#[test]
fn each_turn_counts_for_whoever_held_the_seat_then() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = new_host(dir.path(), clock.clone());
    let id = diplomacy(&host, "dip", None);
    let ger = std_power("Germany").index();
    let leaver = format!("u{ger}");
    // Spring 1901: Germany's player lets the deadline pass, then leaves.
    support::host_builder::phase_missing(&host, &clock, id, &[&leaver]);
    host.forfeit(id, &leaver).unwrap();
    host.takeover(id, "bob", "Bob", Some(ger)).unwrap();
    // Fall 1901: Bob orders in time.
    support::host_builder::phase_missing(&host, &clock, id, &[]);
    let r = |u: &str| host.reliability(Some("guild"), u).unwrap();
    let (l, b) = (r(&leaver), r("bob"));
    assert_eq!((l.turns_awaited, l.missed_deadlines), (1, 1), "{l:?}");
    assert_eq!(
        (b.turns_awaited, b.missed_deadlines, b.percent),
        (1, 0, 100),
        "{b:?}"
    );
    // An AI taking the seat over next holds its turns: nobody's.
    host.forfeit(id, "bob").unwrap();
    host.add_ai(id, "u0", Some("hold"), Some(ger)).unwrap();
    for _ in 0..3 {
        support::host_builder::phase_missing(&host, &clock, id, &[]);
    }
    assert_eq!(r("bob").turns_awaited, 1);
    assert_eq!(r(&leaver).turns_awaited, 1);
    // Players who kept their seat count every phase they were awaited in.
    assert!(r("u0").turns_awaited >= 4, "{:?}", r("u0"));
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
