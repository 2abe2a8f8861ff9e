//! Per-server settings (migration 0013): the game-master role, the channels
//! where games may be created, per-kind defaults, the daily deadline; and
//! the daily deadline each game copied from them when it was created.
//! Server, channel and role ids only: no user's id is stored here.

use super::db::args;
use super::{StoreError, Tx};

/// A row of `server_settings`; a server without one has every field `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerSettingsRow {
    /// The role id whose members are game masters.
    pub game_master_role: Option<String>,
    /// The IANA time zone of the daily deadline.
    pub time_zone: Option<String>,
    /// The minute of the day (0-1439) every Diplomacy phase ends at.
    pub daily_deadline_minute: Option<u32>,
    /// The language its admins chose for its channels (`en`, `ja`).
    pub language: Option<String>,
    /// The server's own locale as Discord last sent it (`guild_locale`).
    pub discord_locale: Option<String>,
}

/// A row of `server_kind_defaults`: a server's defaults for one kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindDefaultsRow {
    /// The kind of game (`diplomacy`, `cards`, ...).
    pub kind: String,
    /// Deadline per turn in seconds (0: none); `None`: the operator's.
    pub turn_seconds: Option<i64>,
    /// The AI level seats of this kind get when none is named.
    pub ai_level: Option<String>,
}

/// A row of `game_schedules`: the fixed daily deadline of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleRow {
    /// Every phase ends at this minute of the day (0-1439) ...
    pub minute_of_day: u32,
    /// ... in this IANA time zone.
    pub time_zone: String,
}

impl Tx<'_> {
    /// A server's settings (all `None` when it never set any).
    pub fn server_settings(&self, guild_id: &str) -> Result<ServerSettingsRow, StoreError> {
        self.conn
            .row(
                "SELECT game_master_role, time_zone, daily_deadline_minute, language, \
                 discord_locale FROM server_settings WHERE guild_id = ?1",
                args![guild_id],
            )?
            .map(|r| {
                Ok(ServerSettingsRow {
                    game_master_role: r.get(0)?,
                    time_zone: r.get(1)?,
                    daily_deadline_minute: r.get(2)?,
                    language: r.get(3)?,
                    discord_locale: r.get(4)?,
                })
            })
            .unwrap_or_else(|| Ok(ServerSettingsRow::default()))
    }

    /// Replaces a server's settings row.
    pub fn set_server_settings(
        &self,
        guild_id: &str,
        s: &ServerSettingsRow,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO server_settings (guild_id, game_master_role, time_zone, \
             daily_deadline_minute, language, discord_locale, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (guild_id) DO UPDATE SET game_master_role = excluded.game_master_role, \
             time_zone = excluded.time_zone, daily_deadline_minute = excluded.daily_deadline_minute, \
             language = excluded.language, discord_locale = excluded.discord_locale, \
             updated_at = excluded.updated_at",
            args![
                guild_id,
                s.game_master_role,
                s.time_zone,
                s.daily_deadline_minute,
                s.language,
                s.discord_locale,
                at_ms
            ],
        )?;
        Ok(())
    }

    /// The channels of a server where games may be created, sorted.
    pub fn game_channels(&self, guild_id: &str) -> Result<Vec<String>, StoreError> {
        self.conn
            .rows(
                "SELECT channel_id FROM server_game_channels WHERE guild_id = ?1 ORDER BY channel_id",
                args![guild_id],
            )?
            .into_iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Lists a channel as one where games may be created; false if it was.
    pub fn add_game_channel(&self, guild_id: &str, channel_id: &str) -> Result<bool, StoreError> {
        let n = self.conn.exec(
            "INSERT INTO server_game_channels (guild_id, channel_id) VALUES (?1, ?2) \
             ON CONFLICT (guild_id, channel_id) DO NOTHING",
            args![guild_id, channel_id],
        )?;
        Ok(n == 1)
    }

    /// Takes a channel off the list; false if it was not on it.
    pub fn remove_game_channel(
        &self,
        guild_id: &str,
        channel_id: &str,
    ) -> Result<bool, StoreError> {
        let n = self.conn.exec(
            "DELETE FROM server_game_channels WHERE guild_id = ?1 AND channel_id = ?2",
            args![guild_id, channel_id],
        )?;
        Ok(n == 1)
    }

    /// Empties a server's list of channels (games anywhere again).
    pub fn clear_game_channels(&self, guild_id: &str) -> Result<usize, StoreError> {
        self.conn.exec(
            "DELETE FROM server_game_channels WHERE guild_id = ?1",
            args![guild_id],
        )
    }

    /// A server's per-kind defaults, by kind.
    pub fn kind_defaults(&self, guild_id: &str) -> Result<Vec<KindDefaultsRow>, StoreError> {
        self.conn
            .rows(
                "SELECT kind, turn_seconds, ai_level FROM server_kind_defaults \
                 WHERE guild_id = ?1 ORDER BY kind",
                args![guild_id],
            )?
            .into_iter()
            .map(|r| {
                Ok(KindDefaultsRow {
                    kind: r.get(0)?,
                    turn_seconds: r.get(1)?,
                    ai_level: r.get(2)?,
                })
            })
            .collect()
    }

    /// Sets a server's defaults for one kind; a row of two `None`s is deleted.
    pub fn set_kind_defaults(&self, guild_id: &str, d: &KindDefaultsRow) -> Result<(), StoreError> {
        if d.turn_seconds.is_none() && d.ai_level.is_none() {
            self.conn.exec(
                "DELETE FROM server_kind_defaults WHERE guild_id = ?1 AND kind = ?2",
                args![guild_id, d.kind],
            )?;
            return Ok(());
        }
        self.conn.exec(
            "INSERT INTO server_kind_defaults (guild_id, kind, turn_seconds, ai_level) \
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (guild_id, kind) DO UPDATE SET \
             turn_seconds = excluded.turn_seconds, ai_level = excluded.ai_level",
            args![guild_id, d.kind, d.turn_seconds, d.ai_level],
        )?;
        Ok(())
    }

    /// Records a game's fixed daily deadline.
    pub fn set_game_schedule(&self, game_id: i64, s: &ScheduleRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO game_schedules (game_id, minute_of_day, time_zone) VALUES (?1, ?2, ?3) \
             ON CONFLICT (game_id) DO UPDATE SET minute_of_day = excluded.minute_of_day, \
             time_zone = excluded.time_zone",
            args![game_id, s.minute_of_day, s.time_zone],
        )?;
        Ok(())
    }

    /// A game's fixed daily deadline, if it has one.
    pub fn game_schedule(&self, game_id: i64) -> Result<Option<ScheduleRow>, StoreError> {
        self.conn
            .row(
                "SELECT minute_of_day, time_zone FROM game_schedules WHERE game_id = ?1",
                args![game_id],
            )?
            .map(|r| {
                Ok(ScheduleRow {
                    minute_of_day: r.get(0)?,
                    time_zone: r.get(1)?,
                })
            })
            .transpose()
    }
}
