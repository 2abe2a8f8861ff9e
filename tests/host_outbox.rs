//! The outbox keeps what is still to deliver and forgets what was delivered
//! long ago, so a busy bot's database does not grow without end.

mod support;

use host::{KEEP_DELIVERED_MS, ManualClock, PRUNE_BATCH};
use std::sync::Arc;
use store::TimeoutPolicy;
use support::rps::{host_at, new_rps};

/// Outbox rows in the store, delivered or not (on either back end).
fn outbox_rows(host: &host::Host) -> i64 {
    host.store()
        .read(|tx| -> Result<i64, store::StoreError> {
            let mut n = 0;
            for id in tx.all_game_ids()? {
                tx.each_outbox_row_of_game(id, |_| n += 1)?;
            }
            Ok(n)
        })
        .unwrap()
}

#[test]
fn delivered_announcements_older_than_a_week_are_deleted_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let clock = Arc::new(ManualClock::at(1_000_000));
    let host = host_at(&db, clock.clone());
    // Enough games that one prune needs several batches.
    let games = PRUNE_BATCH as usize / 2 + 10;
    for n in 0..games {
        let id = host
            .create_game(new_rps(&format!("c{n}"), None, TimeoutPolicy::Default))
            .unwrap();
        host.join(id, "bob", "Bob", None).unwrap();
        host.start(id, "alice").unwrap();
    }
    let first = host.unsent(u32::MAX).unwrap();
    assert!(first.len() > PRUNE_BATCH as usize, "{}", first.len());
    for item in &first {
        assert!(host.mark_sent(item.id).unwrap());
    }
    // Later announcements, delivered a day later, and one left undelivered.
    clock.advance(24 * 3600 * 1000);
    let id = host
        .create_game(new_rps("late", None, TimeoutPolicy::Default))
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    let late = host.unsent(u32::MAX).unwrap();
    assert!(late.len() >= 2);
    host.mark_sent(late[0].id).unwrap();
    let total = outbox_rows(&host);

    // Within the week nothing goes.
    clock.advance(KEEP_DELIVERED_MS - 24 * 3600 * 1000 - 1);
    assert_eq!(host.prune_delivered().unwrap(), 0);
    // After a week the first batch goes, all of it, in several transactions.
    clock.advance(2);
    assert_eq!(host.prune_delivered().unwrap(), first.len());
    assert_eq!(outbox_rows(&host), total - first.len() as i64);
    // The undelivered ones are still there to deliver, whatever their age.
    clock.advance(365 * 24 * 3600 * 1000);
    assert_eq!(host.prune_delivered().unwrap(), 1);
    let still = host.unsent(u32::MAX).unwrap();
    assert_eq!(still.len(), late.len() - 1);
    assert_eq!(outbox_rows(&host), still.len() as i64);
}

#[test]
fn a_users_dm_channel_is_remembered_replaced_and_forgotten() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let host = host_at(&db, Arc::new(ManualClock::at(1_000_000)));
    assert_eq!(host.dm_channel("alice").unwrap(), None);
    host.remember_dm_channel("alice", "111").unwrap();
    host.remember_dm_channel("bob", "222").unwrap();
    assert_eq!(host.dm_channel("alice").unwrap().as_deref(), Some("111"));
    // Discord gave another channel (the old one was gone): the new one stands.
    host.remember_dm_channel("alice", "333").unwrap();
    assert_eq!(host.dm_channel("alice").unwrap().as_deref(), Some("333"));
    host.forget_dm_channel("alice").unwrap();
    assert_eq!(host.dm_channel("alice").unwrap(), None);
    assert_eq!(host.dm_channel("bob").unwrap().as_deref(), Some("222"));
    // Remembered in the database: a new host on it (a restart) knows it.
    drop(host);
    let again = host_at(&db, Arc::new(ManualClock::at(2_000_000)));
    assert_eq!(again.dm_channel("bob").unwrap().as_deref(), Some("222"));
}
