//! Direct messages: a move written to the bot goes to the player's game
//! (`#12 <move>` names one when several await them); the reply is the
//! receipt or what was wrong.

use crate::BotError;
use crate::Data;
use crate::rest_metrics;
use crate::ui::messages;
use host::limits::Verdict;
use poise::serenity_prelude as serenity;

const HELP: &str = "Send me your move as text (Diplomacy: one order per line). \
If you play several games, start with the game's number, e.g. `#12 play`. \
`/orders` shows what you sent this turn, `/press` writes to other Diplomacy powers \
(as the game's press rule allows), and `/game status` in the game's channel shows your view.";

/// The one reply to a flood of DMs. A line continuation with `\` keeps the
/// source's indentation out of the text.
const FLOOD_WARNING: &str = "You are sending messages faster than I can take them; \
I will ignore your messages for a few seconds. \
Diplomacy players: put all your orders in one message, one per line.";

/// The most messages one DM is answered with.
const MAX_REPLY_PARTS: usize = 2;

/// Handles a message event: only DMs from people matter.
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    msg: &serenity::Message,
) -> Result<(), BotError> {
    if msg.author.bot || msg.guild_id.is_some() {
        return Ok(());
    }
    let verdict = {
        let mut limiter = data.dm_limiter.lock().unwrap_or_else(|p| p.into_inner());
        let now = data.clock.now_ms();
        limiter.forget_idle(now);
        limiter.check(&msg.author.id.to_string(), now)
    };
    match verdict {
        Verdict::Allowed => {}
        Verdict::Warn => {
            let _turn = data.channel_turns.take(msg.channel_id).await;
            let warning = msg
                .channel_id
                .send_message(&ctx.http, messages::create(FLOOD_WARNING));
            data.rest(rest_metrics::MESSAGE_CREATE, warning).await?;
            return Ok(());
        }
        Verdict::Silent => {
            tracing::debug!(user = %msg.author.id, "DM dropped by the rate limiter");
            return Ok(());
        }
    }
    let (game, text) = crate::ui::text::split_game(&msg.content);
    let text = text.to_string();
    // A draw vote can end the game at once: asked first, with buttons.
    let (user, typed) = (msg.author.id.to_string(), text.clone());
    if let Some((g, turn)) = data
        .host(move |h| h.draw_vote_to_confirm(game, &user, &typed))
        .await?
    {
        let (question, rows) = crate::desk::draw_confirmation(g, turn);
        let _turn = data.channel_turns.take(msg.channel_id).await;
        data.rest(
            crate::rest_metrics::MESSAGE_CREATE,
            msg.channel_id
                .send_message(&ctx.http, messages::create(question).components(rows)),
        )
        .await?;
        return Ok(());
    }
    let reply = if text.is_empty() || text.eq_ignore_ascii_case("help") {
        HELP.to_string()
    } else {
        let user = msg.author.id.to_string();
        match data.host(move |h| h.submit(game, &user, &text)).await {
            Ok(r) => {
                data.wake.all();
                crate::ui::text::receipt_text(&r)
            }
            Err(e) => {
                if e.user_message().is_none() {
                    tracing::error!(user = %msg.author.id, game_id = ?game, error = %e, "DM move failed");
                }
                e.shown()
            }
        }
    };
    // One DM in, one receipt out: two messages at most when it is long
    // (the engines keep their receipts short; this is the guard).
    let mut parts = messages::split(&reply, messages::MAX_CONTENT);
    parts.truncate(MAX_REPLY_PARTS);
    // A flood's replies go one at a time, in order (see `channel_turns`).
    let _turn = data.channel_turns.take(msg.channel_id).await;
    for part in parts {
        let sent = msg
            .channel_id
            .send_message(&ctx.http, messages::create(part));
        data.rest(rest_metrics::MESSAGE_CREATE, sent).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flood_warning_reads_as_one_sentence_without_runs_of_spaces() {
        assert_eq!(
            FLOOD_WARNING,
            "You are sending messages faster than I can take them; I will ignore your messages \
             for a few seconds. Diplomacy players: put all your orders in one message, one per line."
        );
        assert!(!FLOOD_WARNING.contains("  "));
        assert!(!HELP.contains("  "));
    }
}
