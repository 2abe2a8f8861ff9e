//! `/game list`, `history`, `replay`: the games of a server and what happened in them.

use crate::BotError;
use crate::Context;
use crate::commands::shared::has_press;
use crate::commands::shared::played_in;
use crate::commands::shared::say;
use crate::commands::shared::shown_game;
use crate::commands::shared::user_of;
use crate::ui::messages;
use crate::ui::replay::draw;
use crate::ui::text::describe_history;
use host::GameStatus;
use host::game_label;

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
    let press = if has_press(&ctx, &g.kind)
        && matches!(g.status, GameStatus::Finished | GameStatus::Aborted)
    {
        format!("The press of this game: `/game press id:{}`.\n", g.id)
    } else {
        String::new()
    };
    if h.total == 0 {
        let text = format!("{} has no resolved turns yet.\n{press}", game_label(&g));
        return say(ctx, played_in(&ctx, &g, text)).await;
    }
    let text = played_in(&ctx, &g, describe_history(&game_label(&g), &h) + &press);
    // A page of long reports (Diplomacy) takes several messages, not a cut.
    for part in messages::split(&text, messages::MAX_CONTENT) {
        ctx.send(messages::reply(part).ephemeral(true)).await?;
    }
    Ok(())
}

/// A Diplomacy game's replay as an animated map, phase by phase
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    let channel = ctx.channel_id().to_string();
    let g = ctx
        .data()
        .host(move |h| match id {
            Some(id) => h.game(id).map(Some),
            // After the end, the channel's game is the last one that ended there.
            None => h.shown_game_in_channel(&channel),
        })
        .await?
        .ok_or_else(|| {
            BotError::user("There is no game in this channel; give a game id (`/game list`).")
        })?;
    if !render::replay::has_replay(&g.kind) {
        return Err(BotError::user(format!(
            "{} #{} has no replay: only Diplomacy games have one (its map, phase by phase).",
            g.kind, g.id
        )));
    }
    // Fog of War: the replay opens at the end (refused before deferring).
    let gid = g.id;
    ctx.data().host(move |h| h.check_replay_open(gid)).await?;
    // Drawing every phase takes seconds: past Discord's three to answer.
    // Deferred only now, so a refusal above is the first answer and stays
    // ephemeral (after a public defer it would replace it in public).
    ctx.defer().await?;
    let r = draw(ctx.data().host.clone(), gid)
        .await
        .map_err(|e| BotError::user(format!("Cannot draw the replay of game #{gid}: {e}")))?;
    ctx.send(messages::reply(r.text).attachment(r.file)).await?;
    Ok(())
}
