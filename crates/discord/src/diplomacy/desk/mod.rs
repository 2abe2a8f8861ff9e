//! The Diplomacy order desk in the DM: the phase prompt that teaches (power,
//! units, centres, example orders, how to finish, the deadline in every
//! reader's time zone), guided orders by menus (unit, then the kind of
//! order, then exactly the legal targets), and the private map of one's own
//! pending orders.
//!
//! Every menu is built from the engine's legality
//! ([`Diplomacy::legal_unit_orders`], [`Diplomacy::legal_builds`]) and every
//! choice ends as the order's canonical text submitted through
//! `Host::submit`, the path typed orders take, so both end in the same
//! pending orders. Custom ids are `gh:<game>:<turn>:od:<step>` (see
//! [`components`](crate::ui::components)); the steps after the first edit the
//! one ephemeral desk message instead of posting new ones.

mod steps;

use crate::BotError;
use crate::Data;
use crate::OwnPrompt;
use crate::press::how_to;
use crate::ui::messages;
use crate::ui::text::when;
use games::diplomacy::Diplomacy;
use games::diplomacy::game::OrderChoice;
use games::diplomacy::geo::Power;
use games::diplomacy::judge::PhaseKind;
use games::diplomacy::order::{Order, OrderKind, unit_name};
use games::seam::Game;
use host::{GameId, GameStatus};
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ComponentInteraction, ComponentInteractionDataKind, CreateActionRow,
    CreateAttachment, CreateButton, CreateInteractionResponse, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption,
};

/// Discord's limits on components: options in one select menu, rows in a
/// message.
const MAX_OPTIONS: usize = 25;
const MAX_ROWS: usize = 5;
/// Select menus on one page of a long list (the fifth row holds the
/// paging and back buttons).
const SELECTS_PER_PAGE: usize = MAX_ROWS - 1;

/// One player's seat in a Diplomacy game, with the position and their
/// pending orders.
pub struct Desk {
    /// The game.
    pub game_id: GameId,
    /// The player (a Discord user id).
    pub user: String,
    /// The turn the desk is for.
    pub turn: u32,
    /// The player's power.
    pub power: Power,
    /// The position now.
    pub game: Diplomacy,
    /// Their pending orders this phase.
    pub pending: Vec<Order>,
    /// When the phase's deadline falls (ms), if it has one.
    pub deadline: Option<i64>,
}

impl Desk {
    /// Loads the desk of `user` in game `g` (a user error when they do not
    /// play in it or it is not Diplomacy).
    pub fn load(h: &host::Host, g: GameId, user: &str) -> Result<Desk, host::HostError> {
        let view = h.view(g, Some(user))?;
        if view.kind != Diplomacy::KIND {
            return Err(host::HostError::user(
                "The order desk is for Diplomacy games.",
            ));
        }
        if view.status != GameStatus::Running {
            return Err(host::HostError::user(format!(
                "diplomacy #{g} is {}; no orders are taken.",
                view.status.as_str()
            )));
        }
        let state = h.state_at(g, view.turn)?;
        let game: Diplomacy = serde_json::from_str(&state.state_json()).map_err(|e| {
            host::HostError::user(format!("diplomacy #{g} cannot be read for the desk: {e}"))
        })?;
        // A variant seats fewer powers: the seat's power comes from the game.
        let power = view
            .viewer_seat
            .and_then(|seat| game.power_of_seat(seat))
            .ok_or_else(|| host::HostError::user(format!("You do not play in diplomacy #{g}.")))?;
        let pending = match h.own_pending(g, user)? {
            Some(text) => pending_orders(&game, power, &text),
            None => Vec::new(),
        };
        Ok(Desk {
            game_id: g,
            user: user.to_string(),
            turn: view.turn,
            power,
            game,
            pending,
            deadline: view.deadline,
        })
    }
}

/// The pending orders read back from the engine's description of the
/// pending action (the host shows a seat its own action only as that text):
/// its leading lines are the orders in canonical form, one per line, and
/// each is checked again by the engine.
fn pending_orders(g: &Diplomacy, power: Power, described: &str) -> Vec<Order> {
    described
        .lines()
        .map_while(|l| g.check_line(power, l).ok())
        .collect()
}

/// For `/orders list` when nothing was sent yet in a Diplomacy game: the
/// units (or builds) still without an order, e.g. `. No orders yet (all
/// hold): A Vie, A Bud, F Tri`; empty for other games or seats with
/// nothing to order.
pub fn unordered_note(h: &host::Host, g: GameId, user: &str) -> String {
    let Ok(desk) = Desk::load(h, g, user) else {
        return String::new();
    };
    let m = desk.game.map();
    let units: Vec<String> = desk
        .game
        .units_without_orders(desk.power, &[])
        .iter()
        .map(|u| unit_name(m, u))
        .collect();
    let fate = if desk.game.phase() == PhaseKind::Retreat {
        "all disband"
    } else {
        "all hold"
    };
    match desk.game.missing_orders(desk.power, &[]) {
        _ if !units.is_empty() => format!(". No orders yet ({fate}): {}", units.join(", ")),
        Some(owed) => format!(". {owed}"),
        None => String::new(),
    }
}

/// Three example orders for the power's own units, taken from the legal
/// lists: a move, a support and a hold where there are such orders.
pub fn examples(g: &Diplomacy, power: Power) -> Vec<String> {
    let m = g.map();
    let mut out = Vec::new();
    let units = g.orderable_units(power);
    let wanted = [OrderChoice::Move, OrderChoice::Support, OrderChoice::Hold];
    for (i, u) in units.iter().enumerate() {
        let legal = g.legal_unit_orders(power, u.loc);
        let kind = wanted[i % wanted.len()];
        let pick = legal
            .iter()
            .find(|o| OrderChoice::of(o) == kind)
            .or_else(|| legal.first());
        if let Some(o) = pick {
            out.push(o.canonical(m));
        }
        if out.len() == 3 {
            break;
        }
    }
    if out.is_empty() {
        out.extend(
            g.legal_builds(power)
                .into_iter()
                .take(2)
                .map(|o| o.canonical(m)),
        );
    }
    out
}

/// The text of the phase prompt: who you are, what you have, how to order
/// (typed, with examples, or by the menus), how to finish, the deadline.
/// The first prompt of a game teaches in full; later ones are short.
pub fn prompt_text(desk: &Desk, first: bool) -> String {
    let g = &desk.game;
    let m = desk.game.map();
    let p = desk.power;
    let units: Vec<String> = g
        .units()
        .iter()
        .filter(|u| u.power == p)
        .map(|u| unit_name(m, u))
        .collect();
    let centres: Vec<String> = g
        .owners()
        .iter()
        .enumerate()
        .filter(|(_, o)| **o == Some(p))
        .map(|(i, _)| m.prov(i as u8).name.clone())
        .collect();
    let mut s = format!(
        "**Your move in diplomacy #{}: you are {}.** {}.\n",
        desk.game_id,
        g.power_name(p),
        g.phase_name()
    );
    s.push_str(&format!(
        "Your units: {}. Your centres ({}): {}.\n",
        if units.is_empty() {
            "none".to_string()
        } else {
            units.join(", ")
        },
        centres.len(),
        centres.join(", ")
    ));
    let ex = examples(g, p);
    if first {
        s.push_str(
            "**How to order:** write your orders to me here, one per line, for example:\n```\n",
        );
        s.push_str(&ex.join("\n"));
        s.push_str(
            "\n```\nor press **Order a unit** to pick from menus of exactly the legal orders. \
             Units without an order hold. You can change orders until you are done: send \
             `done` or press **Ready**. `/orders list` shows what you gave.\n",
        );
    } else {
        s.push_str(
            "Write orders here (one per line) or press **Order a unit**; `done` or **Ready** when finished.\n",
        );
    }
    match desk.deadline {
        Some(d) => s.push_str(&format!("Deadline: {}.\n", when(d))),
        None => s.push_str("No deadline: the phase resolves when every power is ready.\n"),
    }
    s
}

/// The prompt's buttons: guided orders, the private map, Ready; the draw
/// vote on its own row, away from Ready.
pub fn prompt_rows(desk: &Desk) -> Vec<CreateActionRow> {
    let id = |step: &str| crate::ui::components::encode_desk(desk.game_id, desk.turn, step);
    let mut first = vec![
        CreateButton::new(id("menu"))
            .label("Order a unit")
            .style(ButtonStyle::Primary),
        CreateButton::new(id("map"))
            .label("Map of my orders")
            .style(ButtonStyle::Secondary),
        CreateButton::new(id("ready"))
            .label("Ready")
            .style(ButtonStyle::Success),
    ];
    if desk.game.phase() == PhaseKind::Adjustment
        && desk.game.orderable_units(desk.power).is_empty()
    {
        first[0] = CreateButton::new(id("menu"))
            .label("Build")
            .style(ButtonStyle::Primary);
    }
    vec![
        CreateActionRow::Buttons(first),
        CreateActionRow::Buttons(vec![
            CreateButton::new(id("draw?"))
                .label("Propose a draw…")
                .style(ButtonStyle::Secondary),
            CreateButton::new(id("press"))
                .label("Send press…")
                .style(ButtonStyle::Secondary),
        ]),
    ]
}

/// The private map: the position now with the player's own pending orders
/// drawn on it (nobody else's).
pub fn orders_map(desk: &Desk) -> Result<CreateAttachment, BotError> {
    // Under Fog of War, only what the power sees.
    let mut pos = render::diplomacy::MapPosition::seen_by(&desk.game, desk.power);
    pos.title = format!(
        "{}: {}'s orders",
        pos.title,
        desk.game.power_name(desk.power)
    );
    pos.orders = desk
        .pending
        .iter()
        .map(|o| (desk.power, *o, true))
        .collect();
    let png = render::diplomacy::render_position_png(&pos)
        .map_err(|e| BotError::Internal(format!("cannot draw the orders map: {e}")))?;
    Ok(map_attachment(desk, png))
}

/// The private map's attachment: its PNG, described for screen readers
/// with the power's pending orders.
fn map_attachment(desk: &Desk, png: Vec<u8>) -> CreateAttachment {
    let m = desk.game.map();
    let listed: Vec<String> = desk.pending.iter().map(|o| o.canonical(m)).collect();
    CreateAttachment::bytes(png, "my_orders.png").description(messages::clip(
        &format!(
            "Map of {} at {} with your pending orders: {}",
            desk.game.power_name(desk.power),
            desk.game.phase_name(),
            if listed.is_empty() {
                "none yet".to_string()
            } else {
                listed.join(", ")
            }
        ),
        1024,
    ))
}

/// [`prompt`] as the delivery takes it ([`crate::OwnPromptFn`]): the bot
/// hands it to the delivery at start-up.
pub fn own_prompt<'a>(
    data: &'a Data,
    a: &'a host::Announcement,
    user: &'a str,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<OwnPrompt>> + Send + 'a>> {
    Box::pin(prompt(data, a, user))
}

/// The DM prompt of a Diplomacy phase for `user`: the text (teaching in
/// full on the game's first phase), the desk's buttons and the private map.
/// `None` when the desk cannot be loaded, or for another game (the plain
/// prompt goes out then).
async fn prompt(data: &Data, a: &host::Announcement, user: &str) -> Option<OwnPrompt> {
    if a.game_kind != Diplomacy::KIND {
        return None;
    }
    let (g, u) = (a.game_id, user.to_string());
    let started = std::time::Instant::now();
    let desk = match data.host(move |h| Desk::load(h, g, &u)).await {
        Ok(d) => d,
        Err(e) => {
            tracing::warn!(game_id = g, error = %e, "cannot load the order desk; plain prompt");
            return None;
        }
    };
    if desk.turn != a.turn {
        return None;
    }
    let first = a.turn == 0;
    let mut text = prompt_text(&desk, first);
    if let Some(b) = a.board.as_deref() {
        text = messages::with_board(&text, Some(b));
    }
    let rows = prompt_rows(&desk);
    let loaded_ms = started.elapsed().as_millis() as u64;
    let map = if desk.pending.is_empty() && !desk.game.fog_hides() {
        // Nobody's orders to draw: the phase's one shared picture, the
        // one the channel shows (under Fog of War each power has its own).
        crate::images::boards::position_image(data, a.game_id, a.turn)
            .await
            .map(|image| map_attachment(&desk, image.png.clone()))
    } else {
        tokio::task::spawn_blocking(move || orders_map(&desk).ok())
            .await
            .ok()
            .flatten()
    };
    tracing::debug!(
        game_id = g,
        turn = a.turn,
        loaded_ms,
        ms = started.elapsed().as_millis() as u64,
        "order desk prompt built"
    );
    Some((text, rows, map))
}

/// One option of a menu: label and value.
type Opt = (String, String);

/// Select menus of `options` (page `page` of them: up to four menus of 25),
/// then a row with the back button and, when the list goes on, "More".
fn menu_rows(
    game: GameId,
    turn: u32,
    step: &str,
    more_step: &str,
    options: &[Opt],
    page: usize,
    placeholder: &str,
) -> Vec<CreateActionRow> {
    let id = |s: &str| crate::ui::components::encode_desk(game, turn, s);
    let per_page = MAX_OPTIONS * SELECTS_PER_PAGE;
    let pages = options.len().div_ceil(per_page).max(1);
    let page = page.min(pages - 1);
    let shown = &options[page * per_page..options.len().min((page + 1) * per_page)];
    let mut rows: Vec<CreateActionRow> = shown
        .chunks(MAX_OPTIONS)
        .enumerate()
        .map(|(n, chunk)| {
            let opts = chunk
                .iter()
                .map(|(l, v)| CreateSelectMenuOption::new(messages::clip(l, 100), v.clone()))
                .collect();
            // Custom ids must differ within a message: the menu's number.
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(
                    format!("{}:{n}", id(step)),
                    CreateSelectMenuKind::String { options: opts },
                )
                .placeholder(messages::clip(placeholder, 150)),
            )
        })
        .collect();
    let mut buttons = vec![
        CreateButton::new(id("menu"))
            .label("Back to my units")
            .style(ButtonStyle::Secondary),
    ];
    if pages > 1 {
        buttons.push(
            CreateButton::new(id(&format!("{more_step}:{}", (page + 1) % pages)))
                .label(format!("More ({}/{pages})", page + 1))
                .style(ButtonStyle::Secondary),
        );
    }
    rows.push(CreateActionRow::Buttons(buttons));
    rows
}

/// What one click of the desk does: the answer's text, its components, an
/// image, and whether it edits the desk message (else a new ephemeral one).
struct Answer {
    text: String,
    rows: Vec<CreateActionRow>,
    file: Option<CreateAttachment>,
    update: bool,
}

/// The question asked before a draw vote typed as a move (a DM or
/// `/move`), with the desk's buttons that vote or withdraw the vote.
pub fn draw_confirmation(game: GameId, turn: u32) -> (String, Vec<CreateActionRow>) {
    let a = steps::ask_draw(game, turn);
    (a.text, a.rows)
}

/// Handles a click or choice of the order desk (`step` after `od:`).
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    c: &ComponentInteraction,
    game: GameId,
    turn: u32,
    step: &str,
) -> Result<(), BotError> {
    let user = c.user.id.to_string();
    let value = match &c.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values.first().cloned(),
        _ => None,
    };
    let from_prompt = c
        .message
        .flags
        .is_none_or(|f| !f.contains(serenity::MessageFlags::EPHEMERAL));
    let answer = steps::act(data, game, turn, &user, step, value).await;
    data.wake.all();
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            if e.user_message().is_none() {
                tracing::error!(game_id = game, step, error = %e, "order desk failed");
            }
            Answer {
                text: e.shown(),
                rows: Vec::new(),
                file: None,
                update: false,
            }
        }
    };
    // The private map goes to the player's own DM channel as a message
    // (only they and the bot see it); the click is answered in words.
    if let Some(f) = answer.file {
        c.create_response(
            &ctx.http,
            CreateInteractionResponse::Message(
                messages::response("Your orders map is in this DM, just below.").ephemeral(true),
            ),
        )
        .await?;
        let map = messages::create(messages::clip(&answer.text, messages::MAX_CONTENT)).add_file(f);
        crate::dm_channels::send_dm(&ctx.http, data, c.user.id, map).await?;
        return Ok(());
    }
    let msg = messages::response(messages::clip(&answer.text, messages::MAX_CONTENT))
        .components(answer.rows);
    // The prompt itself is never edited (it holds the board and the how-to);
    // the ephemeral desk message is.
    let response = if answer.update && !from_prompt {
        CreateInteractionResponse::UpdateMessage(msg)
    } else {
        CreateInteractionResponse::Message(msg.ephemeral(true))
    };
    c.create_response(&ctx.http, response).await?;
    Ok(())
}

/// The units (or builds) to pick from, with what the desk says above them.
fn unit_menu(desk: &Desk, head: &str) -> Answer {
    let m = desk.game.map();
    let g = &desk.game;
    let units = g.orderable_units(desk.power);
    let mut text = head.to_string();
    let rows;
    if units.is_empty() && g.phase() == PhaseKind::Adjustment {
        let builds: Vec<Opt> = g
            .legal_builds(desk.power)
            .into_iter()
            .map(|o| {
                let t = o.canonical(m);
                (t.clone(), format!("o:{t}"))
            })
            .collect();
        if builds.is_empty() {
            text.push_str("You have nothing to build or remove this Winter.");
            rows = Vec::new();
        } else {
            text.push_str("Pick a build (or `Waive`):");
            rows = menu_rows(
                desk.game_id,
                desk.turn,
                "o",
                "bp",
                &builds,
                0,
                "Build where?",
            );
        }
    } else {
        let options: Vec<Opt> = units
            .iter()
            .map(|u| {
                let name = unit_name(m, u);
                let current = desk
                    .pending
                    .iter()
                    .find(|o| matches!(o, Order::Unit { at, .. } if m.prov_of(*at) == m.prov_of(u.loc)))
                    .map(|o| format!("{name}: {}", o.canonical(m)))
                    .unwrap_or_else(|| format!("{name} (no order yet)"));
                (current, format!("u:{}", m.loc(u.loc).abbr))
            })
            .collect();
        text.push_str("Which unit?");
        rows = menu_rows(
            desk.game_id,
            desk.turn,
            "u",
            "up",
            &options,
            0,
            "Pick a unit",
        );
    }
    Answer {
        text,
        rows,
        file: None,
        update: true,
    }
}

/// The legal orders of one kind for the unit at `loc`.
fn orders_of_kind(desk: &Desk, loc: &str, kind: OrderChoice) -> Vec<Order> {
    let m = desk.game.map();
    let Some(l) = m.loc_by_abbr(loc) else {
        return Vec::new();
    };
    desk.game
        .legal_unit_orders(desk.power, l)
        .into_iter()
        .filter(|o| OrderChoice::of(o) == kind)
        .collect()
}

fn kind_by_label(s: &str) -> Option<OrderChoice> {
    [
        OrderChoice::Hold,
        OrderChoice::Move,
        OrderChoice::Support,
        OrderChoice::Convoy,
        OrderChoice::Retreat,
        OrderChoice::Disband,
    ]
    .into_iter()
    .find(|k| k.label().eq_ignore_ascii_case(s))
}

/// Where an order's unit or convoyed/supported army stands, as its abbreviation.
fn from_of(o: &Order) -> Option<u8> {
    match o {
        Order::Unit {
            kind: OrderKind::Support { from, .. } | OrderKind::Convoy { from, .. },
            ..
        } => Some(*from),
        _ => None,
    }
}

/// Submits an order chosen in the menus exactly as if typed, and shows the
/// receipt above the unit menu, ready for the next unit.
async fn submit(data: &Data, desk: Desk, text: &str) -> Result<Answer, BotError> {
    let (g, user, t) = (desk.game_id, desk.user.clone(), text.to_string());
    let (receipt, desk) = data
        .host(move |h| {
            let r = h.submit(Some(g), &user, &t)?;
            // When this order completed the phase there is no desk left.
            let desk = if r.resolved {
                None
            } else {
                Desk::load(h, g, &user).ok()
            };
            Ok((r, desk))
        })
        .await?;
    let receipt = crate::ui::text::receipt_text(&receipt);
    Ok(match desk {
        Some(d) => unit_menu(&d, &format!("{receipt}\n")),
        None => Answer {
            text: receipt,
            rows: Vec::new(),
            file: None,
            update: true,
        },
    })
}

/// The answer of the order desk's "Send press…" button in game `game`.
pub async fn desk_answer(data: &Data, game: GameId) -> Result<String, BotError> {
    let rule = data.host(move |h| h.press_rule(game)).await?;
    Ok(how_to(game, rule))
}
