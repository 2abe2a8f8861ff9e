//! Diplomacy behind the host: per-phase deadlines from the engine, with a fake clock.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{DeadlineEvent, Host, ManualClock, NewGame};
use std::sync::Arc;
use store::TimeoutPolicy;

#[test]
fn movement_deadline_is_48_hours_and_resolves_with_holds() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = host_builder::diplomacy_host(
        &dir.path().join("d.db"),
        clock.clone(),
        host_builder::settings(50, 0),
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
    // The channel counts ready powers and names the late one by power and player.
    let moved: Vec<String> = host
        .unsent(500)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.announcement.ok())
        .filter(|a| a.kind == host::AnnouncementKind::Waiting)
        .map(|a| a.text)
        .collect();
    assert_eq!(
        moved.last().map(String::as_str),
        Some("diplomacy #1: waiting for England (U1) · 6 of 7 ready")
    );
    // `/game status` agrees: the six who are done are not awaited.
    let status = host.view(id, Some("u0")).unwrap().view.unwrap().status;
    assert_eq!(status, "Spring 1901 movement: waiting for England.");
    clock.advance(48 * 3600 * 1000);
    let ev = host.fire_due_deadlines().unwrap();
    assert_eq!(ev, vec![DeadlineEvent::Resolved(id)]);
    let v = host.view(id, None).unwrap();
    assert!(format!("{v:?}").contains("Fall 1901"), "{v:?}");
}

// ---------------------------------------------------------------------------
// Takeover of a seat in civil disorder, by a person or an AI.

use games::diplomacy::Diplomacy;
use games::seam::Outcome;
use host::{AnnouncementKind, GameId, HostError, OutboxItem};
use store::{GameStatus, Occupant, Target};

const HOUR: i64 = 3600 * 1000;

fn diplomacy_host(dir: &std::path::Path, name: &str, clock: Arc<ManualClock>) -> Host {
    host_builder::diplomacy_host(&dir.join(name), clock, host_builder::settings(1000, 0))
}

/// A started game: users `u0`.. in the seats not listed in `ai`, the default AI in those.
fn started(host: &Host, ai: &[usize]) -> GameId {
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: "dip".into(),
            creator_id: "u0".into(),
            creator_name: "U0".into(),
            options: serde_json::Value::Null,
            seed: Some(5),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    for s in 1..7 {
        if ai.contains(&s) {
            host.add_ai(id, "u0", None, Some(s)).unwrap();
        } else {
            host.join(id, &format!("u{s}"), &format!("U{s}"), Some(s))
                .unwrap();
        }
    }
    host.start(id, "u0").unwrap();
    id
}

fn engine(host: &Host, id: GameId) -> Diplomacy {
    serde_json::from_str(host.game(id).unwrap().state.as_deref().unwrap()).unwrap()
}

fn outbox(host: &Host) -> Vec<(Target, host::Announcement)> {
    host.unsent(100_000)
        .unwrap()
        .into_iter()
        .map(
            |OutboxItem {
                 target,
                 announcement,
                 ..
             }| (target, announcement.unwrap()),
        )
        .collect()
}

fn user_error(r: Result<usize, HostError>) -> String {
    match r {
        Err(HostError::User(m)) => m,
        other => panic!("expected a user error, got {other:?}"),
    }
}

#[test]
fn a_power_in_civil_disorder_is_taken_over_and_its_new_orders_count() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = diplomacy_host(dir.path(), "t.db", clock.clone());
    let id = started(&host, &[]);
    let eng = std_power("England").index();
    assert!(host.open_seats(id).unwrap().is_empty());
    let refused = user_error(host.takeover(id, "bob", "Bob", None));
    assert!(
        refused.contains("No seat") && refused.contains("civil disorder"),
        "{refused}"
    );

    // England (u1) misses Spring and Fall 1901: civil disorder.
    host_builder::phase_missing(&host, &clock, id, &["u1"]);
    assert!(host.open_seats(id).unwrap().is_empty());
    host_builder::phase_missing(&host, &clock, id, &["u1"]);
    let g = engine(&host, id);
    assert!(g.in_disorder(std_power("England")), "{}", g.phase_name());
    assert_eq!(g.phase_name(), "Spring 1902 movement");
    assert_eq!(host.open_seats(id).unwrap(), vec![eng]);
    let v = host.view(id, None).unwrap();
    assert!(
        !v.seats[eng].awaited,
        "a power in civil disorder is not awaited"
    );

    // Clear refusals: already seated, a seat that is not open, no such seat.
    let e = user_error(host.takeover(id, "u2", "U2", None));
    assert!(e.contains("already play France"), "{e}");
    let e = user_error(host.takeover(id, "bob", "Bob", Some(std_power("France").index())));
    assert!(
        e.contains("France (seat 3) is not open") && e.contains("Open seats: England (seat 2)"),
        "{e}"
    );
    let e = user_error(host.takeover(id, "bob", "Bob", Some(9)));
    assert!(
        e.contains("no seat 10") && e.contains("England (seat 2)"),
        "{e}"
    );
    assert_eq!(host.seat_by_name(id, "eng").unwrap(), eng);
    assert_eq!(host.seat_by_name(id, "England").unwrap(), eng);
    assert_eq!(host.seat_by_name(id, "2").unwrap(), eng);
    let e = match host.seat_by_name(id, "Atlantis") {
        Err(HostError::User(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(e.contains("Austria, England"), "{e}");

    // Bob takes the open seat: the seat, the channel and Bob are told.
    let sent_before = outbox(&host).len();
    assert_eq!(host.takeover(id, "bob", "Bob", None).unwrap(), eng);
    let seats = host.seats(id).unwrap();
    assert_eq!(seats[eng].occupant, Occupant::User("bob".into()));
    assert_eq!(seats[eng].display_name, "Bob");
    let new: Vec<_> = outbox(&host).into_iter().skip(sent_before).collect();
    assert!(
        new.iter().any(|(t, a)| *t == Target::Channel("dip".into())
            && a.text.contains("Bob takes over England")),
        "{new:?}"
    );
    assert!(
        new.iter().any(|(t, a)| *t == Target::User("bob".into())
            && a.kind == AnnouncementKind::Prompt
            && a.text.contains("as England")),
        "{new:?}"
    );
    // The takeover moved the turn number on, so every player still to
    // decide gets a prompt (and buttons) for the new turn.
    let turn_now = host.game(id).unwrap().turn;
    let to_decide: Vec<String> = host
        .view(id, None)
        .unwrap()
        .seats
        .iter()
        .filter(|s| s.awaited && !s.acted)
        .filter_map(|s| match &s.occupant {
            Occupant::User(u) => Some(u.clone()),
            _ => None,
        })
        .collect();
    assert!(to_decide.len() > 1, "{to_decide:?}");
    for u in &to_decide {
        assert!(
            new.iter().any(|(t, a)| *t == Target::User(u.clone())
                && a.kind == AnnouncementKind::Prompt
                && a.turn == turn_now),
            "{u} has no prompt for turn {turn_now}: {new:?}"
        );
    }
    let v = host.view(id, Some("bob")).unwrap();
    assert_eq!(v.viewer_seat, Some(eng));
    assert!(v.seats[eng].awaited, "England must act in this phase again");
    assert!(!engine(&host, id).in_disorder(std_power("England")));
    // The old player is out; the new one cannot take a second seat.
    let e = match host.submit(Some(id), "u1", "done") {
        Err(HostError::User(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(e.contains("not playing"), "{e}");
    let e = user_error(host.takeover(id, "bob", "Bob", None));
    assert!(e.contains("already play England"), "{e}");

    // Bob's orders count in this phase.
    let r = host
        .submit(
            Some(id),
            "bob",
            "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\ndone",
        )
        .unwrap();
    assert!(!r.resolved);
    host_builder::phase_missing(&host, &clock, id, &[]);
    let g = engine(&host, id);
    let english: Vec<String> = g
        .units()
        .iter()
        .filter(|u| u.power == std_power("England"))
        .map(|u| games::diplomacy::order::unit_name(games::diplomacy::geo::Map::standard(), u))
        .collect();
    assert!(english.iter().any(|u| u.contains("Nth")), "{english:?}");
    assert!(english.iter().any(|u| u.contains("Yor")), "{english:?}");
    assert_eq!(g.missed_moves(std_power("England")), 0);
    // The log replays the takeover exactly.
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
}

#[test]
fn a_player_whose_power_is_in_civil_disorder_may_take_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = diplomacy_host(dir.path(), "t.db", clock.clone());
    let id = started(&host, &[5, 6]);
    let ger = std_power("Germany").index();
    host.submit(Some(id), "u0", "A Vie - Gal").unwrap();
    host.forfeit(id, "u3").unwrap();
    assert_eq!(host.open_seats(id).unwrap(), vec![ger]);
    // Austria's pending orders survive the forfeit and the takeover, and
    // the deadline keeps its time.
    let due = host.view(id, None).unwrap().deadline.unwrap();
    clock.advance(HOUR);
    assert_eq!(host.takeover(id, "u3", "U3", None).unwrap(), ger);
    assert!(host.open_seats(id).unwrap().is_empty());
    let pending = host.own_pending(id, "u0").unwrap().unwrap();
    assert!(pending.contains("A Vie - Gal"), "{pending}");
    assert_eq!(host.view(id, None).unwrap().deadline, Some(due));
    // Only the creator adds an AI; an aborted game has no seat to take.
    let e = user_error(host.add_ai(id, "u1", None, None));
    assert!(e.contains("Only the creator"), "{e}");
    host.abort(id, "u0", false).unwrap();
    let e = user_error(host.takeover(id, "bob", "Bob", None));
    assert!(e.contains("aborted"), "{e}");
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
}

#[test]
fn the_ai_fills_a_seat_in_civil_disorder_and_its_orders_are_submitted() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = diplomacy_host(dir.path(), "t.db", clock.clone());
    let id = started(&host, &[]);
    let tur = std_power("Turkey").index();
    host_builder::phase_missing(&host, &clock, id, &["u6"]);
    host_builder::phase_missing(&host, &clock, id, &["u6"]);
    assert_eq!(host.open_seats(id).unwrap(), vec![tur]);
    let e = user_error(host.add_ai(id, "u1", None, None));
    assert!(e.contains("Only the creator"), "{e}");
    let e = user_error(host.add_ai(id, "u0", Some("genius"), None));
    assert!(e.contains("no AI level"), "{e}");
    let e = user_error(host.add_ai(id, "u0", None, Some(0)));
    assert!(e.contains("Austria (seat 1) is not open"), "{e}");
    assert_eq!(host.add_ai(id, "u0", None, None).unwrap(), tur);
    let seats = host.seats(id).unwrap();
    assert_eq!(seats[tur].occupant, Occupant::Ai("default".into()));
    assert!(
        outbox(&host)
            .iter()
            .any(|(_, a)| a.text.contains("An AI (default) takes over Turkey")),
    );
    // The humans are done; the AI moves and completes the phase.
    let turn = host.game(id).unwrap().turn;
    for s in 0..6 {
        host.submit(Some(id), &format!("u{s}"), "done").unwrap();
    }
    assert_eq!(host.game(id).unwrap().turn, turn, "waits for the AI");
    assert!(host.run_ai_turns(Some(id), 5).unwrap() >= 1);
    assert_eq!(host.game(id).unwrap().turn, turn + 1);
    let log = host.game_log(id).unwrap();
    let last = log.turns.last().unwrap();
    let host::TurnActions::Moves(acts) = &last.step else {
        panic!("{:?}", last.step)
    };
    let turkish = &acts[&tur];
    assert_eq!(turkish["ai"], serde_json::json!(true));
    assert!(
        !turkish["orders"].as_array().unwrap().is_empty(),
        "the AI gave orders: {turkish}"
    );
    assert!(!engine(&host, id).in_disorder(std_power("Turkey")));
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
}

// ---------------------------------------------------------------------------
// Draw votes stay secret through the host.

/// Two identical games; in `voted` Austria and France vote for a draw.
#[test]
fn draw_votes_are_secret_in_every_view_and_announcement_until_unanimous() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let voted = diplomacy_host(dir.path(), "a.db", clock.clone());
    let quiet = diplomacy_host(dir.path(), "b.db", clock.clone());
    let ai = [5, 6];
    let a = started(&voted, &ai);
    let b = started(&quiet, &ai);
    assert_eq!(a, b);
    let (aus, fra) = ("u0", "u2");
    let same_for_others = |when: &str| {
        for viewer in [None, Some("u1"), Some("u3"), Some("u4"), Some("nobody")] {
            assert_eq!(
                format!("{:?}", voted.view(a, viewer).unwrap()),
                format!("{:?}", quiet.view(b, viewer).unwrap()),
                "{when}: the view of {viewer:?} reveals a vote"
            );
        }
        assert_eq!(
            outbox(&voted),
            outbox(&quiet),
            "{when}: an announcement reveals a vote"
        );
    };
    voted.submit(Some(a), aus, "draw\ndone").unwrap();
    quiet.submit(Some(b), aus, "done").unwrap();
    same_for_others("after one vote");
    voted.submit(Some(a), fra, "draw").unwrap();
    voted.submit(Some(a), fra, "done").unwrap();
    quiet.submit(Some(b), fra, "done").unwrap();
    same_for_others("after two votes");
    // The voter sees their own vote; nobody else does.
    assert!(voted.own_pending(a, fra).unwrap().unwrap().contains("draw"));
    for host in [&voted, &quiet] {
        for u in ["u1", "u3", "u4"] {
            host.submit(Some(a), u, "done").unwrap();
        }
        host.run_ai_turns(Some(a), 10).unwrap();
    }
    assert_eq!(voted.game(a).unwrap().turn, 1);
    same_for_others("after the phase resolved");
    for u in [aus, fra] {
        assert_eq!(
            format!("{:?}", voted.view(a, Some(u)).unwrap()),
            format!("{:?}", quiet.view(b, Some(u)).unwrap()),
        );
    }
    assert_eq!(voted.game(a).unwrap().status, GameStatus::Running);

    // England leaves (civil disorder counts as accepting), the AI powers
    // accept, Germany and Italy vote now: the game is a draw of all seven.
    voted.forfeit(a, "u1").unwrap();
    voted.submit(Some(a), "u3", "draw\ndone").unwrap();
    for u in [aus, fra] {
        voted.submit(Some(a), u, "done").unwrap();
    }
    assert_eq!(voted.game(a).unwrap().status, GameStatus::Running);
    voted.submit(Some(a), "u4", "draw\ndone").unwrap();
    voted.run_ai_turns(Some(a), 10).unwrap();
    let row = voted.game(a).unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    let outcome: Outcome = serde_json::from_str(row.outcome.as_deref().unwrap()).unwrap();
    assert_eq!(outcome, Outcome::Draw((0..7).collect()));
    let finished = outbox(&voted)
        .into_iter()
        .find(|(_, x)| x.kind == AnnouncementKind::Finished)
        .unwrap();
    assert!(
        finished
            .1
            .text
            .contains("a draw between U0, U1, U2, U3, U4, AI (default), AI (default)"),
        "{}",
        finished.1.text
    );
}

// ---------------------------------------------------------------------------
// Deadline extensions.

#[test]
fn a_player_extends_the_deadline_once_per_phase_by_half_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = host_builder::diplomacy_host(
        &dir.path().join("t.db"),
        clock.clone(),
        host_builder::settings(1000, 20),
    );
    let id = started(&host, &[]);
    assert_eq!(host.view(id, None).unwrap().deadline, Some(48 * HOUR));
    clock.advance(30 * HOUR);
    // Germany has left: a seat in civil disorder cannot ask.
    host.forfeit(id, "u3").unwrap();
    let e = match host.extend_deadline(id, "u3") {
        Err(HostError::User(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(e.contains("You have left"), "{e}");
    // The forfeit began the turn again: 48 h from now.
    assert_eq!(host.view(id, None).unwrap().deadline, Some(78 * HOUR));
    clock.advance(47 * HOUR);
    let sent = outbox(&host).len();
    assert_eq!(host.extend_deadline(id, "u2").unwrap(), 102 * HOUR);
    assert_eq!(host.view(id, None).unwrap().deadline, Some(102 * HOUR));
    let told: Vec<String> = outbox(&host)
        .into_iter()
        .skip(sent)
        .filter(|(t, _)| *t == Target::Channel("dip".into()))
        .map(|(_, a)| a.text)
        .collect();
    assert_eq!(
        told,
        vec!["U2 (France) asked for more time: the deadline of diplomacy #1 moves 24 h later."]
    );
    for (user, want) in [
        ("u4", "already extended (at most 1 per turn)"),
        ("bob", "not playing"),
    ] {
        match host.extend_deadline(id, user) {
            Err(HostError::User(m)) => assert!(m.contains(want), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    // The old deadline passes quietly; the reminder moved with it (20% of
    // 48 h before the new deadline), then the phase resolves at the new one.
    let set = |t: i64| clock.advance(t - host::Clock::now_ms(clock.as_ref()));
    set(78 * HOUR + 1);
    assert!(host.fire_due_deadlines().unwrap().is_empty());
    set(102 * HOUR - (48 * HOUR) * 20 / 100);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Reminded(id)]
    );
    set(102 * HOUR);
    assert_eq!(
        host.fire_due_deadlines().unwrap(),
        vec![DeadlineEvent::Resolved(id)]
    );
    assert_eq!(engine(&host, id).phase_name(), "Fall 1901 movement");
    // A new phase may be extended again.
    assert_eq!(
        host.extend_deadline(id, "u4").unwrap(),
        102 * HOUR + 48 * HOUR + 24 * HOUR
    );
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
}

#[test]
fn a_game_without_extensions_refuses_them() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = diplomacy_host(dir.path(), "t.db", clock);
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: None,
            channel_id: "dip".into(),
            creator_id: "u0".into(),
            creator_name: "U0".into(),
            options: serde_json::json!({"extensions": 0}),
            seed: Some(1),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    for _ in 1..7 {
        host.add_ai(id, "u0", Some("hold"), None).unwrap();
    }
    host.start(id, "u0").unwrap();
    match host.extend_deadline(id, "u0") {
        Err(HostError::User(m)) => assert!(m.contains("grants no deadline extensions"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// A turn log written by an older gamehost lacks fields added since (here
/// `ai_held`); the engine defaults them on load, so replay (and with it
/// `gamehost check`) must not call that a divergence.
#[test]
fn replay_accepts_logged_states_from_before_a_field_was_added() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = diplomacy_host(dir.path(), "old.db", clock.clone());
    let id = started(&host, &[]);
    host_builder::phase_missing(&host, &clock, id, &[]);
    host_builder::phase_missing(&host, &clock, id, &[]);
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
    drop(host);

    let conn = rusqlite::Connection::open(dir.path().join("old.db")).unwrap();
    let changed = conn
        .execute(
            "UPDATE turn_log SET state_after = json_remove(state_after, '$.ai_held') WHERE game_id = ?1",
            [id],
        )
        .unwrap();
    assert_eq!(changed, 2);
    drop(conn);

    let host = diplomacy_host(dir.path(), "old.db", clock);
    let r = host.replay(id).unwrap();
    assert_eq!((r.turns, r.first_divergence), (2, None));
}

/// `/game history` shows a seat's own orders only to its player, and after a
/// takeover only those since: the newcomer never reads the orders (nor the
/// draw vote) of the player who left.
#[test]
fn history_hides_a_previous_players_orders_from_whoever_takes_the_seat() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = diplomacy_host(dir.path(), "h.db", clock.clone());
    let id = started(&host, &[]);
    host.submit(Some(id), "u1", "F lon - nth\ndraw\ndone")
        .unwrap();
    host_builder::phase_missing(&host, &clock, id, &[]);
    let own = |viewer: &str| -> Vec<(u32, Option<String>)> {
        let mut out = Vec::new();
        for page in 1..=host.history(id, Some(1), Some(viewer)).unwrap().pages {
            for t in host.history(id, Some(page), Some(viewer)).unwrap().turns {
                let mine = t
                    .moves
                    .iter()
                    .find(|m| m.seat == 1)
                    .and_then(|m| m.action.clone());
                out.push((t.turn, mine));
            }
        }
        out
    };
    let alice_saw = own("u1");
    assert!(
        alice_saw[0]
            .1
            .as_deref()
            .is_some_and(|a| a.contains("draw") || a.contains("Draw")),
        "{alice_saw:?}"
    );
    // England stops answering until civil disorder; Bob takes it over.
    while !engine(&host, id).in_disorder(std_power("England")) {
        host_builder::phase_missing(&host, &clock, id, &["u1"]);
    }
    host.takeover(id, "bob", "Bob", Some(1)).unwrap();
    let taken_at = host.game(id).unwrap().turn;
    while host.game(id).unwrap().turn == taken_at {
        host_builder::phase_missing(&host, &clock, id, &[]);
    }
    let bob_saw = own("bob");
    assert!(!bob_saw.is_empty());
    for (turn, action) in &bob_saw {
        if *turn <= taken_at {
            assert_eq!(
                action, &None,
                "turn {turn} was the previous player's: {bob_saw:?}"
            );
        }
    }
    assert!(
        bob_saw.iter().any(|(t, a)| *t > taken_at && a.is_some()),
        "Bob's own orders since the takeover are shown: {bob_saw:?}"
    );
}

/// A power already out (here: left by forfeit) can neither forfeit again,
/// which would restart the phase and its deadline, nor ask for more time.
#[test]
fn a_power_out_of_play_cannot_forfeit_again_or_extend_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = diplomacy_host(dir.path(), "out.db", clock);
    let id = started(&host, &[]);
    host.forfeit(id, "u2").unwrap();
    let turn = host.game(id).unwrap().turn;
    let deadline = host.view(id, None).unwrap().deadline;
    let err = host.forfeit(id, "u2").unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("already out"), "{err}");
    let err = host.extend_deadline(id, "u2").unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert_eq!(host.game(id).unwrap().turn, turn);
    assert_eq!(host.view(id, None).unwrap().deadline, deadline);
    // A player still in the game may.
    host.extend_deadline(id, "u3").unwrap();
}

/// The turn log keeps each resolved phase's adjudicated orders, and the
/// orders image drawn from them is the one drawn by judging the actions again.
#[test]
fn the_turn_log_keeps_the_adjudicated_orders_for_the_orders_image() {
    use games::diplomacy::game::PhaseDetail;
    use host::TurnActions;
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = diplomacy_host(dir.path(), "detail.db", clock.clone());
    let id = started(&host, &[]);
    host.submit(Some(id), "u0", "A Vie - Tyr\ndone").unwrap();
    host.submit(Some(id), "u4", "A Ven - Tyr\ndone").unwrap();
    host_builder::phase_missing(&host, &clock, id, &[]);
    let (actions, report) = host.turn_record(id, 1).unwrap();
    let detail: PhaseDetail = serde_json::from_value(report.detail.clone().unwrap()).unwrap();
    // Austria and Italy bounce in Tyrolia.
    assert_eq!(detail.orders.len(), 2, "{detail:?}");
    assert!(
        detail
            .orders
            .iter()
            .all(|o| !o.success && o.reason.is_some())
    );
    assert!(
        detail
            .orders
            .iter()
            .any(|o| o.power == std_power("Austria"))
    );
    let TurnActions::Moves(moves) = actions else {
        panic!("turn 1 holds moves");
    };
    let before = host.state_at(id, 0).unwrap();
    let from_detail = render::orders_png_from_report(before.as_ref(), &report, &moves)
        .unwrap()
        .unwrap();
    let judged_again = render::orders_png(before.as_ref(), &moves)
        .unwrap()
        .unwrap();
    assert_eq!(from_detail, judged_again);
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
