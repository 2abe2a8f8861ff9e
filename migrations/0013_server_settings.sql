-- gamehost schema: per-server settings (`/settings`). Only server, channel
-- and role ids, never a user's: nothing here is personal data.
CREATE TABLE server_settings (
    guild_id              TEXT    NOT NULL PRIMARY KEY,
    -- The role whose members are game masters (abort, extend, pause, replace).
    game_master_role      TEXT,
    -- The IANA time zone of the daily deadline, e.g. `Europe/Berlin`.
    time_zone             TEXT,
    -- Every Diplomacy phase ends at this minute of the day (0-1439) in
    -- time_zone; NULL: deadlines are turn spans.
    daily_deadline_minute INTEGER CHECK (daily_deadline_minute BETWEEN 0 AND 1439),
    updated_at            INTEGER NOT NULL
);

-- The channels where games may be created; none listed: every channel.
CREATE TABLE server_game_channels (
    guild_id   TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

-- A server's defaults for one kind of game; NULL: the operator's default.
CREATE TABLE server_kind_defaults (
    guild_id     TEXT    NOT NULL,
    kind         TEXT    NOT NULL,
    turn_seconds INTEGER CHECK (turn_seconds >= 0),
    ai_level     TEXT,
    PRIMARY KEY (guild_id, kind)
);

-- A game's fixed daily deadline, copied from its server's settings when the
-- game is created, so changing the setting never moves a running game.
CREATE TABLE game_schedules (
    game_id        INTEGER NOT NULL PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    minute_of_day  INTEGER NOT NULL CHECK (minute_of_day BETWEEN 0 AND 1439),
    time_zone      TEXT    NOT NULL
);
