//! Ratings through the host: a game's end and its rating change commit
//! together, forfeits are losses, aborted and AI games change nothing
//! (unless the server opts in), and the migration rates games that ended
//! before ratings existed, in order.

mod support;

use host::{GameRules, Host, ManualClock, NewGame, Scoring};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use store::{GameStatus, TimeoutPolicy};
use support::rps::{host_at, new_rps};

/// An rps game to one win between Alice (seat 1) and Bob (seat 2).
fn duel(host: &Host, channel: &str) -> i64 {
    let id = host
        .create_game(NewGame {
            options: json!({"wins": 1}),
            ..new_rps(channel, None, TimeoutPolicy::Default)
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    id
}

/// Alice beats Bob in game `id`.
fn alice_wins(host: &Host, id: i64) {
    host.submit(Some(id), "alice", "paper").unwrap();
    host.submit(Some(id), "bob", "rock").unwrap();
}

fn rating(host: &Host, user: &str) -> Option<(f64, f64)> {
    host.profile(Some("guild"), user)
        .unwrap()
        .kinds
        .iter()
        .find(|k| k.kind == "rps")
        .and_then(|k| k.rating)
}

fn finished_text(host: &Host, id: i64) -> String {
    host.unsent_of_game(id)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.announcement.ok())
        .find(|a| a.kind == host::AnnouncementKind::Finished)
        .map(|a| a.text)
        .expect("a final message")
}

fn new_host(dir: &Path) -> Host {
    host_at(&dir.join("g.db"), Arc::new(ManualClock::at(1_000)))
}

#[test]
fn a_finished_duel_rates_both_players_by_glicko2_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    let id = duel(&host, "c1");
    alice_wins(&host, id);
    // Two new players, one win: the crate's published 1662 / 1338, ± 290.
    let (a, ad) = rating(&host, "alice").unwrap();
    let (b, bd) = rating(&host, "bob").unwrap();
    assert_eq!((a.round(), ad.round()), (1662.0, 290.0));
    assert_eq!((b.round(), bd.round()), (1338.0, 290.0));
    let text = finished_text(&host, id);
    assert!(
        text.contains("Ratings: Alice 1500 → 1662 (+162), Bob 1500 → 1338 (-162)."),
        "{text}"
    );
    let p = host.profile(Some("guild"), "alice").unwrap();
    let k = &p.kinds[0];
    assert_eq!(
        (k.games, k.wins, k.losses, k.streak, k.place),
        (1, 1, 0, 1, Some(1))
    );
    assert_eq!(p.recent[0].game_id, id);
    assert_eq!(p.recent[0].change.map(|(b, _)| b), Some(1500.0));
    // Another server has its own ladder.
    assert!(
        host.profile(Some("elsewhere"), "alice")
            .unwrap()
            .kinds
            .is_empty()
    );
}

/// The end of a game and its rating change are one transaction: when the
/// rating write fails (a trigger stands in for a crash between the two),
/// the game is not finished either; once it can, both are there.
#[test]
fn the_end_and_the_rating_change_commit_together_or_not_at_all() {
    if support::host_builder::sqlite_only("a SQLite trigger simulates the crash") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    let id = duel(&host, "c1");
    let db = rusqlite::Connection::open(dir.path().join("g.db")).unwrap();
    db.execute_batch(
        "CREATE TRIGGER crash_between BEFORE INSERT ON ratings \
         BEGIN SELECT RAISE(ABORT, 'crash between the end and the rating'); END;",
    )
    .unwrap();
    host.submit(Some(id), "alice", "paper").unwrap();
    let err = host.submit(Some(id), "bob", "rock").unwrap_err();
    assert!(err.to_string().contains("crash between"), "{err}");
    // Neither happened: the game runs on at the same turn, nobody is rated,
    // no result and no final message were written.
    let row = host.game(id).unwrap();
    assert_eq!((row.status, row.turn), (GameStatus::Running, 0));
    assert_eq!(rating(&host, "alice"), None);
    let results: i64 = db
        .query_row("SELECT COUNT(*) FROM game_results", [], |r| r.get(0))
        .unwrap();
    assert_eq!(results, 0);
    db.execute_batch("DROP TRIGGER crash_between").unwrap();
    // Alice's throw had committed before; Bob's throw, sent again, ends the
    // game now, with both changes.
    host.submit(Some(id), "bob", "rock").unwrap();
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    assert_eq!(rating(&host, "alice").map(|r| r.0.round()), Some(1662.0));
}

#[test]
fn a_forfeit_is_a_loss_and_counted_as_a_forfeit() {
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    let id = duel(&host, "c1");
    host.forfeit(id, "bob").unwrap();
    assert_eq!(rating(&host, "bob").map(|r| r.0.round()), Some(1338.0));
    let p = host.profile(Some("guild"), "bob").unwrap();
    assert_eq!(
        (p.kinds[0].forfeits, p.kinds[0].losses, p.kinds[0].streak),
        (1, 0, -1)
    );
    assert_eq!(p.recent[0].result, "forfeit");
}

#[test]
fn an_aborted_game_changes_no_rating() {
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    let id = duel(&host, "c1");
    host.submit(Some(id), "alice", "paper").unwrap();
    host.abort(id, "alice", false).unwrap();
    assert_eq!(rating(&host, "alice"), None);
    assert!(
        host.profile(Some("guild"), "alice")
            .unwrap()
            .kinds
            .is_empty()
    );
}

#[test]
fn games_with_an_ai_are_unrated_unless_the_server_opts_in() {
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    let play_ai = |channel: &str| {
        let id = host
            .create_game(NewGame {
                options: json!({"wins": 1}),
                ..new_rps(channel, None, TimeoutPolicy::Default)
            })
            .unwrap();
        host.add_ai(id, "alice", Some("rock"), None).unwrap();
        host.start(id, "alice").unwrap();
        host.run_ai_turns(Some(id), 10).unwrap();
        host.submit(Some(id), "alice", "paper").unwrap();
        id
    };
    let id = play_ai("c1");
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    assert!(finished_text(&host, id).contains("Not rated: an AI played in it"));
    assert_eq!(rating(&host, "alice"), None);
    // Still a result on the profile.
    assert_eq!(
        host.profile(Some("guild"), "alice").unwrap().kinds[0].wins,
        1
    );

    host.set_rate_ai_seats(Some("guild"), true).unwrap();
    let id = play_ai("c2");
    assert!(finished_text(&host, id).contains("Ratings: Alice 1500 → 1662"));
    let board = host
        .leaderboard(Some("guild"), "rps", 1, Some("alice"))
        .unwrap();
    let players: Vec<&str> = board.entries.iter().map(|e| e.player.as_str()).collect();
    assert_eq!(players, ["alice", "ai:rock"]);
}

#[test]
fn an_unrated_game_records_results_but_no_rating() {
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    let id = host
        .create_game(NewGame {
            options: json!({"wins": 1}),
            ..new_rps("c1", None, TimeoutPolicy::Default)
        })
        .unwrap();
    let rules = GameRules {
        rated: false,
        ..GameRules::default()
    };
    host.set_game_rules(id, "alice", rules).unwrap();
    // Only the creator sets rules, and scoring needs more than two seats.
    assert!(host.set_game_rules(id, "bob", rules).is_err());
    let err = host
        .set_game_rules(
            id,
            "alice",
            GameRules {
                scoring: Some(Scoring::SumOfSquares),
                ..rules
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("no scoring to choose"), "{err}");
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    assert!(
        host.set_game_rules(id, "alice", GameRules::default())
            .is_err()
    );
    alice_wins(&host, id);
    assert!(finished_text(&host, id).contains("Not rated: its creator made it unrated."));
    assert_eq!(rating(&host, "alice"), None);
    assert_eq!(
        host.profile(Some("guild"), "bob").unwrap().kinds[0].losses,
        1
    );
}

/// A database of schema version 3 with finished games: opening it adds the
/// rating tables and the host rates those games in the order they ended,
/// giving the same ratings as rating each game as it ended.
#[test]
fn the_migration_rates_games_finished_before_it_in_order() {
    if support::host_builder::sqlite_only("builds a version-3 SQLite file") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The live run: three duels, rated as they end, at different times.
    let clock = Arc::new(ManualClock::at(1_000));
    let live = host_at(&dir.path().join("live.db"), clock.clone());
    for (i, (winner, loser)) in [("alice", "bob"), ("alice", "bob"), ("bob", "alice")]
        .iter()
        .enumerate()
    {
        let id = duel(&live, &format!("c{i}"));
        clock.advance(60_000);
        live.submit(Some(id), winner, "paper").unwrap();
        live.submit(Some(id), loser, "rock").unwrap();
    }
    let expected = (
        rating(&live, "alice").unwrap(),
        rating(&live, "bob").unwrap(),
    );
    drop(live);

    // The same games in a version-3 database.
    let old = dir.path().join("old.db");
    {
        let c = rusqlite::Connection::open(&old).unwrap();
        for m in [
            "0001_initial",
            "0002_deadline_extensions",
            "0003_idle_deadlines",
        ] {
            let sql = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("migrations/{m}.sql")),
            )
            .unwrap();
            c.execute_batch(&sql).unwrap();
        }
        c.pragma_update(None, "user_version", 3).unwrap();
        let live_path = dir.path().join("live.db");
        c.execute("ATTACH DATABASE ?1 AS live", [live_path.to_str().unwrap()])
            .unwrap();
        c.execute_batch(
            "INSERT INTO games SELECT id, kind, guild_id, channel_id, creator_id, status, \
             options, seed, state, turn, outcome, turn_seconds, timeout_policy, created_at, \
             updated_at FROM live.games;
             INSERT INTO seats SELECT * FROM live.seats;
             INSERT INTO turn_log SELECT * FROM live.turn_log;
             DETACH DATABASE live;",
        )
        .unwrap();
        let finished: i64 = c
            .query_row(
                "SELECT COUNT(*) FROM games WHERE status = 'finished'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(finished, 3);
    }
    let host = host_at(&old, Arc::new(ManualClock::at(10_000_000)));
    assert_eq!(
        host.store().schema_version().unwrap(),
        store::schema_version_known()
    );
    assert_eq!(host.rate_backlog().unwrap(), 3);
    let got = (
        rating(&host, "alice").unwrap(),
        rating(&host, "bob").unwrap(),
    );
    let round =
        |((a, b), (c, d)): ((f64, f64), (f64, f64))| [a, b, c, d].map(|x| (x * 1e6).round());
    assert_eq!(round(got), round(expected));
    let p = host.profile(Some("guild"), "alice").unwrap();
    assert_eq!(
        (p.kinds[0].wins, p.kinds[0].losses, p.kinds[0].streak),
        (2, 1, -1)
    );
    // Done once: nothing is left to rate.
    assert_eq!(host.rate_backlog().unwrap(), 0);
}

/// A deadline passed without a move is a missed deadline; a game can ask
/// for a minimum reliability to join.
#[test]
fn missed_deadlines_lower_reliability_and_a_game_may_require_it() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000));
    let host = host_at(&dir.path().join("g.db"), clock.clone());
    let id = host
        .create_game(NewGame {
            options: json!({"wins": 3}),
            ..new_rps("c1", Some(60), TimeoutPolicy::Default)
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    // Round 1: Bob lets the deadline pass. Round 2: both move.
    host.submit(Some(id), "alice", "rock").unwrap();
    clock.advance(61_000);
    host.fire_due_deadlines().unwrap();
    host.submit(Some(id), "alice", "rock").unwrap();
    host.submit(Some(id), "bob", "rock").unwrap();
    let r = host.reliability(Some("guild"), "bob").unwrap();
    assert_eq!((r.turns_awaited, r.missed_deadlines, r.percent), (2, 1, 50));
    assert_eq!(
        host.reliability(Some("guild"), "alice").unwrap().percent,
        100
    );
    host.abort(id, "alice", false).unwrap();

    let id = host
        .create_game(new_rps("c2", None, TimeoutPolicy::Default))
        .unwrap();
    host.set_game_rules(
        id,
        "alice",
        GameRules {
            min_reliability: Some(80),
            ..GameRules::default()
        },
    )
    .unwrap();
    let err = host.join(id, "bob", "Bob", None).unwrap_err();
    assert!(
        err.to_string()
            .contains("asks for a reliability of at least 80%; yours is 50% (1 missed deadline(s) in 2 turn(s)"),
        "{err}"
    );
    host.join(id, "carol", "Carol", None).unwrap();
}

/// Ten players a page; the viewer's own place on any page; a page past the
/// end shows the last.
#[test]
fn the_leaderboard_is_paged_by_ten_with_the_viewers_place() {
    let dir = tempfile::tempdir().unwrap();
    let host = new_host(dir.path());
    // Alice beats eleven others in turn.
    for i in 1..=11 {
        let id = host
            .create_game(NewGame {
                options: json!({"wins": 1}),
                ..new_rps(&format!("c{i}"), None, TimeoutPolicy::Default)
            })
            .unwrap();
        let p = format!("p{i:02}");
        host.join(id, &p, &p, None).unwrap();
        host.start(id, "alice").unwrap();
        host.submit(Some(id), "alice", "paper").unwrap();
        host.submit(Some(id), &p, "rock").unwrap();
    }
    let one = host
        .leaderboard(Some("guild"), "rps", 1, Some("p11"))
        .unwrap();
    assert_eq!((one.total, one.pages, one.entries.len()), (12, 2, 10));
    assert_eq!(one.entries[0].player, "alice");
    assert_eq!(one.entries[0].games, 11);
    let places: Vec<u32> = one.entries.iter().map(|e| e.place).collect();
    assert_eq!(places, (1..=10).collect::<Vec<_>>());
    let two = host
        .leaderboard(Some("guild"), "rps", 2, Some("p11"))
        .unwrap();
    assert_eq!(
        two.entries.iter().map(|e| e.place).collect::<Vec<_>>(),
        [11, 12]
    );
    // The viewer's place is the same on every page and matches the list.
    let me = one.viewer.clone().unwrap();
    assert_eq!(two.viewer, Some(me.clone()));
    let listed = one
        .entries
        .iter()
        .chain(&two.entries)
        .find(|e| e.player == "p11");
    assert_eq!(listed, Some(&me));
    assert_eq!(
        host.leaderboard(Some("guild"), "rps", 9, None)
            .unwrap()
            .page,
        2
    );
    // The list is in rating order.
    assert!(one.entries.windows(2).all(|w| w[0].rating >= w[1].rating));
}
