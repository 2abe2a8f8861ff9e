//! `gamehost migrate-db`: a SQLite store with real games played through the
//! host (a finished rated duel, a running Diplomacy game with press, a turn
//! with a pending action, undelivered announcements) is copied into an
//! empty PostgreSQL database, which passes the check, and the host on the
//! copy carries on the game where it stood. A non-empty target, one
//! holding another application's tables and a source in use are refused,
//! each with one line, before anything is created in the target.
//!
//! Without a server the test prints a loud `SKIPPED` line (and fails under
//! `GAMEHOST_REQUIRE_POSTGRES=1`).

mod support;

use games::diplomacy::Diplomacy;
use host::{Host, HostSettings, ManualClock, NewGame, Registry};
use std::sync::Arc;
use store::{Store, TimeoutPolicy};
use support::host_builder::fresh_database;
use support::rps::{Rps, new_rps};

fn registry() -> Registry {
    Registry::default().with::<Rps>().with::<Diplomacy>()
}

fn host_on(store: Store, clock: Arc<ManualClock>) -> Host {
    Host::new(
        Arc::new(store),
        registry(),
        clock,
        HostSettings {
            ai_budget_ms: 20,
            reminder_percent: 0,
        },
    )
}

#[test]
fn a_sqlite_store_moves_to_postgres_whole_and_its_games_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let file = dir.path().join("g.db");
    let clock = Arc::new(ManualClock::at(1_000_000));
    let lite = host_on(Store::open(&file).unwrap(), clock.clone());

    // A rated duel, played to its end.
    let duel = lite
        .create_game(new_rps("duel", None, TimeoutPolicy::Default))
        .unwrap();
    lite.join(duel, "bob", "Bob", None).unwrap();
    lite.start(duel, "alice").unwrap();
    for _ in 0..2 {
        lite.submit(Some(duel), "alice", "paper").unwrap();
        lite.submit(Some(duel), "bob", "rock").unwrap();
    }
    assert_eq!(lite.game(duel).unwrap().status, host::GameStatus::Finished);
    // A game with a deadline and a pending throw.
    let open = lite
        .create_game(new_rps("open", Some(3600), TimeoutPolicy::Default))
        .unwrap();
    lite.join(open, "bob", "Bob", None).unwrap();
    lite.start(open, "alice").unwrap();
    lite.submit(Some(open), "alice", "scissors").unwrap();
    // A Diplomacy game with press.
    let dip = lite
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: "dip".into(),
            creator_id: "u0".into(),
            creator_name: "Ursula".into(),
            options: serde_json::Value::Null,
            seed: Some(3),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    for s in 1..7 {
        lite.join(dip, &format!("u{s}"), &format!("User {s}"), Some(s))
            .unwrap();
    }
    lite.start(dip, "u0").unwrap();
    lite.send_press(Some(dip), "u0", "all", "Peace in our time.")
        .unwrap();
    // Some announcements delivered, the rest still to deliver.
    let unsent = lite.unsent(1000).unwrap();
    for item in &unsent[..unsent.len() / 2] {
        lite.mark_sent(item.id).unwrap();
    }
    let before = lite.store().row_counts().unwrap();
    for table in [
        "games",
        "seats",
        "pending_actions",
        "turn_log",
        "deadlines",
        "outbox",
        "ratings",
        "game_results",
        "press",
    ] {
        assert!(before[table] > 0, "the source has no {table} rows");
    }
    let unsent_before = lite.unsent(1000).unwrap().len();
    drop(lite);

    let done = gamehost::cli::migrate_db::migrate(&file, &url, || Ok(registry())).unwrap();
    assert_eq!(done.games_checked, 3);
    for (table, n) in &before {
        if table != "instances" {
            assert_eq!(done.rows.get(table), Some(n), "table {table}");
        }
    }
    // The copy is refused a second time: the target is no longer empty.
    let again = gamehost::cli::migrate_db::migrate(&file, &url, || Ok(registry()))
        .unwrap_err()
        .to_string();
    assert!(
        again.contains("is not empty: ") && again.contains("nothing was changed"),
        "{again}"
    );

    // The host on PostgreSQL goes on where the SQLite one stopped.
    let pg = host_on(Store::open_postgres(&url).unwrap(), clock.clone());
    assert_eq!(pg.unsent(1000).unwrap().len(), unsent_before);
    let receipt = pg.submit(Some(open), "bob", "paper").unwrap();
    assert!(receipt.resolved, "alice's pending throw was carried over");
    assert_eq!(pg.game(open).unwrap().turn, 1);
    let rated = pg
        .store()
        .read(|tx| tx.rating("guild", "rps", "alice"))
        .unwrap();
    assert!(
        rated.is_some_and(|r| r.games == 1),
        "the duel's rating was carried over"
    );
    // New rows get new ids after the copied ones.
    let next = pg
        .create_game(new_rps("next", None, TimeoutPolicy::Default))
        .unwrap();
    assert!(next > dip, "{next} reuses an id");
    let press = pg.store().read(|tx| tx.press_of_game(dip)).unwrap();
    assert_eq!(press.len(), 1);
    assert_eq!(press[0].message.text, "Peace in our time.");
}

/// A SQLite source at `file` with one game in it.
fn small_source(file: &std::path::Path) -> Host {
    let lite = host_on(
        Store::open(file).unwrap(),
        Arc::new(ManualClock::at(1_000_000)),
    );
    lite.create_game(new_rps("only", None, TimeoutPolicy::Default))
        .unwrap();
    lite
}

/// The tables of the target's schema, by name.
fn target_tables(url: &str) -> Vec<String> {
    let mut admin = store::connect_postgres(url).unwrap();
    admin
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() ORDER BY 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

#[test]
fn a_target_holding_another_applications_table_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    store::connect_postgres(&url)
        .unwrap()
        .batch_execute("CREATE TABLE invoices (id BIGINT PRIMARY KEY, total NUMERIC)")
        .unwrap();
    let file = dir.path().join("g.db");
    drop(small_source(&file));
    let err = gamehost::cli::migrate_db::migrate(&file, &url, || Ok(registry()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("holds tables of another application (invoices)")
            && err.contains("nothing was changed"),
        "{err}"
    );
    assert!(!err.contains('\n'), "one line: {err}");
    assert_eq!(target_tables(&url), ["invoices"], "the target was changed");
}

#[test]
fn a_source_in_use_by_a_running_gamehost_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let file = dir.path().join("g.db");
    let lite = small_source(&file);
    // A bot running on the file: registered, its heartbeat just now.
    let now = host::Clock::now_ms(&host::SystemClock);
    lite.store()
        .write(|tx| {
            tx.upsert_instance(&store::InstanceRow {
                id: "p42-running".into(),
                version: "test".into(),
                schema_version: store::schema_version_known(),
                started_at: now,
                heartbeat_at: now,
            })
        })
        .unwrap();
    let err = gamehost::cli::migrate_db::migrate(&file, &url, || Ok(registry()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is in use by a running gamehost (process `p42-running`"),
        "{err}"
    );
    assert!(!err.contains('\n'), "one line: {err}");
    assert!(target_tables(&url).is_empty(), "the target was changed");
    // Once it stopped (its instance forgotten), the copy goes through.
    lite.store()
        .write(|tx| tx.delete_instance("p42-running", 0))
        .unwrap();
    drop(lite);
    let done = gamehost::cli::migrate_db::migrate(&file, &url, || Ok(registry())).unwrap();
    assert_eq!(done.rows["games"], 1);
}
