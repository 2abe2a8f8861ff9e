//! The language the person behind an interaction reads, for every reply
//! to them (commands, their errors).

use crate::Context;

/// The language the caller reads: the one they chose, else their Discord
/// client's (noted, so DMs sent later without an interaction follow it);
/// English when the store cannot say.
pub(crate) async fn reader_lang(ctx: &Context<'_>) -> i18n::Lang {
    let user = ctx.author().id.to_string();
    let locale = ctx.locale().map(str::to_string);
    ctx.data()
        .host(move |h| h.reader_language(&user, locale.as_deref()))
        .await
        .unwrap_or_default()
}
