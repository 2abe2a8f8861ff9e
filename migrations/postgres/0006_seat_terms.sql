-- gamehost schema for PostgreSQL, version 6: as ../0006_seat_terms.sql.
CREATE TABLE seat_terms (
    game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      BIGINT NOT NULL,
    from_turn BIGINT NOT NULL,
    user_id   TEXT,
    PRIMARY KEY (game_id, seat, from_turn)
);
CREATE INDEX seat_terms_by_user ON seat_terms (user_id);
