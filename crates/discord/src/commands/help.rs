//! `/help`: what the user can do where they ask it (a DM, a channel with no
//! game, a lobby, a game), ephemeral.

use crate::BotError;
use crate::Context;
use crate::ui::help::{HelpPlace, MoveStyle, help_text};
use crate::ui::messages;
use host::{GameStatus, Host, HostError};

/// What you can do here (in a lobby, a game, a DM); only you see it
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    let user = ctx.author().id.to_string();
    let channel = ctx.channel_id().to_string();
    let in_dm = ctx.guild_id().is_none();
    let place = ctx
        .data()
        .host(move |h| help_place(h, in_dm, &channel, &user))
        .await?;
    ctx.send(messages::reply(help_text(&place)).ephemeral(true))
        .await?;
    Ok(())
}

/// Where `/help` was asked: a DM, or the state of this channel's game.
fn help_place(h: &Host, in_dm: bool, channel: &str, user: &str) -> Result<HelpPlace, HostError> {
    if in_dm {
        let games = h
            .games_of_user(user)?
            .iter()
            .filter(|g| g.status == GameStatus::Running)
            .map(host::game_label)
            .collect();
        return Ok(HelpPlace::Dm { games });
    }
    let Some(g) = h.game_in_channel(channel)? else {
        return Ok(HelpPlace::Channel {
            kinds: h.registry().names(),
        });
    };
    if g.status == GameStatus::Lobby {
        return Ok(HelpPlace::Lobby {
            label: host::game_label(&g),
            kind: g.kind,
        });
    }
    let playing = h.view(g.id, Some(user))?.viewer_seat.is_some();
    let entry = h.registry().get(&g.kind)?;
    let moves = match (entry.orders_by_line, entry.moves_in_channel) {
        (true, _) => MoveStyle::OrdersByLine,
        (false, true) => MoveStyle::InChannel,
        (false, false) => MoveStyle::ByDm,
    };
    Ok(HelpPlace::Game {
        label: host::game_label(&g),
        kind: g.kind,
        playing,
        moves,
        has_press: entry.has_press,
        rules_fit_the_reader: entry.rules_fit_the_reader,
    })
}
