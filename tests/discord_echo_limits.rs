//! Issue 46: no answer repeats back more than a short clip of what was
//! typed. The real bot against the fake Discord: every string option of
//! every registered command (subcommands included) gets 100,000
//! characters, in a channel without a game, in one with a lobby and in
//! one with a game under way, as a moderator so that settings read their
//! input too; each answer comes, fits Discord's limit, and quotes at most
//! 40 characters of it.

mod support;

use serde_json::{Value, json};
use support::setup::{lobby_with_bob, start};
use support::*;

const LOBBY: u64 = 4_600_000_000_000_001;
const RUNNING: u64 = 4_600_000_000_000_002;
/// A channel without a game, where `/game new` reads its options.
const EMPTY: u64 = 4_600_000_000_000_003;

/// What is typed into the option under test: one letter no answer uses
/// in a run, so the longest run of it in an answer is what was echoed.
const TYPED: char = 'q';
const TYPED_CHARS: usize = 100_000;
/// The longest clip any answer may quote (`games::clip::MAX_TYPED_ECHO`).
const MAX_ECHO: usize = 40;

/// One command to send: the path of names, and the string option to fill.
struct Case {
    path: Vec<String>,
    /// The leaf's options as registered.
    options: Vec<Value>,
    /// The string option under test.
    target: String,
}

/// Every leaf (a command without subcommands, or a subcommand) of the
/// registered commands, once per string option it has.
fn cases(commands: &Value) -> Vec<Case> {
    fn walk(path: Vec<String>, node: &Value, out: &mut Vec<Case>) {
        let options: Vec<Value> = node["options"].as_array().cloned().unwrap_or_default();
        let subs: Vec<&Value> = options
            .iter()
            .filter(|o| matches!(o["type"].as_u64(), Some(1) | Some(2)))
            .collect();
        if !subs.is_empty() {
            for sub in subs {
                let mut p = path.clone();
                p.push(sub["name"].as_str().unwrap().to_string());
                walk(p, sub, out);
            }
            return;
        }
        for o in options.iter().filter(|o| o["type"] == 3) {
            // A fixed list of choices is all Discord lets a person send.
            if o.get("choices")
                .is_some_and(|c| c.as_array().is_some_and(|c| !c.is_empty()))
            {
                continue;
            }
            out.push(Case {
                path: path.clone(),
                options: options.clone(),
                target: o["name"].as_str().unwrap().to_string(),
            });
        }
    }
    let mut out = Vec::new();
    for c in commands.as_array().unwrap() {
        // Slash commands only (context-menu commands take no options).
        if c["type"].as_u64().unwrap_or(1) == 1 {
            walk(vec![c["name"].as_str().unwrap().to_string()], c, &mut out);
        }
    }
    out
}

/// The options of `case` as Discord sends them: the target filled with
/// the huge text, every other required option with a plain valid value.
fn filled(case: &Case, huge: &str, channel: u64) -> Value {
    let mut given = Vec::new();
    for o in &case.options {
        let name = o["name"].as_str().unwrap();
        let required = o["required"].as_bool().unwrap_or(false);
        let kind = o["type"].as_u64().unwrap();
        let value = if name == case.target {
            json!(huge)
        } else if !required {
            continue;
        } else if let Some(first) = o["choices"].as_array().and_then(|c| c.first()) {
            first["value"].clone()
        } else {
            match kind {
                3 => json!("x"),
                4 | 10 => json!(1),
                5 => json!(false),
                6 => json!(BOB.to_string()),
                7 => json!(channel.to_string()),
                8 => json!("4600000000000000009"),
                _ => continue,
            }
        };
        given.push(json!({"name": name, "type": kind, "value": value}));
    }
    Value::Array(given)
}

/// The longest run of [`TYPED`] in `text`.
fn longest_echo(text: &str) -> usize {
    text.split(|c| c != TYPED)
        .map(|run| run.chars().count())
        .max()
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_quotes_more_than_a_clip_of_a_huge_option() {
    let h = Harness::start().await;
    h.fake.allow_threads();
    let commands = h.fake.wait_commands().await;
    let cases = cases(&commands);
    assert!(
        cases.len() >= 15,
        "the bot registers string options: {}",
        cases.len()
    );
    lobby_with_bob(&h, LOBBY, "diplomacy", vec![]).await;
    lobby_with_bob(&h, RUNNING, "cards", vec![]).await;
    start(&h, RUNNING).await;
    let huge: String = std::iter::repeat_n(TYPED, TYPED_CHARS).collect();
    let mut answered = 0;
    for channel in [EMPTY, LOBBY, RUNNING] {
        for case in &cases {
            let options = filled(case, &huge, channel);
            // Nest the leaf's options under its subcommand names.
            let mut opts = options;
            for (depth, name) in case.path.iter().enumerate().skip(1).rev() {
                let kind = if depth + 1 < case.path.len() { 2 } else { 1 };
                opts = json!([{"name": name, "type": kind, "options": opts}]);
            }
            let t = h
                .fake
                .slash_as(MOD, channel, &[case.path[0].as_str()], opts, true, true);
            let replies = h.fake.replies(&t).await;
            let text: String = replies.iter().map(|m| m.text() + "\n").collect();
            let what = format!("/{} {}=<100,000 × q>", case.path.join(" "), case.target);
            assert!(
                longest_echo(&text) <= MAX_ECHO + 1,
                "{what} echoed {} characters:\n{}",
                longest_echo(&text),
                text.chars().take(300).collect::<String>()
            );
            answered += 1;
        }
    }
    assert_eq!(answered, cases.len() * 3);
    h.finish().await;
}
