//! The one host builder of the tests: every test host is a real store
//! opened through [`host_on`]: a SQLite file, or with
//! `GAMEHOST_TEST_STORE=postgres` a fresh PostgreSQL database on the server
//! `GAMEHOST_TEST_PG_URL` names (one per test path, so tests run in
//! parallel and a test that reopens its path reopens its database). It
//! stands alone (no other support module), so a test file that needs
//! nothing else includes it with
//! `#[path = "support/host_builder.rs"] mod host_builder;`.
#![allow(dead_code)]

use host::{
    Clock, DeadlineEvent, GameId, Host, HostSettings, ManualClock, NewGame, Occupant, Registry,
    TimeoutPolicy,
};
use std::path::Path;
use std::sync::Arc;
use store::Store;

/// A host on the SQLite file at `path` with `registry`, `clock` and `settings`.
pub fn host_on(
    path: &Path,
    registry: Registry,
    clock: Arc<dyn Clock>,
    settings: HostSettings,
) -> Host {
    Host::new(Arc::new(open_store(path)), registry, clock, settings)
}

/// The store of a test at `path`: the SQLite file, or on PostgreSQL runs
/// the database made for that path.
pub fn open_store(path: &Path) -> Store {
    if on_postgres() {
        Store::open_postgres(&pg_database_for(path)).expect("open the PostgreSQL test store")
    } else {
        Store::open(path).expect("open store")
    }
}

/// Whether this run's stores are on PostgreSQL (`GAMEHOST_TEST_STORE=postgres`).
pub fn on_postgres() -> bool {
    std::env::var("GAMEHOST_TEST_STORE").is_ok_and(|v| v == "postgres")
}

/// For a test that reads or damages the SQLite file itself: on PostgreSQL
/// runs it says loudly that it does not apply and returns true (the test
/// returns). It runs on the SQLite pass of the same suite.
pub fn sqlite_only(test: &str) -> bool {
    if on_postgres() {
        eprintln!("SKIPPED on PostgreSQL: {test} works on the SQLite file itself");
    }
    on_postgres()
}

/// The URL of the PostgreSQL server for tests, if one is configured.
pub fn pg_base_url() -> Option<String> {
    std::env::var("GAMEHOST_TEST_PG_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// A URL on the same server as `base` for the database `name`.
pub fn pg_url_with_database(base: &str, name: &str) -> String {
    let (head, tail) = base
        .split_once('?')
        .map_or((base, None), |(h, t)| (h, Some(t)));
    let server = match head.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('/') {
            Some((host, _)) => format!("{scheme}://{host}"),
            None => head.to_string(),
        },
        None => head.to_string(),
    };
    match tail {
        Some(t) => format!("{server}/{name}?{t}"),
        None => format!("{server}/{name}"),
    }
}

/// The URL of a fresh database for the test at `dir`, or `None` (after a
/// loud line) when no server is there and none is required
/// (`GAMEHOST_REQUIRE_POSTGRES=1`, set by CI, makes a missing server fail).
pub fn fresh_database(dir: &Path) -> Option<String> {
    let required = std::env::var("GAMEHOST_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
    let reachable = pg_base_url().filter(|url| store::connect_postgres(url).is_ok());
    if reachable.is_none() {
        assert!(
            !required,
            "GAMEHOST_REQUIRE_POSTGRES=1 but no PostgreSQL is reachable at GAMEHOST_TEST_PG_URL={:?}",
            pg_base_url()
        );
        eprintln!("SKIPPED: no PostgreSQL (set GAMEHOST_TEST_PG_URL)");
        return None;
    }
    Some(pg_database_for(&dir.join("pg")))
}

/// Creates (once per process and path) an empty database for the test at
/// `path` and returns its URL. Databases of test processes that have ended
/// are dropped first, so runs do not pile them up.
pub fn pg_database_for(path: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let base = pg_base_url().expect(
        "GAMEHOST_TEST_STORE=postgres needs GAMEHOST_TEST_PG_URL (postgres://user@host:port/db)",
    );
    let mut h = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut h);
    let name = format!("gh_t{}_{:016x}", std::process::id(), h.finish());
    let mut admin = store::connect_postgres(&base)
        .unwrap_or_else(|e| panic!("cannot reach the PostgreSQL test server: {e}"));
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| drop_databases_of_ended_runs(&mut admin));
    let exists = admin
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
        .unwrap()
        .is_some();
    if !exists {
        match admin.batch_execute(&format!("CREATE DATABASE {name}")) {
            Ok(()) => {}
            // Two threads of one test creating the same path's database.
            Err(e) if e.code() == Some(&postgres::error::SqlState::DUPLICATE_DATABASE) => {}
            Err(e) => panic!("cannot create the test database {name}: {e}"),
        }
    }
    pg_url_with_database(&base, &name)
}

/// Drops the `gh_t<pid>_...` databases whose test process is gone.
fn drop_databases_of_ended_runs(admin: &mut postgres::Client) {
    let Ok(rows) = admin.query(
        "SELECT datname::text FROM pg_database WHERE datname LIKE 'gh\\_t%'",
        &[],
    ) else {
        return;
    };
    for r in rows {
        let name: String = r.get(0);
        let pid = name
            .trim_start_matches("gh_t")
            .split('_')
            .next()
            .unwrap_or("");
        if !pid.is_empty() && !Path::new("/proc").join(pid).exists() {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    }
}

/// Settings with an AI budget of `ai_budget_ms` per decision and reminders
/// at `reminder_percent` of the turn left (0: none).
pub fn settings(ai_budget_ms: u64, reminder_percent: u8) -> HostSettings {
    HostSettings {
        ai_budget_ms,
        reminder_percent,
    }
}

/// A host on `path` with `registry`, a hand-moved `clock`, an AI budget of
/// `ai_budget_ms` and reminders at a fifth of the turn left.
pub fn host_with(
    path: &Path,
    registry: Registry,
    clock: Arc<ManualClock>,
    ai_budget_ms: u64,
) -> Host {
    host_on(path, registry, clock, settings(ai_budget_ms, 20))
}

/// A host with only Diplomacy on `path`.
pub fn diplomacy_host(path: &Path, clock: Arc<ManualClock>, settings: HostSettings) -> Host {
    host_on(
        path,
        Registry::default().with::<games::diplomacy::Diplomacy>(),
        clock,
        settings,
    )
}

/// A host with every shipped engine on `path`, the clock at zero and the
/// default settings (for tests that read what others wrote).
pub fn standard_host(path: &Path) -> Host {
    host_on(
        path,
        Registry::standard(),
        Arc::new(ManualClock::at(0)),
        HostSettings::default(),
    )
}

/// A request for a Diplomacy game in channel `dip` created by user `u0`
/// (Ursula), with `options`, `seed` and no deadline.
pub fn diplomacy_request(options: serde_json::Value, seed: u64, creator_plays: bool) -> NewGame {
    NewGame {
        kind: "diplomacy".into(),
        guild_id: None,
        channel_id: "dip".into(),
        creator_id: "u0".into(),
        creator_name: "Ursula".into(),
        options,
        seed: Some(seed),
        turn_seconds: None,
        timeout_policy: TimeoutPolicy::Default,
        creator_plays,
    }
}

/// One Diplomacy phase of a host test: every awaited person but those in
/// `skip` sends `done`, the AIs move, then the 48-hour deadline passes if
/// the phase is still open.
pub fn phase_missing(host: &Host, clock: &ManualClock, id: GameId, skip: &[&str]) {
    let before = host.game(id).unwrap().turn;
    let view = host.view(id, None).unwrap();
    for s in view.seats.iter().filter(|s| s.awaited) {
        if let Occupant::User(u) = &s.occupant
            && !s.acted
            && !skip.contains(&u.as_str())
        {
            host.submit(Some(id), u, "done").unwrap();
        }
    }
    host.run_ai_turns(Some(id), 20).unwrap();
    if host.game(id).unwrap().turn == before {
        clock.advance(48 * 3600 * 1000);
        assert_eq!(
            host.fire_due_deadlines().unwrap(),
            vec![DeadlineEvent::Resolved(id)]
        );
    }
}
