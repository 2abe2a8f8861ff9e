//! Config errors in words an operator can act on: TOML syntax, a wrong
//! type named by its key, and secrets never echoed.

use super::*;
use i18n::{Arg, Names};

/// A TOML syntax error as "line L, column C: what", without toml's quote of
/// the line (which may hold the token).
pub(super) fn toml_syntax_message(text: &str, e: &toml::de::Error) -> Message {
    // toml's own words: English in every language.
    let what = Names::english(e.message().split_whitespace().collect::<Vec<_>>().join(" "));
    match e.span() {
        Some(s) => {
            let before = text.get(..s.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            msg!(
                "operator-toml-syntax-at",
                line = line,
                column = column,
                what = what
            )
        }
        None => msg!("operator-toml-syntax", what = what),
    }
}

/// Names listed in a sentence: "a, b, c"; 「a、b、c」.
pub(super) fn in_a_list(items: &[impl AsRef<str>]) -> Names {
    let items: Vec<String> = items.iter().map(|i| i.as_ref().to_string()).collect();
    Names {
        en: items.join(", "),
        ja: Some(i18n::list_in_words(i18n::Lang::Ja, &items)),
    }
}

/// What a setting expects, in words an operator knows.
fn expected_in_words(expected: &str, key: &str) -> Message {
    let whole = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    let e = expected.trim();
    let e = e
        .strip_prefix("option ")
        .or_else(|| e.strip_prefix("an option "))
        .unwrap_or(e);
    if whole.contains(&e) {
        let id = if key.ends_with("_ms") {
            "operator-words-milliseconds"
        } else if key.ends_with("_seconds") {
            "operator-words-seconds"
        } else if key.ends_with("_percent") {
            "operator-words-percent"
        } else {
            "operator-words-whole-number"
        };
        return Message::new(id);
    }
    match e {
        "a boolean" => Message::new("operator-words-boolean"),
        "a string" => Message::new("operator-words-text"),
        // serde's own words ("a sequence"): English in every language.
        other => msg!("operator-words-other", words = Names::english(other)),
    }
}

/// The value found, as figment says it in English, in the catalogue's
/// words where there are some.
fn actual_in_words(actual: &figment::error::Actual) -> Message {
    use figment::error::Actual;
    match actual {
        Actual::Str(v) => msg!("operator-actual-string", value = format!("{v:?}")),
        Actual::Unsigned(v) => msg!("operator-actual-unsigned", value = v.to_string()),
        Actual::Signed(v) => msg!("operator-actual-signed", value = v.to_string()),
        Actual::Float(v) => msg!("operator-actual-float", value = v.to_string()),
        Actual::Bool(v) => msg!("operator-actual-bool", value = v.to_string()),
        Actual::Seq => Message::new("operator-actual-sequence"),
        Actual::Map => Message::new("operator-actual-map"),
        other => msg!("operator-as-said", text = Names::english(other.to_string())),
    }
}

/// Where a value figment refused was, to say what was wrong with it.
struct At<'a> {
    /// The key's name within its section.
    key: &'a str,
    /// Its section (for an unknown key).
    section: &'a str,
    /// Whether it is the token's setting.
    is_token: bool,
}

/// What was wrong with a value figment refused; the value itself only
/// when `show_value` (never the token's).
fn problem(kind: &figment::error::Kind, at: &At, show_value: bool) -> Message {
    let At {
        key,
        section,
        is_token,
    } = *at;
    use figment::error::Kind;
    match kind {
        Kind::InvalidType(actual, expected) | Kind::InvalidValue(actual, expected) => {
            let words = expected_in_words(expected, key);
            if show_value && !is_token {
                msg!(
                    "operator-expected-got",
                    expected = words,
                    actual = actual_in_words(actual)
                )
            } else {
                msg!("operator-expected", expected = words)
            }
        }
        Kind::UnknownField(field, known) => {
            let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            if section.is_empty() {
                msg!(
                    "operator-not-a-section",
                    field = field,
                    known = in_a_list(&known)
                )
            } else {
                msg!(
                    "operator-not-a-setting",
                    field = field,
                    section = section,
                    known = in_a_list(&known)
                )
            }
        }
        _ if is_token => Message::new("operator-token-not-valid"),
        // figment's own words: English in every language.
        other => msg!("operator-as-said", text = Names::english(other.to_string())),
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
    let at = At {
        key: &key,
        section: &section,
        is_token: path == TOKEN_KEY,
    };
    // Environment values are merged last, so a bad value at a key an
    // environment variable sets came from that variable.
    if let Some(setting) = env.get(&path) {
        let shown = if TOKEN_VARS.contains(&setting.var.as_str()) || at.is_token {
            setting.var.clone()
        } else {
            format!("{}={}", setting.var, setting.value)
        };
        return ConfigError::Environment {
            setting: shown,
            message: problem(&e.kind, &at, false),
        };
    }
    let source_name = file.display().to_string();
    let said = problem(&e.kind, &at, true);
    let message = match &e.kind {
        // The message names the key and its section already.
        Kind::UnknownField(..) => said,
        _ if path.is_empty() => said,
        _ => msg!("operator-config-key", key = &path, problem = said),
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
                message: self.redact_message(message),
            },
            ConfigError::Environment { setting, message } => ConfigError::Environment {
                setting: self.redact(&setting),
                message: self.redact_message(message),
            },
        }
    }

    /// The message with every text in its arguments (in every language,
    /// and in the messages nested in it) redacted.
    fn redact_message(&self, mut message: Message) -> Message {
        for (_, arg) in &mut message.args {
            *arg = self.redact_arg(std::mem::replace(arg, Arg::Number(0)));
        }
        message
    }

    fn redact_arg(&self, arg: Arg) -> Arg {
        let all = |messages: Vec<Message>| {
            messages
                .into_iter()
                .map(|m| self.redact_message(m))
                .collect()
        };
        match arg {
            Arg::Text(text) => Arg::Text(self.redact(&text)),
            Arg::Number(n) => Arg::Number(n),
            Arg::Message(m) => Arg::Message(Box::new(self.redact_message(*m))),
            Arg::Lines(lines) => Arg::Lines(all(lines)),
            Arg::List(items) => Arg::List(all(items)),
            Arg::Name(names) => Arg::Name(Names {
                en: self.redact(&names.en),
                ja: names.ja.map(|ja| self.redact(&ja)),
            }),
        }
    }
}
