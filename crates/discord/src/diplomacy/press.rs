//! The text of press: the sender's receipt, how to send press in a game,
//! and the press log in pages.

use games::diplomacy::game::PressRule;
use host::{GameId, PressEntry, PressSent};

/// What the sender is told once the host accepted a message.
pub fn receipt_text(s: &PressSent) -> String {
    let mut lines = Vec::new();
    let how = match s.rule {
        PressRule::Anonymous => format!(
            " (anonymous press: it reads \"From {}\", never your name)",
            s.from
        ),
        _ => String::new(),
    };
    if s.delivered.is_empty() {
        lines.push(format!(
            "diplomacy #{}: your message reached no player.",
            s.game_id
        ));
    } else {
        lines.push(format!(
            "diplomacy #{}: sent by DM to {}{how}.",
            s.game_id,
            s.delivered.join(", ")
        ));
    }
    if !s.to_ai.is_empty() {
        lines.push(format!(
            "{} {} played by the AI: your message is kept in the game's press log, but \
             nobody reads it now.",
            s.to_ai.join(", "),
            if s.to_ai.len() == 1 { "is" } else { "are" }
        ));
    }
    if !s.eliminated.is_empty() {
        lines.push(format!(
            "Not sent to {}: out of the game.",
            s.eliminated.join(", ")
        ));
    }
    lines.join("\n")
}

/// How to send press in a game with this rule (the desk button's answer).
pub fn how_to(game: GameId, rule: PressRule) -> String {
    let example = format!("`/press to:France text:Shall we split Belgium? game:{game}`");
    match rule {
        PressRule::Gunboat => format!(
            "diplomacy #{game} is a gunboat game: no press. The bot relays no messages, so every \
             power plays on its orders alone."
        ),
        PressRule::PublicOnly => format!(
            "diplomacy #{game} allows public press only: `/press to:all text:…` goes to every \
             power's player by DM, signed with your power and name. Messages to single powers \
             are refused."
        ),
        PressRule::Anonymous => format!(
            "diplomacy #{game} has anonymous press: {example} (or `to:all`, or several powers: \
             `to:France,Italy`). Recipients read \"From <your power>\", never your name. At most \
             {} characters, {} messages a minute and {} an hour. Everything is revealed when \
             the game ends.",
            host::PRESS_MAX_CHARS,
            host::PRESS_PER_MINUTE,
            host::PRESS_PER_HOUR
        ),
        PressRule::Full => format!(
            "diplomacy #{game} has full press: {example} (or `to:all`, or several powers: \
             `to:France,Italy`). Recipients read your power and name. At most {} characters, \
             {} messages a minute and {} an hour. Everything is revealed when the game ends.",
            host::PRESS_MAX_CHARS,
            host::PRESS_PER_MINUTE,
            host::PRESS_PER_HOUR
        ),
    }
}

/// The most characters of press log one reply shows (three or four
/// messages); a longer log is read page by page.
const LOG_PAGE_CHARS: usize = 6000;

/// One message of the log as text: phase, sender, recipients, text.
fn entry_text(e: &PressEntry) -> String {
    let to = if e.to_all {
        "all".to_string()
    } else {
        e.to.join(", ")
    };
    format!("[{}] {} to {}:\n{}", e.phase, e.from, to, e.text)
}

/// A game's press log in pages of whole messages (at most
/// [`LOG_PAGE_CHARS`] each), oldest first; one page saying so when the
/// game had no press.
pub fn log_pages(game: GameId, entries: &[PressEntry]) -> Vec<String> {
    if entries.is_empty() {
        return vec![format!("diplomacy #{game} had no press.")];
    }
    let mut pages: Vec<String> = Vec::new();
    let mut page = String::new();
    for e in entries {
        let block = entry_text(e);
        if !page.is_empty() && page.chars().count() + block.chars().count() + 2 > LOG_PAGE_CHARS {
            pages.push(std::mem::take(&mut page));
        }
        if !page.is_empty() {
            page.push_str("\n\n");
        }
        page.push_str(&block);
    }
    pages.push(page);
    let n = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let more = if i + 1 < n {
                format!(
                    "\n\n(Page {} of {n}: `/game press id:{game} page:{}` for more.)",
                    i + 1,
                    i + 2
                )
            } else {
                String::new()
            };
            format!(
                "Press of game #{game} ({} messages, page {} of {n}):\n\n{p}{more}",
                entries.len(),
                i + 1
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_log_is_read_in_pages_of_whole_messages() {
        let e = PressEntry {
            turn: 0,
            phase: "Spring 1901 movement".into(),
            from: "France".into(),
            to_all: false,
            to: vec!["Germany".into()],
            text: "y".repeat(host::PRESS_MAX_CHARS),
            sent_at: 0,
        };
        let pages = log_pages(3, &vec![e; 10]);
        assert_eq!(pages.len(), 4);
        let whole: usize = pages
            .iter()
            .map(|p| {
                p.matches("[Spring 1901 movement] France to Germany:")
                    .count()
            })
            .sum();
        assert_eq!(whole, 10, "every message once, none cut");
        assert!(
            pages[0].ends_with("`/game press id:3 page:2` for more.)"),
            "{}",
            pages[0]
        );
        assert!(pages[3].starts_with("Press of game #3 (10 messages, page 4 of 4)"));
        assert!(
            pages
                .iter()
                .all(|p| p.chars().count() <= LOG_PAGE_CHARS + 200)
        );
        assert_eq!(log_pages(3, &[]), ["diplomacy #3 had no press."]);
    }

    #[test]
    fn receipts_say_what_happened_to_each_power() {
        let s = PressSent {
            game_id: 4,
            rule: PressRule::Anonymous,
            from: "France".into(),
            to_all: true,
            delivered: vec!["Germany".into()],
            to_ai: vec!["Italy".into(), "Russia".into()],
            eliminated: vec!["Turkey".into()],
        };
        let t = receipt_text(&s);
        assert!(t.contains("sent by DM to Germany"), "{t}");
        assert!(t.contains("\"From France\""), "{t}");
        assert!(t.contains("Italy, Russia are played by the AI"), "{t}");
        assert!(t.contains("Not sent to Turkey: out of the game"), "{t}");
    }
}
