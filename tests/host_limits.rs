//! Abuse limits through the host: oversized messages and users who are not
//! seated are refused with a clear sentence, and nothing is recorded.

mod common;

use common::{host_at, new_rps};
use gamehost::host::ManualClock;
use gamehost::store::TimeoutPolicy;
use std::sync::Arc;

#[test]
fn oversized_messages_and_strangers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), Arc::new(ManualClock::at(1_000)));
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();

    let huge = "rock ".repeat(10_000);
    let err = host.submit(Some(id), "alice", &huge).unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("at most 200 characters"), "{err}");
    assert_eq!(host.own_pending(id, "alice").unwrap(), None);

    let err = host.submit(Some(id), "mallory", "rock").unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("not playing"), "{err}");

    // Exactly at the limit is still parsed (and refused only as a bad move).
    let err = host
        .submit(Some(id), "alice", &"r".repeat(200))
        .unwrap_err();
    assert!(!err.to_string().contains("at most"), "{err}");
    host.submit(Some(id), "alice", "rock").unwrap();
    assert!(host.own_pending(id, "alice").unwrap().is_some());
}
