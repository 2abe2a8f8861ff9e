-- gamehost schema (PostgreSQL), the same as migrations/0010_posted_messages.sql:
-- the messages a front-end posted for a game and edits in place (the lobby,
-- the message that opens a turn), and where the game lives once it moved
-- into a thread, keyed by the game and a stable key ('lobby', 'turn:3',
-- 'thread').
CREATE TABLE posted_messages (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key        TEXT   NOT NULL,
    channel_id TEXT   NOT NULL,
    message_id TEXT   NOT NULL,
    content    TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, key)
);
