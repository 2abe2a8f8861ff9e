//! Buttons and select menus. A custom id carries the game and the turn it
//! was made for (`gh:<game>:<turn>:<verb>[:<arg>]`), so a click on a button
//! of a finished game or an earlier turn is answered kindly instead of acting.

use super::{BotError, Data, messages};
use games::seam::{ActionChoice, ChoiceStyle};
use host::GameId;
use host::GameStatus;
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, ComponentInteractionDataKind, CreateActionRow, CreateButton,
    CreateInteractionResponse, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
};

/// What a component asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verb {
    /// Take a seat in the lobby.
    Join,
    /// Leave the lobby.
    Leave,
    /// Put an AI in the next free seat.
    Ai,
    /// Start the game.
    Start,
    /// Show me my view and my choices (ephemeral).
    Show,
    /// Play this exact text.
    Move(String),
    /// Play choice number n of the current view.
    MoveIndex(usize),
    /// A select menu (the value says which choice).
    Select,
    /// A step of the Diplomacy order desk (`order_desk.rs`).
    Desk(String),
}

/// A decoded custom id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Custom {
    /// The game.
    pub game: GameId,
    /// The turn the component was made for.
    pub turn: u32,
    /// What it does.
    pub verb: Verb,
}

/// Encodes a custom id (at most 100 characters: a long move text falls
/// back to its index).
pub fn encode(game: GameId, turn: u32, verb: &Verb) -> String {
    let base = format!("gh:{game}:{turn}:");
    let tail = match verb {
        Verb::Join => "join".to_string(),
        Verb::Leave => "leave".to_string(),
        Verb::Ai => "ai".to_string(),
        Verb::Start => "start".to_string(),
        Verb::Show => "show".to_string(),
        Verb::Move(t) => format!("mv:{t}"),
        Verb::MoveIndex(i) => format!("mi:{i}"),
        Verb::Select => "sel".to_string(),
        Verb::Desk(step) => format!("od:{step}"),
    };
    format!("{base}{tail}")
}

/// Decodes a custom id of ours.
pub fn decode(id: &str) -> Option<Custom> {
    let mut it = id.splitn(5, ':');
    if it.next()? != "gh" {
        return None;
    }
    let game = it.next()?.parse().ok()?;
    let turn = it.next()?.parse().ok()?;
    let verb = match (it.next()?, it.next()) {
        ("join", _) => Verb::Join,
        ("leave", _) => Verb::Leave,
        ("ai", _) => Verb::Ai,
        ("start", _) => Verb::Start,
        ("show", _) => Verb::Show,
        ("mv", Some(t)) => Verb::Move(t.to_string()),
        ("mi", Some(i)) => Verb::MoveIndex(i.parse().ok()?),
        ("sel", _) => Verb::Select,
        ("od", Some(step)) => Verb::Desk(step.to_string()),
        _ => return None,
    };
    Some(Custom { game, turn, verb })
}

/// The custom id of an order-desk step.
pub fn encode_desk(game: GameId, turn: u32, step: &str) -> String {
    encode(game, turn, &Verb::Desk(step.to_string()))
}

/// The lobby's buttons.
pub fn lobby_rows(game: GameId) -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(encode(game, 0, &Verb::Join))
            .label("Join")
            .style(ButtonStyle::Success),
        CreateButton::new(encode(game, 0, &Verb::Leave))
            .label("Leave")
            .style(ButtonStyle::Secondary),
        CreateButton::new(encode(game, 0, &Verb::Ai))
            .label("Add AI")
            .style(ButtonStyle::Secondary),
        CreateButton::new(encode(game, 0, &Verb::Start))
            .label("Start")
            .style(ButtonStyle::Primary),
    ])]
}

/// The lobby's buttons, disabled: shown once the game started or closed.
pub fn lobby_rows_disabled(game: GameId) -> Vec<CreateActionRow> {
    lobby_rows(game)
        .into_iter()
        .map(|row| match row {
            CreateActionRow::Buttons(b) => {
                CreateActionRow::Buttons(b.into_iter().map(|b| b.disabled(true)).collect())
            }
            other => other,
        })
        .collect()
}

/// A "Show my move" button (for players whose DMs are closed).
pub fn show_row(game: GameId, turn: u32) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(encode(game, turn, &Verb::Show))
            .label("Show my move")
            .style(ButtonStyle::Primary),
    ])
}

/// Buttons and select menus for a seat's choices, within Discord's limits
/// (5 rows, 5 buttons a row, 25 options a menu). Returns the rows and
/// whether some choices did not fit (they can still be typed with `/move`).
pub fn choice_rows(
    game: GameId,
    turn: u32,
    choices: &[ActionChoice],
) -> (Vec<CreateActionRow>, bool) {
    let mut buttons: Vec<(usize, &ActionChoice)> = Vec::new();
    let mut selects: Vec<(usize, &ActionChoice)> = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        match c.style {
            ChoiceStyle::Button => buttons.push((i, c)),
            ChoiceStyle::Select => selects.push((i, c)),
        }
    }
    // Many "buttons" read better as a menu.
    if buttons.len() > 10 {
        selects.splice(0..0, buttons.drain(..));
    }
    let mut rows = Vec::new();
    for chunk in buttons.chunks(5) {
        rows.push(CreateActionRow::Buttons(
            chunk
                .iter()
                .map(|(i, c)| {
                    let verb = move_verb(*i, c);
                    let label = messages::clip(
                        if c.label.trim().is_empty() {
                            &c.text
                        } else {
                            &c.label
                        },
                        80,
                    );
                    CreateButton::new(encode(game, turn, &verb))
                        .label(label)
                        .style(ButtonStyle::Primary)
                })
                .collect(),
        ));
    }
    for (n, chunk) in selects.chunks(25).enumerate() {
        let options = chunk
            .iter()
            .map(|(i, c)| {
                let value = if c.text.chars().count() <= 98 {
                    format!("t:{}", c.text)
                } else {
                    format!("i:{i}")
                };
                let label = if c.label.trim().is_empty() {
                    &c.text
                } else {
                    &c.label
                };
                CreateSelectMenuOption::new(messages::clip(label, 100), value)
            })
            .collect();
        let id = format!("{}:{n}", encode(game, turn, &Verb::Select));
        rows.push(CreateActionRow::SelectMenu(
            CreateSelectMenu::new(id, CreateSelectMenuKind::String { options }).placeholder(
                if n == 0 {
                    "Choose…"
                } else {
                    "More choices…"
                },
            ),
        ));
    }
    let truncated = rows.len() > 5;
    rows.truncate(5);
    (rows, truncated)
}

fn move_verb(index: usize, c: &ActionChoice) -> Verb {
    let v = Verb::Move(c.text.clone());
    if encode(i64::MAX, u32::MAX, &v).chars().count() <= 100 {
        v
    } else {
        Verb::MoveIndex(index)
    }
}

/// The name a member goes by, made inert for Discord: this is where names
/// enter the bot, before the host stores them and writes them into texts
/// (see `messages.rs` for why here).
pub fn display_name(user: &serenity::User, member: Option<&serenity::Member>) -> String {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    messages::inert_name(&name)
}

/// Handles a click or a menu choice.
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    c: &ComponentInteraction,
) -> Result<(), BotError> {
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
        return super::order_desk::handle(ctx, data, c, custom.game, custom.turn, step).await;
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
            reply(ctx, c, &e.shown(), vec![]).await
        }
    }
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
            Ok((super::moves::receipt_text(&receipt), vec![]))
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
    let text = super::game::describe_view(&view);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        for v in [
            Verb::Join,
            Verb::Leave,
            Verb::Ai,
            Verb::Start,
            Verb::Show,
            Verb::Move("F par - bur: x".into()),
            Verb::MoveIndex(7),
            Verb::Select,
            Verb::Desk("k:stp/sc:Move:0".into()),
        ] {
            let id = encode(42, 3, &v);
            assert_eq!(
                decode(&id),
                Some(Custom {
                    game: 42,
                    turn: 3,
                    verb: v
                })
            );
        }
        assert_eq!(decode("other:1"), None);
        assert_eq!(decode("gh:x:1:join"), None);
    }

    #[test]
    fn long_texts_use_indexes_and_limits_hold() {
        let choices: Vec<ActionChoice> = (0..150)
            .map(|i| ActionChoice {
                label: format!("choice {i} {}", "y".repeat(120)),
                text: format!("{i} {}", "z".repeat(i * 3)),
                style: if i < 4 {
                    ChoiceStyle::Button
                } else {
                    ChoiceStyle::Select
                },
            })
            .collect();
        let (rows, cut) = choice_rows(1, 2, &choices);
        assert!(rows.len() <= 5);
        assert!(cut);
        let json = serde_json::to_value(&rows).unwrap();
        for row in json.as_array().unwrap() {
            for c in row["components"].as_array().unwrap() {
                assert!(c["custom_id"].as_str().unwrap().len() <= 100);
                if let Some(opts) = c["options"].as_array() {
                    assert!(opts.len() <= 25);
                    for o in opts {
                        assert!(o["value"].as_str().unwrap().chars().count() <= 100);
                        assert!(o["label"].as_str().unwrap().chars().count() <= 100);
                    }
                }
                if let Some(l) = c["label"].as_str() {
                    assert!(l.chars().count() <= 80);
                }
            }
        }
    }
}
