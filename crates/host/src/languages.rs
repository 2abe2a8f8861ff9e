//! Which language a reader reads: a person's (the one they chose with
//! `/language`, else their Discord client's, remembered for DMs that
//! answer nothing) and a server's for its channels and threads (the one
//! its admins chose, else the server's own locale as Discord sent it,
//! else English). A locale without a catalogue reads English.

use super::{Host, HostError};
use i18n::Lang;
use store::UserLanguageRow;

/// The longest locale noted (Discord's are at most 5 characters, `zh-TW`):
/// anything longer is not a locale and is neither stored nor read.
const MAX_LOCALE_CHARS: usize = 16;

/// `locale` if it is short enough to be one.
fn plausible(locale: Option<&str>) -> Option<&str> {
    locale.filter(|l| !l.is_empty() && l.len() <= MAX_LOCALE_CHARS)
}

impl Host {
    /// The language `user_id` reads, noting `client_locale` (the locale
    /// their Discord client sent with an interaction, if any) when it
    /// changed, so DMs sent later without an interaction follow it too.
    pub fn reader_language(
        &self,
        user_id: &str,
        client_locale: Option<&str>,
    ) -> Result<Lang, HostError> {
        let client_locale = plausible(client_locale);
        let row = self.store.read(|tx| tx.user_language(user_id))?;
        let changed = client_locale.is_some_and(|l| row.client_locale.as_deref() != Some(l));
        if changed {
            let now = self.now();
            let noted = UserLanguageRow {
                chosen: row.chosen.clone(),
                client_locale: client_locale.map(str::to_string),
            };
            self.store
                .write(|tx| tx.set_user_language(user_id, &noted, now))?;
        }
        let chosen = row.chosen.as_deref().and_then(Lang::from_locale);
        let client = client_locale
            .or(row.client_locale.as_deref())
            .map(Lang::from_discord);
        Ok(chosen.or(client).unwrap_or_default())
    }

    /// The language `user_id` chose, if they chose one.
    pub fn chosen_language(&self, user_id: &str) -> Result<Option<Lang>, HostError> {
        let row = self.store.read(|tx| tx.user_language(user_id))?;
        Ok(row.chosen.as_deref().and_then(Lang::from_locale))
    }

    /// Sets the language `user_id` reads (`None`: their client's again).
    pub fn choose_language(&self, user_id: &str, lang: Option<Lang>) -> Result<(), HostError> {
        let now = self.now();
        Ok(self.store.write(|tx| {
            let mut row = tx.user_language(user_id)?;
            row.chosen = lang.map(|l| l.code().to_string());
            tx.set_user_language(user_id, &row, now)
        })?)
    }

    /// The language a server's channels read, noting `guild_locale` (the
    /// server's locale Discord sent with an interaction or a join) when it
    /// changed.
    pub fn server_language(
        &self,
        guild_id: &str,
        guild_locale: Option<&str>,
    ) -> Result<Lang, HostError> {
        let guild_locale = plausible(guild_locale);
        let row = self.store.read(|tx| tx.server_settings(guild_id))?;
        if guild_locale.is_some_and(|l| row.discord_locale.as_deref() != Some(l)) {
            let now = self.now();
            self.store.write(|tx| {
                let mut row = tx.server_settings(guild_id)?;
                row.discord_locale = guild_locale.map(str::to_string);
                tx.set_server_settings(guild_id, &row, now)
            })?;
        }
        let chosen = row.language.as_deref().and_then(Lang::from_locale);
        let own = guild_locale
            .or(row.discord_locale.as_deref())
            .map(Lang::from_discord);
        Ok(chosen.or(own).unwrap_or_default())
    }

    /// Sets the language of a server's channels (`None`: its own locale).
    pub fn choose_server_language(
        &self,
        guild_id: &str,
        lang: Option<Lang>,
    ) -> Result<(), HostError> {
        let now = self.now();
        Ok(self.store.write(|tx| {
            let mut row = tx.server_settings(guild_id)?;
            row.language = lang.map(|l| l.code().to_string());
            tx.set_server_settings(guild_id, &row, now)
        })?)
    }
}

#[cfg(test)]
mod tests {
    use super::plausible;

    #[test]
    fn only_locale_sized_text_is_noted() {
        assert_eq!(plausible(Some("ja")), Some("ja"));
        assert_eq!(plausible(Some("zh-TW")), Some("zh-TW"));
        assert_eq!(plausible(Some("")), None);
        assert_eq!(plausible(Some(&"x".repeat(10_000))), None);
    }
}
