//! Config errors in words an operator can act on: TOML syntax, a wrong
//! type named by its key, and secrets never echoed.

use super::*;

/// A TOML syntax error as "line L, column C: what", without toml's quote of
/// the line (which may hold the token).
pub(super) fn toml_syntax_message(text: &str, e: &toml::de::Error) -> String {
    let at = e
        .span()
        .map(|s| {
            let before = text.get(..s.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: ")
        })
        .unwrap_or_default();
    let what = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
    format!("TOML syntax error at {at}{what}")
}

/// What a setting expects, in words an operator knows.
fn expected_in_words(expected: &str, key: &str) -> String {
    let whole = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    let e = expected.trim();
    let e = e
        .strip_prefix("option ")
        .or_else(|| e.strip_prefix("an option "))
        .unwrap_or(e);
    if whole.contains(&e) {
        let unit = if key.ends_with("_ms") {
            " of milliseconds"
        } else if key.ends_with("_seconds") {
            " of seconds"
        } else if key.ends_with("_percent") {
            " from 0 to 100"
        } else {
            ""
        };
        return format!("a whole number{unit}");
    }
    match e {
        "a boolean" => "true or false".into(),
        "a string" => "text in quotes".into(),
        other => other.to_string(),
    }
}

pub(super) fn describe(
    e: figment::Error,
    file: &Path,
    env: &BTreeMap<String, EnvSetting>,
) -> ConfigError {
    use figment::error::Kind;
    // The section an unknown key was found in (figment's path may or may
    // not end with the key itself).
    let mut section_path = e.path.clone();
    if let Kind::UnknownField(field, _) = &e.kind
        && section_path.last() == Some(field)
    {
        section_path.pop();
    }
    let section = section_path.join(".");
    let path = match &e.kind {
        Kind::UnknownField(field, _) if section.is_empty() => field.clone(),
        Kind::UnknownField(field, _) => format!("{section}.{field}"),
        _ => e.path.join("."),
    };
    let key = path.rsplit('.').next().unwrap_or("").to_string();
    let is_token = path == TOKEN_KEY;
    // What was wrong; the value itself only when it is not the token.
    let problem = |show_value: bool| match &e.kind {
        Kind::InvalidType(actual, expected) | Kind::InvalidValue(actual, expected) => {
            let words = expected_in_words(expected, &key);
            if show_value && !is_token {
                format!("expected {words}, got {actual}")
            } else {
                format!("expected {words}")
            }
        }
        Kind::UnknownField(field, known) => {
            let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            if section.is_empty() {
                format!(
                    "`{field}` is not a section; the sections are {}",
                    known.join(", ")
                )
            } else {
                format!(
                    "`{field}` is not a setting of [{section}]; its settings are {}",
                    known.join(", ")
                )
            }
        }
        _ if is_token => "is not valid; expected the bot token as text in quotes".to_string(),
        other => other.to_string(),
    };
    // Environment values are merged last, so a bad value at a key an
    // environment variable sets came from that variable.
    if let Some(setting) = env.get(&path) {
        let shown = if TOKEN_VARS.contains(&setting.var.as_str()) || is_token {
            setting.var.clone()
        } else {
            format!("{}={}", setting.var, setting.value)
        };
        return ConfigError::Environment {
            setting: shown,
            message: problem(false),
        };
    }
    let source_name = file.display().to_string();
    let message = match &e.kind {
        // The message names the key and its section already.
        Kind::UnknownField(..) => problem(true),
        _ if path.is_empty() => problem(true),
        _ => format!("key `{path}`: {}", problem(true)),
    };
    ConfigError::Invalid {
        source_name,
        message,
    }
}

/// Texts that may be the token, to blank out of any message.
#[derive(Default)]
pub(super) struct Secrets(Vec<String>);

impl Secrets {
    /// The shortest text blanked out everywhere: shorter ones would mangle
    /// messages, and the token's own setting is never quoted anyway.
    const MIN_LEN: usize = 4;

    pub(super) fn add(&mut self, secret: &str) {
        let s = secret.trim();
        if s.chars().count() >= Self::MIN_LEN && !self.0.iter().any(|k| k == s) {
            self.0.push(s.to_string());
            // As serde and toml quote it (escaped).
            let escaped = format!("{s:?}");
            let escaped = escaped[1..escaped.len() - 1].to_string();
            if escaped != s {
                self.0.push(escaped);
            }
        }
    }

    /// Every value on a line that sets something called `token`, however
    /// malformed (unterminated, unquoted, a number), and each long word of it.
    pub(super) fn add_token_lines(&mut self, text: &str) {
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            if !key.to_ascii_lowercase().contains("token") {
                continue;
            }
            let value = value.trim();
            self.add(value);
            let unquoted = value.trim_matches(|c| c == '"' || c == '\'');
            self.add(unquoted);
            for word in unquoted.split(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
                self.add(word);
            }
        }
    }

    fn redact(&self, text: &str) -> String {
        // Longest first, so a part of a longer secret does not leave the rest.
        let mut secrets: Vec<&String> = self.0.iter().collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let mut out = text.to_string();
        for s in secrets {
            out = out.replace(s.as_str(), "<redacted>");
        }
        out
    }

    pub(super) fn redact_error(&self, e: ConfigError) -> ConfigError {
        match e {
            ConfigError::Missing(p) => ConfigError::Missing(p),
            ConfigError::Invalid {
                source_name,
                message,
            } => ConfigError::Invalid {
                source_name: self.redact(&source_name),
                message: self.redact(&message),
            },
            ConfigError::Environment { setting, message } => ConfigError::Environment {
                setting: self.redact(&setting),
                message: self.redact(&message),
            },
        }
    }
}
