//! The host's errors: mistakes a user can fix, and faults that are ours.

use crate::registry::{CreateError, DecodeError};
use games::seam::ActionError;
use store::StoreError;

/// Everything a host operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A mistake the user can fix; the text says what was wrong and what would be right.
    #[error("{0}")]
    User(String),
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

    /// True when the message is meant for the user (their mistake), false
    /// for faults that should be logged and answered with an apology.
    pub fn is_user_error(&self) -> bool {
        matches!(
            self,
            HostError::User(_) | HostError::Action(_) | HostError::Create(_)
        )
    }
}

impl From<crate::registry::UnknownKind> for HostError {
    fn from(e: crate::registry::UnknownKind) -> Self {
        HostError::Create(CreateError::UnknownKind(e))
    }
}
