-- gamehost schema, version 4: ratings, results, scoring rules and reliability.
-- A scope is a Discord server's id, or '' for games outside a server (terminal).
-- A player is a user id, or 'ai:<level>' for an AI seat a server chose to rate.

-- A player's rating in one scope and one kind of game, on the Glicko scale
-- (1500 to start, deviation 350); Diplomacy's Weng-Lin values are stored
-- converted to the same scale.
CREATE TABLE ratings (
    scope      TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,             -- Glicko-2 only; 0 for Weng-Lin
    games      INTEGER NOT NULL,             -- rated games counted in it
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (scope, kind, player)
);
CREATE INDEX ratings_board ON ratings (scope, kind, rating DESC);

-- What each seat of a finished game came to, rated or not.
CREATE TABLE game_results (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    player          TEXT    NOT NULL,
    result          TEXT    NOT NULL CHECK (result IN ('win', 'draw', 'loss', 'forfeit')),
    score           REAL,                    -- Diplomacy scoring points (0-100); NULL elsewhere
    rating_before   REAL,                    -- NULL when the game was not rated
    rating_after    REAL,
    deviation_after REAL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_by_player ON game_results (player);

-- What a game's creator chose beyond the engine's options.
CREATE TABLE game_rules (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    scoring         TEXT    CHECK (scoring IN ('dss', 'sos', 'solo')),
    min_reliability INTEGER CHECK (min_reliability BETWEEN 0 AND 100)
);

-- A server's choice to rate games with AI seats (and the AIs in them).
CREATE TABLE rating_settings (
    scope         TEXT PRIMARY KEY,
    rate_ai_seats INTEGER NOT NULL CHECK (rate_ai_seats IN (0, 1))
);

-- Deadlines a person missed and civil disorders they fell into.
CREATE TABLE player_events (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    user_id TEXT    NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('missed_deadline', 'civil_disorder')),
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn, seat, kind)
);
CREATE INDEX player_events_by_user ON player_events (user_id);

-- Games finished before ratings existed: the host rates them, oldest end
-- first, before the next game it rates.
CREATE TABLE rating_backlog (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO rating_backlog (game_id) SELECT id FROM games WHERE status = 'finished';
