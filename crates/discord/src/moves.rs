//! Typed moves: `/move` (in the game's channel or a DM) and `/orders` (what
//! you have sent this turn, visible only to you).

use super::{BotError, Context, messages};
use host::{GameId, Receipt};

/// What a player is told after a move: recorded, still waiting, or resolved.
pub fn receipt_text(r: &Receipt) -> String {
    let done = if r.resolved {
        "The turn is resolved; the result is posted in the channel.".to_string()
    } else if !r.is_final {
        "You can send more before the deadline.".to_string()
    } else if r.waiting_for.is_empty() {
        String::new()
    } else {
        format!("Waiting for {}.", r.waiting_for.join(", "))
    };
    let recorded = if r.recorded.contains('\n') {
        format!("\n```\n{}\n```\n", r.recorded.replace("```", "` ` `"))
    } else {
        format!(" `{}`. ", r.recorded.replace('`', "'"))
    };
    format!("Recorded for {}:{recorded}{done}", r.game_label)
        .trim_end()
        .to_string()
}

/// Splits a leading `#12` (a game id) from a move.
pub fn split_game(text: &str) -> (Option<GameId>, &str) {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix('#') {
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(id) = digits.parse::<GameId>() {
            return (Some(id), rest[digits.len()..].trim());
        }
    }
    (None, t)
}

/// Make a move by typing it (in a DM or the game's channel)
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your move, as the game writes it"] text: String,
    #[description = "Game id (default: this channel's, or the one awaiting you)"] game: Option<i64>,
) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let (prefixed, text) = split_game(&text);
    let text = text.to_string();
    let mut game = game.or(prefixed);
    if game.is_none() && ctx.guild_id().is_some() {
        let channel = ctx.channel_id().to_string();
        let u = user.clone();
        game = ctx
            .data()
            .host(move |h| {
                Ok(h.game_in_channel(&channel)?
                    .filter(|g| {
                        h.seats(g.id)
                            .map(|s| {
                                s.iter()
                                    .any(|x| x.occupant == host::Occupant::User(u.clone()))
                            })
                            .unwrap_or(false)
                    })
                    .map(|g| g.id))
            })
            .await?;
    }
    let receipt = ctx
        .data()
        .host(move |h| h.submit(game, &user, &text))
        .await?;
    ctx.data().wake.all();
    ctx.send(
        messages::reply(messages::clip(
            &receipt_text(&receipt),
            messages::MAX_CONTENT,
        ))
        .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// What `/orders` does.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum OrdersAction {
    /// Show what you sent.
    #[name = "list"]
    List,
    /// Withdraw everything you sent this turn.
    #[name = "clear"]
    Clear,
    /// Mark your orders final.
    #[name = "ready"]
    Ready,
}

/// Your orders this turn (list, clear, or mark ready); only you see them
#[poise::command(slash_command)]
pub async fn orders(
    ctx: Context<'_>,
    #[description = "list (default), clear, or ready"] action: Option<OrdersAction>,
    #[description = "Game id (default: the one awaiting you)"] game: Option<i64>,
) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let text = match action.unwrap_or(OrdersAction::List) {
        OrdersAction::List => {
            let lines = ctx
                .data()
                .host(move |h| {
                    let mut lines = Vec::new();
                    for g in h.games_of_user(&user)? {
                        if g.status != host::GameStatus::Running
                            || game.is_some_and(|id| id != g.id)
                        {
                            continue;
                        }
                        let label = host::game_label(&g);
                        match h.own_pending(g.id, &user)? {
                            Some(p) => lines.push(format!("{label}:\n{p}")),
                            None => lines.push(format!(
                                "{label}: nothing sent this turn{}",
                                super::order_desk::unordered_note(h, g.id, &user)
                            )),
                        }
                    }
                    Ok(lines)
                })
                .await?;
            if lines.is_empty() {
                "You are not playing in any running game.".to_string()
            } else {
                lines.join("\n")
            }
        }
        a => {
            let word = if matches!(a, OrdersAction::Clear) {
                "clear"
            } else {
                "ready"
            };
            let r = ctx
                .data()
                .host(move |h| h.submit(game, &user, word))
                .await?;
            ctx.data().wake.all();
            receipt_text(&r)
        }
    };
    ctx.send(messages::reply(messages::clip(&text, messages::MAX_CONTENT)).ephemeral(true))
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_prefix() {
        assert_eq!(split_game("#12 play"), (Some(12), "play"));
        assert_eq!(split_game("  #3\nA par - bur"), (Some(3), "A par - bur"));
        assert_eq!(split_game("play"), (None, "play"));
        assert_eq!(split_game("#x play"), (None, "#x play"));
    }
}
