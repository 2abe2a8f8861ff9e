//! The PostgreSQL back end where it differs from SQLite: several processes
//! (here: several connections) on one database. Final submissions racing
//! from two connections resolve a turn exactly once; claims on deadlines and
//! announcements split the work (`SKIP LOCKED`) and a dead claimant's lease
//! is taken over; a process of another version is refused; one store lends
//! a second connection while a transaction holds the first; the two
//! back ends' schemas agree table for table, column for column.
//!
//! Without a server (`GAMEHOST_TEST_PG_URL` unset or unreachable) each test
//! prints a loud `SKIPPED` line and returns, unless
//! `GAMEHOST_REQUIRE_POSTGRES=1` (set by CI), when it fails.

mod support;

use host::{DeadlineEvent, Host, ManualClock, Registry, TimeoutPolicy};
use std::sync::{Arc, Barrier, mpsc};
use std::time::Duration;
use store::{Store, StoreError};
use support::host_builder::{fresh_database, settings};
use support::rps::{Rps, new_rps};

/// A host with rock-paper-scissors on its own connection to `url`.
fn rps_host(url: &str, clock: Arc<ManualClock>, instance: &str) -> Host {
    let store = Store::open_postgres(url).expect("open the PostgreSQL store");
    Host::new(
        Arc::new(store),
        Registry::default().with::<Rps>(),
        clock,
        settings(50, 20),
    )
    .with_instance_id(instance)
}

#[test]
fn final_submissions_racing_from_two_connections_resolve_each_turn_once() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000));
    let a = rps_host(&url, clock.clone(), "a");
    let b = rps_host(&url, clock.clone(), "b");
    // Three games of 19 rounds (a 20th would end in a draw), each round a
    // fresh race between the two connections.
    for g in 0..3 {
        let mut opts = new_rps(&format!("race{g}"), None, TimeoutPolicy::Default);
        opts.options = serde_json::json!({ "wins": 50 });
        let id = a.create_game(opts).unwrap();
        b.join(id, "bob", "Bob", None).unwrap();
        a.start(id, "alice").unwrap();
        let rounds = 19;
        for round in 0..rounds {
            let gate = Arc::new(Barrier::new(2));
            let (ga, gb) = (gate.clone(), gate);
            let (ta, tb) = match round % 3 {
                0 => ("rock", "scissors"),
                1 => ("rock", "paper"),
                _ => ("paper", "paper"),
            };
            std::thread::scope(|s| {
                let ra = s.spawn(|| {
                    ga.wait();
                    a.submit(Some(id), "alice", ta)
                });
                let rb = s.spawn(|| {
                    gb.wait();
                    b.submit(Some(id), "bob", tb)
                });
                ra.join().unwrap().expect("alice's throw");
                rb.join().unwrap().expect("bob's throw");
            });
            // Both throws were final: the round resolved, once.
            assert_eq!(
                a.game(id).unwrap().turn,
                round + 1,
                "game {g} round {round}"
            );
        }
        let log = a.store().read(|tx| tx.turn_log(id, 0, 1000)).unwrap();
        assert_eq!(log.len(), rounds as usize);
        for (i, t) in log.iter().enumerate() {
            assert_eq!(t.turn, i as u32 + 1);
        }
        assert!(
            a.store().read(|tx| tx.pending(id)).unwrap().is_empty(),
            "no throw is left pending"
        );
    }
}

#[test]
fn claims_split_the_announcements_and_a_dead_claimants_lease_is_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000));
    let a = rps_host(&url, clock.clone(), "a");
    let b = rps_host(&url, clock.clone(), "b");
    let games: Vec<i64> = (0..6)
        .map(|n| {
            a.create_game(new_rps(&format!("c{n}"), None, TimeoutPolicy::Default))
                .unwrap()
        })
        .collect();
    let store_a = a.store().clone();
    let store_b = b.store().clone();
    // A claims two games and, before it commits, B claims: B passes over
    // A's locked rows instead of waiting for them.
    let (to_b, from_a) = mpsc::channel::<()>();
    let (to_a, from_b) = mpsc::channel::<Vec<i64>>();
    let claimer_b = std::thread::spawn(move || {
        from_a.recv().unwrap();
        let rows = store_b
            .write(|tx| tx.claim_unsent_outbox("b", 1_000, host::CLAIM_LEASE_MS, 2, 100))
            .unwrap();
        to_a.send(rows.iter().map(|r| r.game_id).collect()).unwrap();
    });
    let (mine, theirs) = store_a
        .write(|tx| -> Result<_, StoreError> {
            let rows = tx.claim_unsent_outbox("a", 1_000, host::CLAIM_LEASE_MS, 2, 100)?;
            to_b.send(()).unwrap();
            // B answers while A still holds its locks; a B that waited for
            // them would never answer (and this test would fail, not hang).
            let theirs = from_b
                .recv_timeout(Duration::from_secs(60))
                .expect("B's claim waited for A's locks instead of skipping them");
            Ok((rows.iter().map(|r| r.game_id).collect::<Vec<_>>(), theirs))
        })
        .unwrap();
    claimer_b.join().unwrap();
    let mut mine_games = mine.clone();
    mine_games.dedup();
    let mut theirs_games = theirs.clone();
    theirs_games.dedup();
    assert_eq!(mine_games, games[..2].to_vec(), "A claims the oldest games");
    assert_eq!(theirs_games, games[2..4].to_vec(), "B claims the next ones");

    // A's claim holds for its lease: B gets only the unclaimed rest.
    let rest = b.claim_unsent(100).unwrap();
    let mut rest_games: Vec<i64> = rest
        .iter()
        .map(|i| i.announcement.as_ref().unwrap().game_id)
        .collect();
    rest_games.dedup();
    assert!(
        rest_games.iter().all(|g| !mine_games.contains(g)),
        "{rest_games:?} overlaps A's {mine_games:?}"
    );
    // A dies without delivering; once its lease ends B takes its games over.
    clock.advance(host::CLAIM_LEASE_MS + 1);
    let taken: Vec<i64> = b
        .claim_unsent(100)
        .unwrap()
        .iter()
        .map(|i| i.announcement.as_ref().unwrap().game_id)
        .collect();
    for g in &mine_games {
        assert!(taken.contains(g), "game {g} was not taken over: {taken:?}");
    }
    // A delivered row is never claimed again.
    for item in b.claim_unsent(1000).unwrap() {
        assert!(b.mark_sent(item.id).unwrap());
    }
    assert!(a.claim_unsent(1000).unwrap().is_empty());
}

#[test]
fn a_due_deadline_fires_once_across_processes_and_a_dead_claim_is_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000));
    let a = rps_host(&url, clock.clone(), "a");
    let b = rps_host(&url, clock.clone(), "b");
    let mut ids = Vec::new();
    for n in 0..4 {
        let id = a
            .create_game(new_rps(&format!("d{n}"), Some(60), TimeoutPolicy::Default))
            .unwrap();
        a.join(id, "bob", "Bob", None).unwrap();
        a.start(id, "alice").unwrap();
        ids.push(id);
    }
    clock.advance(61_000);
    // A process claims two deadlines and dies before handling them.
    let dead = a
        .store()
        .write(|tx| tx.claim_due_deadlines("dead", clock_now(&clock), 60_000, 2))
        .unwrap();
    assert_eq!(dead.len(), 2);
    // Both live processes fire at once: each other deadline fires once.
    let (ea, eb) = std::thread::scope(|s| {
        let ea = s.spawn(|| a.fire_due_deadlines().unwrap());
        let eb = s.spawn(|| b.fire_due_deadlines().unwrap());
        (ea.join().unwrap(), eb.join().unwrap())
    });
    let mut resolved: Vec<i64> = ea
        .iter()
        .chain(&eb)
        .filter_map(|e| match e {
            DeadlineEvent::Resolved(id) => Some(*id),
            _ => None,
        })
        .collect();
    resolved.sort();
    let dead_ids: Vec<i64> = dead.iter().map(|d| d.game_id).collect();
    let expected: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !dead_ids.contains(id))
        .collect();
    assert_eq!(resolved, expected, "A: {ea:?}, B: {eb:?}");
    for id in &ids {
        let turn = a.game(*id).unwrap().turn;
        assert_eq!(turn, u32::from(!dead_ids.contains(id)), "game {id}");
    }
    // The dead claim's lease ends: B fires those deadlines.
    clock.advance(60_001);
    let late = b.fire_due_deadlines().unwrap();
    let mut late_ids: Vec<i64> = late
        .iter()
        .filter_map(|e| match e {
            DeadlineEvent::Resolved(id) => Some(*id),
            _ => None,
        })
        .collect();
    late_ids.sort();
    let mut dead_sorted = dead_ids.clone();
    dead_sorted.sort();
    // The other games' second deadlines (due 60 s after their first
    // resolved) are due too by now.
    for id in &dead_sorted {
        assert!(late_ids.contains(id), "{late:?}");
        assert_eq!(a.game(*id).unwrap().turn, 1);
    }
}

fn clock_now(clock: &ManualClock) -> i64 {
    use host::Clock;
    clock.now_ms()
}

#[test]
fn the_two_back_ends_have_the_same_tables_and_columns() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let lite = Store::open(&dir.path().join("g.db")).unwrap();
    let pg = Store::open_postgres(&url).unwrap();
    assert_eq!(lite.schema_version().unwrap(), pg.schema_version().unwrap());
    let (lt, pt) = (lite.tables().unwrap(), pg.tables().unwrap());
    assert!(lt.contains_key("games") && lt.contains_key("instances"));
    assert_eq!(lt, pt, "a migration was added to one back end only");
}

#[test]
fn a_postgres_database_passes_its_check_and_a_dropped_column_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let pg = Store::open_postgres(&url).unwrap();
    assert_eq!(pg.integrity_problems().unwrap(), Vec::<String>::new());
    let mut raw = store::connect_postgres(&url).unwrap();
    raw.batch_execute("ALTER TABLE press DROP COLUMN phase; DROP INDEX seats_by_user")
        .unwrap();
    let problems = pg.integrity_problems().unwrap();
    assert!(
        problems.iter().any(|p| p.contains("table press differs")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("index seats_by_user is missing")),
        "{problems:?}"
    );
}

#[test]
fn a_database_of_a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    drop(Store::open_postgres(&url).unwrap());
    let mut raw = store::connect_postgres(&url).unwrap();
    raw.batch_execute("UPDATE gamehost_schema SET version = 99")
        .unwrap();
    let err = Store::open_postgres(&url).err().expect("must refuse");
    assert!(
        matches!(err, StoreError::SchemaTooNew { found: 99, .. }),
        "{err:?}"
    );
}

/// A query parameter of a URL, as written (`None` when absent).
fn url_param(url: &str, key: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_string())
}

/// `url` with its `sslmode` and `sslrootcert` replaced by `params`.
fn with_tls_params(url: &str, params: &[(&str, &str)]) -> String {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let mut kept: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("sslmode=") && !p.starts_with("sslrootcert="))
        .map(str::to_string)
        .collect();
    kept.extend(params.iter().map(|(k, v)| format!("{k}={v}")));
    format!("{base}?{}", kept.join("&"))
}

/// Whether the server has TLS turned on (`SHOW ssl`).
fn server_offers_tls(url: &str) -> bool {
    let mut admin = store::connect_postgres(url).expect("reach the test server");
    let ssl: String = admin.query_one("SHOW ssl", &[]).unwrap().get(0);
    ssl == "on"
}

#[test]
fn the_store_talks_tls_exactly_when_the_url_and_the_server_call_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let offered = server_offers_tls(&url);
    let probe = format!(
        "{url}{}application_name=gh_tls_probe",
        if url.contains('?') { '&' } else { '?' }
    );
    let store = Store::open_postgres(&probe).expect("open the store");
    let mut admin = store::connect_postgres(&url).unwrap();
    let row = admin
        .query_one(
            "SELECT bool_and(s.ssl), COUNT(*) FROM pg_stat_ssl s JOIN pg_stat_activity a \
             USING (pid) WHERE a.application_name = 'gh_tls_probe' \
             AND a.datname = current_database()",
            &[],
        )
        .unwrap();
    let (ssl, connections): (Option<bool>, i64) = (row.get(0), row.get(1));
    assert_eq!(connections, 1, "the store holds one connection");
    // libpq's meaning: prefer (the default) uses TLS when the server offers it.
    let expected = match url_param(&url, "sslmode").as_deref() {
        Some("disable") => false,
        None | Some("prefer") => offered,
        Some(_) => true,
    };
    assert_eq!(ssl, Some(expected), "TLS in use on the store's connection");
    // The helper the tests create databases with goes the same way.
    let own: bool = admin
        .query_one(
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(own, expected);
    drop(store);
}

#[test]
fn verify_full_refuses_a_certificate_of_another_ca_or_host_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let unrelated = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/unrelated-ca.pem");
    // A password (the test server trusts and ignores it) that the error
    // must not show.
    let wrong_root = with_tls_params(
        &url,
        &[
            ("sslmode", "verify-full"),
            ("sslrootcert", unrelated),
            ("password", "Pw9secret"),
        ],
    );
    let err = Store::open_postgres(&wrong_root)
        .err()
        .expect("a certificate no trusted root signed is refused");
    let shown = err.to_string();
    if !server_offers_tls(&url) {
        // A plain server: a URL asking for TLS gets none, and says why.
        assert!(shown.contains("does not support TLS"), "{shown}");
        return;
    }
    assert!(matches!(err, StoreError::TlsHandshake { .. }), "{err:?}");
    assert!(!shown.contains("Pw9secret"), "{shown}");
    for part in [
        "over TLS (sslmode=verify-full",
        "not signed by a trusted root",
        "sslrootcert=<file>",
    ] {
        assert!(shown.contains(part), "`{part}` missing from: {shown}");
    }
    // With the right CA, a name the certificate does not carry fails
    // verify-full and passes verify-ca (hostaddr reaches the same server).
    let Some(ca) = url_param(&url, "sslrootcert") else {
        return;
    };
    let Some((user, after)) = url.split_once('@') else {
        return;
    };
    let Some((_, port_and_rest)) = after.split_once(':') else {
        return;
    };
    let renamed = format!("{user}@gamehost-wrong-name.invalid:{port_and_rest}&hostaddr=127.0.0.1");
    let err = Store::open_postgres(&with_tls_params(
        &renamed,
        &[("sslmode", "verify-full"), ("sslrootcert", &ca)],
    ))
    .err()
    .expect("a certificate for another host name is refused");
    assert!(err.to_string().contains("does not name the host"), "{err}");
    Store::open_postgres(&with_tls_params(
        &renamed,
        &[("sslmode", "verify-ca"), ("sslrootcert", &ca)],
    ))
    .expect("verify-ca checks the chain, not the name");
}

/// Ends (`pg_terminate_backend`) every connection to `url`'s database
/// whose application name is `name`, and waits until they are gone.
fn terminate_connections_named(url: &str, name: &str) {
    let mut admin = store::connect_postgres(url).unwrap();
    // The pids first, then each ended: in one query the planner could call
    // pg_terminate_backend on rows the filter would have dropped.
    let pids: Vec<i32> = admin
        .query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 \
             AND datname = current_database()",
            &[&name],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(pids.len(), 1, "the store holds one connection");
    let ended: bool = admin
        .query_one("SELECT pg_terminate_backend($1)", &[&pids[0]])
        .unwrap()
        .get(0);
    assert!(ended, "the store's connection was ended");
    let give_up = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let left: i64 = admin
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 \
                 AND datname = current_database()",
                &[&name],
            )
            .unwrap()
            .get(0);
        if left == 0 {
            return;
        }
        assert!(
            std::time::Instant::now() < give_up,
            "the backend did not end"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_first_write_and_read_after_the_server_ended_the_connection_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let name = "gh_reconnect_probe";
    let probe = format!(
        "{url}{}application_name={name}",
        if url.contains('?') { '&' } else { '?' }
    );
    let store = Store::open_postgres(&probe).expect("open the store");
    let instance = |id: &str, at: i64| store::InstanceRow {
        id: id.into(),
        version: "test".into(),
        schema_version: store::schema_version_known(),
        started_at: at,
        heartbeat_at: at,
    };
    store
        .write(|tx| tx.upsert_instance(&instance("before", 1)))
        .unwrap();
    // What a server restart does to every connection, with no restart.
    terminate_connections_named(&url, name);
    store
        .write(|tx| tx.upsert_instance(&instance("after", 2)))
        .expect("the first write after the connection was ended succeeds");
    terminate_connections_named(&url, name);
    let ids: Vec<String> = store
        .read(|tx| tx.live_instances(0))
        .expect("the first read after the connection was ended succeeds")
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(ids, ["before", "after"], "both writes were kept, once each");
}

#[test]
fn a_renewed_claim_outlasts_its_first_lease_and_a_lapsed_one_is_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000));
    let a = rps_host(&url, clock.clone(), "a");
    let b = rps_host(&url, clock.clone(), "b");
    let game = a
        .create_game(new_rps("renewed", None, TimeoutPolicy::Default))
        .unwrap();
    let lease = host::CLAIM_LEASE_MS;
    let claimed = |store: &Store, owner: &str, now: i64| -> Vec<i64> {
        store
            .write(|tx| tx.claim_unsent_outbox(owner, now, lease, 10, 100))
            .unwrap()
            .iter()
            .map(|r| r.game_id)
            .collect()
    };
    assert!(claimed(a.store(), "a", 1_000).contains(&game));
    // A renews before its lease ends: B finds the game still claimed after
    // the first lease would have ended.
    let renewed = a
        .store()
        .write(|tx| tx.renew_claims("a", 1_000 + host::CLAIM_RENEW_EVERY_MS + lease))
        .unwrap();
    assert_eq!(renewed, 1, "A's one claim was renewed");
    assert!(!claimed(b.store(), "b", 1_000 + lease + 1).contains(&game));
    // A stops renewing (it died): once the renewed lease ends, B takes over.
    assert!(
        claimed(
            b.store(),
            "b",
            1_000 + host::CLAIM_RENEW_EVERY_MS + lease + 1
        )
        .contains(&game)
    );
}

#[test]
fn one_store_runs_a_read_while_its_write_transaction_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let store = Store::open_postgres(&url).unwrap();
    let (opened, wait_open) = mpsc::channel::<()>();
    let (read_done, wait_read) = mpsc::channel::<()>();
    // The write stays open until the other thread's read, on the same
    // store, has finished: with one connection per store the read would
    // wait for the write instead (and the write give up after 60 s).
    let saw_read = std::thread::scope(|s| {
        let store = &store;
        let writer = s.spawn(move || {
            store.write(|tx| -> Result<bool, StoreError> {
                tx.game(1)?;
                opened.send(()).unwrap();
                Ok(wait_read.recv_timeout(Duration::from_secs(60)).is_ok())
            })
        });
        wait_open.recv().unwrap();
        store.read(|tx| tx.game(1)).unwrap();
        // The writer has given up (and dropped its end) if the read waited.
        let _ = read_done.send(());
        writer.join().unwrap().unwrap()
    });
    assert!(
        saw_read,
        "the read waited for the write: the store's connections are not pooled"
    );
}
