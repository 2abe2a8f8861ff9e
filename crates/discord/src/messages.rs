//! Text for Discord: boards in code blocks, long texts split under the
//! 2000-character limit (code blocks closed and reopened across the cut).

use serde_json::Value;

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
    fn short_text_is_one_part() {
        assert_eq!(split("hello", MAX_CONTENT), vec!["hello".to_string()]);
    }
}
