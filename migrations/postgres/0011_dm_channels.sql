-- gamehost schema (PostgreSQL), the same as migrations/0011_dm_channels.sql:
-- the direct-message channel a front-end opened for each user, remembered
-- across restarts so a DM does not cost a request to open it again.
CREATE TABLE dm_channels (
    user_id    TEXT NOT NULL PRIMARY KEY,
    channel_id TEXT NOT NULL
);
