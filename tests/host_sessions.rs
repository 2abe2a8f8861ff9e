//! The host on a real SQLite file: lobby rules, hidden moves, exactly-once
//! resolution, deadlines, restarts and corrupt rows.

mod support;

use host::{AnnouncementKind, DeadlineEvent, HostError, ManualClock};
use std::sync::Arc;
use store::{GameStatus, Target, TimeoutPolicy};
use support::rps::{host_at, new_rps};

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::at(1_000_000))
}

/// Creates a started two-person game between alice (seat 1) and bob (seat 2).
fn started(host: &host::Host, channel: &str, secs: Option<u64>, policy: TimeoutPolicy) -> i64 {
    let id = host.create_game(new_rps(channel, secs, policy)).unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    id
}

#[test]
fn lobby_rules_give_clear_messages() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();

    let err = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap_err();
    assert!(
        err.is_user_error() && err.to_string().contains("already has a game"),
        "{err}"
    );

    let err = host.join(id, "alice", "Alice", None).unwrap_err();
    assert!(err.to_string().contains("already sit"), "{err}");

    let err = host.start(id, "alice").unwrap_err();
    assert!(err.to_string().contains("Seat(s) 2"), "{err}");

    let err = host.add_ai(id, "alice", Some("genius"), None).unwrap_err();
    assert!(err.to_string().contains("random, rock"), "{err}");

    let err = host.join(id, "bob", "Bob", Some(5)).unwrap_err();
    assert!(err.to_string().contains("no seat 6"), "{err}");

    host.join(id, "bob", "Bob", None).unwrap();
    let err = host.start(id, "bob").unwrap_err();
    assert!(err.to_string().contains("Only the creator"), "{err}");
    host.leave(id, "bob").unwrap();
    host.add_ai(id, "alice", None, None).unwrap();
    host.start(id, "alice").unwrap();
    let err = host.join(id, "carol", "Carol", None).unwrap_err();
    assert!(err.to_string().contains("running"), "{err}");

    let err = host.submit(Some(id), "carol", "rock").unwrap_err();
    assert!(err.to_string().contains("not playing"), "{err}");
    let err = host.submit(Some(id), "alice", "lizard").unwrap_err();
    assert!(matches!(err, HostError::Action(_)));
    assert!(err.to_string().contains("rock, paper or scissors"), "{err}");

    let err = host
        .create_game(host::NewGame {
            kind: "chess".into(),
            ..new_rps("c2", None, TimeoutPolicy::Default)
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("no game called `chess`") && err.to_string().contains("rps"),
        "{err}"
    );
    let err = host
        .create_game(host::NewGame {
            options: serde_json::json!({"wins": 0}),
            ..new_rps("c2", None, TimeoutPolicy::Default)
        })
        .unwrap_err();
    assert!(err.to_string().contains("wins must be"), "{err}");
}

#[test]
fn hidden_action_is_not_visible_to_others_until_resolution() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = started(&host, "c1", None, TimeoutPolicy::Default);
    let r = host.submit(Some(id), "alice", "scissors").unwrap();
    assert!(!r.resolved && r.waiting_for == vec!["Bob".to_string()]);

    let bob = host.view(id, Some("bob")).unwrap();
    assert_eq!(bob.own_pending, None);
    assert!(
        bob.seats.iter().find(|s| s.seat == 0).unwrap().acted,
        "bob sees that alice acted"
    );
    let spectator = host.view(id, None).unwrap();
    assert_eq!(spectator.own_pending, None);
    assert_eq!(
        host.view(id, Some("alice")).unwrap().own_pending.as_deref(),
        Some("scissors")
    );

    // Nothing queued for anyone mentions the throw before the turn resolves.
    for item in host.unsent(1000).unwrap() {
        let a = item.announcement.unwrap();
        assert!(!a.text.contains("scissors"), "leaked: {a:?}");
        if a.kind == AnnouncementKind::Waiting {
            assert!(
                a.text.contains("waiting for Bob · 1 of 2 ready"),
                "{}",
                a.text
            );
        }
    }
    host.submit(Some(id), "bob", "rock").unwrap();
    let texts: Vec<String> = host
        .unsent(1000)
        .unwrap()
        .into_iter()
        .map(|i| i.announcement.unwrap().text)
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("scissors vs rock")),
        "{texts:?}"
    );
    // The private part of the report goes to alice only.
    let private: Vec<_> = host
        .unsent(1000)
        .unwrap()
        .into_iter()
        .filter(|i| i.announcement.as_ref().unwrap().kind == AnnouncementKind::Private)
        .collect();
    assert_eq!(private.len(), 1);
    assert_eq!(private[0].target, Target::User("alice".into()));
}

#[test]
fn changing_a_hidden_action_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = started(&host, "c1", None, TimeoutPolicy::Default);
    host.submit(Some(id), "alice", "rock").unwrap();
    host.submit(Some(id), "alice", "paper").unwrap();
    assert_eq!(
        host.view(id, Some("alice")).unwrap().own_pending.as_deref(),
        Some("paper")
    );
    let moved = host
        .unsent(1000)
        .unwrap()
        .into_iter()
        .filter(|i| i.announcement.as_ref().unwrap().kind == AnnouncementKind::Waiting)
        .count();
    assert_eq!(moved, 1, "a changed action is not announced twice");
}

#[test]
fn concurrent_final_submits_resolve_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    for round in 0..12 {
        // Two hosts on two connections to the same file, as two processes would be.
        let h1 = Arc::new(host_at(&path, clock()));
        let h2 = Arc::new(host_at(&path, clock()));
        let channel = format!("race{round}");
        let id = started(&h1, &channel, None, TimeoutPolicy::Default);
        let barrier = Arc::new(std::sync::Barrier::new(2));
        let t = |h: Arc<host::Host>, user: &'static str, b: Arc<std::sync::Barrier>| {
            std::thread::spawn(move || {
                b.wait();
                h.submit(Some(id), user, "rock").unwrap()
            })
        };
        let a = t(h1.clone(), "alice", barrier.clone());
        let b = t(h2.clone(), "bob", barrier);
        let (ra, rb) = (a.join().unwrap(), b.join().unwrap());
        assert!(
            ra.resolved ^ rb.resolved,
            "exactly one submission resolves the turn"
        );
        let len = h1.store().read(|tx| tx.turn_log_len(id)).unwrap();
        assert_eq!(len, 1);
        assert_eq!(h2.game(id).unwrap().turn, 1);
    }
}

#[test]
fn a_restart_keeps_the_game_pending_actions_and_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let c = clock();
    let id = {
        let host = host_at(&path, c.clone());
        let id = started(&host, "c1", Some(60), TimeoutPolicy::Default);
        host.submit(Some(id), "alice", "paper").unwrap();
        id
        // The host and its connection are dropped here, as in a crash.
    };
    let host = host_at(&path, c.clone());
    let game = host.game(id).unwrap();
    assert_eq!(game.status, GameStatus::Running);
    assert_eq!(
        host.view(id, Some("alice")).unwrap().own_pending.as_deref(),
        Some("paper")
    );
    let deadline = host.view(id, None).unwrap().deadline.unwrap();
    assert_eq!(deadline, 1_000_000 + 60_000);
    assert_eq!(
        host.next_wakeup().unwrap(),
        Some(1_000_000 + 60_000 - 12_000),
        "reminder at 20% left"
    );

    c.advance(49_000);
    let events = host.fire_due_deadlines().unwrap();
    assert_eq!(events, vec![DeadlineEvent::Reminded(id)]);
    let reminders: Vec<_> = host
        .unsent(1000)
        .unwrap()
        .into_iter()
        .filter(|i| i.announcement.as_ref().unwrap().kind == AnnouncementKind::Reminder)
        .collect();
    assert_eq!(
        reminders.len(),
        1,
        "only the seat that has not moved is reminded"
    );
    assert_eq!(reminders[0].target, Target::User("bob".into()));

    c.advance(11_000);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Resolved(id)]
    );
    let view = host.view(id, None).unwrap();
    assert_eq!(view.turn, 1);
    assert!(
        view.view.unwrap().board.contains("Score 1-0"),
        "bob's default rock lost to paper"
    );
    assert!(host.fire_due_deadlines().unwrap().is_empty());
}

#[test]
fn forfeit_policy_ends_a_duel_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let c = clock();
    let host = host_at(&dir.path().join("g.db"), c.clone());
    let id = started(&host, "c1", Some(30), TimeoutPolicy::Forfeit);
    host.submit(Some(id), "bob", "rock").unwrap();
    c.advance(30_000);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Forfeited(id, vec![0])]
    );
    let g = host.game(id).unwrap();
    assert_eq!(g.status, GameStatus::Finished);
    assert_eq!(g.outcome.as_deref(), Some(r#"{"Win":1}"#));
    let r = host.replay(id).unwrap();
    assert_eq!(r.first_divergence, None);
}

#[test]
fn ai_policy_moves_for_the_missing_seat() {
    let dir = tempfile::tempdir().unwrap();
    let c = clock();
    let host = host_at(&dir.path().join("g.db"), c.clone());
    let id = started(&host, "c1", Some(30), TimeoutPolicy::Ai);
    c.advance(31_000);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Resolved(id)]
    );
    assert_eq!(host.game(id).unwrap().turn, 1);
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
}

#[test]
fn ai_seats_play_a_game_to_the_end_and_it_replays() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    host.add_ai(id, "alice", Some("random"), None).unwrap();
    host.start(id, "alice").unwrap();
    let mut turns = 0;
    while host.game(id).unwrap().status == GameStatus::Running {
        host.submit(Some(id), "alice", "paper").unwrap();
        host.run_ai_turns(Some(id), 10).unwrap();
        turns += 1;
        assert!(turns <= 20);
    }
    let g = host.game(id).unwrap();
    assert_eq!(g.status, GameStatus::Finished);
    assert!(g.outcome.is_some());
    let sent: Vec<(Target, AnnouncementKind, String)> = host
        .unsent(10_000)
        .unwrap()
        .into_iter()
        .map(|i| {
            let a = i.announcement.unwrap();
            (i.target, a.kind, a.text)
        })
        .collect();
    // The AI seat moves without a line of its own; only Alice's are posted.
    let moved: Vec<&String> = sent
        .iter()
        .map(|(_, _, t)| t)
        .filter(|t| t.contains("has moved"))
        .collect();
    assert!(
        moved.iter().all(|t| t.starts_with("Alice has moved")),
        "{moved:?}"
    );
    // The result goes to the channel, then by DM to the person who played
    // (not to the AI seat).
    let n = sent.len();
    assert!(matches!(sent[n - 2].0, Target::Channel(_)), "{sent:?}");
    assert_eq!(sent[n - 2].1, AnnouncementKind::Finished);
    assert_eq!(sent[n - 1].0, Target::User("alice".into()));
    assert!(
        sent[n - 1].2.starts_with("A game you play has ended.")
            && sent[n - 1].2.ends_with(&sent[n - 2].2),
        "{sent:?}"
    );
    assert_eq!(host.replay(id).unwrap().turns as usize, turns);
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
    // The channel is free again.
    host.create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
}

#[test]
fn a_user_in_several_games_must_name_one() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let a = started(&host, "c1", None, TimeoutPolicy::Default);
    let b = started(&host, "c2", None, TimeoutPolicy::Default);
    let err = host.submit(None, "bob", "rock").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("#{a}")) && msg.contains(&format!("#{b}")),
        "{msg}"
    );
    host.submit(Some(a), "bob", "rock").unwrap();
    // Now only game b awaits bob, so an unnamed move goes there.
    let r = host.submit(None, "bob", "paper").unwrap();
    assert_eq!(r.game_id, b);
    let err = host.submit(None, "zed", "rock").unwrap_err();
    assert!(err.to_string().contains("not playing in any"), "{err}");
}

#[test]
fn outbox_rows_are_delivered_once() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    started(&host, "c1", None, TimeoutPolicy::Default);
    let items = host.unsent(100).unwrap();
    assert!(!items.is_empty());
    for i in &items {
        assert!(host.mark_sent(i.id).unwrap());
        assert!(!host.mark_sent(i.id).unwrap());
    }
    assert!(host.unsent(100).unwrap().is_empty());
}

#[test]
fn abort_and_forfeit() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), clock());
    let id = started(&host, "c1", None, TimeoutPolicy::Default);
    let err = host.abort(id, "bob", false).unwrap_err();
    assert!(err.to_string().contains("Only the creator"));
    host.abort(id, "bob", true).unwrap();
    assert_eq!(host.game(id).unwrap().status, GameStatus::Aborted);
    let err = host.submit(Some(id), "alice", "rock").unwrap_err();
    assert!(err.to_string().contains("aborted"), "{err}");

    let id = started(&host, "c1", None, TimeoutPolicy::Default);
    host.submit(Some(id), "alice", "rock").unwrap();
    host.forfeit(id, "bob").unwrap();
    let g = host.game(id).unwrap();
    assert_eq!(g.outcome.as_deref(), Some(r#"{"Win":0}"#));
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
}

/// What the operator configures reaches an engine as data through the
/// registry (a kind registered with its own constructor), never through the
/// options a creator sends; the creator's options still apply on top.
#[test]
fn operator_data_reaches_the_engine_through_the_registry() {
    use games::seam::Game;
    use host::{HostSettings, Registry};
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::default().with_constructor::<support::rps::Rps>(|mut o, seed| {
        o.wins.get_or_insert(1);
        support::rps::Rps::new_game(o, seed)
    });
    let host = support::host_builder::host_on(
        &dir.path().join("g.db"),
        registry,
        clock(),
        HostSettings::default(),
    );
    let id = started(&host, "c1", None, TimeoutPolicy::Default);
    assert_eq!(host.game(id).unwrap().options, "null");
    host.submit(Some(id), "alice", "paper").unwrap();
    host.submit(Some(id), "bob", "rock").unwrap();
    assert_eq!(
        host.game(id).unwrap().status,
        GameStatus::Finished,
        "one win was enough"
    );
    assert_eq!(host.replay(id).unwrap().first_divergence, None);

    let mut asked = new_rps("c2", None, TimeoutPolicy::Default);
    asked.options = serde_json::json!({ "wins": 3 });
    let id = host.create_game(asked).unwrap();
    assert_eq!(
        host.game(id).unwrap().options,
        r#"{"wins":3}"#,
        "the creator's choice wins"
    );
}
