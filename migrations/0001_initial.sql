-- gamehost schema, version 1.
-- Every time is Unix milliseconds (UTC). Every JSON column holds serde_json text.

-- One row per game ever created, in any channel.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    kind          TEXT    NOT NULL,
    guild_id      TEXT,                      -- NULL outside a Discord server (terminal)
    channel_id    TEXT    NOT NULL,
    creator_id    TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
    options       TEXT    NOT NULL,          -- the engine's options as JSON
    seed          INTEGER NOT NULL,          -- seeds the engine and its AI seats
    state         TEXT,                      -- the engine's state as JSON; NULL in the lobby
    turn          INTEGER NOT NULL DEFAULT 0, -- turns resolved so far
    outcome       TEXT,                      -- JSON once finished
    turn_seconds  INTEGER,                   -- deadline per turn; NULL = no deadline
    timeout_policy TEXT   NOT NULL CHECK (timeout_policy IN ('default', 'ai', 'forfeit')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

-- At most one game in the lobby or running per channel.
CREATE UNIQUE INDEX games_one_active_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_guild ON games (guild_id, status);

-- Who sits where: a user or an AI, never both.
CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      TEXT,
    ai_level     TEXT,
    display_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id);

-- Hidden actions submitted for the current turn and not yet resolved.
CREATE TABLE pending_actions (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    action       TEXT    NOT NULL,           -- the engine's action as JSON
    final        INTEGER NOT NULL CHECK (final IN (0, 1)),
    submitted_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- Every resolved turn: what each seat did, what was announced, and the state
-- after it, so a game can be replayed and any past board shown again.
CREATE TABLE turn_log (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,            -- 1 for the first resolved turn
    actions     TEXT    NOT NULL,            -- {"seat": action, ...}
    report      TEXT    NOT NULL,            -- the engine's TurnReport
    state_after TEXT    NOT NULL,
    resolved_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn)
);

-- The deadline of a running game's current turn.
CREATE TABLE deadlines (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,
    due_at   INTEGER NOT NULL,
    remind_at INTEGER,                       -- NULL once reminded or when no reminder is wanted
    CHECK (remind_at IS NULL OR remind_at <= due_at)
);
CREATE INDEX deadlines_by_due ON deadlines (due_at);

-- Announcements a front-end must deliver; written in the same transaction as
-- the change they announce, marked sent after delivery.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    target_kind TEXT    NOT NULL CHECK (target_kind IN ('channel', 'user')),
    target_id   TEXT    NOT NULL,
    payload     TEXT    NOT NULL,            -- an Announcement as JSON
    created_at  INTEGER NOT NULL,
    sent_at     INTEGER
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
