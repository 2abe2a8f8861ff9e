-- gamehost schema: the direct-message channel a front-end opened for each
-- user, remembered so a DM does not cost a request to open the channel
-- again (Discord answers the same channel every time), across restarts.
CREATE TABLE dm_channels (
    user_id    TEXT NOT NULL PRIMARY KEY,
    channel_id TEXT NOT NULL
);
