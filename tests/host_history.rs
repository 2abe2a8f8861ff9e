//! `Host::history`, `Host::state_at` and `Host::turn_actions` on a real
//! SQLite file: pages of the turn log, who may read which action, and the
//! engine as it was after any turn.

mod support;

use host::{HISTORY_PAGE, Host, ManualClock, TurnActions};
use serde_json::{Value, json};
use std::sync::Arc;
use store::{GameStatus, TimeoutPolicy};
use support::rps::{host_at, new_rps};

/// A started game between alice (seat 1) and bob (seat 2) needing `wins` wins.
fn started(host: &Host, wins: u32) -> i64 {
    let id = host
        .create_game(host::NewGame {
            options: json!({ "wins": wins }),
            ..new_rps("c1", None, TimeoutPolicy::Default)
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    id
}

fn state(host: &Host, id: i64, turn: u32) -> Value {
    serde_json::from_str(&host.state_at(id, turn).unwrap().state_json()).unwrap()
}

/// Alice throws paper and bob rock every round, one second apart: alice
/// wins each round.
fn play(host: &Host, clock: &ManualClock, id: i64, rounds: u32) {
    for _ in 0..rounds {
        clock.advance(1_000);
        host.submit(Some(id), "alice", "paper").unwrap();
        host.submit(Some(id), "bob", "rock").unwrap();
    }
}

#[test]
fn history_pages_show_reports_to_all_and_actions_to_their_own_player() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = started(&host, 15);
    // No turns yet: one empty page.
    let h = host.history(id, None, Some("alice")).unwrap();
    assert_eq!((h.page, h.pages, h.total), (1, 1, 0));
    assert!(h.turns.is_empty());

    play(&host, &clock, id, 12);
    assert_eq!(HISTORY_PAGE, 10);
    let last = host.history(id, None, Some("alice")).unwrap();
    assert_eq!((last.page, last.pages, last.total), (2, 2, 12));
    let numbers: Vec<u32> = last.turns.iter().map(|t| t.turn).collect();
    assert_eq!(numbers, vec![11, 12]);
    let t = &last.turns[1];
    assert_eq!(t.report, "Round 12: paper vs rock. Score 12-0.");
    assert_eq!(t.resolved_at, 1_000_000 + 12_000);
    assert_eq!(t.moves.len(), 2);
    assert_eq!(t.moves[0].role, "Player 1");
    assert_eq!(t.moves[0].action.as_deref(), Some("paper"));
    assert_eq!(t.moves[1].role, "Player 2");
    assert_eq!(
        t.moves[1].action, None,
        "bob's throw is not alice's to read"
    );
    assert!(t.moves.iter().all(|m| !m.forfeited));

    let first = host.history(id, Some(1), Some("bob")).unwrap();
    assert_eq!((first.page, first.pages), (1, 2));
    let numbers: Vec<u32> = first.turns.iter().map(|t| t.turn).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
    assert_eq!(first.turns[0].report, "Round 1: paper vs rock. Score 1-0.");
    assert_eq!(first.turns[0].moves[0].action, None);
    assert_eq!(first.turns[0].moves[1].action.as_deref(), Some("rock"));

    // A spectator reads the reports and no one's actions.
    let spectator = host.history(id, Some(2), None).unwrap();
    assert_eq!(spectator.turns.len(), 2);
    assert!(
        spectator
            .turns
            .iter()
            .flat_map(|t| &t.moves)
            .all(|m| m.action.is_none())
    );
    let stranger = host.history(id, Some(2), Some("carol")).unwrap();
    assert_eq!(stranger, spectator);

    // Pages that do not exist are user errors naming the range.
    for bad in [0, 3] {
        let err = host.history(id, Some(bad), None).unwrap_err();
        assert!(err.is_user_error(), "{err}");
        assert!(err.to_string().contains("from 1 to 2"), "{err}");
    }
    let err = host.history(999, None, None).unwrap_err();
    assert!(err.to_string().contains("no game #999"), "{err}");
}

#[test]
fn a_forfeit_turn_names_the_seat_that_gave_up() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = started(&host, 3);
    play(&host, &clock, id, 1);
    host.forfeit(id, "bob").unwrap();
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    let h = host.history(id, None, Some("alice")).unwrap();
    assert_eq!(h.total, 2);
    let t = &h.turns[1];
    assert!(t.report.contains("forfeits"), "{}", t.report);
    assert_eq!(t.moves.len(), 1);
    assert_eq!(t.moves[0].seat, 1);
    assert!(t.moves[0].forfeited);
    assert_eq!(
        host.turn_actions(id, 2).unwrap(),
        TurnActions::Forfeit(vec![1])
    );
    // The finished game's last state is the one after the forfeit.
    assert_eq!(state(&host, id, 2)["winner"], json!(0));
    assert_eq!(state(&host, id, 1)["winner"], Value::Null);
}

#[test]
fn state_at_rebuilds_the_start_and_reads_each_logged_turn() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = started(&host, 15);
    // Turn 0 is rebuilt from the stored options (15 wins, not the default 2).
    let s0 = state(&host, id, 0);
    assert_eq!(s0["wins_needed"], json!(15));
    assert_eq!(s0["round"], json!(0));
    play(&host, &clock, id, 3);
    for turn in 0..=3u32 {
        let s = state(&host, id, turn);
        assert_eq!(s["round"], json!(turn));
        assert_eq!(s["score"], json!([turn, 0]));
    }
    // The last turn's state is the game's current one.
    let current: Value =
        serde_json::from_str(host.game(id).unwrap().state.as_deref().unwrap()).unwrap();
    assert_eq!(state(&host, id, 3), current);
    // A turn the game has not reached is a user error with the range.
    let err = host.state_at(id, 4).err().unwrap();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("from 0 (the start) to 3"), "{err}");
    // What turn 2 applied, seat by seat.
    match host.turn_actions(id, 2).unwrap() {
        TurnActions::Moves(m) => {
            assert_eq!(m.len(), 2);
            assert_eq!(m[&0], json!("Paper"));
            assert_eq!(m[&1], json!("Rock"));
        }
        other => panic!("{other:?}"),
    }
    let err = host.turn_actions(id, 0).unwrap_err();
    assert!(
        err.is_user_error() && err.to_string().contains("numbered from 1"),
        "{err}"
    );
    assert!(host.turn_actions(id, 4).unwrap_err().is_user_error());
}

#[test]
fn a_game_in_the_lobby_has_no_states_yet() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(
        &dir.path().join("g.db"),
        Arc::new(ManualClock::at(1_000_000)),
    );
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    let err = host.state_at(id, 0).err().unwrap();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("has not started"), "{err}");
    let h = host.history(id, None, None).unwrap();
    assert_eq!(h.total, 0);
    let err = host.state_at(12345, 0).err().unwrap();
    assert!(err.to_string().contains("no game #12345"), "{err}");
}

/// The ids of the running games created in `channel` and played elsewhere.
fn moved_from(host: &Host, channel: &str) -> Vec<i64> {
    host.games_moved_from_channel(channel, 5)
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect()
}

/// A game that started in a channel and moved to its thread is still found
/// from that channel (status, history), and is named among the games
/// played elsewhere, while the channel itself is free for a new lobby.
#[test]
fn a_game_moved_to_its_thread_is_still_found_from_its_channel() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = host_at(&dir.path().join("g.db"), clock);
    let lobby = |id: i64| host::PostedMessage {
        game_id: id,
        key: "lobby".into(),
        channel_id: "c1".into(),
        message_id: format!("m{id}"),
        content: String::new(),
    };
    let first = started(&host, 2);
    host.remember_message(lobby(first)).unwrap();
    assert_eq!(host.settle_home(first, "t1").unwrap(), "t1");
    // The channel has no game of its own now; the thread has the game.
    assert!(host.game_in_channel("c1").unwrap().is_none());
    assert_eq!(host.game_in_channel("t1").unwrap().unwrap().id, first);
    assert_eq!(host.shown_game_in_channel("c1").unwrap().unwrap().id, first);
    assert_eq!(moved_from(&host, "c1"), vec![first]);

    // A second game in the same channel, still in its lobby there: it is
    // the channel's own game, not one that moved.
    let second = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    host.remember_message(lobby(second)).unwrap();
    assert_eq!(host.game_in_channel("c1").unwrap().unwrap().id, second);
    assert_eq!(
        host.shown_game_in_channel("c1").unwrap().unwrap().id,
        second
    );
    assert_eq!(moved_from(&host, "c1"), vec![first]);
    // Another channel sees none of it.
    assert!(host.shown_game_in_channel("c2").unwrap().is_none());
    assert!(moved_from(&host, "c2").is_empty());

    // Once the thread's game is over it leaves the list of games to go to,
    // and the channel still shows its own lobby first.
    host.abort(first, "alice", false).unwrap();
    assert!(moved_from(&host, "c1").is_empty());
    assert_eq!(
        host.shown_game_in_channel("c1").unwrap().unwrap().id,
        second
    );
    host.abort(second, "alice", false).unwrap();
    // With both ended, the newest is shown.
    assert_eq!(
        host.shown_game_in_channel("c1").unwrap().unwrap().id,
        second
    );
    assert_eq!(
        host.game(first).unwrap().status,
        GameStatus::Aborted,
        "the first game stays reachable by id"
    );
}
