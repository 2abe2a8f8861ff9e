//! `/game pause`, `/game resume` and `/game away`: the host decides who may
//! and what happens (see the host's `pause.rs`); these commands only ask
//! and answer, ephemerally. The channel hears about it from the outbox.

use super::game::{say, target_game, user_of};
use super::{BotError, Context};
use host::{LeaveStatus, PauseOutcome, ResumeOutcome, game_label};

/// Ask to pause a game: it pauses when every player still in it has asked
#[poise::command(slash_command)]
pub async fn pause(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    let g = target_game(&ctx, id).await?;
    let (user, _) = user_of(&ctx);
    let game_id = g.id;
    let outcome = ctx
        .data()
        .host(move |h| h.pause_game(game_id, &user))
        .await?;
    let label = game_label(&g);
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

/// End a game's pause (or withdraw your request for one)
#[poise::command(slash_command)]
pub async fn resume(
    ctx: Context<'_>,
    #[description = "Game id (default: this channel's)"] id: Option<i64>,
) -> Result<(), BotError> {
    let g = target_game(&ctx, id).await?;
    let (user, _) = user_of(&ctx);
    let game_id = g.id;
    let outcome = ctx
        .data()
        .host(move |h| h.resume_game(game_id, &user))
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

/// Lines for a game's status: the pause, requests for one, absences.
pub fn describe_leave(leave: &LeaveStatus) -> String {
    let mut s = String::new();
    if let Some(since) = leave.paused_since {
        s.push_str(&format!("⏸ Paused since <t:{}:R>", since / 1000));
        if let Some(left) = leave.paused_left_ms {
            s.push_str(&format!(
                "; the deadline resumes with {} left",
                hours_minutes(left)
            ));
        }
        s.push_str(" (`/game resume`)\n");
    }
    if !leave.pause_votes.is_empty() {
        s.push_str(&format!(
            "Asked for a pause: {}\n",
            leave.pause_votes.join(", ")
        ));
    }
    for (name, back) in &leave.away {
        s.push_str(&format!("{name} is away until <t:{}:f>\n", back / 1000));
    }
    s
}

/// "2 h 05 min", "45 min" for a span in ms.
fn hours_minutes(ms: i64) -> String {
    let minutes = (ms.max(0) + 59_999) / 60_000;
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m:02} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::hours_minutes;

    #[test]
    fn spans_read_as_hours_and_minutes() {
        assert_eq!(hours_minutes(45 * 60_000), "45 min");
        assert_eq!(hours_minutes(2 * 3_600_000), "2 h");
        assert_eq!(hours_minutes(2 * 3_600_000 + 5 * 60_000), "2 h 05 min");
        // A part of a minute counts as a minute: never "0 min" while time is left.
        assert_eq!(hours_minutes(1), "1 min");
    }
}
