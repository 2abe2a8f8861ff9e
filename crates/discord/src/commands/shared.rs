//! What the commands share: finding the game a command is about, who is
//! asking, replying, and the options several commands parse.

use crate::BotError;
use crate::Context;
use crate::ui::messages;
use host::GameRow;
use host::game_label;
use host::{GameRules, Scoring};
use poise::serenity_prelude as serenity;

/// Autocompletes a kind of game from the registry's names.
pub(crate) async fn kinds<'a>(
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
                "`{}` is not a duration; try `90s`, `10m`, `2h`, `1d` or `0` for none.",
                games::clip::clip_typed(&s)
            ))
        })
}

pub(crate) fn user_of(ctx: &Context<'_>) -> (String, String) {
    let member = match ctx {
        poise::Context::Application(a) => a.interaction.member.as_deref(),
        _ => None,
    };
    (
        ctx.author().id.to_string(),
        crate::ui::messages::display_name(ctx.author(), member),
    )
}

/// Whether the caller may manage the server (moderators and admins).
pub(crate) fn is_moderator(ctx: &Context<'_>) -> bool {
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

/// What a member may do to a server's settings and games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Authority {
    /// Manage Server or Administrator: everything, the game-master role too.
    Manager,
    /// The server's game-master role: its settings (not that role) and
    /// every game of the server.
    GameMaster,
    /// Anyone else.
    Member,
}

/// The caller's authority in the server the command was used in (outside
/// a server: none).
pub(crate) async fn authority(ctx: &Context<'_>) -> Result<Authority, BotError> {
    if is_moderator(ctx) {
        return Ok(Authority::Manager);
    }
    let roles: Vec<String> = match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let Some(guild) = ctx.guild_id().map(|g| g.to_string()) else {
        return Ok(Authority::Member);
    };
    if roles.is_empty() {
        return Ok(Authority::Member);
    }
    let role = ctx
        .data()
        .host(move |h| Ok(h.server_settings(&guild)?.game_master_role))
        .await?;
    Ok(match role {
        Some(r) if roles.contains(&r) => Authority::GameMaster,
        _ => Authority::Member,
    })
}

/// The caller's display name when they are a game master (Manage Server,
/// Administrator or the game-master role) of the server game `g` belongs
/// to, asked from that server.
pub(crate) async fn game_master_name(
    ctx: &Context<'_>,
    g: &GameRow,
) -> Result<Option<String>, BotError> {
    let here = ctx.guild_id().map(|id| id.to_string());
    if here.is_none() || g.guild_id != here {
        return Ok(None);
    }
    Ok(match authority(ctx).await? {
        Authority::Manager | Authority::GameMaster => Some(user_of(ctx).1),
        Authority::Member => None,
    })
}

pub(crate) async fn say(ctx: Context<'_>, text: impl Into<String>) -> Result<(), BotError> {
    ctx.send(messages::reply(messages::clip(&text.into(), messages::MAX_CONTENT)).ephemeral(true))
        .await?;
    ctx.data().wake.all();
    Ok(())
}

/// The game of this channel, or a user error.
pub(crate) async fn channel_game(ctx: &Context<'_>) -> Result<GameRow, BotError> {
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
pub(crate) fn no_game_here(moved: &[GameRow]) -> String {
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
pub(crate) async fn target_game(ctx: &Context<'_>, id: Option<i64>) -> Result<GameRow, BotError> {
    match id {
        Some(id) => Ok(ctx.data().host(move |h| h.game(id)).await?),
        None => channel_game(ctx).await,
    }
}

/// The game a command shows (status, history): `#id` if given, else this
/// channel's, or the last one that ended here.
pub(crate) async fn shown_game(ctx: &Context<'_>, id: Option<i64>) -> Result<GameRow, BotError> {
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

/// `text` led by where the game is played when that is not where the
/// command was typed (the channel a thread game started in, or a game
/// named by id): first, so a clip never cuts it. Only a Discord channel is
/// linked (a terminal game's is not one).
pub(crate) fn played_in(ctx: &Context<'_>, g: &GameRow, text: String) -> String {
    let discord_channel = g.channel_id.parse::<u64>().is_ok_and(|c| c != 0);
    if discord_channel && g.channel_id != ctx.channel_id().to_string() {
        format!("Played in <#{}>.\n{text}", g.channel_id)
    } else {
        text
    }
}

/// How a game with more than two seats (Diplomacy) shares its points.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ScoringOption {
    /// A draw is split equally among the powers in it.
    #[name = "draw-size (DSS)"]
    DrawSize,
    /// A draw is split by supply centres squared.
    #[name = "sum-of-squares (SoS)"]
    SumOfSquares,
    /// Only a solo scores.
    #[name = "solo-only"]
    SoloOnly,
}

/// The rules `/game new` asks for, or `None` when it gives none of them.
pub fn rules_of(
    rated: Option<bool>,
    scoring: Option<ScoringOption>,
    min_reliability: Option<u32>,
) -> Result<Option<GameRules>, BotError> {
    if rated.is_none() && scoring.is_none() && min_reliability.is_none() {
        return Ok(None);
    }
    let min_reliability = match min_reliability {
        Some(m) if m > 100 => {
            return Err(BotError::user(format!(
                "`min_reliability` is a percentage from 0 to 100, not {m}."
            )));
        }
        m => m.map(|m| m as u8),
    };
    Ok(Some(GameRules {
        rated: rated.unwrap_or(true),
        scoring: scoring.map(|s| match s {
            ScoringOption::DrawSize => Scoring::DrawSize,
            ScoringOption::SumOfSquares => Scoring::SumOfSquares,
            ScoringOption::SoloOnly => Scoring::SoloOnly,
        }),
        min_reliability,
    }))
}

/// Whether players of `kind` write press (`Game::HAS_PRESS`).
pub fn has_press(ctx: &Context<'_>, kind: &str) -> bool {
    ctx.data()
        .host
        .registry()
        .get(kind)
        .is_ok_and(|k| k.has_press)
}

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
