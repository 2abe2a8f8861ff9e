-- gamehost schema, version 3: abandoned games.
-- How many deadlines in a row have passed before this turn's without any
-- person in the game acting; a turn someone plays in starts again at 0.
-- The host ends a game when this reaches its limit (`[deadlines] abandon_after`).
ALTER TABLE deadlines ADD COLUMN idle_deadlines INTEGER NOT NULL DEFAULT 0;
