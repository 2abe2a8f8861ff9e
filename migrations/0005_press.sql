-- gamehost schema, version 5: press (messages between Diplomacy powers relayed by the bot).
-- Every relayed message is kept, delivered or not, so the whole press of a game can be
-- revealed once it has ended. The sender is stored as a seat and its power, never as a
-- user id: the seats table says who sat there, and anonymous press has nothing more to leak.
CREATE TABLE press (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,             -- resolved turns when it was sent
    phase        TEXT    NOT NULL,             -- e.g. 'Spring 1901 movement'
    sender_seat  INTEGER NOT NULL,
    sender_power TEXT    NOT NULL,
    to_all       INTEGER NOT NULL CHECK (to_all IN (0, 1)),
    recipients   TEXT    NOT NULL,             -- the powers addressed, comma separated
    text         TEXT    NOT NULL,
    sent_at      INTEGER NOT NULL
);
-- The rate limit counts one sender's recent messages in one game.
CREATE INDEX press_by_sender ON press (game_id, sender_seat, sent_at);
