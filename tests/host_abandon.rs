//! Abuse limits in the host: turn deadlines no shorter than their kind's
//! minimum, and a game nobody plays any more ended after a few deadlines.

mod support;

use host::{AnnouncementKind, DeadlineEvent, Host, ManualClock};
use std::sync::Arc;
use store::{GameStatus, Target, TimeoutPolicy};
use support::rps::{host_at, new_rps};

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::at(1_000_000))
}

/// A started game between alice and bob with a 60 s deadline.
fn started(host: &Host) -> i64 {
    let id = host
        .create_game(new_rps("c1", Some(60), TimeoutPolicy::Default))
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    id
}

/// Lets the current deadline pass and returns what happened.
fn expire(host: &Host, c: &ManualClock) -> Vec<DeadlineEvent> {
    c.advance(60_000);
    host.fire_due_deadlines().unwrap()
}

#[test]
fn a_deadline_below_the_minimum_is_refused_with_the_minimum() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    for secs in [1, 29] {
        let err = host
            .create_game(new_rps("c1", Some(secs), TimeoutPolicy::Default))
            .unwrap_err();
        assert!(err.is_user_error());
        assert_eq!(
            err.to_string(),
            format!(
                "A deadline of {secs} s per turn is too short for rps: the minimum is 30 s \
                 (or 0 for no deadline)."
            )
        );
    }
    assert!(
        host.game_in_channel("c1").unwrap().is_none(),
        "nothing made"
    );
    assert!(
        host.create_game(new_rps("c1", Some(30), TimeoutPolicy::Default))
            .is_ok()
    );
    assert!(
        host.create_game(new_rps("c2", Some(0), TimeoutPolicy::Default))
            .is_ok(),
        "0 is no deadline"
    );
}

#[test]
fn a_game_nobody_plays_is_aborted_after_three_idle_deadlines() {
    let dir = tempfile::tempdir().unwrap();
    let c = clock();
    let host = host_at(&dir.path().join("g.db"), c.clone());
    let id = started(&host);
    assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
    assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
    assert_eq!(expire(&host, &c), vec![DeadlineEvent::Abandoned(id)]);
    let g = host.game(id).unwrap();
    assert_eq!(g.status, GameStatus::Aborted);
    assert_eq!(g.turn, 2, "the third turn was not played by stand-ins");
    assert_eq!(host.next_wakeup().unwrap(), None, "no deadline is left");
    let said: Vec<_> = host
        .unsent(1000)
        .unwrap()
        .into_iter()
        .filter_map(|i| {
            let a = i.announcement.unwrap();
            (a.kind == AnnouncementKind::Aborted).then_some((i.target, a.text))
        })
        .collect();
    assert_eq!(
        said,
        vec![(
            Target::Channel("c1".into()),
            format!(
                "rps #{id} was aborted as abandoned: no player moved before the last 3 deadlines."
            )
        )]
    );
}

#[test]
fn a_move_by_a_person_starts_the_count_again_even_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let c = clock();
    let id = {
        let host = host_at(&path, c.clone());
        let id = started(&host);
        assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
        assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
        // Alice throws; Bob does not: a person acted this turn.
        host.submit(Some(id), "alice", "paper").unwrap();
        assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
        assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
        id
    };
    // The count is in the database, not in the process.
    let host = host_at(&path, c.clone());
    assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
    assert_eq!(expire(&host, &c), vec![DeadlineEvent::Abandoned(id)]);
}

#[test]
fn abandon_after_zero_never_ends_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let c = clock();
    let host = host_at(&dir.path().join("g.db"), c.clone()).with_abandon_after(0);
    let id = started(&host);
    for _ in 0..6 {
        assert_eq!(expire(&host, &c), vec![DeadlineEvent::Resolved(id)]);
    }
    assert_eq!(host.game(id).unwrap().status, GameStatus::Running);
}
