//! `/language`: the language the bot writes to the caller in (their
//! replies and DMs): one they choose, or their Discord client's again.

use crate::BotError;
use crate::Context;
use crate::commands::shared::{LanguageChoice, say};
use crate::reader::reader_lang;
use i18n::{msg, render};

/// The language I write to you in; choose one, or leave out to see it
#[poise::command(slash_command)]
pub async fn language(
    ctx: Context<'_>,
    #[description = "english, japanese, or auto (your Discord client's)"] language: Option<
        LanguageChoice,
    >,
) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let Some(choice) = language else {
        let lang = reader_lang(&ctx).await;
        let user = user.clone();
        let chosen = ctx.data().host(move |h| h.chosen_language(&user)).await?;
        let text = msg!(
            "language-now-personal",
            lang = lang.native_name(),
            chosen = if chosen.is_some() { "yes" } else { "no" }
        );
        return say(ctx, render(lang, &text)).await;
    };
    let chosen = choice.lang();
    ctx.data()
        .host(move |h| h.choose_language(&user, chosen))
        .await?;
    let lang = reader_lang(&ctx).await;
    let text = match chosen {
        Some(_) => msg!("language-set-personal"),
        None => msg!("language-auto-personal", lang = lang.native_name()),
    };
    say(ctx, render(lang, &text)).await
}
