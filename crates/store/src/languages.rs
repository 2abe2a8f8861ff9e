//! Languages (migration 0014): the language each person reads (the one
//! they chose, and the locale their Discord client last sent) and each
//! server's (chosen by its admins, or its own locale as Discord sent it).
//! A person's row is personal data, deleted with them.

use super::db::args;
use super::{StoreError, Tx};

/// A row of `user_languages`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserLanguageRow {
    /// The language code they chose (`en`, `ja`); `None`: follow the client.
    pub chosen: Option<String>,
    /// The locale their Discord client last sent (`ja`, `en-US`).
    pub client_locale: Option<String>,
}

impl Tx<'_> {
    /// What is stored of a person's language (all `None` when nothing is).
    pub fn user_language(&self, user_id: &str) -> Result<UserLanguageRow, StoreError> {
        self.conn
            .row(
                "SELECT chosen, client_locale FROM user_languages WHERE user_id = ?1",
                args![user_id],
            )?
            .map(|r| {
                Ok(UserLanguageRow {
                    chosen: r.get(0)?,
                    client_locale: r.get(1)?,
                })
            })
            .unwrap_or_else(|| Ok(UserLanguageRow::default()))
    }

    /// Replaces what is stored of a person's language.
    pub fn set_user_language(
        &self,
        user_id: &str,
        row: &UserLanguageRow,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO user_languages (user_id, chosen, client_locale, updated_at) \
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (user_id) DO UPDATE SET \
             chosen = excluded.chosen, client_locale = excluded.client_locale, \
             updated_at = excluded.updated_at",
            args![user_id, row.chosen, row.client_locale, at_ms],
        )?;
        Ok(())
    }
}
