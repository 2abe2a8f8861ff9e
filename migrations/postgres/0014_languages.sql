-- gamehost schema: the language each person reads and each server's.
-- A person: the language they chose (`/language`; NULL: follow their
-- Discord client) and the locale their client last sent, remembered for
-- DMs that answer nothing (prompts, reminders). Personal data: deleted with
-- the person (`/privacy delete`).
CREATE TABLE user_languages (
    user_id       TEXT    NOT NULL PRIMARY KEY,
    chosen        TEXT,
    client_locale TEXT,
    updated_at    BIGINT  NOT NULL
);

-- A server's language for its channels and threads: the one its admins
-- chose (`/settings language`), else the server's own locale as Discord
-- last sent it (`guild_locale`), else English.
ALTER TABLE server_settings ADD COLUMN language TEXT;
ALTER TABLE server_settings ADD COLUMN discord_locale TEXT;
