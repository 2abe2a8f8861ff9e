//! Reading the config: the file, then the environment over it, paths
//! anchored at the file's folder, and every value checked.

use super::errors::{Secrets, describe, in_a_list, toml_syntax_message};
use super::*;

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
    ///
    /// Whatever goes wrong, the error never shows the token: values of the
    /// token setting are never quoted, and every text that could be the
    /// token (the environment variables, the value on a `token` line of the
    /// file, even a malformed one) is blanked out of the message.
    pub fn load_from(
        file: &Path,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let env: Vec<(String, String)> = env.into_iter().collect();
        let mut secrets = Secrets::default();
        for (k, v) in &env {
            // The token variables, and any misspelt one.
            if TOKEN_VARS.contains(&k.as_str()) || k.to_ascii_uppercase().contains("TOKEN") {
                secrets.add(v);
            }
        }
        let text = if file.exists() {
            let text = crate::operator_file::read_bounded(file, MAX_CONFIG_BYTES, "config file")
                .map_err(|e| ConfigError::Invalid {
                    source_name: file.display().to_string(),
                    message: e
                        .problem()
                        .cloned()
                        .unwrap_or_else(|| msg!("operator-as-said", text = e.to_string())),
                })?;
            secrets.add_token_lines(&text);
            Some(text)
        } else {
            None
        };
        Self::load_text(file, text.as_deref(), &env).map_err(|e| secrets.redact_error(e))
    }

    pub(super) fn load_text(
        file: &Path,
        text: Option<&str>,
        env: &[(String, String)],
    ) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        let mut written = toml::Table::new();
        if let Some(text) = text {
            // Parse it ourselves first: toml's own message quotes the line
            // at fault, which may be the token's.
            written = toml::from_str::<toml::Table>(text).map_err(|e| ConfigError::Invalid {
                source_name: file.display().to_string(),
                message: toml_syntax_message(text, &e),
            })?;
            figment = figment.merge(Toml::string(text));
        }
        // Environment: GAMEHOST_<SECTION>_<KEY>, split at the first underscore
        // after the prefix (keys themselves contain underscores).
        let mut overrides: BTreeMap<String, EnvSetting> = BTreeMap::new();
        let mut token: Option<String> = None;
        for (k, v) in env {
            if k == "DISCORD_TOKEN" {
                token = Some(v.clone());
                continue;
            }
            let Some(rest) = k.strip_prefix("GAMEHOST_") else {
                continue;
            };
            // The test suites' own variables (GAMEHOST_TEST_STORE,
            // GAMEHOST_TEST_PG_URL, GAMEHOST_REQUIRE_POSTGRES) are no settings.
            if rest.starts_with("TEST_") || rest == "REQUIRE_POSTGRES" {
                continue;
            }
            let rest = rest.to_ascii_lowercase();
            let Some((section, key)) = rest.split_once('_') else {
                continue; // e.g. GAMEHOST_CONFIG, read by the CLI itself
            };
            if !SECTIONS.contains(&section) {
                // A misspelt variable would otherwise be ignored without a word.
                // The value may be a connection string: its password never shows.
                let shown = if k.contains("TOKEN") {
                    k.clone()
                } else {
                    format!("{k}={}", store::redact_url(v))
                };
                return Err(ConfigError::Environment {
                    setting: shown,
                    message: msg!(
                        "operator-env-not-a-section",
                        section = section,
                        sections = in_a_list(SECTIONS)
                    ),
                });
            }
            overrides.insert(
                format!("{section}.{key}"),
                EnvSetting {
                    var: k.clone(),
                    value: v.clone(),
                },
            );
        }
        for (path, setting) in &overrides {
            figment = figment.merge((path.as_str(), env_value(path, &setting.value)));
        }
        let mut config: Config = figment
            .extract()
            .map_err(|e| describe(e, file, &overrides))?;
        // An explicit GAMEHOST_DISCORD_TOKEN wins over DISCORD_TOKEN.
        if let Some(t) = token.filter(|_| config.discord.token.is_empty()) {
            config.discord.token = t;
        }
        if let Some(folder) = file.parent() {
            config.anchor_paths(folder, &written, &overrides);
        }
        config
            .check()
            .map_err(|(key, message)| match overrides.get(key) {
                Some(setting) => ConfigError::Environment {
                    // `database.url` may hold a password, in any form.
                    setting: format!("{}={}", setting.var, store::redact_url(&setting.value)),
                    message,
                },
                None => ConfigError::Invalid {
                    source_name: file.display().to_string(),
                    message: msg!("operator-config-key", key = key, problem = message),
                },
            })?;
        Ok(config)
    }

    /// Takes every relative path written in the config file (`database.path`,
    /// `database.backup_dir`, `discord.api_root_ca`, `battle.roster`,
    /// `diplomacy.maps`) from the
    /// file's folder (`folder`), so the bot finds its files wherever it is
    /// started from. Defaults and environment variables stay relative to
    /// the working directory, as `--db` does.
    fn anchor_paths(
        &mut self,
        folder: &Path,
        written: &toml::Table,
        overrides: &BTreeMap<String, EnvSetting>,
    ) {
        let from_file = |key: &str| {
            let (section, name) = key.split_once('.').unwrap_or((key, ""));
            !overrides.contains_key(key)
                && written
                    .get(section)
                    .and_then(toml::Value::as_table)
                    .is_some_and(|t| t.contains_key(name))
        };
        let anchor = |path: &Path| -> Option<PathBuf> {
            (!path.as_os_str().is_empty() && path.is_relative()).then(|| folder.join(path))
        };
        if from_file("database.path")
            && let Some(p) = anchor(&self.database.path)
        {
            self.database.path = p;
        }
        if from_file("database.backup_dir")
            && let Some(p) = anchor(&self.database.backup_dir)
        {
            self.database.backup_dir = p;
        }
        if from_file("discord.api_root_ca")
            && let Some(p) = self
                .discord
                .api_root_ca
                .as_deref()
                .map(Path::new)
                .and_then(anchor)
        {
            self.discord.api_root_ca = Some(p.display().to_string());
        }
        if from_file("battle.roster")
            && let Some(p) = anchor(Path::new(&self.battle.roster))
        {
            self.battle.roster = p.display().to_string();
        }
        if from_file("diplomacy.maps") {
            for map in &mut self.diplomacy.maps {
                if let Some(p) = anchor(Path::new(map.as_str())) {
                    *map = p.display().to_string();
                }
            }
        }
    }

    /// Checks values serde cannot: returns the key at fault and what would
    /// be right.
    fn check(&self) -> Result<(), (&'static str, Message)> {
        if !matches!(
            self.deadlines.timeout_policy.as_str(),
            "default" | "ai" | "forfeit"
        ) {
            return Err((
                "deadlines.timeout_policy",
                msg!(
                    "operator-not-a-timeout-policy",
                    value = &self.deadlines.timeout_policy
                ),
            ));
        }
        if self.deadlines.reminder_percent > 100 {
            return Err((
                "deadlines.reminder_percent",
                Message::new("operator-expected-percent"),
            ));
        }
        if let Some(url) = self.database.url.as_deref().map(str::trim)
            && !url.is_empty()
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err((
                "database.url",
                Message::new("operator-expected-postgres-url"),
            ));
        }
        if self.discord.requests_per_second > discord::MAX_REQUESTS_PER_SECOND {
            return Err((
                "discord.requests_per_second",
                msg!(
                    "operator-expected-request-pace",
                    default = discord::DEFAULT_REQUESTS_PER_SECOND,
                    max = discord::MAX_REQUESTS_PER_SECOND
                ),
            ));
        }
        check_log_filter(&self.log.level).map_err(|message| ("log.level", message))?;
        self.metrics
            .address()
            .map_err(|message| ("metrics.listen", message))?;
        parse_every(&self.backup.every).map_err(|message| ("backup.every", message))?;
        Ok(())
    }

    /// The bot token, if one is set.
    pub fn token(&self) -> Option<&str> {
        let t = self.discord.token.trim();
        (!t.is_empty()).then_some(t)
    }
}

/// Environment values are text; numbers and booleans are passed as such so
/// that `GAMEHOST_AI_BUDGET_MS=500` fills a number field, except for
/// settings that are always text.
fn env_value(path: &str, v: &str) -> figment::value::Value {
    use figment::value::Value;
    // A list of paths, separated as in PATH.
    if path == "diplomacy.maps" {
        let paths: Vec<Value> = v
            .split(':')
            .filter(|p| !p.trim().is_empty())
            .map(|p| Value::from(p.to_string()))
            .collect();
        return Value::from(paths);
    }
    if TEXT_KEYS.contains(&path) {
        return Value::from(v.to_string());
    }
    if let Ok(n) = v.parse::<u64>() {
        return Value::from(n);
    }
    if let Ok(b) = v.parse::<bool>() {
        return Value::from(b);
    }
    Value::from(v.to_string())
}
