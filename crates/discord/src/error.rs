//! Errors: a user's mistake is shown to them as a short ephemeral message;
//! anything else is logged (with the command or button and the game) and the
//! user gets an apology.

use crate::Data;
use crate::reader::reader_lang;
use crate::ui::messages;
use host::HostError;
use i18n::Lang;
use poise::serenity_prelude as serenity;

/// What a command or handler can fail with.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A mistake the user can fix (text shown to them).
    #[error("{0}")]
    User(String),
    /// A mistake the user can fix, as a message of the catalogues, shown
    /// in the reader's language (English in logs).
    #[error("{}", i18n::render(i18n::Lang::En, .0))]
    Said(i18n::Message),
    /// The host refused or failed.
    #[error(transparent)]
    Host(#[from] HostError),
    /// Discord refused or could not be reached (boxed: the error is large).
    #[error(transparent)]
    Discord(Box<serenity::Error>),
    /// Anything else that is our fault.
    #[error("{0}")]
    Internal(String),
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> Self {
        BotError::Discord(Box::new(e))
    }
}

impl BotError {
    /// A user mistake.
    pub fn user(msg: impl Into<String>) -> BotError {
        BotError::User(msg.into())
    }

    /// A user mistake as a message of the catalogues.
    pub fn said(message: i18n::Message) -> BotError {
        BotError::Said(message)
    }

    /// The text for the user in English if this is their mistake.
    pub fn user_message(&self) -> Option<String> {
        self.user_message_in(Lang::En)
    }

    /// The text for the user in `lang` if this is their mistake.
    pub fn user_message_in(&self, lang: Lang) -> Option<String> {
        match self {
            BotError::User(m) => Some(m.clone()),
            BotError::Said(m) => Some(i18n::render(lang, m)),
            BotError::Host(e) => e.user_text(lang),
            _ => None,
        }
    }

    /// The text to show in English: the mistake, or the apology.
    pub fn shown(&self) -> String {
        self.shown_in(Lang::En)
    }

    /// The text to show in `lang`: the mistake, or the apology.
    pub fn shown_in(&self, lang: Lang) -> String {
        self.user_message_in(lang)
            .unwrap_or_else(|| i18n::text(lang, "error-apology"))
    }
}

/// poise's error hook.
pub async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    match error {
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!(%error, "start-up failed");
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            let command = ctx.command().qualified_name.clone();
            if error.user_message().is_none() {
                tracing::error!(%command, user = %ctx.author().id, channel = %ctx.channel_id(), %error,
                    "command failed");
            }
            let lang = reader_lang(&ctx).await;
            let reply =
                messages::reply(messages::clip(&error.shown_in(lang), 2000)).ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::warn!(%command, error = %e, "could not tell the user about an error");
            }
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            tracing::error!(event = event.snake_case_name(), %error, "event handler failed");
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}
