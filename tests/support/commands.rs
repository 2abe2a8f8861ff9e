//! Acting as a user would: slash commands with their options, and button
//! clicks by label.

use super::fake_discord::{FakeDiscord, Msg};
use serde_json::{Value, json};

/// One slash-command option as Discord sends it (`kind` is Discord's option
/// type: 3 string, 4 integer).
pub fn opt(name: &str, kind: u8, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

/// Runs the slash command `path` as `user` in `ch` and returns the text of
/// the bot's reply once it has come.
pub async fn command(
    fake: &FakeDiscord,
    user: u64,
    ch: u64,
    path: &[&str],
    options: Value,
) -> String {
    let t = fake.slash(user, ch, path, options);
    fake.reply_text(&t).await
}

/// Clicks the button labelled `label` on `msg` as `user` and returns the
/// interaction token (for [`FakeDiscord::reply_text`]); panics if `msg` has
/// no such button.
pub fn press(fake: &FakeDiscord, user: u64, msg: &Msg, label: &str) -> String {
    let id = msg
        .button(label)
        .unwrap_or_else(|| panic!("no button {label:?} on {:?}", msg.buttons()));
    fake.click(user, msg.id, &id)
}

/// The game id in a reply like `Created rps #12. …`.
pub fn game_id(reply: &str) -> i64 {
    reply
        .split('#')
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no game id in the reply {reply:?}"))
}

/// Clicks the button labelled `label` on `msg` as `user` (see [`press`]) and
/// returns the text of the bot's reply once it has come.
pub async fn press_reply(fake: &FakeDiscord, user: u64, msg: &Msg, label: &str) -> String {
    let t = press(fake, user, msg, label);
    fake.reply_text(&t).await
}
