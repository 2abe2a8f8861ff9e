//! `/game leaderboard` and `/game profile`: ratings, results and
//! reliability in this server; and the rating options of `/game new`.

use crate::BotError;
use crate::Context;
use crate::commands::shared::kinds;
use crate::ui::messages;
use crate::ui::text::mention;
use host::{KindProfile, Leaderboard, LeaderboardEntry, Profile};
use poise::serenity_prelude as serenity;

async fn reply(ctx: Context<'_>, text: String) -> Result<(), BotError> {
    for part in messages::split(text.trim_end(), messages::MAX_CONTENT) {
        ctx.send(messages::reply(part).ephemeral(true)).await?;
    }
    Ok(())
}

/// Ratings in this server: the top 10 of a game and your place
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game (default: every rated game, top 3 each)"]
    #[autocomplete = "kinds"]
    kind: Option<String>,
    #[description = "Page of 10, from 1"] page: Option<u32>,
) -> Result<(), BotError> {
    let guild = ctx.guild_id().map(|g| g.to_string());
    let viewer = ctx.author().id.to_string();
    let boards = ctx
        .data()
        .host(move |h| {
            let kinds = match kind {
                Some(k) => vec![k],
                None => h.rated_kinds(guild.as_deref())?,
            };
            kinds
                .iter()
                .map(|k| h.leaderboard(guild.as_deref(), k, page.unwrap_or(1), Some(&viewer)))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    if boards.is_empty() {
        return reply(
            ctx,
            "Nobody is rated in this server yet. Games between people are rated when they end; \
             start one with `/game new`."
                .into(),
        )
        .await;
    }
    let text = if boards.len() == 1 {
        describe_leaderboard(&boards[0], usize::MAX)
    } else {
        let mut t = boards
            .iter()
            .map(|b| describe_leaderboard(b, 3))
            .collect::<Vec<_>>()
            .join("\n");
        t.push_str("\nThe full list of a game: `/game leaderboard kind:<game>`.");
        t
    };
    reply(ctx, text).await
}

/// A player's name on a board: a mention, or the AI level.
fn player_name(player: &str) -> String {
    match player.strip_prefix("ai:") {
        Some(level) => format!("AI ({level})"),
        None => mention(player),
    }
}

fn entry_line(e: &LeaderboardEntry) -> String {
    format!(
        "{}. {} {:.0} ± {:.0} ({} game{})",
        e.place,
        player_name(&e.player),
        e.rating,
        e.deviation,
        e.games,
        if e.games == 1 { "" } else { "s" }
    )
}

/// A leaderboard page as text, at most `top` lines of it.
pub fn describe_leaderboard(b: &Leaderboard, top: usize) -> String {
    let mut s = format!(
        "**{} leaderboard** (page {} of {}, {} rated player{})\n",
        b.kind,
        b.page,
        b.pages,
        b.total,
        if b.total == 1 { "" } else { "s" }
    );
    if b.entries.is_empty() {
        s.push_str("Nobody is rated in this game here yet.\n");
    }
    for e in b.entries.iter().take(top) {
        s.push_str(&entry_line(e));
        s.push('\n');
    }
    match &b.viewer {
        Some(v) => s.push_str(&format!(
            "You: place {} of {}, {:.0} ± {:.0}.\n",
            v.place, b.total, v.rating, v.deviation
        )),
        None => s.push_str(&format!("You are not rated in {} here yet.\n", b.kind)),
    }
    s
}

/// Your ratings, results and reliability in this server (or another player's)
#[poise::command(slash_command)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<serenity::User>,
) -> Result<(), BotError> {
    let guild = ctx.guild_id().map(|g| g.to_string());
    let who = user.as_ref().unwrap_or(ctx.author()).id.to_string();
    let p = ctx
        .data()
        .host(move |h| h.profile(guild.as_deref(), &who))
        .await?;
    reply(ctx, describe_profile(&p)).await
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn kind_line(k: &KindProfile) -> String {
    let rating = match (k.rating, k.place) {
        (Some((r, d)), Some(p)) => format!("{r:.0} ± {d:.0}, place {p}"),
        (Some((r, d)), None) => format!("{r:.0} ± {d:.0}"),
        _ => "unrated".to_string(),
    };
    let streak = match k.streak {
        0 => String::new(),
        n if n > 0 => format!(" · streak: {}", plural(n as u32, "win", "wins")),
        n => format!(" · streak: {}", plural(n.unsigned_abs(), "loss", "losses")),
    };
    let score = k
        .mean_score
        .map(|s| format!(" · mean score {s:.1}"))
        .unwrap_or_default();
    format!(
        "**{}**: {rating} · {}: {}, {}, {}, {}{streak}{score}",
        k.kind,
        plural(k.games, "game", "games"),
        plural(k.wins, "win", "wins"),
        plural(k.draws, "draw", "draws"),
        plural(k.losses, "loss", "losses"),
        plural(k.forfeits, "forfeit", "forfeits"),
    )
}

/// Where the player stands against each AI level: the level's ladder
/// rating and the player's expected score against it.
pub fn ladder_line(ladder: &[host::LevelStanding]) -> Option<String> {
    if ladder.is_empty() {
        return None;
    }
    let levels: Vec<String> = ladder
        .iter()
        .map(|l| format!("{} {:.0} ({:.0}%)", l.level, l.rating, l.expected * 100.0))
        .collect();
    Some(format!(
        "  vs AI levels (ladder rating, your expected score): {}",
        levels.join(", ")
    ))
}

/// A profile as text.
pub fn describe_profile(p: &Profile) -> String {
    let mut s = format!("**Profile of {}** in this server\n", mention(&p.user_id));
    if p.kinds.is_empty() {
        s.push_str("No finished games here yet.\n");
    }
    for k in &p.kinds {
        s.push_str(&kind_line(k));
        s.push('\n');
        if let Some(line) = ladder_line(&k.ai_ladder) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    let r = &p.reliability;
    s.push_str(&format!(
        "Reliability: {}% ({} in {}, {})\n",
        r.percent,
        plural(r.missed_deadlines, "missed deadline", "missed deadlines"),
        plural(r.turns_awaited, "turn", "turns"),
        plural(r.civil_disorders, "civil disorder", "civil disorders"),
    ));
    if !p.recent.is_empty() {
        s.push_str("Recent games:\n");
    }
    for g in &p.recent {
        let change = g
            .change
            .map(|(b, a)| format!(", {b:.0} → {a:.0} ({:+.0})", a.round() - b.round()))
            .unwrap_or_else(|| ", unrated".to_string());
        let score = g
            .score
            .map(|x| format!(", score {x:.1}"))
            .unwrap_or_default();
        let link = match &g.guild_id {
            Some(guild) => format!(
                "[{} #{}](https://discord.com/channels/{guild}/{})",
                g.kind, g.game_id, g.channel_id
            ),
            None => format!("{} #{}", g.kind, g.game_id),
        };
        s.push_str(&format!(
            "• {link} <t:{}:R>: {}{score}{change}\n",
            g.ended_at.div_euclid(1000),
            g.result
        ));
    }
    s
}

/// Whether games with AI seats are rated in this server (Manage Server to change)
#[poise::command(slash_command)]
pub async fn ratings(
    ctx: Context<'_>,
    #[description = "Rate games with AI seats, and the AI levels in them"] ai_seats: bool,
) -> Result<(), BotError> {
    let Some(guild) = ctx.guild_id().map(|g| g.to_string()) else {
        return Err(BotError::user("Ratings are per server; use this in one."));
    };
    if !crate::commands::shared::is_moderator(&ctx) {
        return Err(BotError::user(
            "Only members with Manage Server choose how this server rates games.",
        ));
    }
    ctx.data()
        .host(move |h| h.set_rate_ai_seats(Some(&guild), ai_seats))
        .await?;
    reply(
        ctx,
        if ai_seats {
            "Games with AI seats are now rated in this server; each AI level gets a rating of its own."
        } else {
            "Only games between people are rated in this server now."
        }
        .to_string(),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_shows_each_ai_levels_ladder_rating_and_the_expected_score() {
        let standing = |level: &str, rating, expected| host::LevelStanding {
            level: level.into(),
            rating,
            expected,
        };
        let kind = KindProfile {
            kind: "cards".into(),
            rating: Some((1600.0, 80.0)),
            place: Some(1),
            games: 3,
            wins: 2,
            draws: 0,
            losses: 1,
            forfeits: 0,
            streak: 1,
            mean_score: None,
            ai_ladder: vec![
                standing("exact", 1811.6, 0.2304),
                standing("random", 1000.0, 0.97),
            ],
        };
        let p = Profile {
            user_id: "42".into(),
            kinds: vec![kind.clone()],
            reliability: host::Reliability {
                turns_awaited: 0,
                missed_deadlines: 0,
                civil_disorders: 0,
                percent: 100,
            },
            recent: Vec::new(),
        };
        let text = describe_profile(&p);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[1].starts_with("**cards**: 1600 ± 80, place 1"),
            "{text}"
        );
        assert_eq!(
            lines[2],
            "  vs AI levels (ladder rating, your expected score): exact 1812 (23%), random 1000 (97%)"
        );
        // No ladder (a kind it does not measure): no line.
        let bare = Profile {
            kinds: vec![KindProfile {
                ai_ladder: Vec::new(),
                ..kind
            }],
            ..p
        };
        assert!(!describe_profile(&bare).contains("vs AI levels"));
    }
}
