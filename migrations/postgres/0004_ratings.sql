-- gamehost schema for PostgreSQL, version 4: as ../0004_ratings.sql.
CREATE TABLE ratings (
    scope      TEXT   NOT NULL,
    kind       TEXT   NOT NULL,
    player     TEXT   NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (scope, kind, player)
);
CREATE INDEX ratings_board ON ratings (scope, kind, rating DESC);

CREATE TABLE game_results (
    game_id         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            BIGINT NOT NULL,
    player          TEXT   NOT NULL,
    result          TEXT   NOT NULL CHECK (result IN ('win', 'draw', 'loss', 'forfeit')),
    score           DOUBLE PRECISION,
    rating_before   DOUBLE PRECISION,
    rating_after    DOUBLE PRECISION,
    deviation_after DOUBLE PRECISION,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_by_player ON game_results (player);

CREATE TABLE game_rules (
    game_id         BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated           BIGINT NOT NULL CHECK (rated IN (0, 1)),
    scoring         TEXT   CHECK (scoring IN ('dss', 'sos', 'solo')),
    min_reliability BIGINT CHECK (min_reliability BETWEEN 0 AND 100)
);

CREATE TABLE rating_settings (
    scope         TEXT PRIMARY KEY,
    rate_ai_seats BIGINT NOT NULL CHECK (rate_ai_seats IN (0, 1))
);

CREATE TABLE player_events (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    BIGINT NOT NULL,
    seat    BIGINT NOT NULL,
    user_id TEXT   NOT NULL,
    kind    TEXT   NOT NULL CHECK (kind IN ('missed_deadline', 'civil_disorder')),
    at      BIGINT NOT NULL,
    PRIMARY KEY (game_id, turn, seat, kind)
);
CREATE INDEX player_events_by_user ON player_events (user_id);

CREATE TABLE rating_backlog (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO rating_backlog (game_id) SELECT id FROM games WHERE status = 'finished';
