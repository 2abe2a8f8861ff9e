//! `/privacy`'s text: what the bot stores about the reader and for how
//! long, the question before `/privacy delete` and its answer. The README's
//! privacy section says the same.

use host::{Forgotten, GameRow, PrivacySummary, UserDataCounts};

/// What is stored about everyone who plays, and for how long.
const WHAT_IS_STORED: &str = "**What gamehost stores about you**\n\
- For each game you join: your Discord user id, the name you had then, your moves and \
your result. Kept as long as the database is: games are never deleted by themselves.\n\
- Your ratings (per server and game), the deadlines you missed and any civil disorder \
(your reliability), absences and pause votes you declared.\n\
- The id of the DM channel between you and the bot, so it can write to you.\n\
- Copies of the announcements it delivered for your games, deleted 7 days after delivery.\n\
Diplomacy press is stored by power, not by user. Nothing else: no messages you write \
elsewhere, no e-mail, no IP address. The operator who runs this bot can read its database; \
its automatic backups keep a copy until they are rotated out (by default after 3.5 days; \
one taken before a version upgrade stays until the operator deletes it).";

/// The answer to `/privacy`: what is stored and, counted, about the reader.
pub fn privacy_text(s: &PrivacySummary, user: &str) -> String {
    let mut out = format!("{WHAT_IS_STORED}\n\n**About you now:** ");
    if s.is_empty() {
        out.push_str("nothing.");
    } else {
        out.push_str(&about_you(s, user).join("; "));
        out.push('.');
    }
    out.push_str(
        "\n\n`/privacy delete` deletes it (you are asked first). Messages already posted in \
         Discord channels are Discord's and the server's: the bot does not remove them.",
    );
    out
}

/// The reader's own data, one phrase each.
fn about_you(s: &PrivacySummary, user: &str) -> Vec<String> {
    let mut parts = Vec::new();
    if !s.running.is_empty() {
        parts.push(format!(
            "{} running ({})",
            plural(s.running.len(), "game"),
            labels(&s.running)
        ));
    }
    if !s.lobbies.is_empty() {
        let (created, joined) = lobbies_by_role(s, user);
        if !created.is_empty() {
            parts.push(format!("lobbies you created: {}", labels(&created)));
        }
        if !joined.is_empty() {
            parts.push(format!("lobbies you sit in: {}", labels(&joined)));
        }
    }
    parts.extend(counted(&s.counts));
    if s.counts.dm_channel {
        parts.push("your DM channel is remembered".into());
    }
    if s.counts.language {
        parts.push("your language (the one you chose, or your Discord client's)".into());
    }
    parts
}

/// The counted rows, e.g. "3 finished games", skipping the zeros.
fn counted(c: &UserDataCounts) -> Vec<String> {
    [
        (c.ended_games, "finished game", "finished games"),
        (c.ratings, "rating", "ratings"),
        (
            c.player_events,
            "missed deadline or civil disorder",
            "missed deadlines or civil disorders",
        ),
        (c.absences, "absence", "absences"),
        (c.pause_votes, "pause vote", "pause votes"),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    })
    .collect()
}

/// The question before deleting: exactly what will happen.
pub fn delete_question(s: &PrivacySummary, user: &str) -> String {
    let mut lines =
        vec!["**Delete everything gamehost stores about you?** This cannot be undone.".to_string()];
    if !s.running.is_empty() {
        lines.push(format!(
            "- You play in {}: {}. You would forfeit {}.",
            plural(s.running.len(), "running game"),
            labels(&s.running),
            if s.running.len() == 1 { "it" } else { "them" }
        ));
    }
    let (created, joined) = lobbies_by_role(s, user);
    if !created.is_empty() {
        lines.push(format!(
            "- Lobbies you created would be closed: {}.",
            labels(&created)
        ));
    }
    if !joined.is_empty() {
        lines.push(format!("- You would leave: {}.", labels(&joined)));
    }
    if s.counts.ended_games > 0 {
        lines.push(format!(
            "- {}, under the name \"{}\" instead of yours.",
            keep_results(
                s.counts.ended_games as usize,
                "Your finished game",
                "finished games"
            ),
            host::FORMER_PLAYER
        ));
    }
    let gone: Vec<String> = counted(&UserDataCounts {
        ended_games: 0,
        ..s.counts.clone()
    });
    if !gone.is_empty() || s.counts.dm_channel || s.counts.language {
        let mut gone = gone;
        if s.counts.dm_channel {
            gone.push("the remembered DM channel".into());
        }
        if s.counts.language {
            gone.push("your language".into());
        }
        lines.push(format!("- Deleted: {}.", gone.join(", ")));
    }
    if s.is_empty() {
        lines.push("- Nothing is stored about you now; deleting changes nothing.".into());
    }
    lines.push("Messages already posted in Discord stay.".into());
    lines.join("\n")
}

/// The answer once deleted.
pub fn deleted_text(f: &Forgotten) -> String {
    let mut lines =
        vec!["**Deleted.** gamehost no longer stores your id or your name.".to_string()];
    if !f.forfeited.is_empty() {
        lines.push(format!("You forfeited {}.", f.forfeited.join(", ")));
    }
    if !f.closed.is_empty() {
        lines.push(format!("Closed: {}.", f.closed.join(", ")));
    }
    if !f.left.is_empty() {
        lines.push(format!("You left {}.", f.left.join(", ")));
    }
    if f.games_kept > 0 {
        lines.push(format!(
            "{} under \"{}\".",
            keep_results(f.games_kept, "Your finished game", "finished games"),
            host::FORMER_PLAYER
        ));
    }
    lines.push("If you play again, the bot stores what it needs for that game anew.".into());
    lines.join("\n")
}

/// The answer to Cancel.
pub const CANCELLED: &str = "Cancelled: nothing was deleted.";

/// "Your finished game keeps its result" or "Your 3 finished games keep
/// their results".
fn keep_results(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{one} keeps its result")
    } else {
        format!("Your {n} {many} keep their results")
    }
}

/// The lobbies `user` created, and those they only sit in.
fn lobbies_by_role(s: &PrivacySummary, user: &str) -> (Vec<GameRow>, Vec<GameRow>) {
    s.lobbies
        .iter()
        .cloned()
        .partition(|g| g.creator_id == user)
}

fn labels(games: &[GameRow]) -> String {
    games
        .iter()
        .map(host::game_label)
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_summary_says_nothing_is_stored_and_fits() {
        let s = PrivacySummary::default();
        let t = privacy_text(&s, "1");
        assert!(t.contains("**About you now:** nothing."), "{t}");
        assert!(t.chars().count() < 2000);
        let q = delete_question(&s, "1");
        assert!(q.contains("deleting changes nothing"), "{q}");
    }

    #[test]
    fn counts_read_as_words() {
        let c = UserDataCounts {
            ended_games: 1,
            ratings: 2,
            player_events: 1,
            ..UserDataCounts::default()
        };
        assert_eq!(
            counted(&c),
            [
                "1 finished game",
                "2 ratings",
                "1 missed deadline or civil disorder"
            ]
        );
    }
}
