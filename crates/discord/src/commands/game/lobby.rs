//! `/game new`, `join`, `leave`, `ai`, `start`, `abort`: a game before it starts.

use crate::BotError;
use crate::Context;
use crate::commands::shared::ScoringOption;
use crate::commands::shared::channel_game;
use crate::commands::shared::game_master_name;
use crate::commands::shared::kinds;
use crate::commands::shared::parse_duration;
use crate::commands::shared::rules_of;
use crate::commands::shared::say;
use crate::commands::shared::user_of;
use host::TimeoutPolicy;
use host::{HostError, NewGame, game_label};

/// What happens to a seat that has not moved by the deadline.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Timeout {
    /// The engine's default action.
    #[name = "default action"]
    Default,
    /// An AI moves for the seat.
    #[name = "AI moves"]
    Ai,
    /// The seat forfeits.
    #[name = "forfeit"]
    Forfeit,
}

/// Create a game in this channel (a lobby others join with its buttons)
// A slash command's options are its arguments.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, rename = "new")]
pub async fn new(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "kinds"]
    kind: String,
    #[description = "Time per turn, e.g. 10m, 2h, 1d (0 = no deadline)"] deadline: Option<String>,
    #[description = "What happens to a seat that has not moved in time"] timeout: Option<Timeout>,
    #[description = "Take a seat yourself (default: yes)"] play: Option<bool>,
    #[description = "Engine options, e.g. team_size=3 turn_limit=40 (or a JSON object)"]
    options: Option<String>,
    #[description = "Seed for a reproducible deal"] seed: Option<i64>,
    #[description = "Whether the result changes ratings (default: yes)"] rated: Option<bool>,
    #[description = "How a game of many players (Diplomacy) is scored (default: draw-size)"]
    scoring: Option<ScoringOption>,
    #[description = "The least reliability (0-100%) a player needs to join"]
    min_reliability: Option<u32>,
) -> Result<(), BotError> {
    let rules = rules_of(rated, scoring, min_reliability)?;
    let Some(guild) = ctx.guild_id() else {
        return Err(BotError::user(
            "Games live in server channels; use `/game new` in one.",
        ));
    };
    let data = ctx.data();
    let entry = data.host.registry().get(&kind).map_err(HostError::from)?;
    let kind_name = entry.name;
    let turn_seconds = match &deadline {
        Some(d) => parse_duration(d)?,
        None => data
            .settings
            .turn_seconds
            .get(kind_name)
            .copied()
            .unwrap_or(entry.default_turn_seconds),
    };
    let options =
        host::parse_game_options(options.as_deref().unwrap_or("")).map_err(BotError::user)?;
    let policy = match timeout {
        Some(Timeout::Default) => TimeoutPolicy::Default,
        Some(Timeout::Ai) => TimeoutPolicy::Ai,
        Some(Timeout::Forfeit) => TimeoutPolicy::Forfeit,
        None => data.settings.timeout_policy,
    };
    let (user, name) = user_of(&ctx);
    let deadline_chosen = deadline.is_some();
    let req = NewGame {
        kind: kind_name.to_string(),
        guild_id: Some(guild.to_string()),
        channel_id: ctx.channel_id().to_string(),
        creator_id: user,
        creator_name: name,
        options,
        seed: seed.map(|s| s as u64),
        turn_seconds: Some(turn_seconds),
        timeout_policy: policy,
        creator_plays: play.unwrap_or(true),
    };
    let id = data
        .host(move |h| {
            let creator = req.creator_id.clone();
            if let Some(rules) = &rules {
                h.check_game_rules(&req.kind, &req.options, rules)?;
            }
            let id = h.create_game_in_server(req, deadline_chosen)?;
            if let Some(rules) = rules {
                h.set_game_rules(id, &creator, rules)?;
            }
            Ok(id)
        })
        .await?;
    say(
        ctx,
        format!("Created {kind_name} #{id}. The lobby is posted in the channel: others join with its **Join** button; **Start** when every seat is taken. Once started, the game is played in a thread of its own."),
    )
    .await
}

/// Take a seat in this channel's game
#[poise::command(slash_command)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Seat number (default: the first free one)"] seat: Option<u32>,
) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, name) = user_of(&ctx);
    let id = g.id;
    let seat = seat.map(|s| (s as usize).saturating_sub(1));
    let s = ctx
        .data()
        .host(move |h| h.join(id, &user, &name, seat))
        .await?;
    say(
        ctx,
        format!("You sit in seat {} of {}.", s + 1, game_label(&g)),
    )
    .await
}

/// Leave this channel's game before it starts
#[poise::command(slash_command)]
pub async fn leave(ctx: Context<'_>) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    ctx.data().host(move |h| h.leave(id, &user)).await?;
    say(ctx, format!("You left {}.", game_label(&g))).await
}

/// Put an AI in a seat of this channel's game (creator only)
#[poise::command(slash_command)]
pub async fn ai(
    ctx: Context<'_>,
    #[description = "Seat number (default: the first free one)"] seat: Option<u32>,
    #[description = "AI level, or ~1500 for the level rated nearest 1500 (default: the game's default)"]
    level: Option<String>,
) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    let seat = seat.map(|s| (s as usize).saturating_sub(1));
    let s = ctx
        .data()
        .host(move |h| h.add_ai(id, &user, level.as_deref(), seat))
        .await?;
    say(
        ctx,
        format!("An AI takes seat {} of {}.", s + 1, game_label(&g)),
    )
    .await
}

/// Start this channel's game once every seat is taken (creator only)
#[poise::command(slash_command)]
pub async fn start(ctx: Context<'_>) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    ctx.data().host(move |h| h.start(id, &user)).await?;
    say(ctx, format!("{} has started.", game_label(&g))).await
}

/// Stop this channel's game without a result (its creator or a game master)
#[poise::command(slash_command)]
pub async fn abort(ctx: Context<'_>) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    // The creator aborts their own game as a player; a game master (Manage
    // Server or the server's role) anyone's, and the channel is told who.
    let master = match g.creator_id == user {
        true => None,
        false => game_master_name(&ctx, &g).await?,
    };
    ctx.data()
        .host(move |h| match master {
            Some(name) => h.abort_as_game_master(id, &name),
            None => h.abort(id, &user, false),
        })
        .await?;
    say(ctx, format!("{} is aborted.", game_label(&g))).await
}
