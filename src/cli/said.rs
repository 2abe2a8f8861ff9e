//! What the operator reads when a command fails, in their language: an
//! error that carries its catalogue message, the operator's language from
//! the environment, and the words for the errors of the store, the config
//! and the system that a newcomer meets first. Logs stay English: every
//! error's `Display` is its English text.

use crate::config::ConfigError;
use i18n::{Lang, Message, Names, msg};
use std::error::Error;
use std::fmt;
use store::StoreError;

/// An error whose words come from the catalogues (`operator.ftl`), with
/// the error that caused it, if any.
#[derive(Debug)]
pub struct Said {
    message: Message,
    source: Option<Box<dyn Error + Send + Sync>>,
}

impl Said {
    /// The error `message` says.
    pub fn new(message: Message) -> Said {
        Said {
            message,
            source: None,
        }
    }

    /// The error, caused by `source` (said after it on the same line).
    pub fn because(mut self, source: impl Into<Box<dyn Error + Send + Sync>>) -> Said {
        self.source = Some(source.into());
        self
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&i18n::render(Lang::En, &self.message))
    }
}

impl Error for Said {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// The operator's language: the first of `LC_ALL`, `LC_MESSAGES`, `LANG`
/// that is set decides; English for any language without a catalogue.
pub fn operator_lang() -> Lang {
    let var = |name: &str| std::env::var(name).ok();
    Lang::from_posix(
        var("LC_ALL").as_deref(),
        var("LC_MESSAGES").as_deref(),
        var("LANG").as_deref(),
    )
}

/// One cause of an error in `lang`, when it is one with catalogue words;
/// `None` leaves its own (English) text.
pub(crate) fn in_lang(lang: Lang, cause: &(dyn Error + 'static)) -> Option<String> {
    let message = if let Some(said) = cause.downcast_ref::<Said>() {
        said.message.clone()
    } else if let Some(e) = cause.downcast_ref::<ConfigError>() {
        e.message()
    } else if let Some(e) = cause.downcast_ref::<StoreError>() {
        store_message(e)?
    } else if let Some(e) = cause.downcast_ref::<std::io::Error>() {
        msg!(
            "operator-as-said",
            text = crate::operator_file::system_reason(e)
        )
    } else {
        return None;
    };
    Some(i18n::render(lang, &message))
}

/// The store's errors an operator meets first, as messages.
fn store_message(e: &StoreError) -> Option<Message> {
    let after_prefix = |prefix: &str| {
        let text = e.to_string();
        Names::english(text.strip_prefix(prefix).unwrap_or(&text).to_string())
    };
    Some(match e {
        StoreError::SchemaTooNew { path, found, known } => msg!(
            "operator-store-too-new",
            path = path,
            found = found.to_string(),
            known = known.to_string()
        ),
        StoreError::NotFound { path } => msg!("operator-store-not-found", path = path),
        StoreError::VersionInUse {
            ours,
            theirs,
            instance,
            age_s,
            live_s,
        } => msg!(
            "operator-store-version-in-use",
            theirs = theirs,
            instance = instance,
            age = age_s.to_string(),
            ours = ours,
            live = live_s.to_string()
        ),
        StoreError::Sqlite(sqlite) => msg!("operator-store-sqlite", reason = sqlite_reason(sqlite)),
        StoreError::Postgres(_) => msg!(
            "operator-store-postgres",
            reason = after_prefix("PostgreSQL error: ")
        ),
        StoreError::Migration(_) => msg!(
            "operator-store-migration",
            reason = after_prefix("could not apply the database schema: ")
        ),
        _ => return None,
    })
}

/// What SQLite said: its own words in English, the catalogue's for the
/// common failures in another language.
fn sqlite_reason(e: &rusqlite::Error) -> Names {
    use rusqlite::ErrorCode;
    let id = match e.sqlite_error_code() {
        Some(ErrorCode::CannotOpen) => Some("operator-sqlite-cannot-open"),
        Some(ErrorCode::NotADatabase) => Some("operator-sqlite-not-a-database"),
        Some(ErrorCode::ReadOnly) => Some("operator-sqlite-read-only"),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Some("operator-sqlite-busy"),
        Some(ErrorCode::DatabaseCorrupt) => Some("operator-sqlite-corrupt"),
        Some(ErrorCode::DiskFull) => Some("operator-sqlite-full"),
        Some(ErrorCode::PermissionDenied) => Some("operator-io-permission-denied"),
        _ => None,
    };
    Names {
        en: e.to_string(),
        ja: id.map(|id| i18n::text(Lang::Ja, id)),
    }
}
