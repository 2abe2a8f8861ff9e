-- gamehost schema, version 2: deadline extensions.
-- How many times the current turn's deadline was extended on a player's
-- request; a new turn's deadline starts again at 0.
ALTER TABLE deadlines ADD COLUMN extensions_used INTEGER NOT NULL DEFAULT 0;
