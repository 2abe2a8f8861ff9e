//! Several processes on one database (several stores, each with its own
//! connections, and two real OS processes): games between the same two
//! players ending at once are each counted once in ratings and
//! reliability; a deadlock between two
//! writes is retried, not returned; two games created in one channel at
//! once give the second creator the user error; a PostgreSQL error line
//! carries the server's reason.
//!
//! The ratings test runs on both back ends; the others force what only
//! PostgreSQL allows (row locks, a uniqueness race) and on SQLite runs say
//! so and return. Without a server (`GAMEHOST_TEST_PG_URL` unset) the
//! PostgreSQL pass skips loudly, unless `GAMEHOST_REQUIRE_POSTGRES=1`.

#[allow(dead_code)] // The support modules serve many test files.
mod support {
    pub mod host_builder;
    pub mod rps;
}

use host::{Host, ManualClock, NewGame, Registry, TimeoutPolicy};
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, mpsc};
use std::time::{Duration, Instant};
use store::{NewGameRow, Store, StoreError};
use support::host_builder::{fresh_database, on_postgres, settings};
use support::rps::{Rps, new_rps};

/// How to open another connection to the test's database.
enum Shared {
    /// A SQLite file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL database's URL.
    Postgres(String),
}

impl Shared {
    /// The test's database on this run's back end (`None`: skipped).
    fn new(dir: &Path) -> Option<Shared> {
        if on_postgres() {
            fresh_database(dir).map(Shared::Postgres)
        } else {
            Some(Shared::Sqlite(dir.join("shared.db")))
        }
    }

    /// A store with its own connection.
    fn store(&self) -> Store {
        match self {
            Shared::Sqlite(path) => Store::open(path).expect("open the SQLite store"),
            Shared::Postgres(url) => Store::open_postgres(url).expect("open the PostgreSQL store"),
        }
    }

    /// A host with rock-paper-scissors on its own connection.
    fn host(&self, clock: Arc<ManualClock>) -> Host {
        Host::new(
            Arc::new(self.store()),
            Registry::default().with::<Rps>(),
            clock,
            settings(50, 20),
        )
    }
}

/// The PostgreSQL database of a test that needs one, or `None` (after a
/// loud line) on SQLite runs and without a server.
fn postgres_only(dir: &Path, test: &str) -> Option<String> {
    if !on_postgres() {
        eprintln!("SKIPPED on SQLite: {test} forces a race only PostgreSQL allows");
        return None;
    }
    fresh_database(dir)
}

/// One game to one win in `channel`, created by `first` (seat 1) and joined
/// by `second`; `winner` throws paper, the other rock.
fn play_one(host: &Host, channel: &str, first: &str, second: &str, winner: &str) {
    let id = host
        .create_game(NewGame {
            creator_id: first.into(),
            creator_name: first.into(),
            options: json!({"wins": 1}),
            ..new_rps(channel, None, TimeoutPolicy::Default)
        })
        .unwrap();
    host.join(id, second, second, None).unwrap();
    host.start(id, first).unwrap();
    for player in [first, second] {
        let throw = if player == winner { "paper" } else { "rock" };
        host.submit(Some(id), player, throw).unwrap();
    }
}

/// Checks that a player's rated games form one chain: each game's rating
/// before is the rating after the one committed before it, from 1500. A
/// lost update shows as two games starting from the same rating.
fn assert_one_rating_chain(store: &Store, player: &str, games: usize) {
    let results = store
        .read(|tx| tx.results_of_player("guild", player, 10_000))
        .unwrap();
    assert_eq!(results.len(), games, "{player}'s results");
    let mut next: HashMap<u64, f64> = HashMap::new();
    for r in &results {
        let before = r.result.rating_before.expect("a rated game");
        let after = r.result.rating_after.expect("a rated game");
        assert!(
            next.insert(before.to_bits(), after).is_none(),
            "two of {player}'s games were rated from the same rating {before}: an update was lost"
        );
    }
    let mut rating = host::START_RATING;
    let mut chained = 0;
    while let Some(after) = next.get(&rating.to_bits()) {
        rating = *after;
        chained += 1;
    }
    assert_eq!(chained, games, "{player}'s ratings form one chain");
}

#[test]
fn games_between_the_same_players_from_several_stores_count_every_result_once() {
    const THREADS: usize = 4;
    const GAMES_EACH: usize = 12;
    let dir = tempfile::tempdir().unwrap();
    let Some(shared) = Shared::new(dir.path()) else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000));
    let hosts: Vec<Host> = (0..THREADS).map(|_| shared.host(clock.clone())).collect();
    let start = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for (t, host) in hosts.iter().enumerate() {
            let start = &start;
            s.spawn(move || {
                // Opposite seat orders: each thread's games lock the two
                // players' ratings in the other threads' seat order too.
                let (first, second) = if t % 2 == 0 {
                    ("alice", "bob")
                } else {
                    ("bob", "alice")
                };
                start.wait();
                for g in 0..GAMES_EACH {
                    let winner = if g % 3 == 0 { second } else { first };
                    play_one(host, &format!("t{t}-g{g}"), first, second, winner);
                }
            });
        }
    });
    let total = THREADS * GAMES_EACH;
    let host = &hosts[0];
    assert_each_result_counted_once(host, total);
}

/// Set in a child process of the two-process test: the database it plays
/// on (a SQLite path or a PostgreSQL URL).
const CHILD_DB: &str = "STORE_CONCURRENCY_CHILD_DB";
/// The child's number (0 or 1): its channels and its seat order.
const CHILD_INDEX: &str = "STORE_CONCURRENCY_CHILD_INDEX";
/// The file a child creates once its host is open.
const CHILD_READY: &str = "STORE_CONCURRENCY_CHILD_READY";
/// Games each of the two processes plays.
const PROCESS_GAMES: usize = 30;

/// The two-process test's name, which its child processes run alone.
const TWO_PROCESSES_TEST: &str =
    "games_between_the_same_players_from_two_os_processes_count_every_result_once";

/// The child role of the two-process test: opens its own store on the
/// parent's database, says it is ready, waits for the parent's word on
/// stdin, then plays its games in its own seat order.
fn play_as_child_process(db: &str) {
    use std::io::BufRead;
    let index: usize = std::env::var(CHILD_INDEX).unwrap().parse().unwrap();
    let shared = if db.starts_with("postgres") {
        Shared::Postgres(db.to_string())
    } else {
        Shared::Sqlite(db.into())
    };
    let host = shared.host(Arc::new(ManualClock::at(1_000)));
    std::fs::write(std::env::var(CHILD_READY).unwrap(), b"ready").unwrap();
    let mut go = String::new();
    std::io::stdin().lock().read_line(&mut go).unwrap();
    // Opposite seat orders: each process's games lock the two players'
    // ratings in the other's seat order too.
    let (first, second) = if index == 0 {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    };
    for g in 0..PROCESS_GAMES {
        let winner = if g % 3 == 0 { second } else { first };
        play_one(&host, &format!("p{index}-g{g}"), first, second, winner);
    }
}

#[test]
fn games_between_the_same_players_from_two_os_processes_count_every_result_once() {
    if let Ok(db) = std::env::var(CHILD_DB) {
        play_as_child_process(&db);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(shared) = Shared::new(dir.path()) else {
        return;
    };
    // Created (and migrated) here, so the children only open it.
    let host = shared.host(Arc::new(ManualClock::at(1_000)));
    let db = match &shared {
        Shared::Sqlite(path) => path.display().to_string(),
        Shared::Postgres(url) => url.clone(),
    };
    let exe = std::env::current_exe().unwrap();
    let mut children: Vec<_> = (0..2)
        .map(|i| {
            std::process::Command::new(&exe)
                .args(["--exact", TWO_PROCESSES_TEST, "--nocapture"])
                .env(CHILD_DB, &db)
                .env(CHILD_INDEX, i.to_string())
                .env(CHILD_READY, dir.path().join(format!("ready-{i}")))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(0..2).all(|i| dir.path().join(format!("ready-{i}")).exists()) {
        assert!(
            Instant::now() < deadline,
            "the child processes never got ready"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Both hosts are open: start their games together.
    for child in &mut children {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a child process failed: {}\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let total = 2 * PROCESS_GAMES;
    assert_each_result_counted_once(&host, total);
}

/// Two games' ids, created through `host` (rows to lock).
fn two_games(host: &Host) -> (i64, i64) {
    let a = host
        .create_game(new_rps("lock-a", None, TimeoutPolicy::Default))
        .unwrap();
    let b = host
        .create_game(new_rps("lock-b", None, TimeoutPolicy::Default))
        .unwrap();
    (a, b)
}

#[test]
fn a_deadlock_between_two_writes_is_retried_and_both_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = postgres_only(dir.path(), "a_deadlock_between_two_writes_is_retried") else {
        return;
    };
    let shared = Shared::Postgres(url);
    let clock = Arc::new(ManualClock::at(1_000));
    let (g1, g2) = two_games(&shared.host(clock));
    let (one, two) = (shared.store(), shared.store());
    let both_hold_one = Barrier::new(2);
    let runs = AtomicUsize::new(0);
    // Each write locks one game, waits until the other holds the other
    // game (on its first run only), then asks for the other's: a circle
    // PostgreSQL breaks by aborting one, which must run again and succeed.
    let lock_crosswise = |store: &Store, first: i64, second: i64| {
        let mut run = 0;
        store.write(|tx| -> Result<(), StoreError> {
            run += 1;
            runs.fetch_add(1, Ordering::SeqCst);
            tx.game(first)?.expect("the first game");
            if run == 1 {
                both_hold_one.wait();
            }
            tx.game(second)?.expect("the second game");
            Ok(())
        })
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| lock_crosswise(&one, g1, g2));
        let b = s.spawn(|| lock_crosswise(&two, g2, g1));
        (a.join().unwrap(), b.join().unwrap())
    });
    a.expect("the first write succeeds");
    b.expect("the second write succeeds");
    assert_eq!(
        runs.load(Ordering::SeqCst),
        3,
        "the write PostgreSQL aborted ran again, once"
    );
}

/// Waits until some connection to the database waits for a lock.
fn until_one_waits_for_a_lock(url: &str) {
    let mut admin = store::connect_postgres(url).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let waiting: i64 = admin
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
                 AND wait_event_type = 'Lock'",
                &[],
            )
            .unwrap()
            .get(0);
        if waiting > 0 {
            return;
        }
        assert!(Instant::now() < deadline, "nobody waited for the lock");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The row of a game in the lobby in `channel`.
fn lobby_row(channel: &str) -> NewGameRow {
    NewGameRow {
        kind: "rps".into(),
        guild_id: Some("guild".into()),
        channel_id: channel.into(),
        creator_id: "carol".into(),
        options: "null".into(),
        seed: 7,
        turn_seconds: None,
        timeout_policy: TimeoutPolicy::Default,
    }
}

#[test]
fn two_processes_creating_a_game_in_one_channel_give_the_second_the_user_error() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = postgres_only(dir.path(), "two_processes_creating_a_game_in_one_channel")
    else {
        return;
    };
    let shared = Shared::Postgres(url.clone());
    let clock = Arc::new(ManualClock::at(1_000));
    let first = shared.store();
    let second = shared.host(clock);
    // The first process has inserted its game but not committed when the
    // second checks the channel (and sees nothing): the second's insert
    // waits on the channel's unique index, then is refused by it.
    let (inserted, go) = mpsc::channel::<()>();
    let refused = std::thread::scope(|s| {
        let creator = s.spawn(move || {
            go.recv().unwrap();
            second.create_game(new_rps("race", None, TimeoutPolicy::Default))
        });
        first
            .write(|tx| -> Result<(), StoreError> {
                tx.insert_game(&lobby_row("race"), 1_000)?;
                inserted.send(()).unwrap();
                until_one_waits_for_a_lock(&url);
                Ok(())
            })
            .unwrap();
        creator.join().unwrap()
    });
    let e = refused.expect_err("a second game in the channel");
    assert!(e.is_user_error(), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("This channel already has a game (rps #"),
        "{e}"
    );
}

#[test]
fn a_postgresql_error_line_carries_the_servers_reason() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = postgres_only(
        dir.path(),
        "a_postgresql_error_line_carries_the_servers_reason",
    ) else {
        return;
    };
    let store = Store::open_postgres(&url).unwrap();
    let e = store
        .write(|tx| {
            tx.insert_game(&lobby_row("twice"), 1_000)?;
            tx.insert_game(&lobby_row("twice"), 1_000)
        })
        .expect_err("two active games in one channel");
    assert!(e.is_second_active_game_in_channel(), "{e:?}");
    let line = e.to_string();
    for part in [
        "duplicate key value violates unique constraint",
        "SQLSTATE 23505",
        "Key (channel_id)=(twice) already exists",
        "constraint games_one_active_per_channel",
    ] {
        assert!(line.contains(part), "{line:?} lacks {part:?}");
    }
}

/// Alice's and Bob's ratings, profiles, reliability and rating chain each
/// count exactly `total` games: none lost, none twice.
fn assert_each_result_counted_once(host: &Host, total: usize) {
    for player in ["alice", "bob"] {
        let entry = host
            .rating_of(Some("guild"), "rps", player)
            .unwrap()
            .expect("rated");
        assert_eq!(entry.games as usize, total, "{player}'s rated games");
        let profile = host.profile(Some("guild"), player).unwrap();
        let rps = profile.kinds.iter().find(|k| k.kind == "rps").unwrap();
        assert_eq!(rps.games as usize, total, "{player}'s finished games");
        assert_eq!(
            (rps.wins + rps.losses) as usize,
            total,
            "{player}'s results"
        );
        let reliability = host.reliability(Some("guild"), player).unwrap();
        assert_eq!(
            reliability.turns_awaited as usize, total,
            "{player}'s awaited turns (one per game)"
        );
        assert_one_rating_chain(host.store(), player, total);
    }
}
