//! Press through the bot and spectators (issue 19, items 1 and 4): the
//! host's rules first (anonymity, gunboat, public-only, eliminated powers,
//! AI seats, limits, the sealed log, `watch`), then the real bot against the
//! fake Discord.

mod support;

use games::diplomacy::Diplomacy;
use host::{
    Announcement, AnnouncementKind, GameId, Host, HostError, HostSettings, ManualClock, NewGame,
    PRESS_MAX_CHARS, PRESS_PER_MINUTE, Registry,
};
use serde_json::{Value, json};
use std::sync::Arc;
use store::{GameStatus, Store, Target, TimeoutPolicy};

/// The seats in seat order: Austria, England, France, Germany, Italy, Russia, Turkey.
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
/// France's player: an id and a name that appear nowhere else.
const FRANCE_ID: &str = "uid-france-7731";
const FRANCE_NAME: &str = "Francesca Quill";

fn user_id(seat: usize) -> String {
    if seat == 2 {
        FRANCE_ID.to_string()
    } else {
        format!("player-{}", POWERS[seat].to_lowercase())
    }
}

fn user_name(seat: usize) -> String {
    if seat == 2 {
        FRANCE_NAME.to_string()
    } else {
        format!("{} Player", POWERS[seat])
    }
}

fn host_in(dir: &std::path::Path, name: &str) -> (Host, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at(1_800_000_000_000));
    let host = Host::new(
        Arc::new(Store::open(&dir.join(name)).unwrap()),
        Registry::default().with::<Diplomacy>(),
        clock.clone(),
        HostSettings {
            ai_budget_ms: 50,
            reminder_percent: 0,
        },
    );
    (host, clock)
}

/// A started game with `options`: people in every seat but those in `ai`
/// (hold AIs there).
fn started(host: &Host, options: Value, ai: &[usize]) -> GameId {
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: "dip".into(),
            creator_id: user_id(0),
            creator_name: user_name(0),
            options,
            seed: Some(3),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    for s in 1..7 {
        if ai.contains(&s) {
            host.add_ai(id, &user_id(0), Some("hold"), Some(s)).unwrap();
        } else {
            host.join(id, &user_id(s), &user_name(s), Some(s)).unwrap();
        }
    }
    host.start(id, &user_id(0)).unwrap();
    id
}

/// Every announcement queued so far, with where it goes.
fn outbox(host: &Host) -> Vec<(Target, Announcement)> {
    host.unsent(10_000)
        .unwrap()
        .into_iter()
        .map(|i| (i.target, i.announcement.unwrap()))
        .collect()
}

fn press_items(host: &Host) -> Vec<(Target, Announcement)> {
    outbox(host)
        .into_iter()
        .filter(|(_, a)| a.kind == AnnouncementKind::Press)
        .collect()
}

fn user_error(e: HostError) -> String {
    assert!(e.is_user_error(), "not a user error: {e}");
    e.to_string()
}

/// Every person of the game (and a spectator) and what the host shows them.
fn every_view(host: &Host, id: GameId) -> Vec<String> {
    let mut viewers: Vec<Option<String>> = (0..7).map(|s| Some(user_id(s))).collect();
    viewers.push(None);
    viewers
        .into_iter()
        .map(|v| format!("{:?}", host.view(id, v.as_deref()).unwrap()))
        .collect()
}

/// All seven powers send `done` (ends a phase among people).
fn everyone_done(host: &Host, id: GameId) {
    for s in 0..7 {
        host.submit(Some(id), &user_id(s), "done").unwrap();
    }
}

#[test]
fn anonymous_press_never_exposes_the_sender_to_anyone() {
    let dir = tempfile::tempdir().unwrap();
    let (with, _) = host_in(dir.path(), "with.db");
    let (without, _) = host_in(dir.path(), "without.db");
    let a = started(&with, json!({"press": "anonymous"}), &[]);
    let b = started(&without, json!({"press": "anonymous"}), &[]);
    assert_eq!(a, b);

    let sent = with
        .send_press(None, FRANCE_ID, "Germany", "Bounce in Burgundy?")
        .unwrap();
    assert_eq!(sent.delivered, ["Germany"]);
    with.send_press(Some(a), FRANCE_ID, "all", "Peace in the west.")
        .unwrap();
    with.send_press(Some(a), FRANCE_ID, "e, i", "Lepanto is a trap.")
        .unwrap();

    let check = |stage: &str| {
        // Every view, of every player and of a spectator, is the same as in
        // the game without press.
        assert_eq!(
            every_view(&with, a),
            every_view(&without, b),
            "{stage}: a view changed"
        );
        // Every announcement but the relayed press is the same too.
        let others: Vec<_> = outbox(&with)
            .into_iter()
            .filter(|(_, x)| x.kind != AnnouncementKind::Press)
            .collect();
        assert_eq!(others, outbox(&without), "{stage}: an announcement changed");
        // And the press names France, never its player.
        let press = press_items(&with);
        assert_eq!(press.len(), 1 + 6 + 2, "{press:#?}");
        for (target, x) in &press {
            let all = format!("{target:?} {x:?}");
            for secret in [FRANCE_ID, FRANCE_NAME, "Francesca", "Quill"] {
                assert!(!all.contains(secret), "{stage}: {secret} in {all}");
            }
            assert!(x.text.starts_with("From France to "), "{}", x.text);
            assert_ne!(
                *target,
                Target::User(FRANCE_ID.into()),
                "sent back to France"
            );
        }
    };
    check("before the phase resolves");
    // The press changes nothing in the game: the same phase resolves the same.
    everyone_done(&with, a);
    everyone_done(&without, b);
    assert_eq!(with.game(a).unwrap().turn, 1);
    check("after the phase resolved");

    let to_germany: Vec<_> = press_items(&with)
        .into_iter()
        .filter(|(t, _)| *t == Target::User(user_id(3)))
        .map(|(_, x)| x.text)
        .collect();
    assert_eq!(to_germany.len(), 2, "{to_germany:?}");
    assert!(
        to_germany[0].starts_with("From France to Germany (diplomacy #1, Spring 1901 movement"),
        "{}",
        to_germany[0]
    );
    assert!(to_germany[0].ends_with("\nBounce in Burgundy?"));
    assert!(to_germany[1].starts_with("From France to all powers"));
}

#[test]
fn full_press_signs_with_the_power_and_the_players_name() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, Value::Null, &[]);
    assert_eq!(
        host.press_rule(id).unwrap(),
        games::diplomacy::game::PressRule::Full
    );
    host.send_press(Some(id), FRANCE_ID, "germany", "Hello")
        .unwrap();
    let press = press_items(&host);
    assert_eq!(press.len(), 1);
    assert_eq!(press[0].0, Target::User(user_id(3)));
    assert!(
        press[0]
            .1
            .text
            .starts_with("From France (Francesca Quill) to Germany"),
        "{}",
        press[0].1.text
    );
}

#[test]
fn gunboat_refuses_every_relay_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, json!({"press": "gunboat"}), &[]);
    for to in ["Germany", "all", "e,i"] {
        let e = user_error(host.send_press(Some(id), FRANCE_ID, to, "Hi").unwrap_err());
        assert!(e.contains("gunboat game: no press"), "{e}");
        assert!(e.contains("orders alone"), "{e}");
    }
    assert!(press_items(&host).is_empty());
    host.abort(id, &user_id(0), false).unwrap();
    assert!(host.press_log(id).unwrap().is_empty(), "nothing was stored");
}

#[test]
fn public_only_refuses_private_messages_and_broadcasts_to_all() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, json!({"press": "public-only"}), &[]);
    for to in ["Germany", "Germany, Italy", "e i g a r t"] {
        let e = user_error(
            host.send_press(Some(id), FRANCE_ID, to, "psst")
                .unwrap_err(),
        );
        assert!(e.contains("public press only"), "{e}");
        assert!(e.contains("`to:all`"), "{e}");
    }
    assert!(press_items(&host).is_empty());
    let sent = host
        .send_press(Some(id), FRANCE_ID, "all", "To everyone")
        .unwrap();
    assert_eq!(
        sent.delivered,
        ["Austria", "England", "Germany", "Italy", "Russia", "Turkey"]
    );
    let targets: Vec<Target> = press_items(&host).into_iter().map(|(t, _)| t).collect();
    let expected: Vec<Target> = [0, 1, 3, 4, 5, 6]
        .iter()
        .map(|&s| Target::User(user_id(s)))
        .collect();
    assert_eq!(targets, expected);
}

/// Takes every unit and centre from `power` in the stored position: the
/// power is out of the game (as after losing its last centre).
fn eliminate(host: &Host, id: GameId, power: &str) {
    let row = host.game(id).unwrap();
    let mut state: Value = serde_json::from_str(row.state.as_deref().unwrap()).unwrap();
    // Saved games hold a power as its place in the map's table.
    let saved = json!(
        games::diplomacy::geo::Map::standard()
            .parse_power(power)
            .unwrap()
            .index()
    );
    state["units"]
        .as_array_mut()
        .unwrap()
        .retain(|u| u["power"] != saved);
    for o in state["owners"].as_array_mut().unwrap() {
        if *o == saved {
            *o = Value::Null;
        }
    }
    let g: Diplomacy = serde_json::from_value(state.clone()).unwrap();
    let p = games::diplomacy::geo::Map::standard()
        .parse_power(power)
        .unwrap();
    assert!(!g.alive(p), "{power} still alive");
    let c = rusqlite::Connection::open(host.store().path()).unwrap();
    c.execute(
        "UPDATE games SET state = ?1 WHERE id = ?2",
        rusqlite::params![state.to_string(), id],
    )
    .unwrap();
}

#[test]
fn eliminated_powers_receive_nothing_and_send_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, json!({"press": "anonymous"}), &[]);
    eliminate(&host, id, "Russia");
    let sent = host
        .send_press(Some(id), FRANCE_ID, "all", "Russia is gone")
        .unwrap();
    assert_eq!(sent.eliminated, ["Russia"]);
    assert!(!sent.delivered.contains(&"Russia".to_string()));
    assert_eq!(sent.delivered.len(), 5);
    let e = user_error(
        host.send_press(Some(id), FRANCE_ID, "Russia", "Hello?")
            .unwrap_err(),
    );
    assert!(e.contains("Russia is out of the game"), "{e}");
    let e = user_error(
        host.send_press(Some(id), &user_id(5), "France", "I am back")
            .unwrap_err(),
    );
    assert!(e.contains("Eliminated powers send no press"), "{e}");
    let russia = Target::User(user_id(5));
    assert!(
        press_items(&host).iter().all(|(t, _)| *t != russia),
        "press reached Russia"
    );
}

#[test]
fn ai_seats_get_nothing_and_the_sender_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, Value::Null, &[3, 4]);
    let sent = host
        .send_press(Some(id), FRANCE_ID, "Germany,Italy,England", "Alliance?")
        .unwrap();
    assert_eq!(sent.delivered, ["England"]);
    assert_eq!(sent.to_ai, ["Germany", "Italy"]);
    let press = press_items(&host);
    assert_eq!(press.len(), 1);
    assert_eq!(press[0].0, Target::User(user_id(1)));
    // Stored all the same, for the log after the end.
    host.abort(id, &user_id(0), false).unwrap();
    let log = host.press_log(id).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].to, ["England", "Germany", "Italy"]);
}

#[test]
fn bad_recipients_and_sizes_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let (host, clock) = host_in(dir.path(), "d.db");
    let id = started(&host, Value::Null, &[]);
    let cases = [
        ("Atlantis", "x", "`Atlantis` is not a power"),
        ("France", "x", "That is you (France)"),
        ("", "x", "Nobody is named"),
        ("Germany", "   ", "Your message is empty"),
    ];
    for (to, text, want) in cases {
        let e = user_error(host.send_press(Some(id), FRANCE_ID, to, text).unwrap_err());
        assert!(e.contains(want), "{to:?}: {e}");
    }
    let long = "x".repeat(PRESS_MAX_CHARS + 1);
    let e = user_error(
        host.send_press(Some(id), FRANCE_ID, "Germany", &long)
            .unwrap_err(),
    );
    assert!(
        e.contains("1701 characters") && e.contains("at most 1700"),
        "{e}"
    );
    // The largest message goes out whole.
    host.send_press(Some(id), FRANCE_ID, "Germany", &long[1..])
        .unwrap();
    // Not a player: refused.
    let e = user_error(
        host.send_press(Some(id), "stranger", "Germany", "hi")
            .unwrap_err(),
    );
    assert!(e.contains("do not play"), "{e}");
    // The rate limit: PRESS_PER_MINUTE in any minute (one already sent).
    for _ in 1..PRESS_PER_MINUTE {
        host.send_press(Some(id), FRANCE_ID, "Germany", "again")
            .unwrap();
    }
    let e = user_error(
        host.send_press(Some(id), FRANCE_ID, "Germany", "once more")
            .unwrap_err(),
    );
    assert!(
        e.contains("in the last minute") && e.contains("5 a minute"),
        "{e}"
    );
    // Another power is not limited by France's messages.
    host.send_press(Some(id), &user_id(3), "France", "calm down")
        .unwrap();
    clock.advance(60_001);
    host.send_press(Some(id), FRANCE_ID, "Germany", "a minute later")
        .unwrap();
}

#[test]
fn the_longest_relay_fits_one_discord_message_with_its_link() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let long_name = "N".repeat(100);
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: "dip".into(),
            creator_id: "a".into(),
            creator_name: long_name.clone(),
            options: json!({"press": "full"}),
            seed: Some(1),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    for s in 1..7 {
        host.join(id, &format!("p{s}"), &long_name, Some(s))
            .unwrap();
    }
    host.start(id, "a").unwrap();
    // Austria to the six others by name: the longest header there is.
    host.send_press(
        Some(id),
        "a",
        "England, France, Germany, Italy, Russia, Turkey",
        &"x".repeat(PRESS_MAX_CHARS),
    )
    .unwrap();
    // The front-end adds a line linking the channel: "Game channel:
    // https://discord.com/channels/<guild>/<channel>", at most 90 characters.
    let link = 1 + 90;
    for (_, a) in press_items(&host) {
        let n = a.text.chars().count();
        assert!(n + link <= 2000, "{n} characters: {}", &a.text[..300]);
        assert!(a.text.contains(&"N".repeat(40)) && !a.text.contains(&"N".repeat(41)));
    }
}

#[test]
fn an_unknown_press_rule_is_refused_when_the_game_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let e = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: None,
            channel_id: "dip".into(),
            creator_id: "a".into(),
            creator_name: "A".into(),
            options: host::parse_game_options("press=secret").unwrap(),
            seed: Some(1),
            turn_seconds: None,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap_err()
        .to_string();
    for want in [
        "`press`",
        "secret",
        "full",
        "anonymous",
        "public-only",
        "gunboat",
    ] {
        assert!(e.contains(want), "{want:?} missing: {e}");
    }
}

#[test]
fn the_press_log_is_sealed_until_the_game_ends_then_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, json!({"press": "anonymous"}), &[]);
    host.send_press(Some(id), FRANCE_ID, "Germany", "one")
        .unwrap();
    host.send_press(Some(id), &user_id(3), "France,England", "two")
        .unwrap();
    everyone_done(&host, id);
    host.send_press(Some(id), &user_id(6), "all", "three")
        .unwrap();

    let e = user_error(host.press_log(id).unwrap_err());
    assert!(e.contains("sealed while the game is running"), "{e}");
    let w = host.watch(id, "spectator").unwrap();
    assert_eq!(w.press, None);
    assert_eq!(w.view, host.view(id, None).unwrap());

    // Every power votes for a draw: the game finishes.
    for s in 0..7 {
        host.submit(Some(id), &user_id(s), "draw\ndone").unwrap();
    }
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    let log = host.press_log(id).unwrap();
    let got: Vec<(String, String, bool, Vec<String>, String)> = log
        .iter()
        .map(|e| {
            (
                e.phase.clone(),
                e.from.clone(),
                e.to_all,
                e.to.clone(),
                e.text.clone(),
            )
        })
        .collect();
    let s = |x: &str| x.to_string();
    assert_eq!(
        got,
        vec![
            (
                s("Spring 1901 movement"),
                s("France"),
                false,
                vec![s("Germany")],
                s("one")
            ),
            (
                s("Spring 1901 movement"),
                s("Germany"),
                false,
                vec![s("England"), s("France")],
                s("two")
            ),
            (
                s("Fall 1901 movement"),
                s("Turkey"),
                true,
                POWERS[..6].iter().map(|p| s(p)).collect(),
                s("three")
            ),
        ]
    );
    let w = host.watch(id, "spectator").unwrap();
    assert_eq!(w.press.as_ref(), Some(&log));
}

#[test]
fn watch_is_for_people_outside_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host_in(dir.path(), "d.db");
    let id = started(&host, Value::Null, &[4, 5, 6]);
    host.submit(Some(id), FRANCE_ID, "A Par - Bur\ndone")
        .unwrap();
    let e = user_error(host.watch(id, FRANCE_ID).unwrap_err());
    assert!(
        e.contains("(France)") && e.contains("not a spectator"),
        "{e}"
    );
    let w = host.watch(id, "spectator").unwrap();
    // The public view: nobody's pending orders, no seat of the watcher.
    assert_eq!(w.view.viewer_seat, None);
    assert_eq!(w.view.own_pending, None);
    assert_eq!(w.view, host.view(id, None).unwrap());
    let own = host.view(id, Some(FRANCE_ID)).unwrap().own_pending;
    assert!(
        own.is_some_and(|p| p.contains("Bur")),
        "France's own view has the order"
    );
    assert!(
        w.view.seats.iter().any(|s| s.acted),
        "France's move shows as made"
    );
}

// ---------------------------------------------------------------------------
// The real bot against the fake Discord.

use support::commands::{command, opt, press_reply};
use support::messages::{count_in_channel, count_in_dms, dm_with};
use support::setup::diplomacy_against_holding_ais;
use support::{ALICE, BOB, CAROL, Harness, MOD};

const CH: u64 = 3_700_000_000_000_001;

/// Alice plays France, Bob Germany, Carol England, hold AIs the rest, in a
/// game made with `options`; started.
async fn three_players(h: &Harness, ch: u64, options: &str) {
    let reply = command(
        &h.fake,
        ALICE,
        ch,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("diplomacy")),
            opt("play", 5, json!(false)),
            opt("options", 3, json!(options)),
        ]),
    )
    .await;
    assert!(reply.contains("Created diplomacy"), "{reply}");
    for (user, seat) in [(ALICE, 3), (BOB, 4), (CAROL, 2)] {
        let r = command(
            &h.fake,
            user,
            ch,
            &["game", "join"],
            json!([opt("seat", 4, json!(seat))]),
        )
        .await;
        assert!(r.contains(&format!("seat {seat}")), "{r}");
    }
    for _ in 0..4 {
        let r = command(
            &h.fake,
            ALICE,
            ch,
            &["game", "ai"],
            json!([opt("level", 3, json!("hold"))]),
        )
        .await;
        assert!(r.contains("AI"), "{r}");
    }
    let r = command(&h.fake, ALICE, ch, &["game", "start"], json!([])).await;
    assert!(r.contains("started"), "{r}");
}

/// `/press` typed in `user`'s DM with the bot; the reply's text.
async fn press_in_dm(h: &Harness, user: u64, to: &str, text: &str) -> String {
    let dm = h.fake.dm_channel(user);
    let t = h.fake.slash_as(
        user,
        dm,
        &["press"],
        json!([opt("to", 3, json!(to)), opt("text", 3, json!(text))]),
        false,
        false,
    );
    h.fake.reply_text(&t).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_press_reaches_only_the_recipient_as_from_france() {
    let h = Harness::start_in_guild().await;
    three_players(&h, CH, "press=anonymous").await;
    let prompt = dm_with(&h.fake, BOB, "How to order").await;
    dm_with(&h.fake, ALICE, "How to order").await;
    dm_with(&h.fake, CAROL, "How to order").await;
    h.delivered().await;

    // The desk's button explains /press under this game's rule.
    let how = press_reply(&h.fake, BOB, &prompt, "Send press…").await;
    assert!(
        how.contains("anonymous press") && how.contains("/press to:"),
        "{how}"
    );

    // Alice (France) writes to Germany from her DM, where /press exists
    // although the bot registers its other commands in one server.
    const SECRET: &str = "Shall we bounce in Burgundy? Tell nobody.";
    let reply = press_in_dm(&h, ALICE, "Germany", SECRET).await;
    assert!(reply.contains("sent by DM to Germany"), "{reply}");
    assert!(reply.contains("\"From France\""), "{reply}");
    let got = dm_with(&h.fake, BOB, SECRET).await;
    let text = got.text();
    assert!(
        text.starts_with("From France to Germany (diplomacy #1"),
        "{text}"
    );
    assert!(
        !text.contains("Alice") && !text.contains(&ALICE.to_string()),
        "{text}"
    );
    h.delivered().await;
    // Nobody else's DM, and not the channel.
    {
        let s = h.fake.state();
        let holders: Vec<_> = s
            .messages
            .iter()
            .filter(|m| m.text().contains(SECRET))
            .collect();
        assert_eq!(holders.len(), 1, "{}", s.dump());
        assert_eq!(holders[0].dm_user, Some(BOB), "{}", s.dump());
    }
    assert_eq!(count_in_dms(&h.fake, CAROL, SECRET), 0);
    assert_eq!(count_in_dms(&h.fake, ALICE, SECRET), 0);
    assert_eq!(count_in_channel(&h.fake, CH, SECRET), 0);
    assert_eq!(count_in_channel(&h.fake, CH, "From France"), 0);

    // A recipient whose DMs are closed: nothing goes to the channel
    // instead (not even that someone wrote to them).
    h.fake.close_dms(CAROL);
    let in_channel = h.fake.state().channel(CH).len();
    let reply = press_in_dm(&h, ALICE, "England", "Are you there?").await;
    assert!(reply.contains("sent by DM to England"), "{reply}");
    h.delivered().await;
    let (now_in_channel, dump) = {
        let s = h.fake.state();
        (s.channel(CH).len(), s.dump())
    };
    assert_eq!(now_in_channel, in_channel, "{dump}");
    assert_eq!(count_in_dms(&h.fake, CAROL, "Are you there?"), 0);

    // To an AI seat: kept, read by nobody, and the sender is told.
    let reply = press_in_dm(&h, ALICE, "Italy", "Lepanto?").await;
    assert!(reply.contains("Italy is played by the AI"), "{reply}");

    // A stranger watches: the public view, no press while the game runs.
    let w = command(&h.fake, MOD, CH, &["game", "watch"], json!([])).await;
    assert!(
        w.contains("Watching") && w.contains("France: <@"),
        "{w}\n{:#?}",
        h.fake.state().rejected
    );
    assert!(w.contains("revealed here once it ends"), "{w}");
    assert!(!w.contains(SECRET), "{w}");
    // A player is told to use their own view.
    let w = command(&h.fake, ALICE, CH, &["game", "watch"], json!([])).await;
    assert!(w.contains("not a spectator"), "{w}");
    // The log is sealed until the end, then whole.
    let sealed = command(&h.fake, MOD, CH, &["game", "press"], json!([])).await;
    assert!(sealed.contains("sealed"), "{sealed}");
    let r = command(&h.fake, ALICE, CH, &["game", "abort"], json!([])).await;
    assert!(r.contains("aborted"), "{r}");
    // The game's history points to its press once it is over.
    let history = command(&h.fake, BOB, CH, &["game", "history"], json!([])).await;
    assert!(history.contains("`/game press id:1`"), "{history}");
    let log = command(
        &h.fake,
        MOD,
        CH,
        &["game", "watch"],
        json!([opt("id", 4, json!(1))]),
    )
    .await;
    assert!(
        log.contains("France to Germany:") && log.contains(SECRET),
        "{log}"
    );
    assert!(log.contains("France to Italy:\nLepanto?"), "{log}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gunboat_press_is_refused_with_the_reason() {
    let h = Harness::start().await;
    diplomacy_against_holding_ais(&h, CH, vec![opt("options", 3, json!("press=gunboat"))]).await;
    dm_with(&h.fake, ALICE, "How to order").await;
    let reply = press_in_dm(&h, ALICE, "France", "Hello").await;
    assert!(
        reply.contains("gunboat game: no press") && reply.contains("orders alone"),
        "{reply}"
    );
    let reply = press_in_dm(&h, ALICE, "all", "Hello").await;
    assert!(reply.contains("gunboat"), "{reply}");
    h.finish().await;
}
