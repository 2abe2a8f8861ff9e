-- gamehost schema for PostgreSQL, version 2: as ../0002_deadline_extensions.sql.
ALTER TABLE deadlines ADD COLUMN extensions_used BIGINT NOT NULL DEFAULT 0;
