//! What Discord refuses in a message payload (documented limits), checked on
//! every message the bot sends.

use serde_json::Value;
use std::collections::HashSet;

fn len(v: &Value) -> usize {
    v.as_str().map(|s| s.chars().count()).unwrap_or(0)
}

/// Checks a message create/edit payload; `Err` names the broken limit.
pub fn check_message(p: &Value, creating: bool) -> Result<(), String> {
    let content = len(&p["content"]);
    if content > 2000 {
        return Err(format!("content is {content} characters (max 2000)"));
    }
    let embeds = p["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > 10 {
        return Err(format!("{} embeds (max 10)", embeds.len()));
    }
    let mut total = 0;
    for e in &embeds {
        for (k, max) in [("title", 256), ("description", 4096)] {
            if len(&e[k]) > max {
                return Err(format!("embed {k} over {max} characters"));
            }
            total += len(&e[k]);
        }
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            return Err("more than 25 embed fields".into());
        }
        for f in &fields {
            if len(&f["name"]) > 256 || len(&f["value"]) > 1024 {
                return Err("embed field over its limit (name 256, value 1024)".into());
            }
            if len(&f["name"]) == 0 || len(&f["value"]) == 0 {
                return Err("embed field with an empty name or value".into());
            }
            total += len(&f["name"]) + len(&f["value"]);
        }
        total += len(&e["footer"]["text"]);
    }
    if total > 6000 {
        return Err(format!("embeds total {total} characters (max 6000)"));
    }
    let rows = p["components"].as_array().cloned().unwrap_or_default();
    check_components(&rows)?;
    if creating
        && content == 0
        && embeds.is_empty()
        && rows.is_empty()
        && p["attachments"].as_array().is_none_or(|a| a.is_empty())
    {
        return Err("Cannot send an empty message (50006)".into());
    }
    Ok(())
}

/// Checks that a message payload pings nobody it does not name: it must
/// carry `allowed_mentions` (without it Discord pings whatever the content
/// mentions, `@everyone` and roles included), let no mention type through
/// `parse`, allow no role, and allow only users its content mentions.
pub fn check_allowed_mentions(p: &Value) -> Result<(), String> {
    let Some(allowed) = p.get("allowed_mentions").filter(|a| !a.is_null()) else {
        return Err("no allowed_mentions: Discord would ping whatever the content mentions".into());
    };
    let parse = allowed["parse"].as_array().cloned().unwrap_or_default();
    if !parse.is_empty() {
        return Err(format!(
            "allowed_mentions.parse is {parse:?}: every such mention in the text would ping"
        ));
    }
    if allowed["roles"].as_array().is_some_and(|r| !r.is_empty()) {
        return Err("allowed_mentions allows roles: the bot never pings a role".into());
    }
    let content = p["content"].as_str().unwrap_or("");
    for user in allowed["users"].as_array().cloned().unwrap_or_default() {
        let id = user
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| user.to_string());
        if !content.contains(&format!("<@{id}>")) && !content.contains(&format!("<@!{id}>")) {
            return Err(format!(
                "allowed_mentions allows user {id}, whom the content does not mention"
            ));
        }
    }
    Ok(())
}

fn check_components(rows: &[Value]) -> Result<(), String> {
    if rows.len() > 5 {
        return Err(format!("{} action rows (max 5)", rows.len()));
    }
    let mut ids = HashSet::new();
    for row in rows {
        if row["type"] != 1 {
            return Err("a top-level component that is not an action row".into());
        }
        let comps = row["components"].as_array().cloned().unwrap_or_default();
        if comps.is_empty() {
            return Err("an empty action row".into());
        }
        let selects = comps.iter().filter(|c| c["type"] != 2).count();
        if selects > 0 && comps.len() > 1 {
            return Err("a select menu must be alone in its action row".into());
        }
        if comps.len() > 5 {
            return Err(format!("{} buttons in one row (max 5)", comps.len()));
        }
        for c in &comps {
            let style = c["style"].as_u64().unwrap_or(0);
            if c["type"] == 2 && style == 5 {
                if c["url"].as_str().is_none() {
                    return Err("link button without url".into());
                }
                continue;
            }
            let id = c["custom_id"].as_str().unwrap_or("");
            if id.is_empty() || id.chars().count() > 100 {
                return Err(format!("custom_id `{id}` must be 1 to 100 characters"));
            }
            if !ids.insert(id.to_string()) {
                return Err(format!("duplicate custom_id `{id}`"));
            }
            match c["type"].as_u64() {
                Some(2) => {
                    if len(&c["label"]) > 80 {
                        return Err("button label over 80 characters".into());
                    }
                    if len(&c["label"]) == 0 && c["emoji"].is_null() {
                        return Err("button without label or emoji".into());
                    }
                }
                Some(3) => {
                    let opts = c["options"].as_array().cloned().unwrap_or_default();
                    if opts.is_empty() || opts.len() > 25 {
                        return Err(format!("select menu with {} options (1 to 25)", opts.len()));
                    }
                    if len(&c["placeholder"]) > 150 {
                        return Err("placeholder over 150 characters".into());
                    }
                    let mut values = HashSet::new();
                    for o in &opts {
                        let (l, v) = (len(&o["label"]), len(&o["value"]));
                        if l == 0 || l > 100 || v == 0 || v > 100 || len(&o["description"]) > 100 {
                            return Err(
                                "select option label/value must be 1 to 100 characters".into()
                            );
                        }
                        if !values.insert(o["value"].as_str().unwrap_or("").to_string()) {
                            return Err("duplicate select option value".into());
                        }
                    }
                    let max = c["max_values"].as_u64().unwrap_or(1) as usize;
                    if max > opts.len() {
                        return Err("max_values above the number of options".into());
                    }
                }
                Some(5..=8) => {}
                other => return Err(format!("unknown component type {other:?}")),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_users_a_message_names_may_be_pinged() {
        let ok = json!({"content": "<@7>, your move", "allowed_mentions": {"parse": [], "users": ["7"]}});
        assert!(check_allowed_mentions(&ok).is_ok());
        let none = json!({"content": "hi", "allowed_mentions": {"parse": []}});
        assert!(check_allowed_mentions(&none).is_ok());
        for bad in [
            json!({"content": "hi"}),
            json!({"content": "hi", "allowed_mentions": {"parse": ["everyone"]}}),
            json!({"content": "hi", "allowed_mentions": {"parse": ["users"]}}),
            json!({"content": "hi", "allowed_mentions": {"parse": [], "roles": ["1"]}}),
            json!({"content": "hi <@8>", "allowed_mentions": {"parse": [], "users": ["7"]}}),
        ] {
            assert!(check_allowed_mentions(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn limits() {
        assert!(check_message(&json!({"content": "x".repeat(2000)}), true).is_ok());
        assert!(check_message(&json!({"content": "x".repeat(2001)}), true).is_err());
        assert!(check_message(&json!({"content": ""}), true).is_err());
        let row = json!({"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "a"}]});
        assert!(check_message(&json!({"components": [row.clone()]}), true).is_ok());
        let opts: Vec<_> = (0..26)
            .map(|i| json!({"label": i.to_string(), "value": i.to_string()}))
            .collect();
        let sel =
            json!({"type": 1, "components": [{"type": 3, "custom_id": "s", "options": opts}]});
        assert!(check_message(&json!({"components": [sel]}), true).is_err());
    }
}
