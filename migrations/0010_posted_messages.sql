-- gamehost schema: the messages a front-end posted for a game and edits in
-- place (the lobby, the message that opens a turn), and where the game
-- lives once it moved into a thread. Keyed by the game and a stable key
-- ('lobby', 'turn:3', 'thread'), so an edit after a restart finds the
-- message the bot posted before it.
CREATE TABLE posted_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key        TEXT    NOT NULL,
    channel_id TEXT    NOT NULL,             -- where the message is
    message_id TEXT    NOT NULL,
    content    TEXT    NOT NULL DEFAULT '',  -- its text as posted, before any status line
    PRIMARY KEY (game_id, key)
);
