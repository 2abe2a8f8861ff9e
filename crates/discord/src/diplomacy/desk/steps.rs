//! The desk's steps, one function each: a click names its step (`menu`,
//! `map`, `u` a unit, `k` a kind of order, `f` the unit supported or
//! convoyed, `o` the order), and each step answers with the next menu or
//! submits the order.

use super::{Answer, Desk, Opt, from_of, kind_by_label, menu_rows, orders_map, orders_of_kind};
use super::{submit, unit_menu};
use crate::ui::components::encode_desk;
use crate::{BotError, Data};
use games::diplomacy::game::OrderChoice;

use games::diplomacy::order::{Order, loc_name, unit_name};
use host::GameId;
use poise::serenity_prelude::{ButtonStyle, CreateActionRow, CreateButton};

/// Runs one step of the desk for `user`, from a click on a menu of phase `turn`.
pub(super) async fn act(
    data: &Data,
    game: GameId,
    turn: u32,
    user: &str,
    step: &str,
    value: Option<String>,
) -> Result<Answer, BotError> {
    let u = user.to_string();
    let desk = data.host(move |h| Desk::load(h, game, &u)).await?;
    if desk.turn != turn {
        return Err(BotError::from(host::HostError::user(format!(
            "This menu is from an earlier phase of diplomacy #{game}; use the newest prompt or `/orders`."
        ))));
    }
    let parts: Vec<&str> = step.split(':').collect();
    let value = value.unwrap_or_default();
    match parts.as_slice() {
        ["menu"] => Ok(unit_menu(&desk, "")),
        ["press"] => Ok(Answer {
            text: super::desk_answer(data, game).await?,
            rows: Vec::new(),
            file: None,
            update: false,
        }),
        ["map"] => show_orders_map(desk).await,
        ["ready"] => submit(data, desk, "done").await,
        ["draw?"] => Ok(ask_draw(game, turn)),
        ["draw!"] => submit(data, desk, "draw").await,
        ["nodraw"] => submit(data, desk, "no draw").await,
        ["u", ..] | ["up", ..] => Ok(choose_order_kind(&desk, &value)),
        ["k", loc, kind, page] => choose_target(data, desk, loc, kind, page).await,
        ["f", loc, kind, ..] => Ok(choose_supported_order(&desk, loc, kind, &value)),
        ["o", ..] | ["bp", ..] => {
            let text = value.strip_prefix("o:").unwrap_or_default().to_string();
            if text.is_empty() {
                return Ok(unit_menu(&desk, ""));
            }
            submit(data, desk, &text).await
        }
        _ => Err(BotError::from(host::HostError::user(
            "That menu is not one I know any more; press **Order a unit** on the newest prompt.",
        ))),
    }
}

/// `map`: the player's pending orders, listed and drawn on the position.
async fn show_orders_map(desk: Desk) -> Result<Answer, BotError> {
    let m = desk.game.map();
    let listed: Vec<String> = desk.pending.iter().map(|o| o.canonical(m)).collect();
    let text = format!(
        "Your pending orders in diplomacy #{} ({}), drawn on the position now; only you see this:\n{}",
        desk.game_id,
        desk.game.phase_name(),
        if listed.is_empty() {
            "(none yet: your units hold)".to_string()
        } else {
            listed.join("\n")
        }
    );
    let file = tokio::task::spawn_blocking(move || orders_map(&desk))
        .await
        .map_err(|e| BotError::Internal(format!("map task failed: {e}")))??;
    Ok(Answer {
        text,
        rows: Vec::new(),
        file: Some(file),
        update: false,
    })
}

/// `draw?`, or a typed draw vote: asks before the vote (a draw ends the
/// game for everyone, at once when every other power already voted; the
/// AI powers always accept).
pub(super) fn ask_draw(game: GameId, turn: u32) -> Answer {
    Answer {
        text: format!(
            "A draw ends diplomacy #{game} for everyone, shared by every power still in it, \
             when this phase resolves if every other surviving power has voted for one too; \
             the AI powers always accept. Vote for a draw?"
        ),
        rows: vec![CreateActionRow::Buttons(vec![
            CreateButton::new(encode_desk(game, turn, "draw!"))
                .label("Yes, vote for a draw")
                .style(ButtonStyle::Danger),
            CreateButton::new(encode_desk(game, turn, "nodraw"))
                .label("Withdraw my draw vote")
                .style(ButtonStyle::Secondary),
        ])],
        file: None,
        update: false,
    }
}

/// `u`: a unit was picked; which kinds of order it may be given.
fn choose_order_kind(desk: &Desk, value: &str) -> Answer {
    let (game, turn, m) = (desk.game_id, desk.turn, desk.game.map());
    let loc = value.strip_prefix("u:").unwrap_or_default().to_string();
    let legal = m
        .loc_by_abbr(&loc)
        .map(|l| desk.game.legal_unit_orders(desk.power, l))
        .unwrap_or_default();
    let Some(first) = legal.first() else {
        return unit_menu(desk, "That unit has nothing to order now.\n");
    };
    let unit = match first {
        Order::Unit { unit, at, .. } => format!(
            "{} {}",
            unit.map(|u| u.letter()).unwrap_or("?"),
            loc_name(m, *at)
        ),
        _ => loc.clone(),
    };
    let mut kinds: Vec<OrderChoice> = legal.iter().map(OrderChoice::of).collect();
    kinds.dedup();
    let buttons = kinds
        .iter()
        .map(|k| {
            CreateButton::new(crate::ui::components::encode_desk(
                game,
                turn,
                &format!("k:{loc}:{}:0", k.label()),
            ))
            .label(k.label())
            .style(ButtonStyle::Primary)
        })
        .collect();
    Answer {
        text: format!("{unit}: what should it do?"),
        rows: vec![
            CreateActionRow::Buttons(buttons),
            CreateActionRow::Buttons(vec![
                CreateButton::new(crate::ui::components::encode_desk(game, turn, "menu"))
                    .label("Back to my units")
                    .style(ButtonStyle::Secondary),
            ]),
        ],
        file: None,
        update: true,
    }
}

/// `k`: a kind of order was picked; its destinations (or, for support and
/// convoy, first the unit supported or convoyed). Hold and disband need no
/// more and are submitted at once.
async fn choose_target(
    data: &Data,
    desk: Desk,
    loc: &str,
    kind: &str,
    page: &str,
) -> Result<Answer, BotError> {
    let (game, turn, m) = (desk.game_id, desk.turn, desk.game.map());
    let kind = kind_by_label(kind)
        .ok_or_else(|| BotError::from(host::HostError::user("That menu is not one I know.")))?;
    let page: usize = page.parse().unwrap_or(0);
    let orders = orders_of_kind(&desk, loc, kind);
    if orders.is_empty() {
        return Ok(unit_menu(&desk, "That order is no longer possible.\n"));
    }
    if matches!(kind, OrderChoice::Hold | OrderChoice::Disband) {
        let text = orders[0].canonical(m);
        return submit(data, desk, &text).await;
    }
    let (options, step, head, placeholder): (Vec<Opt>, String, &str, &str) = match kind {
        OrderChoice::Support | OrderChoice::Convoy => {
            // First the unit supported or the army convoyed.
            let mut froms: Vec<u8> = orders.iter().filter_map(from_of).collect();
            froms.dedup();
            let opts = froms
                .iter()
                .map(|f| {
                    let who = desk
                        .game
                        .units()
                        .iter()
                        .find(|u| u.loc == *f)
                        .map(|u| format!("{} ({})", unit_name(m, u), desk.game.power_name(u.power)))
                        .unwrap_or_else(|| loc_name(m, *f));
                    (who, format!("f:{}", m.loc(*f).abbr))
                })
                .collect();
            (
                opts,
                format!("f:{loc}:{}", kind.label()),
                if kind == OrderChoice::Support {
                    "Support which unit?"
                } else {
                    "Convoy which army?"
                },
                "Pick the unit",
            )
        }
        _ => (
            orders
                .iter()
                .map(|o| {
                    let t = o.canonical(m);
                    (t.clone(), format!("o:{t}"))
                })
                .collect(),
            "o".to_string(),
            "Where to?",
            "Pick the destination",
        ),
    };
    Ok(Answer {
        text: head.to_string(),
        rows: menu_rows(
            game,
            turn,
            &step,
            &format!("k:{loc}:{}", kind.label()),
            &options,
            page,
            placeholder,
        ),
        file: None,
        update: true,
    })
}

/// `f`: the unit to support or convoy was picked; the orders that do so.
fn choose_supported_order(desk: &Desk, loc: &str, kind: &str, value: &str) -> Answer {
    let (game, turn, m) = (desk.game_id, desk.turn, desk.game.map());
    let kind = kind_by_label(kind).unwrap_or(OrderChoice::Support);
    let from = value
        .strip_prefix("f:")
        .and_then(|f| m.loc_by_abbr(f))
        .unwrap_or(u8::MAX);
    let options: Vec<Opt> = orders_of_kind(desk, loc, kind)
        .into_iter()
        .filter(|o| from_of(o) == Some(from))
        .map(|o| {
            let t = o.canonical(m);
            (t.clone(), format!("o:{t}"))
        })
        .collect();
    Answer {
        text: if kind == OrderChoice::Support {
            "Support it to do what?".into()
        } else {
            "Convoy it where?".into()
        },
        rows: menu_rows(game, turn, "o", "o", &options, 0, "Pick the order"),
        file: None,
        update: true,
    }
}
