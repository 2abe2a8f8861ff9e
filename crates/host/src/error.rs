//! The host's errors: mistakes a user can fix, and faults that are ours.

use games::seam::{ActionError, OptionsError};
use store::StoreError;

/// Everything a host operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A mistake the user can fix; the text says what was wrong and what would be right.
    #[error("{0}")]
    User(String),
    /// A mistake the user can fix, as a message of the catalogues, shown
    /// in the reader's language (English in logs).
    #[error("{}", i18n::render(i18n::Lang::En, .0))]
    Said(i18n::Message),
    /// An action the engine refused.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// The game could not be created as asked.
    #[error(transparent)]
    Create(#[from] CreateError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game or action no longer matches its engine.
    #[error("game {game_id}: {source}")]
    Corrupt {
        /// The game.
        game_id: i64,
        /// What could not be read.
        source: DecodeError,
    },
}

impl HostError {
    /// A user mistake with its message.
    pub fn user(msg: impl Into<String>) -> HostError {
        HostError::User(msg.into())
    }

    /// A user mistake as a message of the catalogues.
    pub fn said(message: i18n::Message) -> HostError {
        HostError::Said(message)
    }

    /// The text for the user in `lang`, if this is their mistake.
    pub fn user_text(&self, lang: i18n::Lang) -> Option<String> {
        match self {
            HostError::Said(m) => Some(i18n::render(lang, m)),
            e if e.is_user_error() => Some(e.to_string()),
            _ => None,
        }
    }

    /// True when the message is meant for the user (their mistake), false
    /// for faults that should be logged and answered with an apology.
    pub fn is_user_error(&self) -> bool {
        matches!(
            self,
            HostError::User(_) | HostError::Said(_) | HostError::Action(_) | HostError::Create(_)
        )
    }
}

impl From<UnknownKind> for HostError {
    fn from(e: UnknownKind) -> Self {
        HostError::Create(CreateError::UnknownKind(e))
    }
}

/// Why stored JSON could not be turned back into an engine value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} does not match the {kind} engine: {reason}")]
pub struct DecodeError {
    /// The engine kind.
    pub kind: &'static str,
    /// What was being decoded ("state", "action", "options").
    pub what: &'static str,
    /// The serde error.
    pub reason: String,
}

/// Asked for a kind the registry does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("There is no game called `{asked}`. Games: {}.", known.join(", "))]
pub struct UnknownKind {
    /// What was asked for, clipped as every echo of typed text is.
    pub asked: String,
    /// What exists.
    pub known: Vec<&'static str>,
}

/// Why a game could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// No such kind.
    #[error(transparent)]
    UnknownKind(#[from] UnknownKind),
    /// The engine refused the options.
    #[error(transparent)]
    Options(#[from] OptionsError),
}
