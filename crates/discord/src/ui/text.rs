//! Text the bot shows in several places: a game's view and history, a
//! move's receipt, a mention, a deadline; and how a typed move names its game.

use crate::ui::messages;
use host::LeaveStatus;
use host::{GameId, Receipt};
use host::{GameStatus, Occupant};
use host::{GameView, HistoryPage};
use poise::serenity_prelude as serenity;
use serenity::Mentionable;

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
            // A forgotten person has no Discord id left to mention.
            Occupant::User(u) if !host::is_forgotten(u) => format!("<@{u}>"),
            Occupant::User(_) | Occupant::Ai(_) => seat.name.clone(),
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
                // "You (England)", but not "You (Player 1)".
                let you = if host::is_generic_label(&m.role) {
                    "You".to_string()
                } else {
                    format!("You ({})", m.role)
                };
                text.push_str(&format!("> {you}: `{}`\n", a.replace('`', "'")));
            }
        }
    }
    text
}

/// Mention of a user for messages.
pub fn mention(user: &str) -> String {
    match user.parse::<u64>() {
        Ok(id) if id != 0 => serenity::UserId::new(id).mention().to_string(),
        _ => user.to_string(),
    }
}

/// What a player is told after a move: recorded, still waiting, or resolved.
pub fn receipt_text(r: &Receipt) -> String {
    let done = if r.resolved {
        // Where the game lives: its thread once it has one, not always the
        // channel it was created in.
        format!(
            "The turn is resolved; the result is posted in {}.",
            match r.channel_id.parse::<u64>() {
                Ok(id) if id != 0 => format!("<#{id}>"),
                _ => "the game's channel".to_string(),
            }
        )
    } else if !r.is_final {
        "You can send more before the deadline.".to_string()
    } else if r.waiting_for.is_empty() {
        String::new()
    } else {
        format!("Waiting for {}.", r.waiting_for.join(", "))
    };
    let recorded = if r.recorded.contains('\n') {
        format!("\n```\n{}\n```\n", r.recorded.replace("```", "` ` `"))
    } else {
        format!(" `{}`. ", r.recorded.replace('`', "'"))
    };
    format!("Recorded for {}:{recorded}{done}", r.game_label)
        .trim_end()
        .to_string()
}

/// Splits a leading `#12` (a game id) from a move.
pub fn split_game(text: &str) -> (Option<GameId>, &str) {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix('#') {
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(id) = digits.parse::<GameId>() {
            return (Some(id), rest[digits.len()..].trim());
        }
    }
    (None, t)
}

/// A Discord timestamp, absolute and relative (`<t:S:f> (<t:S:R>)`): every
/// reader sees it in their own time zone.
pub(crate) fn when(ms: i64) -> String {
    let s = ms.div_euclid(1000);
    format!("<t:{s}:f> (<t:{s}:R>)")
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
pub(crate) fn hours_minutes(ms: i64) -> String {
    let minutes = (ms.max(0) + 59_999) / 60_000;
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m:02} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_prefix() {
        assert_eq!(split_game("#12 play"), (Some(12), "play"));
        assert_eq!(split_game("  #3\nA par - bur"), (Some(3), "A par - bur"));
        assert_eq!(split_game("play"), (None, "play"));
        assert_eq!(split_game("#x play"), (None, "#x play"));
    }
}

#[cfg(test)]
mod leave_tests {
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
