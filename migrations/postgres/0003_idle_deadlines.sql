-- gamehost schema for PostgreSQL, version 3: as ../0003_idle_deadlines.sql.
ALTER TABLE deadlines ADD COLUMN idle_deadlines BIGINT NOT NULL DEFAULT 0;
