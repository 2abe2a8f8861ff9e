//! Pauses and absences on a real SQLite file: who may pause, the exact time
//! left given back after a restart, turns during a pause, and what an
//! absence does at a deadline (`extend`, `ai`, `off`) within its yearly limit.

mod support;

use host::{Clock, DeadlineEvent, ManualClock, PauseOutcome, ResumeOutcome, Target, TimeoutPolicy};
use std::sync::Arc;
use support::rps::{host_at, new_rps};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::at(1_000_000))
}

/// A started game of alice and bob with an hour a turn and `options`.
fn started(host: &host::Host, options: serde_json::Value) -> i64 {
    let mut req = new_rps("c1", Some(3600), TimeoutPolicy::Default);
    req.options = options;
    let id = host.create_game(req).unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    id
}

/// Every channel text the host wrote for the game so far.
fn channel_texts(host: &host::Host, id: i64) -> Vec<String> {
    host.unsent_of_game(id)
        .unwrap()
        .into_iter()
        .filter(|i| matches!(i.target, Target::Channel(_)))
        .filter_map(|i| i.announcement.ok().map(|a| a.text))
        .collect()
}

#[test]
fn a_pause_needs_every_player_and_gives_back_the_exact_time_left_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let clock = clock();
    let host = host_at(&db, clock.clone());
    let id = started(&host, serde_json::Value::Null);
    let due = host.view(id, None).unwrap().deadline.unwrap();
    clock.advance(1000 * 1000);

    assert_eq!(
        host.pause_game(id, "alice").unwrap(),
        PauseOutcome::Waiting(vec!["Bob".into()])
    );
    // One request does not stop the clock.
    assert_eq!(host.view(id, None).unwrap().deadline, Some(due));
    assert_eq!(
        host.view(id, None).unwrap().leave.pause_votes,
        vec!["Alice".to_string()]
    );
    assert_eq!(host.pause_game(id, "bob").unwrap(), PauseOutcome::Paused);
    let view = host.view(id, None).unwrap();
    assert_eq!(view.deadline, None);
    assert_eq!(view.leave.paused_since, Some(clock.now_ms()));
    assert_eq!(view.leave.paused_left_ms, Some(2600 * 1000));
    assert!(view.leave.pause_votes.is_empty());
    assert!(
        channel_texts(&host, id)
            .iter()
            .any(|t| t.contains("is paused") && t.contains("frozen with 44 min left")),
        "{:?}",
        channel_texts(&host, id)
    );

    // Long past the old deadline, across a restart: nothing fires.
    clock.advance(10 * HOUR);
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    drop(host);
    let host = host_at(&db, clock.clone());
    clock.advance(HOUR);
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    assert_eq!(host.game(id).unwrap().turn, 0);

    let resumed_at = clock.now_ms();
    assert_eq!(
        host.resume_game(id, "bob").unwrap(),
        ResumeOutcome::Resumed(Some(resumed_at + 2600 * 1000))
    );
    assert_eq!(
        host.view(id, None).unwrap().deadline,
        Some(resumed_at + 2600 * 1000)
    );
    // The reminder (at a fifth of the hour left) kept its own time left too.
    clock.advance(1880 * 1000 - 1);
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    clock.advance(1);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Reminded(id)]
    );
    clock.advance(720 * 1000 - 1);
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    clock.advance(1);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Resolved(id)]
    );
}

#[test]
fn only_players_pause_and_a_request_can_be_withdrawn() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = started(&host, serde_json::Value::Null);
    let err = host.pause_game(id, "carol").unwrap_err();
    assert!(
        err.is_user_error() && err.to_string().contains("Only the players"),
        "{err}"
    );
    host.pause_game(id, "alice").unwrap();
    assert_eq!(
        host.resume_game(id, "alice").unwrap(),
        ResumeOutcome::VoteWithdrawn
    );
    assert!(host.view(id, None).unwrap().leave.pause_votes.is_empty());
    let err = host.resume_game(id, "alice").unwrap_err();
    assert!(err.to_string().contains("is not paused"), "{err}");
    // Bob's request alone does not pause: Alice withdrew hers.
    assert_eq!(
        host.pause_game(id, "bob").unwrap(),
        PauseOutcome::Waiting(vec!["Alice".into()])
    );
    // The creator is not special unless the game says so.
    assert!(host.view(id, None).unwrap().deadline.is_some());
}

#[test]
fn the_creator_pauses_alone_when_the_game_allows_and_a_stranger_cannot_resume() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = started(&host, serde_json::json!({"pause": "creator"}));
    assert_eq!(host.pause_game(id, "alice").unwrap(), PauseOutcome::Paused);
    let err = host.pause_game(id, "bob").unwrap_err();
    assert!(err.to_string().contains("already paused"), "{err}");
    let err = host.resume_game(id, "carol").unwrap_err();
    assert!(err.to_string().contains("Only the players"), "{err}");
    // Deadline extensions wait for the end of the pause.
    let err = host.extend_deadline(id, "bob").unwrap_err();
    assert!(err.to_string().contains("paused"), "{err}");
    assert!(matches!(
        host.resume_game(id, "bob").unwrap(),
        ResumeOutcome::Resumed(Some(_))
    ));
}

#[test]
fn bad_pause_and_absence_options_say_what_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    for (options, expected) in [
        (serde_json::json!({"pause": "sometimes"}), "pause=players"),
        (serde_json::json!({"away": "maybe"}), "away=extend"),
        (serde_json::json!({"away_days": 400}), "from 0 to 90"),
        (serde_json::json!({"away_days": -1}), "from 0 to 90"),
    ] {
        let mut req = new_rps("c1", Some(3600), TimeoutPolicy::Default);
        req.options = options.clone();
        let err = host.create_game(req).unwrap_err();
        assert!(
            err.is_user_error() && err.to_string().contains(expected),
            "{options}: {err}"
        );
    }
    // The host's keys never reach the engine, which would refuse them.
    let id = started(
        &host,
        serde_json::json!({"away": "ai", "away_days": 3, "wins": 1}),
    );
    let rules = host.leave_rules(id).unwrap();
    assert_eq!(rules.away, host::AwayMode::Ai);
    assert_eq!(rules.away_days, 3);
    assert!(host.game(id).unwrap().options.contains("wins"));
    assert!(!host.game(id).unwrap().options.contains("away"));
}

#[test]
fn a_turn_both_finish_while_paused_resolves_and_the_next_deadline_starts_frozen() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = started(&host, serde_json::Value::Null);
    clock.advance(1800 * 1000);
    host.pause_game(id, "alice").unwrap();
    host.pause_game(id, "bob").unwrap();
    host.submit(Some(id), "alice", "rock").unwrap();
    host.submit(Some(id), "bob", "paper").unwrap();
    let view = host.view(id, None).unwrap();
    assert_eq!(view.turn, 1);
    assert_eq!(view.deadline, None, "the new turn's deadline is frozen");
    assert_eq!(view.leave.paused_left_ms, Some(3600 * 1000));
    clock.advance(5 * HOUR);
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    let now = clock.now_ms();
    assert_eq!(
        host.resume_game(id, "alice").unwrap(),
        ResumeOutcome::Resumed(Some(now + 3600 * 1000))
    );
}

#[test]
fn an_absence_moves_the_deadline_to_the_players_return() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = started(&host, serde_json::Value::Null);
    let back = host.declare_away(id, "bob", 2).unwrap();
    assert_eq!(back, clock.now_ms() + 2 * DAY);
    assert_eq!(
        host.view(id, None).unwrap().leave.away,
        vec![("Bob".to_string(), back)]
    );
    host.submit(Some(id), "alice", "paper").unwrap();
    clock.advance(HOUR);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Postponed(id)]
    );
    assert_eq!(host.view(id, None).unwrap().deadline, Some(back));
    assert!(
        channel_texts(&host, id)
            .iter()
            .any(|t| t.contains("waits for Bob")),
        "{:?}",
        channel_texts(&host, id)
    );
    // Back on time: the deadline falls as usual, and Bob's seat gets the default.
    clock.advance(2 * DAY - HOUR);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Resolved(id)]
    );
    assert_eq!(host.game(id).unwrap().turn, 1);
}

#[test]
fn with_away_ai_the_ai_moves_for_an_absent_player_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let mut req = new_rps("c1", Some(3600), TimeoutPolicy::Forfeit);
    req.options = serde_json::json!({"away": "ai"});
    let id = host.create_game(req).unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    host.declare_away(id, "bob", 1).unwrap();
    host.submit(Some(id), "alice", "paper").unwrap();
    clock.advance(HOUR);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Resolved(id)]
    );
    // Under the forfeit policy, Bob still plays: the AI moved for him.
    let game = host.game(id).unwrap();
    assert_eq!(game.turn, 1);
    assert_eq!(game.status, host::GameStatus::Running);
    assert!(
        channel_texts(&host, id)
            .iter()
            .any(|t| t.contains("The AI moved for Bob")),
        "{:?}",
        channel_texts(&host, id)
    );
}

#[test]
fn absences_are_limited_per_year_and_can_end_early() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = started(&host, serde_json::Value::Null);
    let err = host.declare_away(id, "carol", 1).unwrap_err();
    assert!(err.to_string().contains("Only the players"), "{err}");
    let err = host.declare_away(id, "bob", 0).unwrap_err();
    assert!(err.to_string().contains("not away"), "{err}");
    host.declare_away(id, "bob", 10).unwrap();
    let err = host.declare_away(id, "bob", 1).unwrap_err();
    assert!(err.to_string().contains("already away"), "{err}");
    // Back after 5 hours: one whole day counted.
    clock.advance(5 * HOUR);
    assert_eq!(host.declare_away(id, "bob", 0).unwrap(), clock.now_ms());
    assert!(host.view(id, None).unwrap().leave.away.is_empty());
    let err = host.declare_away(id, "bob", 14).unwrap_err();
    assert!(
        err.to_string().contains("14 days") && err.to_string().contains("13 left"),
        "{err}"
    );
    host.declare_away(id, "bob", 13).unwrap();
    // A year later the days are there again.
    host.declare_away(id, "bob", 0).unwrap();
    clock.advance(366 * DAY);
    host.declare_away(id, "bob", 14).unwrap();
}

#[test]
fn away_off_refuses_absences() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = started(&host, serde_json::json!({"away": "off"}));
    let err = host.declare_away(id, "bob", 1).unwrap_err();
    assert!(
        err.to_string().contains("away=off") && err.to_string().contains("/game pause"),
        "{err}"
    );
}
