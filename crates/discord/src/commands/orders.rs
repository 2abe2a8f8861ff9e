//! `/orders`: a Diplomacy player's orders, shown or cleared.
use crate::ui::text::receipt_text;

use crate::BotError;
use crate::Context;
use crate::ui::messages;

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
                                crate::desk::unordered_note(h, g.id, &user)
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
