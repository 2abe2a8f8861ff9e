//! `/game`: create a game in this channel, seats, AI, start, abort, forfeit,
//! status, list and history. Public posts come from the outbox; replies here
//! are short and ephemeral.

use super::leaderboard::{ScoringOption, leaderboard, profile, ratings, rules_of};
use super::pause::{away, describe_leave, pause, resume};
use super::press::{game_press, watch};
use super::replay::replay;
use super::{BotError, Context, components, messages};
use host::{GameRow, GameStatus, Occupant, TimeoutPolicy};
use host::{GameView, HistoryPage, HostError, NewGame, game_label};
use poise::serenity_prelude as serenity;

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

/// Games: create, join, play and manage the game of this channel.
#[poise::command(
    slash_command,
    subcommands(
        "new",
        "join",
        "leave",
        "ai",
        "start",
        "abort",
        "forfeit",
        "status",
        "list",
        "history",
        "takeover",
        "extend",
        "pause",
        "resume",
        "away",
        "leaderboard",
        "profile",
        "ratings",
        "replay",
        "game_press",
        "watch"
    ),
    subcommand_required
)]
pub async fn game(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Autocompletes a kind of game from the registry's names.
pub(super) async fn kinds<'a>(
    ctx: Context<'a>,
    partial: &'a str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.to_ascii_lowercase();
    let choices = ctx
        .data()
        .host
        .registry()
        .names()
        .into_iter()
        .filter(|n| n.starts_with(&p))
        .map(|n| serenity::AutocompleteChoice::new(n, n))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Parses a duration like `90s`, `10m`, `2h`, `1d` or plain seconds.
pub fn parse_duration(s: &str) -> Result<u64, BotError> {
    let s = s.trim().to_ascii_lowercase();
    let (num, mult) = match s.chars().last() {
        Some('s') => (&s[..s.len() - 1], 1),
        Some('m') => (&s[..s.len() - 1], 60),
        Some('h') => (&s[..s.len() - 1], 3600),
        Some('d') => (&s[..s.len() - 1], 86_400),
        _ => (s.as_str(), 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| {
            BotError::user(format!(
                "`{s}` is not a duration; try `90s`, `10m`, `2h`, `1d` or `0` for none."
            ))
        })
}

pub(super) fn user_of(ctx: &Context<'_>) -> (String, String) {
    let member = match ctx {
        poise::Context::Application(a) => a.interaction.member.as_deref(),
        _ => None,
    };
    (
        ctx.author().id.to_string(),
        components::display_name(ctx.author(), member),
    )
}

fn is_moderator(ctx: &Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild() || p.administrator()),
        _ => false,
    }
}

pub(super) async fn say(ctx: Context<'_>, text: impl Into<String>) -> Result<(), BotError> {
    ctx.send(messages::reply(messages::clip(&text.into(), messages::MAX_CONTENT)).ephemeral(true))
        .await?;
    ctx.data().wake.all();
    Ok(())
}

/// The game of this channel, or a user error.
async fn channel_game(ctx: &Context<'_>) -> Result<GameRow, BotError> {
    let channel = ctx.channel_id().to_string();
    let found = ctx
        .data()
        .host(move |h| {
            Ok(match h.game_in_channel(&channel)? {
                Some(g) => Ok(g),
                None => Err(h.games_moved_from_channel(&channel, MOVED_SHOWN + 1)?),
            })
        })
        .await?;
    found.map_err(|moved| BotError::user(no_game_here(&moved)))
}

/// How many games that moved to their threads a "no game here" answer names.
const MOVED_SHOWN: u32 = 5;

/// The answer when a channel has no game of its own: the games created
/// here that are played in their threads now, where their commands work.
fn no_game_here(moved: &[GameRow]) -> String {
    if moved.is_empty() {
        return "There is no game in this channel. Start one with `/game new`.".into();
    }
    let mut lines: Vec<String> = moved
        .iter()
        .take(MOVED_SHOWN as usize)
        .map(|g| format!("• {} in <#{}>", game_label(g), g.channel_id))
        .collect();
    if moved.len() > MOVED_SHOWN as usize {
        lines.push("• and more: `/game list` shows them all".into());
    }
    format!(
        "There is no game in this channel itself. Games started here are played in \
         their threads; type a game's commands in its thread:\n{}\nStart another here \
         with `/game new`.",
        lines.join("\n")
    )
}

/// The game a command is about: `#id` if given, else this channel's.
pub(super) async fn target_game(ctx: &Context<'_>, id: Option<i64>) -> Result<GameRow, BotError> {
    match id {
        Some(id) => Ok(ctx.data().host(move |h| h.game(id)).await?),
        None => channel_game(ctx).await,
    }
}

/// The game a command shows (status, history): `#id` if given, else this
/// channel's, or the last one that ended here.
async fn shown_game(ctx: &Context<'_>, id: Option<i64>) -> Result<GameRow, BotError> {
    if let Some(id) = id {
        return ctx.data().host(move |h| h.game(id)).await;
    }
    let channel = ctx.channel_id().to_string();
    ctx.data()
        .host(move |h| h.shown_game_in_channel(&channel))
        .await?
        .ok_or_else(|| {
            BotError::user(
                "No game has been played in this channel. Start one with `/game new`, \
                 or give a game id (`/game list`).",
            )
        })
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
    let options = super::options::parse_game_options(options.as_deref().unwrap_or(""))
        .map_err(BotError::user)?;
    let policy = match timeout {
        Some(Timeout::Default) => TimeoutPolicy::Default,
        Some(Timeout::Ai) => TimeoutPolicy::Ai,
        Some(Timeout::Forfeit) => TimeoutPolicy::Forfeit,
        None => data.settings.timeout_policy,
    };
    let (user, name) = user_of(&ctx);
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
            let id = h.create_game(req)?;
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

/// Stop this channel's game without a result (creator or Manage Server)
#[poise::command(slash_command)]
pub async fn abort(ctx: Context<'_>) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let moderator = is_moderator(&ctx);
    let id = g.id;
    ctx.data()
        .host(move |h| h.abort(id, &user, moderator))
        .await?;
    say(ctx, format!("{} is aborted.", game_label(&g))).await
}

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
    let (mut text, rows) = components::show(ctx.data(), g.id, &user).await?;
    // Asked from elsewhere (the channel a thread game started in, or by
    // id): say where the game is played, first, so a clip never cuts it.
    // Only a Discord channel is linked (a terminal game's is not one).
    let discord_channel = g.channel_id.parse::<u64>().is_ok_and(|c| c != 0);
    if discord_channel && g.channel_id != ctx.channel_id().to_string() {
        text = messages::clip(
            &format!("Played in <#{}>.\n{text}", g.channel_id),
            messages::MAX_CONTENT,
        );
    }
    let mut reply = messages::reply(text).ephemeral(true);
    if !rows.is_empty() {
        reply = reply.components(rows);
    }
    ctx.send(reply).await?;
    Ok(())
}

/// Games in this server (lobbies and running games)
#[poise::command(slash_command)]
pub async fn list(ctx: Context<'_>) -> Result<(), BotError> {
    let guild = ctx.guild_id().map(|g| g.to_string());
    let games = ctx
        .data()
        .host(move |h| {
            h.list_games(
                guild.as_deref(),
                &[GameStatus::Lobby, GameStatus::Running],
                25,
            )
        })
        .await?;
    if games.is_empty() {
        return say(ctx, "No games here yet. Start one with `/game new`.").await;
    }
    let lines: Vec<String> = games
        .iter()
        .map(|g| {
            format!(
                "• {} in <#{}>: {}, turn {}",
                game_label(g),
                g.channel_id,
                g.status.as_str(),
                g.turn
            )
        })
        .collect();
    say(ctx, lines.join("\n")).await
}

/// The turn log of a game, 10 turns a page
#[poise::command(slash_command)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Page, from 1 (default: 1, the first turns)"] page: Option<u32>,
    #[description = "Game id (default: this channel's, or the last one played here)"] id: Option<
        i64,
    >,
) -> Result<(), BotError> {
    let g = shown_game(&ctx, id).await?;
    let gid = g.id;
    let (user, _) = user_of(&ctx);
    // A story reads from its beginning: page 1 first, the newest turn last.
    let page = Some(page.unwrap_or(1));
    let h = ctx
        .data()
        .host(move |h| h.history(gid, page, Some(&user)))
        .await?;
    // The press is part of the game's story once it is over (sealed before).
    let press = if g.kind == "diplomacy"
        && matches!(g.status, GameStatus::Finished | GameStatus::Aborted)
    {
        format!("The press of this game: `/game press id:{}`.\n", g.id)
    } else {
        String::new()
    };
    if h.total == 0 {
        return say(
            ctx,
            format!("{} has no resolved turns yet.\n{press}", game_label(&g)),
        )
        .await;
    }
    let text = describe_history(&game_label(&g), &h) + &press;
    // A page of long reports (Diplomacy) takes several messages, not a cut.
    for part in messages::split(&text, messages::MAX_CONTENT) {
        ctx.send(messages::reply(part).ephemeral(true)).await?;
    }
    Ok(())
}

/// A history page as text: each turn's time and public report, and what
/// the reader did in it (their own moves only; see `host::history`).
pub fn describe_history(label: &str, h: &HistoryPage) -> String {
    let mut text = format!("**{label}**, turns (page {} of {}):\n", h.page, h.pages);
    for t in &h.turns {
        text.push_str(&format!(
            "**{}.** <t:{}:f>\n{}\n",
            t.turn,
            t.resolved_at.div_euclid(1000),
            t.report.trim()
        ));
        for m in &t.moves {
            if let Some(a) = &m.action {
                let a = a.trim().replace('\n', "; ");
                text.push_str(&format!("> You ({}): `{}`\n", m.role, a.replace('`', "'")));
            }
        }
    }
    text
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

/// Ask for more time before this turn's deadline (if the game allows it; Diplomacy: once per phase)
#[poise::command(slash_command)]
pub async fn extend(ctx: Context<'_>) -> Result<(), BotError> {
    let g = channel_game(&ctx).await?;
    let (user, _) = user_of(&ctx);
    let id = g.id;
    let due = ctx
        .data()
        .host(move |h| h.extend_deadline(id, &user))
        .await?;
    say(
        ctx,
        format!(
            "The deadline of {} is now <t:{}:R>; the channel is told you asked.",
            game_label(&g),
            due / 1000
        ),
    )
    .await
}

/// A game as its viewer may see it, as text.
pub fn describe_view(v: &GameView) -> String {
    // Turns counted from 1 as the boards count them ("Turn 1 of 30").
    let progress = match v.status {
        GameStatus::Running => format!("running, turn {}", v.turn + 1),
        GameStatus::Lobby => "lobby".to_string(),
        status => format!(
            "{}, {} turn{} played",
            status.as_str(),
            v.turn,
            if v.turn == 1 { "" } else { "s" }
        ),
    };
    let mut s = format!("**{} #{}** ({progress})\n", v.kind, v.game_id);
    for seat in &v.seats {
        let who = match &seat.occupant {
            Occupant::User(u) => format!("<@{u}>"),
            Occupant::Ai(_) => seat.name.clone(),
        };
        let state = if seat.acted {
            " ✓ moved"
        } else if seat.awaited {
            " … to move"
        } else {
            ""
        };
        s.push_str(&format!("{}: {who}{state}\n", seat.role));
    }
    if let Some(d) = v.deadline {
        s.push_str(&format!("Deadline: <t:{}:R>\n", d / 1000));
    }
    s.push_str(&describe_leave(&v.leave));
    if let Some(p) = &v.own_pending {
        s.push_str(&format!("Your move so far: `{p}`\n"));
    }
    if let Some(view) = &v.view {
        s = messages::with_board(&s, Some(&view.board));
        s.push('\n');
        s.push_str(&view.status);
    }
    s
}

/// Mention of a user for messages.
pub fn mention(user: &str) -> String {
    match user.parse::<u64>() {
        Ok(id) if id != 0 => serenity::UserId::new(id).mention().to_string(),
        _ => user.to_string(),
    }
}

use serenity::Mentionable;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s").unwrap(), 90);
        assert_eq!(parse_duration("10m").unwrap(), 600);
        assert_eq!(parse_duration("2h").unwrap(), 7200);
        assert_eq!(parse_duration("1d").unwrap(), 86_400);
        assert_eq!(parse_duration("45").unwrap(), 45);
        assert!(parse_duration("soon").is_err());
    }
}
