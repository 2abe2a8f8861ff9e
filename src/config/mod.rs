//! Settings: built-in defaults, then a TOML file, then environment variables.
//!
//! Every key `[section] key` can be overridden by `GAMEHOST_<SECTION>_<KEY>`
//! (e.g. `GAMEHOST_DATABASE_PATH`, `GAMEHOST_DEADLINES_BATTLE_SECONDS`), and the bot
//! token also by the conventional `DISCORD_TOKEN`. `config.example.toml`
//! documents every key with its default; keep the two in step.

mod errors;
mod load;
mod values;

pub use values::{check_log_filter, parse_every};

use figment::Figment;
use figment::providers::{Format, Serialized, Toml};
use games::battle::Battle;
use games::cards::Invisible;
use games::diplomacy::Diplomacy;
use games::puzzle::PuzzleDuel;
use games::seam::Game;
use i18n::{Message, msg};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// `[diplomacy]`
    pub diplomacy: DiplomacyConfig,
    /// Logging.
    pub log: LogConfig,
    /// The health and metrics endpoint.
    pub metrics: MetricsConfig,
    /// Scheduled backups of the SQLite file.
    pub backup: BackupConfig,
}

/// `[database]`: a SQLite file (`path`, the default) or a PostgreSQL
/// server (`url`), which several bot processes can share.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    /// The SQLite file; a relative path written in the config file is taken
    /// from the file's folder (from the working directory when it comes
    /// from the default, the environment or `--db`).
    pub path: PathBuf,
    /// A PostgreSQL URL (`postgres://user:password@host:5432/db`); when set,
    /// the games are kept there instead of in `path`.
    pub url: Option<String>,
    /// Directory for `gamehost backup` snapshots (relative: as `path`).
    pub backup_dir: PathBuf,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            path: PathBuf::from("gamehost.db"),
            url: None,
            backup_dir: PathBuf::from("backups"),
        }
    }
}

impl DatabaseConfig {
    /// Where the games are kept: the PostgreSQL URL if one is set, else the file.
    pub fn location(&self) -> store::Location {
        match self.url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => store::Location::Postgres(url.to_string()),
            None => store::Location::Sqlite(self.path.clone()),
        }
    }
}

// By hand: the URL's password never shows.
impl std::fmt::Debug for DatabaseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DatabaseConfig")
            .field("path", &self.path)
            .field("url", &self.url.as_deref().map(store::redact_url))
            .field("backup_dir", &self.backup_dir)
            .finish()
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
    /// Send REST calls through this base URL instead of discord.com (a
    /// proxy that applies the rate limits itself).
    pub api_base: Option<String>,
    /// Connect to discord.com's REST API at this `host:port` instead of
    /// looking it up (an egress gateway; the test suite's fake Discord).
    pub api_address: Option<String>,
    /// A PEM root certificate to trust for discord.com besides the built-in ones.
    pub api_root_ca: Option<String>,
    /// Games whose messages are delivered at once (0: the default, 32).
    pub delivery_lanes: usize,
    /// REST requests a second this process allows itself (0: the default,
    /// 40; at most 45): its share of Discord's 50 a second per bot.
    pub requests_per_second: u32,
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
            .field("api_address", &self.api_address)
            .field("api_root_ca", &self.api_root_ca)
            .field("delivery_lanes", &self.delivery_lanes)
            .field("requests_per_second", &self.requests_per_second)
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
            // Each game's own default, so the two cannot disagree.
            cards_seconds: Invisible::DEFAULT_TURN_SECONDS,
            battle_seconds: Battle::DEFAULT_TURN_SECONDS,
            puzzle_seconds: PuzzleDuel::DEFAULT_TURN_SECONDS,
            diplomacy_seconds: Diplomacy::DEFAULT_TURN_SECONDS,
            reminder_percent: 20,
            timeout_policy: "default".into(),
            abandon_after: host::limits::DEFAULT_ABANDON_AFTER,
        }
    }
}

impl DeadlinesConfig {
    /// The operator's default deadline of a kind of game, in seconds
    /// (0 = none): the key `<kind>_seconds` of `[deadlines]`, or `None`
    /// when the config has no key for that kind (then the kind's own
    /// `Game::DEFAULT_TURN_SECONDS` applies, so a new game needs no key).
    pub fn seconds_for(&self, kind: &str) -> Option<u64> {
        // Looked up by the key's name, so no kind is matched here.
        let Ok(serde_json::Value::Object(keys)) = serde_json::to_value(self) else {
            return None;
        };
        keys.get(&format!("{kind}_seconds"))
            .and_then(serde_json::Value::as_u64)
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

/// `[diplomacy]`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiplomacyConfig {
    /// Map files to install besides the bundled maps (rules and geometry
    /// in one file each; games name them by the id on their `map` line).
    /// `GAMEHOST_DIPLOMACY_MAPS` separates them with `:`, as `PATH` does.
    pub maps: Vec<String>,
}

/// `[metrics]`: `/healthz` and `/metrics` over HTTP, off unless `listen` is set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsConfig {
    /// `address:port` to serve on, e.g. `127.0.0.1:9091`; empty: off.
    pub listen: String,
}

impl MetricsConfig {
    /// The address to serve on, `None` when off, or why `listen` is not one.
    pub fn address(&self) -> Result<Option<std::net::SocketAddr>, Message> {
        let text = self.listen.trim();
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(|_| {
            msg!(
                "operator-not-an-address",
                value = text.chars().take(100).collect::<String>()
            )
        })
    }
}

/// `[backup]`: snapshots of the SQLite file taken by `gamehost run` into
/// `[database] backup_dir`, pruned to the newest `keep`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BackupConfig {
    /// How often: a whole number with s, m, h or d (`"6h"`); `"0"`: never.
    pub every: String,
    /// How many scheduled snapshots are kept (0: every one).
    pub keep: usize,
}

impl Default for BackupConfig {
    fn default() -> Self {
        BackupConfig {
            every: "6h".into(),
            keep: 14,
        }
    }
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

/// Why the settings could not be loaded; one line, naming the file and key
/// (or the environment variable). Never holds the bot token. Its text is
/// English; [`ConfigError::message`] gives it in any language.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--config` named a file that does not exist.
    #[error("{}", i18n::render(i18n::Lang::En, &self.message()))]
    Missing(PathBuf),
    /// A value had the wrong shape.
    #[error("{}", i18n::render(i18n::Lang::En, &self.message()))]
    Invalid {
        /// The file (or setting) the bad value came from.
        source_name: String,
        /// What was wrong and what was expected.
        message: Message,
    },
    /// An environment variable had the wrong shape.
    #[error("{}", i18n::render(i18n::Lang::En, &self.message()))]
    Environment {
        /// `NAME=value` (just `NAME` for the token, whose value is never shown).
        setting: String,
        /// What was wrong and what was expected.
        message: Message,
    },
}

impl ConfigError {
    /// The whole error as a message, to render in the operator's language.
    pub fn message(&self) -> Message {
        match self {
            ConfigError::Missing(path) => {
                msg!("operator-config-missing", path = path.display().to_string())
            }
            ConfigError::Invalid {
                source_name,
                message,
            } => msg!(
                "operator-config-invalid",
                source = source_name,
                problem = message.clone()
            ),
            ConfigError::Environment { setting, message } => msg!(
                "operator-config-environment",
                setting = setting,
                problem = message.clone()
            ),
        }
    }
}

const SECTIONS: &[&str] = &[
    "database",
    "discord",
    "deadlines",
    "ai",
    "battle",
    "diplomacy",
    "log",
    "metrics",
    "backup",
];

/// The largest config file read (the example is about 2 KB).
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The setting holding the bot token, whose value no message may show.
const TOKEN_KEY: &str = "discord.token";

/// Environment variables that may hold the token.
const TOKEN_VARS: &[&str] = &["DISCORD_TOKEN", "GAMEHOST_DISCORD_TOKEN"];

/// Settings whose values are text even when they look like a number or a
/// boolean (a numeric token or a database called `1`).
const TEXT_KEYS: &[&str] = &[
    "database.path",
    "database.url",
    "database.backup_dir",
    "discord.token",
    "discord.api_base",
    "discord.api_address",
    "discord.api_root_ca",
    "deadlines.timeout_policy",
    "battle.roster",
    "log.level",
    "metrics.listen",
    "backup.every",
];

/// A setting given by an environment variable.
struct EnvSetting {
    /// The variable's name.
    var: String,
    /// Its value as given.
    value: String,
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
        assert_eq!(c.database.path, f.path().parent().unwrap().join("a.db"));
        assert_eq!(c.ai.budget_ms, 7);
        assert_eq!(c.deadlines.battle_seconds, 9);
        assert_eq!(c.token(), Some("abc"));
        assert!(!format!("{c:?}").contains("abc"), "token leaked into Debug");
    }

    #[test]
    fn relative_paths_in_the_file_are_taken_from_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gamehost.toml");
        std::fs::write(
            &file,
            "[database]\npath = \"data/g.db\"\nbackup_dir = \"snapshots\"\n\
             [discord]\napi_root_ca = \"ca.pem\"\n[battle]\nroster = \"/etc/roster.toml\"\n",
        )
        .unwrap();
        let c = Config::load_from(&file, env(&[])).unwrap();
        assert_eq!(c.database.path, dir.path().join("data/g.db"));
        assert_eq!(c.database.backup_dir, dir.path().join("snapshots"));
        let ca = dir.path().join("ca.pem").display().to_string();
        assert_eq!(c.discord.api_root_ca.as_deref(), Some(ca.as_str()));
        // Absolute paths stay as written.
        assert_eq!(c.battle.roster, "/etc/roster.toml");
        // The environment's paths and the defaults follow the working
        // directory; so does a file found there by its plain name.
        let c = Config::load_from(&file, env(&[("GAMEHOST_DATABASE_PATH", "e.db")])).unwrap();
        assert_eq!(c.database.path, PathBuf::from("e.db"));
        assert_eq!(c.database.backup_dir, dir.path().join("snapshots"));
        std::fs::write(&file, "[ai]\nbudget_ms = 5\n").unwrap();
        let c = Config::load_from(&file, env(&[])).unwrap();
        assert_eq!(c.database.path, PathBuf::from("gamehost.db"));
        assert_eq!(c.battle.roster, "");
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
        // Its paths are read from its folder.
        let mut expected = Config::default();
        let folder = example.parent().unwrap();
        expected.database.path = folder.join(&expected.database.path);
        expected.database.backup_dir = folder.join(&expected.database.backup_dir);
        assert_eq!(c, expected);
    }

    /// Every value the example shows, set or commented out, is the
    /// default, except the commented examples of a setting that is not
    /// set by default (`# guild_id = 1234...`); and every key it names is
    /// one the code knows.
    #[test]
    fn every_value_of_the_example_is_the_default_or_an_example_of_an_unset_one() {
        let example =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml"))
                .unwrap();
        let defaults = toml::Table::try_from(Config::default()).unwrap();
        let mut section = String::new();
        let mut shown = 0;
        for line in example.lines() {
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                section = name.to_string();
                continue;
            }
            let setting = line.strip_prefix("# ").unwrap_or(line);
            let Some((key, _)) = setting.split_once(" = ") else {
                continue;
            };
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                continue;
            }
            let value: toml::Table =
                toml::from_str(setting).unwrap_or_else(|e| panic!("{line}: {e}"));
            let section_defaults = defaults[&section].as_table().unwrap();
            let known = Config::load_text(
                Path::new("example"),
                Some(&format!("[{section}]\n{setting}\n")),
                &[],
            );
            assert!(known.is_ok(), "[{section}] {line}: {known:?}");
            match section_defaults.get(key) {
                Some(default) => assert_eq!(
                    Some(default),
                    value.get(key),
                    "[{section}] {line} is not the default"
                ),
                None => assert!(
                    line.starts_with("# "),
                    "[{section}] {line}: set by default?"
                ),
            }
            shown += 1;
        }
        assert!(shown >= 20, "found {shown} settings");
    }

    /// Every commented-out setting of the example (`# key = value`) is
    /// valid as written: uncommented all at once, the file loads.
    #[test]
    fn every_commented_setting_of_the_example_loads_uncommented() {
        let example =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml"))
                .unwrap();
        let mut uncommented = 0;
        let text: String = example
            .lines()
            .map(|line| {
                let setting = line.strip_prefix("# ").filter(|rest| {
                    rest.split_once(" = ").is_some_and(|(key, _)| {
                        !key.is_empty() && key.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    })
                });
                match setting {
                    Some(rest) => {
                        uncommented += 1;
                        format!("{rest}\n")
                    }
                    None => format!("{line}\n"),
                }
            })
            .collect();
        assert!(uncommented >= 6, "found {uncommented} commented settings");
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        let c = Config::load_from(f.path(), env(&[])).unwrap();
        assert_eq!(c.discord.guild_id, Some(123_456_789_012_345_678));
        assert_eq!(c.discord.api_base.as_deref(), Some("http://127.0.0.1:8080"));
        assert!(c.database.url.is_some());
    }

    #[test]
    fn missing_explicit_file() {
        let err = Config::load(Path::new("/nonexistent/x.toml"), true).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.toml"));
    }

    #[test]
    fn text_settings_stay_text_from_the_environment() {
        let c = Config::load_from(
            Path::new("/nonexistent"),
            env(&[
                ("GAMEHOST_DISCORD_TOKEN", "12345678901234"),
                ("GAMEHOST_DATABASE_PATH", "7"),
            ]),
        )
        .unwrap();
        assert_eq!(c.token(), Some("12345678901234"));
        assert_eq!(c.database.path, PathBuf::from("7"));
    }

    #[test]
    fn log_filters_must_name_a_level() {
        for ok in ["info", "WARN", "gamehost=debug,serenity=warn", " debug "] {
            assert!(check_log_filter(ok).is_ok(), "{ok}");
        }
        for bad in ["verbose", "", "gamehost=lots", "info,chatty"] {
            let err = i18n::render(i18n::Lang::En, &check_log_filter(bad).unwrap_err());
            assert!(err.contains("expected error, warn, info"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_request_pace_above_discords_limit_is_refused() {
        let err = Config::load_from(
            Path::new("/nonexistent"),
            env(&[("GAMEHOST_DISCORD_REQUESTS_PER_SECOND", "50")]),
        )
        .unwrap_err()
        .to_string();
        // Named as the operator set it (here the variable).
        assert!(
            err.contains("GAMEHOST_DISCORD_REQUESTS_PER_SECOND=50") && err.contains("from 1 to 45"),
            "{err}"
        );
        let c = Config::load_from(
            Path::new("/nonexistent"),
            env(&[("GAMEHOST_DISCORD_REQUESTS_PER_SECOND", "20")]),
        )
        .unwrap();
        assert_eq!(c.discord.requests_per_second, 20);
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

    /// Every registered kind's default deadline comes from its key in
    /// `[deadlines]`, and a kind without a key (one added since) has none
    /// here, so the caller falls back to the kind's own default.
    #[test]
    fn deadlines_are_found_by_the_kinds_key() {
        let d = DeadlinesConfig {
            battle_seconds: 45,
            ..DeadlinesConfig::default()
        };
        for entry in host::Registry::standard().names() {
            assert!(d.seconds_for(entry).is_some(), "{entry} has a key");
        }
        assert_eq!(d.seconds_for("battle"), Some(45));
        assert_eq!(d.seconds_for("diplomacy"), Some(86_400));
        assert_eq!(d.seconds_for("nim"), None);
        assert_eq!(d.seconds_for("reminder_percent"), None);
    }

    #[test]
    fn backup_spans_are_whole_numbers_with_a_unit() {
        assert_eq!(parse_every("6h"), Ok(Some(Duration::from_secs(21_600))));
        assert_eq!(parse_every("90s"), Ok(Some(Duration::from_secs(90))));
        assert_eq!(parse_every("30m"), Ok(Some(Duration::from_secs(1800))));
        assert_eq!(parse_every("1d"), Ok(Some(Duration::from_secs(86_400))));
        for off in ["0", "", " ", "0h"] {
            assert_eq!(parse_every(off), Ok(None), "{off:?}");
        }
        for bad in ["6", "h", "6 hours", "-1h", "1.5h", "99999999999999999999d"] {
            let err = i18n::render(i18n::Lang::En, &parse_every(bad).unwrap_err());
            assert!(err.contains("expected a whole number"), "{bad}: {err}");
        }
    }
}
