//! Text for Discord: boards in code blocks, long texts split under the
//! 2000-character limit (code blocks closed and reopened across the cut),
//! names made inert, and the builders every message goes out with.
//!
//! **Mentions.** Every message, edit and interaction reply the bot sends
//! says whom it may ping ([`no_pings`], [`pinging`]): never `@everyone`,
//! `@here` or roles, users only where the bot means to. Without that,
//! Discord applies its default rules, and an edit that carries a player's
//! name `@everyone` pings the server. The builders below ([`create`],
//! [`edit`], [`reply`], [`response`]) start with no pings, and a test
//! checks that no builder is made elsewhere (`send.rs` aside, which sets
//! them itself).
//!
//! **Names.** A display name is made inert ([`inert_name`]) where the bot
//! reads it from Discord ([`crate::ui::messages::display_name`]), before the
//! host stores it: the host is free of Discord and writes names into many
//! texts (lobbies, reports, press headers, pauses, ratings), so escaping
//! at the one entry covers all of them, and those to come. The inert form
//! uses invisible zero-width spaces and lookalike characters rather than
//! backslashes, so it reads as the name everywhere: in Markdown, inside
//! code blocks (boards name the players), in thread names and in images.
//! The terminal front-end takes its names from its own input, so it shows
//! them as typed.

use crate::ui::messages;
use poise::serenity_prelude as serenity;
use serde_json::Value;
use serenity::{
    CreateAllowedMentions, CreateInteractionResponseMessage, CreateMessage, EditMessage, UserId,
};

/// An invisible character that breaks Discord's Markdown and mention syntax.
const ZWSP: char = '\u{200b}';

/// Mentions allowed: none (no users, roles, `@everyone` or `@here`).
pub fn no_pings() -> CreateAllowedMentions {
    CreateAllowedMentions::new()
}

/// Mentions allowed: exactly these users (no roles, `@everyone` or `@here`).
pub fn pinging(users: impl IntoIterator<Item = UserId>) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(users.into_iter().collect::<Vec<_>>())
}

/// A new message that pings nobody.
pub fn create(content: impl Into<String>) -> CreateMessage {
    CreateMessage::new()
        .content(content)
        .allowed_mentions(no_pings())
}

/// An edit that pings nobody (set content and components on it).
pub fn edit() -> EditMessage {
    EditMessage::new().allowed_mentions(no_pings())
}

/// A command reply that pings nobody.
pub fn reply(content: impl Into<String>) -> poise::CreateReply {
    poise::CreateReply::default()
        .content(content)
        .allowed_mentions(no_pings())
}

/// An interaction response message that pings nobody.
pub fn response(content: impl Into<String>) -> CreateInteractionResponseMessage {
    CreateInteractionResponseMessage::new()
        .content(content)
        .allowed_mentions(no_pings())
}

/// The users a text of the bot's own mentions (`<@id>`, `<@!id>`): names
/// in it are inert, so every such mention is one the bot wrote.
pub fn mentioned_users(text: &str) -> Vec<UserId> {
    let mut users = Vec::new();
    for (i, _) in text.match_indices("<@") {
        let rest = text[i + 2..].trim_start_matches('!');
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if rest[digits.len()..].starts_with('>')
            && let Ok(id) = digits.parse::<u64>()
            && id != 0
            && !users.contains(&UserId::new(id))
        {
            users.push(UserId::new(id));
        }
    }
    users
}

/// A name made inert for Discord: no Markdown (emphasis, code, spoilers,
/// quotes, headings, lists, masked links), no mentions (`@everyone`,
/// `<@&role>`, `<#channel>`), and no fence that could close a code block
/// around it. Lookalikes and zero-width spaces keep it readable as the
/// name in and out of code blocks. Applying it twice changes nothing.
pub fn inert_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    // Headings, quotes and lists start a line, and names start some lines.
    if name.starts_with(['#', '>', '-', '+', '*', '='])
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        out.push(ZWSP);
    }
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => out.push('\u{02cb}'),
            '*' => out.push('\u{2217}'),
            '_' => out.push('\u{02cd}'),
            '~' => out.push('\u{223c}'),
            '|' => out.push('\u{01c0}'),
            '\\' => out.push('\u{29f5}'),
            '\n' | '\r' => out.push(' '),
            // A mention (`@everyone`, `<@id>`, `<#id>`) or a masked link
            // (`[text](url)`) needs these followed by what comes next.
            '@' | '<' | ']' => {
                out.push(c);
                if chars.peek() != Some(&ZWSP) {
                    out.push(ZWSP);
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Discord's limit on a message's content.
pub const MAX_CONTENT: usize = 2000;

/// At most `max` characters (with an ellipsis when cut).
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A text and an optional board (shown as a code block).
pub fn with_board(text: &str, board: Option<&str>) -> String {
    let mut s = text.trim_end().to_string();
    if let Some(b) = board.map(str::trim_end).filter(|b| !b.is_empty()) {
        // A board may not close our fence early.
        let b = b.replace("```", "`\u{200b}``");
        s.push_str("\n```\n");
        s.push_str(&b);
        s.push_str("\n```");
    }
    s
}

/// Splits a text into messages of at most `max` characters, at line breaks
/// where possible, closing an open code block at a cut and reopening it in
/// the next part.
pub fn split(text: &str, max: usize) -> Vec<String> {
    const FENCE: &str = "```";
    let budget = max.saturating_sub(FENCE.len() + 1).max(16);
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut cur_len = 0usize;
    let mut in_code = false;
    let mut lines: Vec<String> = Vec::new();
    for line in text.split('\n') {
        // A line too long for one message is cut into pieces.
        let chars: Vec<char> = line.chars().collect();
        if chars.len() > budget - FENCE.len() - 1 {
            for piece in chars.chunks(budget - FENCE.len() - 1) {
                lines.push(piece.iter().collect());
            }
        } else {
            lines.push(line.to_string());
        }
    }
    for line in lines {
        let n = line.chars().count() + usize::from(cur_len > 0);
        if cur_len + n > budget && cur_len > 0 {
            if in_code {
                cur.push('\n');
                cur.push_str(FENCE);
            }
            parts.push(std::mem::take(&mut cur));
            cur_len = 0;
            if in_code {
                cur.push_str(FENCE);
                cur_len = FENCE.len();
            }
        }
        if cur_len > 0 {
            cur.push('\n');
        }
        cur.push_str(&line);
        cur_len = cur.chars().count();
        if line.trim_start().starts_with(FENCE) {
            in_code = !in_code;
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur);
    }
    if parts.is_empty() {
        parts.push("\u{200b}".to_string());
    }
    parts
}

/// Whether the commands Discord has are the ones we would register
/// (names, descriptions, options, choices), so start-up registers only on change.
pub fn same_commands(wanted: &Value, existing: &Value) -> bool {
    fn norm(v: &Value) -> Value {
        match v {
            Value::Array(a) => {
                let mut items: Vec<Value> = a.iter().map(norm).collect();
                items.sort_by_key(|x| x["name"].as_str().unwrap_or("").to_string());
                Value::Array(items)
            }
            Value::Object(o) => {
                let mut out = serde_json::Map::new();
                for k in [
                    "name",
                    "description",
                    "type",
                    "required",
                    "options",
                    "choices",
                    "value",
                    "autocomplete",
                    "min_value",
                    "max_value",
                    "min_length",
                    "max_length",
                ] {
                    let val = o.get(k).cloned().unwrap_or(Value::Null);
                    let val = match (k, val) {
                        ("type", Value::Null) => Value::from(1),
                        ("required" | "autocomplete", Value::Null) => Value::Bool(false),
                        ("options" | "choices", Value::Null) => Value::Array(vec![]),
                        // Discord keeps limits as doubles; compare them loosely.
                        ("min_value" | "max_value", Value::Number(n)) => {
                            Value::from(format!("{:e}", n.as_f64().unwrap_or(0.0) as f32))
                        }
                        (_, v) => v,
                    };
                    out.insert(k.to_string(), norm(&val));
                }
                Value::Object(out)
            }
            other => other.clone(),
        }
    }
    norm(wanted) == norm(existing)
}

/// The name a member goes by, made inert for Discord: this is where names
/// enter the bot, before the host stores them and writes them into texts
/// (see `messages.rs` for why here).
pub fn display_name(user: &serenity::User, member: Option<&serenity::Member>) -> String {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    messages::inert_name(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_limits_and_code_blocks() {
        let board: String = (0..300)
            .map(|i| format!("row {i:03} | . . . . . . . .\n"))
            .collect();
        let text = with_board("Turn 3 resolved.", Some(&board));
        let parts = split(&text, MAX_CONTENT);
        assert!(parts.len() > 1);
        for p in &parts {
            assert!(p.chars().count() <= MAX_CONTENT, "{}", p.chars().count());
            assert_eq!(p.matches("```").count() % 2, 0, "unbalanced fence in {p}");
        }
        let joined: String = parts.join("\n");
        assert!(joined.contains("row 299"));
    }

    #[test]
    fn split_cuts_a_huge_line() {
        let parts = split(&"x".repeat(5000), MAX_CONTENT);
        assert!(parts.iter().all(|p| p.chars().count() <= MAX_CONTENT));
        assert_eq!(parts.iter().map(|p| p.len()).sum::<usize>(), 5000);
    }

    #[test]
    fn inert_names_carry_no_markdown_or_mentions() {
        for (name, inert) in [
            ("Alice", "Alice"),
            ("@everyone", "@\u{200b}everyone"),
            ("<@&1>", "<\u{200b}@\u{200b}&1>"),
            ("```", "\u{02cb}\u{02cb}\u{02cb}"),
            (
                "**bold** _it_",
                "\u{200b}\u{2217}\u{2217}bold\u{2217}\u{2217} \u{02cd}it\u{02cd}",
            ),
            ("# big", "\u{200b}# big"),
            ("[x](https://e.vil)", "[x]\u{200b}(https://e.vil)"),
        ] {
            assert_eq!(inert_name(name), inert, "{name}");
            assert_eq!(inert_name(inert), inert, "twice: {name}");
        }
    }

    #[test]
    fn mentions_of_the_bot_are_read_and_inert_ones_are_not() {
        let text = format!("<@12>, <@!34>: your move. {}", inert_name("<@56>"));
        assert_eq!(
            mentioned_users(&text),
            vec![UserId::new(12), UserId::new(34)]
        );
        assert!(mentioned_users("<@&7> <@> <@x>").is_empty());
    }

    /// Every message, edit and reply is built by the helpers above (which
    /// set the allowed mentions), so no call site can forget them.
    #[test]
    fn no_builder_is_made_without_allowed_mentions() {
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let builders = [
            "CreateMessage::new(",
            "EditMessage::new(",
            "CreateReply::default(",
            "CreateInteractionResponseMessage::new(",
            "EditInteractionResponse::new(",
            "CreateInteractionResponseFollowup::new(",
            ".say(",
        ];
        let mut folders = vec![std::path::PathBuf::from(src)];
        let mut checked = 0;
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let file = path
                    .strip_prefix(src)
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                // This file holds the helpers; delivery's parts set their own.
                if file == "ui/messages.rs" || file == "send.rs" {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for b in builders {
                    assert!(
                        !text.contains(b),
                        "{file} builds `{b}` itself: use messages::create/edit/reply/response"
                    );
                }
                checked += 1;
            }
        }
        // The walk reached the command, event and delivery folders.
        assert!(checked > 20, "only {checked} files checked");
    }

    #[test]
    fn short_text_is_one_part() {
        assert_eq!(split("hello", MAX_CONTENT), vec!["hello".to_string()]);
    }
}
