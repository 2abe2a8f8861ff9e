-- gamehost schema: who held a seat from which turn. A takeover gives a
-- running game's seat to a new occupant; reliability counts each turn a
-- seat was awaited in against the person who held it then, not whoever
-- holds it now. A seat with no rows here was held by its `seats` occupant
-- all game (every seat until its first takeover).
-- (Numbered 0006: 0005 is taken by the press migration of another branch;
-- the list in crates/store keeps them in number order.)
CREATE TABLE seat_terms (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    from_turn INTEGER NOT NULL,              -- the first game turn of the term
    user_id   TEXT,                          -- NULL while an AI held it
    PRIMARY KEY (game_id, seat, from_turn)
);
CREATE INDEX seat_terms_by_user ON seat_terms (user_id);
