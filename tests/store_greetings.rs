//! The greeting of a server the bot joins is claimed once per server on
//! either back end (`GAMEHOST_TEST_STORE=postgres` runs it on PostgreSQL),
//! also by two hosts on one database (two bot processes), and stays
//! claimed across a restart.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{HostSettings, ManualClock, Registry};
use std::sync::Arc;

#[test]
fn a_server_is_greeted_once_across_processes_and_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let open = || {
        host_builder::host_on(
            &db,
            Registry::standard(),
            Arc::new(ManualClock::at(1_000)),
            HostSettings::default(),
        )
    };
    let (a, b) = (open(), open());
    assert!(a.claim_guild_greeting("guild-1").unwrap());
    assert!(!b.claim_guild_greeting("guild-1").unwrap());
    assert!(b.claim_guild_greeting("guild-2").unwrap());
    drop((a, b));
    let again = open();
    assert!(!again.claim_guild_greeting("guild-1").unwrap());
    assert!(!again.claim_guild_greeting("guild-2").unwrap());
}
