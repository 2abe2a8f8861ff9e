//! The store refuses what it cannot trust: newer schemas and corrupt rows are
//! reported with the table and row, never a panic.

mod support;

use host::{HostError, ManualClock};
use std::sync::Arc;
use store::{Store, StoreError, TimeoutPolicy};
use support::rps::{host_at, new_rps};

fn raw(path: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    drop(Store::open(&path).unwrap());
    raw(&path).pragma_update(None, "user_version", 99).unwrap();
    let err = Store::open(&path).err().expect("must refuse");
    assert!(matches!(err, StoreError::SchemaTooNew { found: 99, .. }));
    assert!(err.to_string().contains("newer"), "{err}");
}

#[test]
fn migrations_apply_once_and_wal_is_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let s = Store::open(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), store::schema_version_known());
    drop(s);
    let s = Store::open(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), store::schema_version_known());
    let mode: String = raw(&path)
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

fn started_game(path: &std::path::Path) -> i64 {
    let host = host_at(path, Arc::new(ManualClock::at(0)));
    let id = host
        .create_game(new_rps("c", None, TimeoutPolicy::Default))
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    host.submit(Some(id), "alice", "rock").unwrap();
    id
}

#[test]
fn corrupt_state_is_reported_not_panicked() {
    if support::host_builder::sqlite_only("corrupt_state_is_reported_not_panicked") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let id = started_game(&path);
    raw(&path)
        .execute(
            "UPDATE games SET state = '{\"garbage\": 1}' WHERE id = ?1",
            [id],
        )
        .unwrap();
    let host = host_at(&path, Arc::new(ManualClock::at(0)));
    let err = host.view(id, Some("alice")).unwrap_err();
    assert!(matches!(err, HostError::Corrupt { .. }), "{err:?}");
    assert!(!err.is_user_error());
    assert!(err.to_string().contains(&format!("game {id}")), "{err}");
    let err = host.submit(Some(id), "bob", "rock").unwrap_err();
    assert!(matches!(err, HostError::Corrupt { .. }), "{err:?}");
    // Nothing was lost: the row is still there for an operator to repair.
    assert!(host.game(id).is_ok());
    assert!(host.replay(id).unwrap().first_divergence.is_none());
}

#[test]
fn corrupt_status_and_pending_rows_are_reported() {
    if support::host_builder::sqlite_only("corrupt_status_and_pending_rows_are_reported") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let id = started_game(&path);
    let conn = raw(&path);
    conn.execute(
        "UPDATE pending_actions SET action = 'not json' WHERE game_id = ?1",
        [id],
    )
    .unwrap();
    let host = host_at(&path, Arc::new(ManualClock::at(0)));
    let err = host.submit(Some(id), "bob", "rock").unwrap_err();
    assert!(err.to_string().contains("seat 0"), "{err}");

    // A status the schema forbids cannot even be written...
    assert!(
        conn.execute("UPDATE games SET status = 'paused' WHERE id = ?1", [id])
            .is_err()
    );
    // ...but a running game without a state can, and is reported.
    conn.execute("UPDATE games SET state = NULL WHERE id = ?1", [id])
        .unwrap();
    let err = host.game(id).unwrap_err();
    assert!(err.to_string().contains("has no state"), "{err}");
    let err = host
        .unsent(10)
        .map(|_| ())
        .and_then(|_| host.game(id).map(|_| ()))
        .unwrap_err();
    assert!(matches!(
        err,
        HostError::Store(StoreError::Corrupt { table: "games", .. })
    ));
}

#[test]
fn backup_is_a_consistent_copy() {
    if support::host_builder::sqlite_only("backup_is_a_consistent_copy") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let id = started_game(&path);
    let host = host_at(&path, Arc::new(ManualClock::at(0)));
    let dest = dir.path().join("copy.db");
    host.store().backup_to(&dest).unwrap();
    let copy = host_at(&dest, Arc::new(ManualClock::at(0)));
    assert_eq!(
        copy.view(id, Some("alice")).unwrap().own_pending.as_deref(),
        Some("rock")
    );
}

#[test]
fn a_version_1_database_migrates_and_keeps_its_deadlines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let c = raw(&path);
    c.execute_batch(include_str!("../migrations/0001_initial.sql"))
        .unwrap();
    c.pragma_update(None, "user_version", 1).unwrap();
    c.execute(
        "INSERT INTO games (kind, channel_id, creator_id, status, options, seed, state, \
         timeout_policy, created_at, updated_at) \
         VALUES ('rps', 'c', 'alice', 'running', '{}', 1, '{}', 'default', 0, 0)",
        [],
    )
    .unwrap();
    c.execute(
        "INSERT INTO deadlines (game_id, turn, due_at, remind_at) VALUES (1, 0, 5000, 4000)",
        [],
    )
    .unwrap();
    drop(c);
    let s = Store::open(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), store::schema_version_known());
    let d = s
        .read(|tx| tx.deadline(1))
        .unwrap()
        .expect("the deadline is kept");
    assert_eq!(
        (
            d.turn,
            d.due_at,
            d.remind_at,
            d.extensions_used,
            d.idle_deadlines
        ),
        (0, 5000, Some(4000), 0, 0)
    );
}

#[test]
fn a_read_only_store_never_creates_migrates_or_writes() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.db");
    let err = Store::open_read_only(&missing).err().expect("no file");
    assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("no database at {}", missing.display())
    );
    assert!(!missing.exists());
    let err = Store::open_existing(&missing).err().expect("no file");
    assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
    assert!(!missing.exists());

    // A version 1 file stays at version 1, and nothing can be written.
    let path = dir.path().join("old.db");
    let c = raw(&path);
    c.execute_batch(include_str!("../migrations/0001_initial.sql"))
        .unwrap();
    c.pragma_update(None, "user_version", 1).unwrap();
    drop(c);
    let s = Store::open_read_only(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), 1);
    assert!(s.integrity_problems().unwrap().is_empty());
    let err = s
        .write(|tx| tx.clear_deadline(1))
        .expect_err("a read-only store refuses writes");
    assert!(matches!(err, StoreError::Sqlite(_)), "{err:?}");
    drop(s);
    assert_eq!(
        raw(&path)
            .pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
            .unwrap(),
        1
    );
}

#[test]
fn integrity_problems_name_dropped_tables_and_orphan_rows() {
    if support::host_builder::sqlite_only("integrity_problems_name_dropped_tables_and_orphan_rows")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let id = started_game(&path);
    let c = raw(&path);
    // Rows of a game that no longer exists (foreign keys off, as a careless
    // tool would run).
    c.pragma_update(None, "foreign_keys", "OFF").unwrap();
    c.execute("DELETE FROM games WHERE id = ?1", [id]).unwrap();
    drop(c);
    let s = Store::open_read_only(&path).unwrap();
    let problems = s.integrity_problems().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("belongs to a game that does not exist")),
        "{problems:?}"
    );
    drop(s);
    raw(&path)
        .execute_batch("DROP TABLE pending_actions")
        .unwrap();
    let problems = Store::open_read_only(&path)
        .unwrap()
        .integrity_problems()
        .unwrap();
    assert!(
        problems.contains(&"table pending_actions is missing from the schema".to_string()),
        "{problems:?}"
    );
}
