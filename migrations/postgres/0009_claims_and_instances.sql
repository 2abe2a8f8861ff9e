-- gamehost schema for PostgreSQL, version 9: as ../0009_claims_and_instances.sql.
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claimed_until BIGINT;
ALTER TABLE games ADD COLUMN outbox_claimed_by TEXT;
ALTER TABLE games ADD COLUMN outbox_claimed_until BIGINT;

CREATE TABLE instances (
    id             TEXT   PRIMARY KEY,
    version        TEXT   NOT NULL,
    schema_version BIGINT NOT NULL,
    started_at     BIGINT NOT NULL,
    heartbeat_at   BIGINT NOT NULL
);
