//! Settings: built-in defaults, then a TOML file, then environment variables.
//!
//! Every key `[section] key` can be overridden by `GAMEHOST_<SECTION>_<KEY>`
//! (e.g. `GAMEHOST_DATABASE_PATH`, `GAMEHOST_DEADLINES_BATTLE_SECONDS`), and the bot
//! token also by the conventional `DISCORD_TOKEN`. `config.example.toml`
//! documents every key with its default; keep the two in step.

use figment::Figment;
use figment::providers::{Format, Serialized, Toml};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The config file read when `--config` is not given (optional).
pub const DEFAULT_CONFIG_FILE: &str = "gamehost.toml";

/// All settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where games are kept.
    pub database: DatabaseConfig,
    /// The Discord connection.
    pub discord: DiscordConfig,
    /// Default turn deadlines.
    pub deadlines: DeadlinesConfig,
    /// How long AIs may think.
    pub ai: AiConfig,
    /// Battle rule data.
    pub battle: BattleConfig,
    /// Logging.
    pub log: LogConfig,
}

/// `[database]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    /// The SQLite file, relative to the working directory.
    pub path: PathBuf,
    /// Directory for `gamehost backup` snapshots.
    pub backup_dir: PathBuf,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            path: PathBuf::from("gamehost.db"),
            backup_dir: PathBuf::from("backups"),
        }
    }
}

/// `[discord]`
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiscordConfig {
    /// The bot token (or env `DISCORD_TOKEN`). Empty means "not set".
    pub token: String,
    /// Register slash commands in this server only (instant) instead of globally.
    pub guild_id: Option<u64>,
    /// Send REST calls through this base URL instead of discord.com (tests, proxies).
    pub api_base: Option<String>,
}

impl fmt::Debug for DiscordConfig {
    // The token must never reach a log line, not even through `{:?}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordConfig")
            .field(
                "token",
                &if self.token.is_empty() {
                    "<unset>"
                } else {
                    "<redacted>"
                },
            )
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .finish()
    }
}

/// `[deadlines]`: seconds per turn by game, and what happens when one passes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeadlinesConfig {
    /// Invisible (cards).
    pub cards_seconds: u64,
    /// Monster battle.
    pub battle_seconds: u64,
    /// Puzzle duel.
    pub puzzle_seconds: u64,
    /// Diplomacy (per phase).
    pub diplomacy_seconds: u64,
    /// Remind the seats still to act when this share of the time is left (0 = never).
    pub reminder_percent: u8,
    /// `default` (the engine's default action), `ai` (an AI moves for the seat)
    /// or `forfeit` (the seat loses).
    pub timeout_policy: String,
    /// End a game as abandoned after this many deadlines in a row pass with
    /// no player moving (0 = never).
    pub abandon_after: u32,
}

impl Default for DeadlinesConfig {
    fn default() -> Self {
        DeadlinesConfig {
            cards_seconds: 600,
            battle_seconds: 300,
            puzzle_seconds: 600,
            diplomacy_seconds: 86_400,
            reminder_percent: 20,
            timeout_policy: "default".into(),
            abandon_after: crate::host::limits::DEFAULT_ABANDON_AFTER,
        }
    }
}

impl DeadlinesConfig {
    /// The default deadline of a kind of game, in seconds (0 = none).
    pub fn seconds_for(&self, kind: &str) -> u64 {
        match kind {
            "cards" => self.cards_seconds,
            "battle" => self.battle_seconds,
            "puzzle" => self.puzzle_seconds,
            "diplomacy" => self.diplomacy_seconds,
            _ => 0,
        }
    }
}

/// `[ai]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AiConfig {
    /// Wall-clock time an AI seat may think per decision, in milliseconds.
    pub budget_ms: u64,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig { budget_ms: 1000 }
    }
}

/// `[battle]`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BattleConfig {
    /// A TOML roster to use instead of the built-in one (empty = built-in).
    pub roster: String,
}

/// `[log]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// A `tracing` filter: `error`, `warn`, `info`, `debug`, or e.g. `gamehost=debug,serenity=warn`.
    pub level: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            level: "info".into(),
        }
    }
}

/// Why the settings could not be loaded; one line, naming the file and key.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--config` named a file that does not exist.
    #[error("config file {0} not found (copy config.example.toml there, or leave out --config)")]
    Missing(PathBuf),
    /// A value had the wrong shape.
    #[error("config {source_name}: {message}")]
    Invalid {
        /// The file (or "environment") the bad value came from.
        source_name: String,
        /// What was wrong and what was expected.
        message: String,
    },
}

const SECTIONS: &[&str] = &["database", "discord", "deadlines", "ai", "battle", "log"];

impl Config {
    /// Loads defaults, then `file` (required if `explicit`, else optional),
    /// then the environment.
    pub fn load(file: &Path, explicit: bool) -> Result<Config, ConfigError> {
        if explicit && !file.exists() {
            return Err(ConfigError::Missing(file.to_path_buf()));
        }
        Self::load_from(file, std::env::vars())
    }

    /// Like [`Config::load`] with a given environment (for tests).
    pub fn load_from(
        file: &Path,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if file.exists() {
            figment = figment.merge(Toml::file(file));
        }
        // Environment: GAMEHOST_<SECTION>_<KEY>, split at the first underscore
        // after the prefix (keys themselves contain underscores).
        let mut overrides: Vec<(String, String)> = Vec::new();
        let mut token: Option<String> = None;
        for (k, v) in env {
            if k == "DISCORD_TOKEN" {
                token = Some(v);
                continue;
            }
            let Some(rest) = k.strip_prefix("GAMEHOST_") else {
                continue;
            };
            let rest = rest.to_ascii_lowercase();
            let Some((section, key)) = rest.split_once('_') else {
                continue; // e.g. GAMEHOST_CONFIG, read by the CLI itself
            };
            if SECTIONS.contains(&section) {
                overrides.push((format!("{section}.{key}"), v));
            }
        }
        for (path, value) in overrides {
            figment = figment.merge((path.as_str(), env_value(&value)));
        }
        let mut config: Config = figment.extract().map_err(|e| describe(e, file))?;
        // An explicit GAMEHOST_DISCORD_TOKEN wins over DISCORD_TOKEN.
        if let Some(t) = token.filter(|_| config.discord.token.is_empty()) {
            config.discord.token = t;
        }
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> Result<(), ConfigError> {
        if !matches!(
            self.deadlines.timeout_policy.as_str(),
            "default" | "ai" | "forfeit"
        ) {
            return Err(ConfigError::Invalid {
                source_name: "deadlines.timeout_policy".into(),
                message: format!(
                    "`{}` is not a timeout policy; expected one of default, ai, forfeit",
                    self.deadlines.timeout_policy
                ),
            });
        }
        if self.deadlines.reminder_percent > 100 {
            return Err(ConfigError::Invalid {
                source_name: "deadlines.reminder_percent".into(),
                message: "expected a number from 0 to 100".into(),
            });
        }
        Ok(())
    }

    /// The bot token, if one is set.
    pub fn token(&self) -> Option<&str> {
        let t = self.discord.token.trim();
        (!t.is_empty()).then_some(t)
    }
}

/// Environment values are text; numbers and booleans are passed as such so
/// that `GAMEHOST_AI_BUDGET_MS=500` fills a number field.
fn env_value(v: &str) -> figment::value::Value {
    use figment::value::Value;
    if let Ok(n) = v.parse::<u64>() {
        return Value::from(n);
    }
    if let Ok(b) = v.parse::<bool>() {
        return Value::from(b);
    }
    Value::from(v.to_string())
}

fn describe(e: figment::Error, file: &Path) -> ConfigError {
    // figment's message names the key and what was expected; say where the
    // value came from in one line.
    let source_name = match &e.metadata {
        Some(m) if m.name.contains("TOML") => file.display().to_string(),
        Some(m) if m.name.contains("Serialized") || m.name.contains("Figment") => {
            "environment".into()
        }
        Some(m) => m.name.to_string(),
        None => file.display().to_string(),
    };
    let mut message = e.kind.to_string();
    if !e.path.is_empty() {
        message = format!("key `{}`: {message}", e.path.join("."));
    }
    ConfigError::Invalid {
        source_name,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_without_a_file() {
        let c = Config::load_from(Path::new("/nonexistent/gamehost.toml"), env(&[])).unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.database.path, PathBuf::from("gamehost.db"));
        assert!(c.token().is_none());
    }

    #[test]
    fn file_then_environment() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "[database]\npath = \"a.db\"\n[ai]\nbudget_ms = 5").unwrap();
        let c = Config::load_from(
            f.path(),
            env(&[
                ("GAMEHOST_AI_BUDGET_MS", "7"),
                ("GAMEHOST_DEADLINES_BATTLE_SECONDS", "9"),
                ("DISCORD_TOKEN", "abc"),
                ("GAMEHOST_CONFIG", "ignored"),
            ]),
        )
        .unwrap();
        assert_eq!(c.database.path, PathBuf::from("a.db"));
        assert_eq!(c.ai.budget_ms, 7);
        assert_eq!(c.deadlines.battle_seconds, 9);
        assert_eq!(c.token(), Some("abc"));
        assert!(!format!("{c:?}").contains("abc"), "token leaked into Debug");
    }

    #[test]
    fn malformed_value_names_file_and_key() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "[ai]\nbudget_ms = \"soon\"").unwrap();
        let err = Config::load_from(f.path(), env(&[]))
            .unwrap_err()
            .to_string();
        assert!(err.contains(&f.path().display().to_string()), "{err}");
        assert!(err.contains("ai.budget_ms"), "{err}");
        assert!(!err.contains('\n'));
    }

    #[test]
    fn unknown_key_is_refused() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "[database]\npaht = \"x\"").unwrap();
        let err = Config::load_from(f.path(), env(&[]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("paht"), "{err}");
    }

    #[test]
    fn broken_toml_is_one_line() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "[database\npath = ").unwrap();
        let err = Config::load_from(f.path(), env(&[]))
            .unwrap_err()
            .to_string();
        assert!(err.contains(&f.path().display().to_string()), "{err}");
    }

    #[test]
    fn example_file_documents_the_defaults() {
        let example = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml"));
        let c = Config::load_from(example, env(&[])).unwrap();
        assert_eq!(c, Config::default());
    }

    #[test]
    fn missing_explicit_file() {
        let err = Config::load(Path::new("/nonexistent/x.toml"), true).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.toml"));
    }

    #[test]
    fn bad_policy() {
        let err = Config::load_from(
            Path::new("/nonexistent"),
            env(&[("GAMEHOST_DEADLINES_TIMEOUT_POLICY", "pray")]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("pray") && err.contains("forfeit"), "{err}");
    }
}
