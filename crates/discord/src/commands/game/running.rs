//! `/game forfeit`, `status`, `takeover`, `extend`, `pause`, `resume`, `away`:
//! a game being played.

use crate::BotError;
use crate::Context;
use crate::commands::shared::channel_game;
use crate::commands::shared::game_master_name;
use crate::commands::shared::parse_duration;
use crate::commands::shared::played_in;
use crate::commands::shared::say;
use crate::commands::shared::shown_game;
use crate::commands::shared::target_game;
use crate::commands::shared::user_of;
use crate::ui::messages;
use host::{PauseOutcome, ResumeOutcome, game_label};

/// Give up this channel's game
#[poise::command(slash_command)]
pub async fn forfeit(ctx: Context<'_>) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    ctx.data().host(move |h| h.forfeit(id, &user)).await?;
    say(ctx, format!("You forfeited {}.", game_label(&g))).await
}

/// The game as you may see it: board, seats, your pending move, your choices
#[poise::command(slash_command)]
pub async fn status(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's, or the last one played here)"] id: Option<
        i64,
    >,
) -> Result<(), BotError> {
    let g = shown_game(&ctx, id).await?;
    let (user, _) = user_of(&ctx);
    let (text, rows) = crate::events::show(ctx.data(), g.id, &user).await?;
    let text = messages::clip(&played_in(&ctx, &g, text), messages::MAX_CONTENT);
    let mut reply = messages::reply(text).ephemeral(true);
    if !rows.is_empty() {
        reply = reply.components(rows);
    }
    ctx.send(reply).await?;
    Ok(())
}

/// Take over a seat whose player left this channel's running game (a Diplomacy power in civil disorder)
#[poise::command(slash_command)]
pub async fn takeover(
    ctx: Context<'_>,
    #[description = "The power or seat number (default: the first open one)"] power: Option<String>,
) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, name) = user_of(&ctx);
    let id = g.id;
    let role = ctx
        .data()
        .host(move |h| {
            let wanted = match power.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
                Some(p) => Some(h.seat_by_name(id, p)?),
                None => None,
            };
            let seat = h.takeover(id, &user, &name, wanted)?;
            let view = h.view(id, Some(&user))?;
            Ok(view
                .seats
                .into_iter()
                .find(|s| s.seat == seat)
                .map(|s| s.role)
                .unwrap_or_else(|| format!("seat {}", seat + 1)))
        })
        .await?;
    say(
        ctx,
        format!(
            "You now play {role} in {}. If it has something to do this phase, your prompt is on its way by DM (or here in the channel if your DMs are closed).",
            game_label(&g)
        ),
    )
    .await
}

/// More time before this turn's deadline (players: if the game allows; game masters: by any span)
#[poise::command(slash_command)]
pub async fn extend(
    ctx: Context<'_>,
    #[description = "Game masters: by how long, e.g. 12h, 2d (default: 1d)"] by: Option<String>,
) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    // A game master who names a span, or who does not play in the game,
    // moves the deadline as game master; a player asks for their own
    // extension.
    let master = game_master_name(&ctx, &g).await?;
    let playing = ctx
        .data()
        .host({
            let user = user.clone();
            move |h| Ok(h.view(id, Some(&user))?.viewer_seat.is_some())
        })
        .await?;
    let as_master = match (&master, &by) {
        (Some(_), Some(_)) => true,
        (Some(_), None) => !playing,
        (None, Some(_)) => {
            return Err(BotError::user(
                "Only a game master of this server chooses by how long a deadline moves; \
                 players ask with `/game extend` alone (the game says by how much).",
            ));
        }
        (None, None) => false,
    };
    let extra_ms = match by.as_deref() {
        Some(b) => parse_duration(b)?.min(i64::MAX as u64 / 1000) as i64 * 1000,
        None => GAME_MASTER_DEFAULT_EXTENSION_MS,
    };
    let due = ctx
        .data()
        .host(move |h| match (as_master, master) {
            (true, Some(name)) => h.extend_as_game_master(id, &name, extra_ms),
            _ => h.extend_deadline(id, &user),
        })
        .await?;
    say(
        ctx,
        format!(
            "The deadline of {} is now <t:{}:R>; the channel is told who moved it.",
            game_label(&g),
            due / 1000
        ),
    )
    .await
}

/// How far a game master's `/game extend` without `by` moves a deadline (1 day).
const GAME_MASTER_DEFAULT_EXTENSION_MS: i64 = 24 * 3600 * 1000;

/// Ask to pause a game: it pauses when every player still in it has asked (a game master: at once)
#[poise::command(slash_command)]
pub async fn pause(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    let g = target_game(&ctx, id).await?;
    let (user, _) = user_of(&ctx);
    let game_id = g.id;
    let label = game_label(&g);
    // A game master pauses at once, without a vote.
    if let Some(name) = game_master_name(&ctx, &g).await? {
        ctx.data()
            .host(move |h| h.pause_as_game_master(game_id, &name))
            .await?;
        return say(
            ctx,
            format!("{label} is paused: its deadline is frozen until `/game resume`; the channel is told you paused it."),
        )
        .await;
    }
    let outcome = ctx
        .data()
        .host(move |h| h.pause_game(game_id, &user))
        .await?;
    let text = match outcome {
        PauseOutcome::Paused => {
            format!("{label} is paused: its deadline is frozen until someone uses `/game resume`.")
        }
        PauseOutcome::Waiting(names) => format!(
            "Your request to pause {label} is recorded. It pauses when {} {} too; \
             `/game resume` withdraws your request.",
            host::names_and(&names),
            if names.len() == 1 { "asks" } else { "ask" }
        ),
    };
    say(ctx, text).await
}

/// End a game's pause (a player or a game master), or withdraw your request for one
#[poise::command(slash_command)]
pub async fn resume(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    let g = target_game(&ctx, id).await?;
    let (user, _) = user_of(&ctx);
    let game_id = g.id;
    // A game master ends a pause at once; not paused, they withdraw their
    // own vote like any player.
    let master = game_master_name(&ctx, &g).await?;
    let outcome = ctx
        .data()
        .host(move |h| match master {
            Some(name) if h.is_paused(game_id)? => h
                .resume_as_game_master(game_id, &name)
                .map(ResumeOutcome::Resumed),
            _ => h.resume_game(game_id, &user),
        })
        .await?;
    let label = game_label(&g);
    let text = match outcome {
        ResumeOutcome::Resumed(Some(due)) => format!(
            "{label} runs again; the deadline is <t:{s}:f> (<t:{s}:R>).",
            s = due / 1000
        ),
        ResumeOutcome::Resumed(None) => format!("{label} runs again."),
        ResumeOutcome::VoteWithdrawn => {
            format!("You withdrew your request to pause {label}.")
        }
    };
    say(ctx, text).await
}

/// Declare an absence: deadlines wait for you, or the AI moves for you, as the game says
#[poise::command(slash_command)]
pub async fn away(
    ctx: Context<'_>,
    #[description = "Days away from now (0: you are back)"]
    #[max = 90]
    days: u32,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    let g = target_game(&ctx, id).await?;
    let (user, _) = user_of(&ctx);
    let game_id = g.id;
    let back = ctx
        .data()
        .host(move |h| h.declare_away(game_id, &user, days))
        .await?;
    let label = game_label(&g);
    let text = if days == 0 {
        format!("Welcome back to {label}.")
    } else {
        format!(
            "You are away from {label} until <t:{s}:f> (<t:{s}:R>); the channel is told.",
            s = back / 1000
        )
    };
    say(ctx, text).await
}
