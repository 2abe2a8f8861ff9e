-- gamehost schema, version 9: several processes on one database.
-- A process claims the deadlines it fires and the games whose announcements
-- it delivers, for a lease: on PostgreSQL the claim is taken with
-- `FOR UPDATE SKIP LOCKED`, so each is handled by one process, and the claim
-- of a process that died expires and is taken over. (On SQLite one process
-- owns the file; the claims are trivially its own.)
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;       -- the claiming process's id
ALTER TABLE deadlines ADD COLUMN claimed_until INTEGER; -- lease end (ms)
-- Claims are per game, not per row, so one process delivers a game's
-- announcements in order.
ALTER TABLE games ADD COLUMN outbox_claimed_by TEXT;
ALTER TABLE games ADD COLUMN outbox_claimed_until INTEGER;

-- The processes running on this database, so one of another gamehost
-- version is refused at start-up while another is alive (its heartbeat is
-- recent).
CREATE TABLE instances (
    id             TEXT    PRIMARY KEY,
    version        TEXT    NOT NULL,  -- gamehost's version
    schema_version INTEGER NOT NULL,
    started_at     INTEGER NOT NULL,
    heartbeat_at   INTEGER NOT NULL
);
