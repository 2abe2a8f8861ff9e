-- gamehost schema (PostgreSQL), the same as migrations/0012_greeted_guilds.sql:
-- the servers the bot has greeted on joining, so the greeting is posted
-- once per server, across restarts and processes.
CREATE TABLE greeted_guilds (
    guild_id   TEXT   NOT NULL PRIMARY KEY,
    greeted_at BIGINT NOT NULL
);
