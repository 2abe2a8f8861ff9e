//! Which language the bot speaks, through the real bot against the fake
//! Discord (issue 48): a reply follows the reader's Discord client, or the
//! language they chose with `/language`; a server's greeting follows the
//! server's own locale; `/settings language` chooses the server's; every
//! command is registered with its Japanese name and description; and the
//! language a person's client sent is personal data, shown and deleted by
//! `/privacy`.

mod support;

use serde_json::json;
use support::commands::{opt, press};
use support::fake_discord::{FakeDiscord, Msg};
use support::*;

const CH: u64 = 3_000_000_000_000_481;

/// The text of the replies to `/path` as `user` in `ch`.
async fn ask(
    f: &FakeDiscord,
    user: u64,
    ch: u64,
    path: &[&str],
    options: serde_json::Value,
) -> String {
    let token = f.slash(user, ch, path, options);
    f.reply_text(&token).await;
    let replies: Vec<Msg> = f.replies(&token).await;
    assert!(replies.iter().all(|m| m.ephemeral), "a reply was public");
    replies
        .iter()
        .map(|m| m.text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `language` option: Discord sends a choice's index (english,
/// japanese, auto).
fn language(choice: &str) -> serde_json::Value {
    let index = ["english", "japanese", "auto"]
        .iter()
        .position(|c| *c == choice)
        .expect("a choice");
    json!([opt("language", 4, json!(index))])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_follows_the_readers_client_or_their_choice() {
    let h = Harness::start().await;
    let f = &h.fake;
    f.set_user_locale(BOB, "ja");
    let help = ask(f, BOB, CH, &["help"], json!([])).await;
    assert!(help.contains("ゲームを開催します"), "{help}");
    assert!(help.contains("`/game new`"), "{help}");
    assert!(!help.contains("runs games here"), "{help}");
    // Alice's client is English: the same command in English.
    let help = ask(f, ALICE, CH, &["help"], json!([])).await;
    assert!(help.contains("runs games here"), "{help}");
    // Bob chooses English: his client stays Japanese, his replies do not.
    let set = ask(f, BOB, CH, &["language"], language("english")).await;
    assert_eq!(set, "I will write to you in English from now on.");
    let help = ask(f, BOB, CH, &["help"], json!([])).await;
    assert!(help.contains("runs games here"), "{help}");
    let now = ask(f, BOB, CH, &["language"], json!([])).await;
    assert!(now.contains("English, as you chose"), "{now}");
    // Back to his client's language.
    let auto = ask(f, BOB, CH, &["language"], language("auto")).await;
    assert_eq!(
        auto,
        "これからはDiscordの言語設定（日本語）に合わせてお送りします。"
    );
    let help = ask(f, BOB, CH, &["help"], json!([])).await;
    assert!(help.contains("ゲームを開催します"), "{help}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_is_greeted_in_its_own_language_and_admins_may_choose_another() {
    let h = Harness::start().await;
    let f = &h.fake;
    let guild = 9_000_000_000_000_481;
    let channel = CH + 1;
    f.set_guild_locale(guild, "ja");
    f.join_guild(guild, Some(channel), &[channel]);
    let greeting = support::messages::channel_msg(f, channel, "/game new").await;
    assert!(
        greeting.text().starts_with("こんにちは！"),
        "{}",
        greeting.text()
    );
    // A member without Manage Server may not choose; a moderator may.
    let token = f.slash_as(
        BOB,
        CH,
        &["settings", "language"],
        language("english"),
        true,
        false,
    );
    let refused = f.reply_text(&token).await;
    assert!(refused.contains("Manage Server"), "{refused}");
    let token = f.slash_as(
        BOB,
        CH,
        &["settings", "language"],
        language("japanese"),
        true,
        true,
    );
    let set = f.reply_text(&token).await;
    assert_eq!(
        set,
        "This server's channels and threads now read in 日本語."
    );
    let token = f.slash_as(BOB, CH, &["settings", "show"], json!([]), true, false);
    let shown = f.reply_text(&token).await;
    assert!(shown.contains("日本語"), "{shown}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_is_registered_with_its_japanese_name() {
    let h = Harness::start().await;
    let f = &h.fake;
    // A command's reply makes sure the bot registered its commands.
    ask(f, ALICE, CH, &["help"], json!([])).await;
    let commands = f
        .state()
        .global_commands
        .clone()
        .expect("registered globally");
    let game = commands
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "game")
        .expect("/game")
        .clone();
    assert_eq!(game["name_localizations"]["ja"], "ゲーム");
    let new = game["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "new")
        .expect("/game new");
    assert_eq!(new["name_localizations"]["ja"], "新規");
    let kind = new["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "kind")
        .unwrap();
    assert_eq!(kind["description_localizations"]["ja"], "どのゲームか");
    let timeout = new["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "timeout")
        .unwrap();
    let forfeit = timeout["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "forfeit")
        .unwrap();
    assert_eq!(forfeit["name_localizations"]["ja"], "棄権");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_remembered_language_is_shown_and_deleted_by_privacy() {
    let h = Harness::start().await;
    let f = &h.fake;
    f.set_user_locale(BOB, "ja");
    ask(f, BOB, CH, &["help"], json!([])).await;
    let count = |h: &Harness| -> i64 {
        let c = rusqlite::Connection::open(&h.db).unwrap();
        c.query_row(
            "SELECT COUNT(*) FROM user_languages WHERE user_id = ?1",
            [BOB.to_string()],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(count(&h), 1, "the client's locale is remembered for DMs");
    let shown = ask(f, BOB, CH, &["privacy", "show"], json!([])).await;
    assert!(shown.contains("your language"), "{shown}");
    let token = f.slash(BOB, CH, &["privacy", "delete"], json!([]));
    let question = f
        .replies(&token)
        .await
        .into_iter()
        .next()
        .expect("the question");
    press(f, BOB, &question, "Delete my data");
    let id = question.id;
    f.wait_for("the question answered", move |s| {
        s.message(id).filter(|m| m.buttons().is_empty()).cloned()
    })
    .await;
    assert_eq!(count(&h), 0, "deleted with the person");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mistake_is_explained_in_the_readers_language() {
    let h = Harness::start().await;
    let f = &h.fake;
    f.set_user_locale(BOB, "ja");
    let status = ask(f, BOB, CH + 2, &["game", "status"], json!([])).await;
    assert_eq!(
        status,
        "このチャンネルではまだゲームが遊ばれていません。`/game new` で始めるか、ゲームの番号を指定してください（`/game list`）。"
    );
    let token = f.slash(
        BOB,
        CH + 2,
        &["settings", "channels"],
        json!([opt("action", 4, json!(0))]),
    );
    let refused = f.reply_text(&token).await;
    assert!(
        refused.starts_with("ゲームを作れるチャンネルを選ぶことができるのは、サーバー管理権限"),
        "{refused}"
    );
    // The same mistakes in English for an English client, unchanged.
    let status = ask(f, ALICE, CH + 2, &["game", "status"], json!([])).await;
    assert!(
        status.starts_with("No game has been played in this channel."),
        "{status}"
    );
    h.finish().await;
}
