-- gamehost schema: pauses and absences.

-- What a game's creator chose for pauses and absences (a game without a
-- row has the defaults: pauses by every player, absences extend deadlines,
-- 14 days a year).
CREATE TABLE leave_rules (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    creator_pauses INTEGER NOT NULL CHECK (creator_pauses IN (0, 1)),
    away           TEXT    NOT NULL CHECK (away IN ('extend', 'ai', 'off')),
    away_days      INTEGER NOT NULL CHECK (away_days BETWEEN 0 AND 365)
);

-- A paused game: its deadline row is removed and kept here as the time
-- that was left, given back in full when the game resumes.
CREATE TABLE pauses (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    since           INTEGER NOT NULL,        -- when the pause took effect (ms)
    due_left_ms     INTEGER,                 -- NULL: the turn had no deadline
    remind_left_ms  INTEGER,                 -- NULL: no reminder was still to come
    extensions_used INTEGER NOT NULL DEFAULT 0,
    idle_deadlines  INTEGER NOT NULL DEFAULT 0
);

-- Players who asked for a pause that has not taken effect yet.
CREATE TABLE pause_votes (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  TEXT    NOT NULL,
    voted_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Absences players declared: [starts_at, ends_at) in ms.
CREATE TABLE absences (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id   TEXT    NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at   INTEGER NOT NULL CHECK (ends_at >= starts_at)
);
CREATE INDEX absences_by_game ON absences (game_id, user_id);
