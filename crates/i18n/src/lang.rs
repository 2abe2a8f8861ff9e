//! The languages gamehost speaks, and how a reader's language is found
//! from what Discord or the environment says.

use serde::{Deserialize, Serialize};

/// A language with a catalogue. English is the fallback for every
/// language without one.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English, the fallback.
    #[default]
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// Every language with a catalogue, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    /// The language's code as stored and as Discord and BCP 47 write it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The language's name in itself, for a menu of languages.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ja => "日本語",
        }
    }

    /// The language a locale names (`ja`, `ja-JP`, `ja_JP.UTF-8`, `en-US`,
    /// `EN`), or `None` for one without a catalogue (`fr`, `C`, empty).
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let primary = locale
            .trim()
            .split(['-', '_', '.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "ja" => Some(Lang::Ja),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language of a Discord client's or server's `locale`; English
    /// for a language without a catalogue.
    pub fn from_discord(locale: &str) -> Lang {
        Lang::from_locale(locale).unwrap_or_default()
    }

    /// The language of the environment by POSIX precedence: the first of
    /// `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and not empty decides
    /// (English when it names a language without a catalogue, or `C`).
    pub fn from_posix(lc_all: Option<&str>, lc_messages: Option<&str>, lang: Option<&str>) -> Lang {
        [lc_all, lc_messages, lang]
            .into_iter()
            .flatten()
            .find(|value| !value.trim().is_empty())
            .and_then(Lang::from_locale)
            .unwrap_or_default()
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_name_their_language() {
        assert_eq!(Lang::from_locale("ja"), Some(Lang::Ja));
        assert_eq!(Lang::from_locale("ja_JP.UTF-8"), Some(Lang::Ja));
        assert_eq!(Lang::from_locale("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_locale("fr"), None);
        assert_eq!(Lang::from_locale("C"), None);
        assert_eq!(Lang::from_discord("zh-TW"), Lang::En);
        assert_eq!(Lang::from_discord("ja"), Lang::Ja);
    }

    #[test]
    fn the_environment_decides_by_posix_precedence() {
        assert_eq!(Lang::from_posix(None, None, Some("ja_JP.UTF-8")), Lang::Ja);
        assert_eq!(
            Lang::from_posix(Some("C"), None, Some("ja_JP.UTF-8")),
            Lang::En
        );
        assert_eq!(
            Lang::from_posix(Some(""), Some("ja_JP"), Some("en_US")),
            Lang::Ja
        );
        assert_eq!(Lang::from_posix(None, None, None), Lang::En);
    }
}
