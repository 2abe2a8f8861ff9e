//! The options text a game's creator types, on every front-end (`/game new
//! options:`, `gamehost play --options`): either a JSON object
//! (`{"team_size": 3}`) or, easier to type, `key=value` pairs separated by
//! spaces or commas (`team_size=3 turn_limit=40`); words after a comma that
//! are not pairs continue the value before them
//! (`powers=england,france,germany`). Nothing else: a JSON
//! array would set options by position, unnamed and unchecked.
//!
//! A value is read as JSON when it is valid JSON (`3`, `true`, `[1,2]`,
//! `"text"`), otherwise as a plain string (`name=classic`), so quotes are
//! only needed for strings that look like numbers. Unknown keys are refused
//! by the engine's options type, which names the keys it knows.

use serde_json::{Map, Value};

/// Parses the options a game's creator typed into engine options (a JSON
/// object, or `null` when the text is empty), or says what was wrong.
pub fn parse_game_options(text: &str) -> Result<Value, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Value::Null);
    }
    if text.starts_with('{') || text.starts_with('[') {
        return match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => Ok(v),
            Ok(_) => Err(
                "The options must be one JSON object of named options, e.g. \
                 `{\"team_size\": 3}`, or `key=value` pairs such as `team_size=3`."
                    .to_string(),
            ),
            Err(e) => Err(format!(
                "The options are not valid JSON ({e}); e.g. `{{\"team_size\": 3}}` or `team_size=3`."
            )),
        };
    }
    let mut map = Map::new();
    for pair in split_pairs(text) {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!(
                "`{pair}` is not a `key=value` pair; write options like `team_size=3 turn_limit=40`."
            ));
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(format!(
                "`{pair}` has no key before `=`; write options like `team_size=3`."
            ));
        }
        let value = value.trim();
        if value.is_empty() {
            return Err(format!(
                "`{key}` has no value after `=`; write e.g. `{key}=3`."
            ));
        }
        let value =
            serde_json::from_str::<Value>(value).unwrap_or_else(|_| Value::String(value.into()));
        if map.insert(key.to_string(), value).is_some() {
            return Err(format!("`{key}` is given twice; give each option once."));
        }
    }
    Ok(Value::Object(map))
}

/// Splits at spaces and commas that are not inside brackets or quotes, so
/// `decks=[[1,2],[3]]` stays one pair. A piece without `=` that follows a
/// comma continues the value before it, so a list typed the natural way
/// (`powers=england,france,germany`, or with spaces after the commas) is
/// one value, not a pair and two strays.
fn split_pairs(text: &str) -> Vec<&str> {
    // Each piece as (start, end, whether a comma came before it).
    let mut pieces: Vec<(usize, usize, bool)> = Vec::new();
    let (mut depth, mut quoted, mut start, mut comma) = (0i32, false, 0usize, false);
    let mut push = |from: usize, to: usize, comma: &mut bool| {
        if from < to {
            pieces.push((from, to, *comma));
            *comma = false;
        }
    };
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ' ' | ',' | '\n' | '\t' if !quoted && depth <= 0 => {
                push(start, i, &mut comma);
                comma |= c == ',';
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    push(start, text.len(), &mut comma);
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for (from, to, after_comma) in pieces {
        match parts.last_mut() {
            Some(last) if after_comma && !text[from..to].contains('=') => last.1 = to,
            _ => parts.push((from, to)),
        }
    }
    parts
        .into_iter()
        .map(|(from, to)| &text[from..to])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_text_means_the_defaults() {
        assert_eq!(parse_game_options("  "), Ok(Value::Null));
    }

    #[test]
    fn json_objects_pass_through() {
        assert_eq!(
            parse_game_options(r#"{"team_size": 3}"#),
            Ok(json!({"team_size": 3}))
        );
        assert!(
            parse_game_options("[1]")
                .unwrap_err()
                .contains("one JSON object")
        );
        assert!(
            parse_game_options("{team")
                .unwrap_err()
                .contains("not valid JSON")
        );
    }

    #[test]
    fn key_value_pairs_read_json_values_or_plain_strings() {
        assert_eq!(
            parse_game_options("team_size=3, pick_teams=true name=classic"),
            Ok(json!({"team_size": 3, "pick_teams": true, "name": "classic"}))
        );
        assert_eq!(
            parse_game_options("decks=[[5, -1], [7]] n=4"),
            Ok(json!({"decks": [[5, -1], [7]], "n": 4}))
        );
        assert_eq!(
            parse_game_options(r#"name="a b""#),
            Ok(json!({"name": "a b"}))
        );
    }

    #[test]
    fn a_list_after_a_key_is_one_value() {
        assert_eq!(
            parse_game_options("powers=england,france,germany end_year=1910"),
            Ok(json!({"powers": "england,france,germany", "end_year": 1910}))
        );
        assert_eq!(
            parse_game_options("powers=england, france, germany, end_year=1910"),
            Ok(json!({"powers": "england, france, germany", "end_year": 1910}))
        );
        // Without a comma a stray word is still a stray.
        assert!(
            parse_game_options("powers=england france")
                .unwrap_err()
                .contains("`france` is not a `key=value` pair")
        );
    }

    #[test]
    fn malformed_pairs_say_what_is_expected() {
        assert!(
            parse_game_options("team_size")
                .unwrap_err()
                .contains("key=value")
        );
        assert!(parse_game_options("=3").unwrap_err().contains("no key"));
        assert!(parse_game_options("n=").unwrap_err().contains("no value"));
        assert!(parse_game_options("n=3 n=4").unwrap_err().contains("twice"));
    }
}
