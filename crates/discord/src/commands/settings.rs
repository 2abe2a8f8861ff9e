//! `/settings`: a server's settings — the channels where games may be
//! created, the game-master role, per-kind defaults and the daily Diplomacy
//! deadline. Everyone in the server may read them (`/settings show`).
//!
//! Who may change them: members with Manage Server or Administrator, and
//! the server's game masters (members with its game-master role), except
//! that only Manage Server or Administrator may choose the game-master
//! role itself, so a game master cannot make others game masters or take
//! the role away from the server's managers.

use crate::BotError;
use crate::Context;
use crate::commands::shared::{Authority, LanguageChoice, authority, parse_duration, say};
use crate::reader::reader_lang;
use crate::ui::settings::{DefaultsChange, settings_text};
use host::DailyDeadline;
use i18n::{Message, msg, render};
use poise::serenity_prelude as serenity;

/// What `/settings channels` does.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ChannelAction {
    /// List the channel as one where games may be created.
    #[name = "add"]
    Add,
    /// Take the channel off the list.
    #[name = "remove"]
    Remove,
    /// Empty the list: games may be created in every channel.
    #[name = "clear"]
    Clear,
}

/// This server's settings: where games are made, game masters, defaults, daily deadline
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "show",
        "channels",
        "game_master",
        "defaults",
        "daily_deadline",
        "language"
    ),
    subcommand_required
)]
pub async fn settings(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Show this server's settings (only you see them)
#[poise::command(slash_command, guild_only)]
pub async fn show(ctx: Context<'_>) -> Result<(), BotError> {
    let guild = guild_of(&ctx)?;
    let settings = ctx.data().host(move |h| h.server_settings(&guild)).await?;
    say(ctx, settings_text(&settings)).await
}

/// Choose the channels where games may be created (Manage Server or game master)
#[poise::command(slash_command, guild_only)]
pub async fn channels(
    ctx: Context<'_>,
    #[description = "add, remove, or clear (games anywhere again)"] action: ChannelAction,
    #[description = "The channel (default: this one)"] channel: Option<serenity::ChannelId>,
) -> Result<(), BotError> {
    require_settings_changer(&ctx, "settings-what-channels").await?;
    let guild = guild_of(&ctx)?;
    let channel = channel.unwrap_or(ctx.channel_id()).to_string();
    let shown = format!("<#{channel}>");
    let text = ctx
        .data()
        .host(move |h| {
            Ok(match action {
                ChannelAction::Add if h.add_game_channel(&guild, &channel)? => {
                    format!("Games may be created in {shown} now.")
                }
                ChannelAction::Add => format!("{shown} was already on the list."),
                ChannelAction::Remove if h.remove_game_channel(&guild, &channel)? => {
                    format!("{shown} is off the list.")
                }
                ChannelAction::Remove => format!("{shown} was not on the list."),
                ChannelAction::Clear => {
                    h.clear_game_channels(&guild)?;
                    "The list is empty: games may be created in every channel.".to_string()
                }
            })
        })
        .await?;
    let guild = guild_of(&ctx)?;
    let settings = ctx.data().host(move |h| h.server_settings(&guild)).await?;
    let now = crate::ui::settings::channels_line(&settings.game_channels);
    say(ctx, format!("{text}\n{now}")).await
}

/// Choose the role whose members are game masters (Manage Server only)
#[poise::command(slash_command, guild_only, rename = "game-master")]
pub async fn game_master(
    ctx: Context<'_>,
    #[description = "The role (leave out to have no game-master role)"] role: Option<
        serenity::RoleId,
    >,
) -> Result<(), BotError> {
    if authority(&ctx).await? != Authority::Manager {
        return Err(BotError::user(
            "Only members with Manage Server (or Administrator) choose the game-master role.",
        ));
    }
    let guild = guild_of(&ctx)?;
    let role = role.map(|r| r.to_string());
    let text = match &role {
        Some(r) => format!(
            "Members with <@&{r}> are game masters now: they may abort, extend, pause, \
             resume and give away seats of any game here, and change these settings (not \
             this role)."
        ),
        None => "There is no game-master role now; members with Manage Server are the \
                 game masters."
            .to_string(),
    };
    ctx.data()
        .host(move |h| h.set_game_master_role(&guild, role.as_deref()))
        .await?;
    say(ctx, text).await
}

/// Set a kind's default deadline or AI level here (Manage Server or game master)
#[poise::command(slash_command, guild_only)]
pub async fn defaults(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "crate::commands::shared::kinds"]
    kind: String,
    #[description = "Default time per turn, e.g. 10m, 1d (0 = none, reset = the bot's default)"]
    deadline: Option<String>,
    #[description = "Default AI level, or ~1500 (reset = the game's default)"] ai_level: Option<
        String,
    >,
) -> Result<(), BotError> {
    require_settings_changer(&ctx, "settings-what-defaults").await?;
    if deadline.is_none() && ai_level.is_none() {
        return Err(BotError::user(
            "Give `deadline`, `ai_level` or both; `reset` puts one back to the default.",
        ));
    }
    let guild = guild_of(&ctx)?;
    let deadline = match deadline.as_deref().map(str::trim) {
        None => None,
        Some("reset") => Some(None),
        Some(d) => Some(Some(parse_duration(d)?)),
    };
    let level = ai_level.map(|l| l.trim().to_string());
    let (kind, level) = ctx
        .data()
        .host(move |h| {
            let kind = h.registry().get(&kind)?.name;
            if let Some(secs) = deadline {
                h.set_default_deadline(&guild, kind, secs)?;
            }
            let level = match level.as_deref() {
                None => None,
                Some("reset") => Some(h.set_default_ai_level(&guild, kind, None)?),
                Some(l) => Some(h.set_default_ai_level(&guild, kind, Some(l))?),
            };
            Ok((kind, level))
        })
        .await?;
    say(
        ctx,
        crate::ui::settings::defaults_changed(&DefaultsChange {
            kind,
            deadline,
            ai_level: level,
        }),
    )
    .await
}

/// End every Diplomacy phase at a time of day here (Manage Server or game master)
#[poise::command(slash_command, guild_only, rename = "daily-deadline")]
pub async fn daily_deadline(
    ctx: Context<'_>,
    #[description = "HH:MM on the 24-hour clock, e.g. 20:00, or off"] time: String,
    #[description = "IANA time zone, e.g. Europe/Berlin (default: the one set before)"]
    zone: Option<String>,
) -> Result<(), BotError> {
    require_settings_changer(&ctx, "settings-what-daily").await?;
    let guild = guild_of(&ctx)?;
    let daily = if time.trim().eq_ignore_ascii_case("off") {
        None
    } else {
        let earlier = {
            let guild = guild.clone();
            ctx.data()
                .host(move |h| h.server_settings(&guild))
                .await?
                .daily_deadline
        };
        let zone = match (zone, earlier) {
            (Some(z), _) => z,
            (None, Some(d)) => d.zone_name().to_string(),
            (None, None) => {
                return Err(BotError::user(
                    "Name the time zone too, e.g. `zone:Europe/Berlin` or `zone:America/New_York`.",
                ));
            }
        };
        Some(DailyDeadline::parse(&time, &zone).map_err(BotError::user)?)
    };
    ctx.data()
        .host(move |h| h.set_daily_deadline(&guild, daily))
        .await?;
    say(ctx, crate::ui::settings::daily_changed(daily.as_ref())).await
}

/// The language of this server's channels and threads (Manage Server or game master)
#[poise::command(slash_command, guild_only)]
pub async fn language(
    ctx: Context<'_>,
    #[description = "english, japanese, or auto (the server's own language)"]
    language: LanguageChoice,
) -> Result<(), BotError> {
    require_settings_changer(&ctx, "settings-what-language").await?;
    let guild = guild_of(&ctx)?;
    let chosen = language.lang();
    let guild_locale = guild_locale_of(&ctx);
    let lang = ctx
        .data()
        .host(move |h| {
            h.choose_server_language(&guild, chosen)?;
            h.server_language(&guild, guild_locale.as_deref())
        })
        .await?;
    let text = match chosen {
        Some(chosen) => msg!("language-set-server", lang = chosen.native_name()),
        None => msg!("language-auto-server", lang = lang.native_name()),
    };
    say(ctx, render(reader_lang(&ctx).await, &text)).await
}

/// The server's own locale as Discord sent it with this interaction.
fn guild_locale_of(ctx: &Context<'_>) -> Option<String> {
    match ctx {
        poise::Context::Application(a) => a.interaction.guild_locale.clone(),
        _ => None,
    }
}

/// The server the command was used in, as the host names it.
fn guild_of(ctx: &Context<'_>) -> Result<String, BotError> {
    ctx.guild_id()
        .map(|g| g.to_string())
        .ok_or_else(|| BotError::said(msg!("error-settings-outside-server")))
}

/// Refuses a member who is neither a manager nor a game master; `what`
/// is the catalogue id of what they tried (`settings-what-channels`).
async fn require_settings_changer(ctx: &Context<'_>, what: &str) -> Result<(), BotError> {
    match authority(ctx).await? {
        Authority::Manager | Authority::GameMaster => Ok(()),
        Authority::Member => Err(BotError::said(msg!(
            "error-settings-not-allowed",
            what = Message::new(what)
        ))),
    }
}
