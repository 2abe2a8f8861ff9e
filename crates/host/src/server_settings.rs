//! A server's settings (`/settings`): where games may be created, who its
//! game masters are (by role, the front-end decides), per-kind defaults and
//! the fixed daily Diplomacy deadline.
//!
//! Choices, where the issue leaves room:
//! - **Channels.** An empty list allows every channel; a non-empty one
//!   allows only the listed channels (a thread of a listed channel is
//!   another channel). Checked inside the transaction that creates the game.
//! - **Defaults.** A kind's default deadline replaces the operator's
//!   configured one when the creator names none; a `deadline:` given at
//!   creation always wins. The default AI level is used by `/game ai`
//!   without a level and by the AI standing in at a deadline.
//! - **Daily deadline.** Applies to the kinds that take one
//!   (`Game::TAKES_DAILY_DEADLINE`: Diplomacy) created without a `deadline:`; copied into the game at creation (see
//!   [`super::daily_deadline`]).
//! - **Ids only.** Role and channel ids; no user id is stored.

use super::daily_deadline::DailyDeadline;
use super::{GameId, Host, HostError, NewGame};
use store::{KindDefaultsRow, ScheduleRow, ServerSettingsRow, Tx};

/// A server's defaults for one kind of game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindDefaults {
    /// The kind (`diplomacy`, `cards`, ...).
    pub kind: String,
    /// Deadline per turn in seconds (0: none); `None`: the operator's.
    pub turn_seconds: Option<u64>,
    /// The AI level seats get when none is named; `None`: the engine's first.
    pub ai_level: Option<String>,
}

/// A server's settings as the host applies them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerSettings {
    /// The role (id) whose members are game masters.
    pub game_master_role: Option<String>,
    /// The channels (ids) where games may be created; empty: everywhere.
    pub game_channels: Vec<String>,
    /// Per-kind defaults, by kind.
    pub kind_defaults: Vec<KindDefaults>,
    /// Every Diplomacy phase ends at this time, if set.
    pub daily_deadline: Option<DailyDeadline>,
}

impl ServerSettings {
    /// The server's defaults for `kind`, if it set any.
    pub fn defaults_of(&self, kind: &str) -> Option<&KindDefaults> {
        self.kind_defaults.iter().find(|d| d.kind == kind)
    }

    /// Whether games may be created in `channel_id`.
    pub fn allows_games_in(&self, channel_id: &str) -> bool {
        self.game_channels.is_empty() || self.game_channels.iter().any(|c| c == channel_id)
    }
}

impl Host {
    /// A server's settings (the defaults when it set none).
    pub fn server_settings(&self, guild_id: &str) -> Result<ServerSettings, HostError> {
        self.store.read(|tx| read_settings(tx, guild_id))
    }

    /// Lists a channel where games may be created; false if it was listed.
    pub fn add_game_channel(&self, guild_id: &str, channel_id: &str) -> Result<bool, HostError> {
        Ok(self
            .store
            .write(|tx| tx.add_game_channel(guild_id, channel_id))?)
    }

    /// Takes a channel off the list; false if it was not on it.
    pub fn remove_game_channel(&self, guild_id: &str, channel_id: &str) -> Result<bool, HostError> {
        Ok(self
            .store
            .write(|tx| tx.remove_game_channel(guild_id, channel_id))?)
    }

    /// Empties the list: games may be created in every channel again.
    pub fn clear_game_channels(&self, guild_id: &str) -> Result<usize, HostError> {
        Ok(self.store.write(|tx| tx.clear_game_channels(guild_id))?)
    }

    /// Sets (or with `None` clears) the game-master role.
    pub fn set_game_master_role(
        &self,
        guild_id: &str,
        role_id: Option<&str>,
    ) -> Result<(), HostError> {
        self.change_settings_row(guild_id, |row| {
            row.game_master_role = role_id.map(str::to_string);
        })
    }

    /// Sets (or with `None` turns off) the daily deadline of new Diplomacy games.
    pub fn set_daily_deadline(
        &self,
        guild_id: &str,
        daily: Option<DailyDeadline>,
    ) -> Result<(), HostError> {
        self.change_settings_row(guild_id, |row| {
            row.daily_deadline_minute = daily.map(|d| d.minute_of_day());
            row.time_zone = daily.map(|d| d.zone_name().to_string());
        })
    }

    /// Sets a kind's default deadline in seconds (`None`: back to the
    /// operator's), checked against the kind's shortest turn.
    pub fn set_default_deadline(
        &self,
        guild_id: &str,
        kind: &str,
        turn_seconds: Option<u64>,
    ) -> Result<(), HostError> {
        let entry = self.registry.get(kind)?;
        super::limits::check_turn_seconds(entry, turn_seconds).map_err(HostError::user)?;
        self.change_kind_defaults(guild_id, entry.name, |d| {
            d.turn_seconds = turn_seconds.map(|s| s.min(i64::MAX as u64) as i64);
        })
    }

    /// Sets a kind's default AI level (`None`: the engine's first), checked
    /// as `/game ai` checks one; returns the level as stored.
    pub fn set_default_ai_level(
        &self,
        guild_id: &str,
        kind: &str,
        level: Option<&str>,
    ) -> Result<Option<String>, HostError> {
        let entry = self.registry.get(kind)?;
        let level = level
            .map(|l| self.check_ai_level(entry.name, l))
            .transpose()?;
        self.change_kind_defaults(guild_id, entry.name, |d| d.ai_level = level.clone())?;
        Ok(level)
    }

    fn change_settings_row(
        &self,
        guild_id: &str,
        change: impl Fn(&mut ServerSettingsRow),
    ) -> Result<(), HostError> {
        let now = self.now();
        Ok(self.store.write(|tx| {
            let mut row = tx.server_settings(guild_id)?;
            change(&mut row);
            tx.set_server_settings(guild_id, &row, now)
        })?)
    }

    fn change_kind_defaults(
        &self,
        guild_id: &str,
        kind: &str,
        change: impl Fn(&mut KindDefaultsRow),
    ) -> Result<(), HostError> {
        Ok(self.store.write(|tx| {
            let mut row = tx
                .kind_defaults(guild_id)?
                .into_iter()
                .find(|d| d.kind == kind)
                .unwrap_or(KindDefaultsRow {
                    kind: kind.to_string(),
                    turn_seconds: None,
                    ai_level: None,
                });
            change(&mut row);
            tx.set_kind_defaults(guild_id, &row)
        })?)
    }

    /// The refusal of a new game in a channel the server does not list.
    pub(super) fn check_game_channel(&self, tx: &Tx<'_>, req: &NewGame) -> Result<(), HostError> {
        let Some(guild) = &req.guild_id else {
            return Ok(());
        };
        let allowed = tx.game_channels(guild)?;
        if allowed.is_empty() || allowed.contains(&req.channel_id) {
            return Ok(());
        }
        let list: Vec<String> = allowed.iter().map(|c| format!("<#{c}>")).collect();
        Err(HostError::user(format!(
            "Games are not created in this channel on this server. Use `/game new` in {}. \
             (A server manager changes this with `/settings channels`.)",
            super::shared::names_or(&list)
        )))
    }

    /// The AI level a seat of a game gets when none is named: its server's
    /// default for the kind, else the engine's first level.
    pub(super) fn default_ai_level(
        &self,
        tx: &Tx<'_>,
        guild_id: Option<&str>,
        kind: &str,
    ) -> Result<String, HostError> {
        if let Some(guild) = guild_id {
            let chosen = tx
                .kind_defaults(guild)?
                .into_iter()
                .find(|d| d.kind == kind)
                .and_then(|d| d.ai_level);
            if let Some(level) = chosen {
                return Ok(level);
            }
        }
        let entry = self.registry.get(kind)?;
        Ok(entry
            .ai_levels
            .first()
            .copied()
            .unwrap_or("default")
            .to_string())
    }

    /// A game's fixed daily deadline, if it was created with one.
    pub(super) fn daily_deadline_of(
        &self,
        tx: &Tx<'_>,
        game_id: GameId,
    ) -> Result<Option<DailyDeadline>, HostError> {
        let Some(row) = tx.game_schedule(game_id)? else {
            return Ok(None);
        };
        DailyDeadline::from_stored(row.minute_of_day, &row.time_zone)
            .map(Some)
            .map_err(|reason| {
                HostError::Store(store::StoreError::Corrupt {
                    table: "game_schedules",
                    key: format!("game {game_id}"),
                    reason,
                })
            })
    }

    /// Records a new game's daily deadline.
    pub(super) fn store_daily_deadline(
        &self,
        tx: &Tx<'_>,
        game_id: GameId,
        daily: Option<DailyDeadline>,
    ) -> Result<(), HostError> {
        if let Some(d) = daily {
            tx.set_game_schedule(
                game_id,
                &ScheduleRow {
                    minute_of_day: d.minute_of_day(),
                    time_zone: d.zone_name().to_string(),
                },
            )?;
        }
        Ok(())
    }
}

/// A server's settings read in a transaction.
fn read_settings(tx: &Tx<'_>, guild_id: &str) -> Result<ServerSettings, HostError> {
    let row = tx.server_settings(guild_id)?;
    let daily = match (row.daily_deadline_minute, &row.time_zone) {
        (Some(m), Some(zone)) => Some(DailyDeadline::from_stored(m, zone).map_err(|reason| {
            HostError::Store(store::StoreError::Corrupt {
                table: "server_settings",
                key: format!("server {guild_id}"),
                reason,
            })
        })?),
        _ => None,
    };
    Ok(ServerSettings {
        game_master_role: row.game_master_role,
        game_channels: tx.game_channels(guild_id)?,
        kind_defaults: tx
            .kind_defaults(guild_id)?
            .into_iter()
            .map(|d| KindDefaults {
                kind: d.kind,
                turn_seconds: d.turn_seconds.map(|s| s.max(0) as u64),
                ai_level: d.ai_level,
            })
            .collect(),
        daily_deadline: daily,
    })
}
