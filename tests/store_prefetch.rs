//! Fewer round trips on PostgreSQL must not change what a transaction
//! reads: the store answers a game's per-game rows (seats, pending
//! actions, pause, ...) and its updated row from one prefetch per
//! transaction (`crates/store/src/prefetch.rs`), so every write has to be
//! seen by the reads after it, exactly as on SQLite, where each read is its
//! own query.
//!
//! Without a server (`GAMEHOST_TEST_PG_URL` unset or unreachable) the test
//! prints a loud `SKIPPED` line and returns, unless
//! `GAMEHOST_REQUIRE_POSTGRES=1` (set by CI), when it fails.

mod support;

use host::TimeoutPolicy;
use store::{Store, StoreError};
use support::host_builder::fresh_database;

/// A game with two seats, running, written on `store`; its id.
fn running_game(store: &Store) -> i64 {
    use store::{NewGameRow, Occupant, SeatRow};
    store
        .write(|tx| -> Result<i64, StoreError> {
            let id = tx.insert_game(
                &NewGameRow {
                    kind: "rps".into(),
                    guild_id: None,
                    channel_id: "prefetch".into(),
                    creator_id: "a".into(),
                    options: "null".into(),
                    seed: 7,
                    turn_seconds: None,
                    timeout_policy: TimeoutPolicy::Default,
                },
                1,
            )?;
            for (seat, user) in ["a", "b"].into_iter().enumerate() {
                tx.insert_seat(
                    id,
                    &SeatRow {
                        seat,
                        occupant: Occupant::User(user.into()),
                        display_name: user.to_uppercase(),
                    },
                )?;
            }
            tx.start_game(id, "\"s0\"", 2)?;
            Ok(id)
        })
        .unwrap()
}

/// What one write transaction reads back after its own writes, and what a
/// read transaction sees after it, as text to compare across back ends.
fn reads_after_own_writes(store: &Store) -> Vec<String> {
    use store::{Occupant, PauseRow, PendingRow, SeatRow};
    let id = running_game(store);
    let mut seen = store
        .write(|tx| -> Result<Vec<String>, StoreError> {
            let mut seen = Vec::new();
            let game = tx.game(id)?.unwrap();
            seen.push(format!("{} {:?}", game.turn, game.state));
            seen.push(format!("{:?} {:?}", tx.seats(id)?, tx.pending(id)?));
            seen.push(format!("{:?}", tx.pause(id)?));
            tx.upsert_pending(
                id,
                &PendingRow {
                    seat: 1,
                    turn: 0,
                    action: "\"rock\"".into(),
                    is_final: true,
                    submitted_at: 3,
                },
            )?;
            seen.push(format!("{:?}", tx.pending(id)?));
            tx.set_pause(
                id,
                &PauseRow {
                    since: 4,
                    due_left_ms: Some(5),
                    remind_left_ms: None,
                    extensions_used: 1,
                    idle_deadlines: 0,
                },
            )?;
            seen.push(format!("{:?}", tx.pause(id)?));
            tx.replace_seat(
                id,
                &SeatRow {
                    seat: 0,
                    occupant: Occupant::Ai("easy".into()),
                    display_name: "AI".into(),
                },
            )?;
            seen.push(format!("{:?}", tx.seats(id)?));
            tx.advance_game(id, 0, "\"s1\"", 6)?;
            let game = tx.game(id)?.unwrap();
            seen.push(format!(
                "{} {:?} {}",
                game.turn, game.state, game.updated_at
            ));
            tx.clear_pending(id)?;
            seen.push(format!("{:?}", tx.pending(id)?));
            tx.set_state(id, "\"s2\"", 7)?;
            let game = tx.game(id)?.unwrap();
            seen.push(format!(
                "{} {:?} {}",
                game.turn, game.state, game.updated_at
            ));
            Ok(seen)
        })
        .unwrap();
    store
        .read(|tx| -> Result<(), StoreError> {
            let game = tx.game(id)?.unwrap();
            seen.push(format!("{} {:?}", game.turn, game.state));
            seen.push(format!(
                "{:?} {:?} {:?} {:?} {:?} {:?}",
                tx.seats(id)?,
                tx.pending(id)?,
                tx.deadline(id)?,
                tx.pause(id)?,
                tx.pause_votes(id)?,
                tx.absences(id)?
            ));
            Ok(())
        })
        .unwrap();
    seen
}

#[test]
fn a_transaction_reads_its_own_writes_as_on_sqlite() {
    // PostgreSQL answers a game's rows from one prefetch per transaction:
    // each write must still be seen by the reads after it, exactly as on
    // SQLite, where every read is its own query.
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = fresh_database(dir.path()) else {
        return;
    };
    let on_pg = reads_after_own_writes(&Store::open_postgres(&url).unwrap());
    let on_sqlite = reads_after_own_writes(&Store::open(&dir.path().join("lite.db")).unwrap());
    assert_eq!(on_pg, on_sqlite);
    assert!(on_pg[3].contains("rock"), "{on_pg:?}");
    assert!(on_pg[4].contains("since: 4"), "{on_pg:?}");
    assert!(on_pg[5].contains("AI"), "{on_pg:?}");
    assert!(
        on_pg[6].starts_with("1 Some(\"\\\"s1\\\"\") 6"),
        "{on_pg:?}"
    );
    assert_eq!(on_pg[7], "[]");
    assert!(
        on_pg[8].starts_with("1 Some(\"\\\"s2\\\"\") 7"),
        "{on_pg:?}"
    );
}
