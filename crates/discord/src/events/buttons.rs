//! Button and menu clicks: decodes the component, acts through the host and
//! answers the player (the Diplomacy desk's own steps are in `desk`).

use crate::BotError;
use crate::Data;
use crate::ui::components::Custom;
use crate::ui::components::Verb;
use crate::ui::components::choice_rows;
use crate::ui::components::decode;
use crate::ui::components::{PrivacyChoice, decode_privacy};
use crate::ui::messages;
use crate::ui::messages::display_name;
use host::GameId;
use host::GameStatus;
use poise::serenity_prelude as serenity;
use serenity::{
    ComponentInteraction, ComponentInteractionDataKind, CreateActionRow, CreateInteractionResponse,
};

/// Handles a click or a menu choice.
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    c: &ComponentInteraction,
) -> Result<(), BotError> {
    if let Some(choice) = decode_privacy(&c.data.custom_id) {
        return privacy_click(ctx, data, c, choice).await;
    }
    let Some(custom) = decode(&c.data.custom_id) else {
        // Not ours (or from an old version): say so rather than stay silent.
        return reply(
            ctx,
            c,
            "This button is not one I know any more. Use `/game status` to see the game.",
            vec![],
        )
        .await;
    };
    if let Verb::Desk(step) = &custom.verb {
        return crate::desk::handle(ctx, data, c, custom.game, custom.turn, step).await;
    }
    let result = act(data, c, &custom).await;
    data.wake.all();
    match result {
        Ok((text, rows)) => reply(ctx, c, &text, rows).await,
        Err(e) => {
            if e.user_message().is_none() {
                tracing::error!(custom_id = %c.data.custom_id, game_id = custom.game, user = %c.user.id, error = %e,
                    "button failed");
            }
            // The clicker's client says which language they read.
            let lang = i18n::Lang::from_discord(&c.locale);
            reply(ctx, c, &e.shown_in(lang), vec![]).await
        }
    }
}

/// Answers `/privacy delete`'s question in place (its buttons go): Cancel
/// keeps everything; Delete forgets the clicker.
async fn privacy_click(
    ctx: &serenity::Context,
    data: &Data,
    c: &ComponentInteraction,
    choice: PrivacyChoice,
) -> Result<(), BotError> {
    let text = match choice {
        PrivacyChoice::Cancel => crate::ui::privacy::CANCELLED.to_string(),
        PrivacyChoice::Delete => {
            let user = c.user.id.to_string();
            // Every name the person is known by here, so texts lose them all.
            let mut names = vec![
                c.user.name.clone(),
                display_name(&c.user, c.member.as_ref()),
            ];
            names.extend(c.user.global_name.clone());
            names.extend(c.member.as_ref().and_then(|m| m.nick.clone()));
            let result = data.host(move |h| h.forget_user(&user, &names)).await;
            data.wake.all();
            match result {
                Ok(f) => crate::ui::privacy::deleted_text(&f),
                Err(e) => {
                    tracing::error!(error = %e, "forgetting a user failed");
                    e.shown_in(i18n::Lang::from_discord(&c.locale))
                }
            }
        }
    };
    let msg = messages::response(messages::clip(&text, messages::MAX_CONTENT)).components(vec![]);
    c.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(msg))
        .await?;
    Ok(())
}

async fn reply(
    ctx: &serenity::Context,
    c: &ComponentInteraction,
    text: &str,
    rows: Vec<CreateActionRow>,
) -> Result<(), BotError> {
    let mut msg = messages::response(messages::clip(text, messages::MAX_CONTENT)).ephemeral(true);
    if !rows.is_empty() {
        msg = msg.components(rows);
    }
    c.create_response(&ctx.http, CreateInteractionResponse::Message(msg))
        .await?;
    Ok(())
}

async fn act(
    data: &Data,
    c: &ComponentInteraction,
    custom: &Custom,
) -> Result<(String, Vec<CreateActionRow>), BotError> {
    let user = c.user.id.to_string();
    let name = display_name(&c.user, c.member.as_ref());
    let g = custom.game;
    match &custom.verb {
        Verb::Join => {
            let (seat, label) = data
                .host(move |h| Ok((h.join(g, &user, &name, None)?, label_of(h, g)?)))
                .await?;
            Ok((format!("You sit in seat {} of {label}.", seat + 1), vec![]))
        }
        Verb::Leave => {
            let label = data
                .host(move |h| {
                    let label = label_of(h, g)?;
                    h.leave(g, &user)?;
                    Ok(label)
                })
                .await?;
            Ok((format!("You left {label}."), vec![]))
        }
        Verb::Ai => {
            let (seat, label) = data
                .host(move |h| Ok((h.add_ai(g, &user, None, None)?, label_of(h, g)?)))
                .await?;
            Ok((format!("An AI takes seat {} of {label}.", seat + 1), vec![]))
        }
        Verb::Start => {
            let label = data
                .host(move |h| {
                    h.start(g, &user)?;
                    label_of(h, g)
                })
                .await?;
            Ok((format!("{label} has started."), vec![]))
        }
        Verb::Show => show(data, g, &user).await,
        Verb::Desk(_) => Err(BotError::Internal(
            "desk steps are handled by the desk".into(),
        )),
        Verb::Move(_) | Verb::MoveIndex(_) | Verb::Select => {
            let turn = custom.turn;
            let verb = custom.verb.clone();
            let values = match &c.data.kind {
                ComponentInteractionDataKind::StringSelect { values } => values.clone(),
                _ => Vec::new(),
            };
            let receipt = data
                .host(move |h| {
                    let row = h.game(g)?;
                    let label = host::game_label(&row);
                    if row.status != GameStatus::Running {
                        return Err(host::HostError::user(format!(
                            "{label} is {}; this button no longer does anything.",
                            row.status.as_str()
                        )));
                    }
                    if row.turn != turn {
                        return Err(host::HostError::user(format!(
                            "This button is from an earlier turn of {label}. Use the newest message, or `/game status`."
                        )));
                    }
                    let text = match verb {
                        Verb::Move(t) => t,
                        Verb::MoveIndex(i) => choice_text(h, g, &user, i)?,
                        _ => {
                            let v = values.first().cloned().unwrap_or_default();
                            match (v.strip_prefix("t:"), v.strip_prefix("i:")) {
                                (Some(t), _) => t.to_string(),
                                (_, Some(i)) => choice_text(h, g, &user, i.parse().unwrap_or(usize::MAX))?,
                                _ => v,
                            }
                        }
                    };
                    h.submit(Some(g), &user, &text)
                })
                .await?;
            Ok((crate::ui::text::receipt_text(&receipt), vec![]))
        }
    }
}

/// "cards #12": how every message names a game.
fn label_of(h: &host::Host, g: GameId) -> Result<String, host::HostError> {
    Ok(host::game_label(&h.game(g)?))
}

fn choice_text(h: &host::Host, g: GameId, user: &str, i: usize) -> Result<String, host::HostError> {
    let view = h.view(g, Some(user))?;
    view.view
        .and_then(|v| v.choices.get(i).map(|c| c.text.clone()))
        .ok_or_else(|| {
            host::HostError::user("That choice is no longer offered; use the newest message.")
        })
}

/// The viewer's private view of a game with their choices (ephemeral).
pub async fn show(
    data: &Data,
    g: GameId,
    user: &str,
) -> Result<(String, Vec<CreateActionRow>), BotError> {
    let u = user.to_string();
    let view = data.host(move |h| h.view(g, Some(&u))).await?;
    let text = crate::ui::text::describe_view(&view);
    let (rows, cut) = match &view.view {
        Some(v) if !v.choices.is_empty() => choice_rows(g, view.turn, &v.choices),
        _ => (vec![], false),
    };
    let mut text = text;
    if cut {
        text.push_str("\n(More choices than fit here: type them with `/move`.)");
    }
    Ok((messages::clip(&text, messages::MAX_CONTENT), rows))
}
