//! The Diplomacy order desk in the DM (issue 15): replies that fit, the
//! first DM that teaches, guided orders by menus, and the private map of
//! one's own orders. Engine-level checks first, then the real bot against
//! the fake Discord.

mod support;

use ::games::diplomacy::{Diplomacy, DiplomacyOptions};
use ::games::seam::Game;
use serde_json::json;
use support::commands::opt;
use support::fake_discord::Msg;
use support::messages::{count_in_dms, dm_after, dm_where, dm_with};
use support::setup::diplomacy_against_holding_ais;
use support::*;

const CH: u64 = 3_600_000_000_000_001;
const AUS: usize = 0;

/// The paste of issue 15: 209 lines, about 3,000 characters; the same
/// order 128 times, two other good orders, 79 refused lines of 8 kinds.
const PASTE: &str = include_str!("data/diplomacy_paste_209.txt");

fn new_game() -> Diplomacy {
    Diplomacy::new_game(DiplomacyOptions::default(), 7).unwrap()
}

/// Plays a phase: `orders` for the given seats, every other awaited seat holds.
fn play(g: &mut Diplomacy, orders: &[(usize, &str)]) {
    let mut acts = std::collections::BTreeMap::new();
    for s in g.awaiting() {
        // Holding by choice: a missed deadline would count towards civil disorder.
        acts.insert(s, g.parse_action(s, "done").unwrap());
    }
    for &(s, text) in orders {
        let mut a = g.parse_action(s, text).unwrap();
        a.ready = true;
        acts.insert(s, a);
    }
    g.resolve(acts);
}

/// Winter 1901 with Austria owed two builds (Serbia and Greece taken, Vienna
/// and Budapest and Trieste left empty).
fn winter_with_two_builds() -> Diplomacy {
    let mut g = new_game();
    play(&mut g, &[(AUS, "A Bud - Ser\nA Vie - Gal\nF Tri - Alb")]);
    play(&mut g, &[(AUS, "F Alb - Gre")]);
    assert_eq!(g.phase_name(), "Winter 1901 adjustment");
    g
}

#[test]
fn the_paste_is_answered_once_per_distinct_line() {
    assert_eq!(PASTE.lines().count(), 209);
    let g = new_game();
    let a = g.parse_action(AUS, PASTE).unwrap();
    let text = g.describe_action(AUS, &a);
    // Each accepted order once, in canonical form.
    assert_eq!(a.orders.len(), 3, "{text}");
    assert_eq!(text.matches("A Bud - Ser").count(), 1, "{text}");
    assert!(
        !text.contains("Replaced") && !text.contains("Two orders"),
        "{text}"
    );
    // Each refused line once with its reason and how often it came; the
    // hint once.
    assert_eq!(a.refused.len(), 8, "{:?}", a.refused);
    assert_eq!(a.refused.iter().map(|r| r.times).sum::<usize>(), 79);
    assert!(text.contains("Refused 79 lines"), "{text}");
    assert_eq!(text.matches("Your units:").count(), 1, "{text}");
    assert!(text.chars().count() < 2000, "{} chars:\n{text}", text.len());
}

#[test]
fn an_unchanged_resubmission_says_nothing_and_a_change_says_so_once() {
    let g = new_game();
    let first = g.parse_action(AUS, "A Bud - Ser\nA Vie - Gal").unwrap();
    let again = g.combine(AUS, first.clone(), g.parse_action(AUS, PASTE).unwrap());
    let again = g.combine(AUS, again, g.parse_action(AUS, "A Bud - Ser").unwrap());
    assert!(again.notes.is_empty(), "{:?}", again.notes);
    assert_eq!(again.orders.len(), 3);
    let changed = g.combine(AUS, again, g.parse_action(AUS, "A Bud - Rum").unwrap());
    assert_eq!(changed.notes, ["Changed `A Bud - Ser` to `A Bud - Rum`."]);
    // Two different orders for one unit in one message: the last one, said once.
    let slip = g
        .parse_action(AUS, "A Bud - Ser\nA Bud - Rum\nA Bud - Rum")
        .unwrap();
    assert_eq!(slip.notes.len(), 1, "{:?}", slip.notes);
    assert!(
        g.describe_action(AUS, &slip)
            .contains("No order yet (will hold): A Vie, F Tri")
    );
}

#[test]
fn builds_beyond_the_allowance_are_refused_when_typed_and_hints_count_them() {
    let g = winter_with_two_builds();
    // Three builds in one message: the third is refused at once.
    let a = g
        .parse_action(AUS, "Build A Bud\nBuild A Vie\nBuild F Tri")
        .unwrap();
    assert_eq!(a.orders.len(), 2);
    assert_eq!(a.refused.len(), 1, "{:?}", a.refused);
    assert!(
        a.refused[0].problem.contains("One too many"),
        "{:?}",
        a.refused
    );
    // One build pending, then a second message: one more is fine, a third is refused.
    let one = g.parse_action(AUS, "Build A Bud").unwrap();
    let two = g.combine(
        AUS,
        one.clone(),
        g.parse_action(AUS, "Build A Vie").unwrap(),
    );
    assert_eq!(two.orders.len(), 2);
    let three = g.combine(AUS, two, g.parse_action(AUS, "Build F Tri").unwrap());
    assert_eq!(three.orders.len(), 2, "the third build is not recorded");
    let text = g.describe_action(AUS, &three);
    assert!(text.contains("One too many"), "{text}");
    assert!(!text.contains("You may build"), "{text}");
    // With one build pending, a refused line's hint offers one more, not Budapest.
    let typo = g.combine(AUS, one, g.parse_action(AUS, "Build A Mos\ndraw").unwrap());
    let text = g.describe_action(AUS, &typo);
    assert!(text.contains("You may build 1 more (of 2)"), "{text}");
    assert!(!text.contains("Build A Bud,"), "{text}");
    // The same build twice is one build.
    let twice = g.parse_action(AUS, "Build A Bud\nBuild A Bud").unwrap();
    assert_eq!(twice.orders.len(), 1);
    assert!(twice.refused.is_empty() && twice.notes.is_empty());
}

#[test]
fn a_refused_line_hints_with_orders_of_the_powers_own_units() {
    let g = new_game();
    for power in ::games::diplomacy::geo::Map::standard().powers() {
        let refusal = g.check_line(power, "A Par - Mos").unwrap_err();
        let hint = refusal.expected;
        let examples: Vec<&str> = hint.split('`').skip(1).step_by(2).collect();
        assert!(examples.len() >= 2, "{power:?}: {hint}");
        for ex in &examples {
            assert!(
                g.check_line(power, ex).is_ok(),
                "{power:?}: `{ex}` is refused\n{hint}"
            );
        }
        // Nobody but France is shown France's opening.
        assert_eq!(
            hint.contains("A Par - Bur"),
            power == std_power("France") && examples.contains(&"A Par - Bur"),
            "{power:?}: {hint}"
        );
    }
}

#[test]
fn an_army_ordered_to_a_coast_moves_to_the_province_and_is_echoed_so() {
    let g = new_game();
    // Spring 1901: France's army in Marseilles may move to Spain.
    let typed = g.check_line(std_power("France"), "A Mar - Spa/sc").unwrap();
    let plain = g.check_line(std_power("France"), "A Mar - Spa").unwrap();
    assert_eq!(typed, plain);
    let m = ::games::diplomacy::geo::Map::standard();
    assert_eq!(typed.canonical(m), "A Mar - Spa");
    // A fleet keeps its coast: it is part of the order.
    let fleet = g.check_line(std_power("Russia"), "F Stp/sc - Bot").unwrap();
    assert_eq!(fleet.canonical(m), "F Stp/sc - Bot");
}

/// The bot's messages to `user` after the message `after`.
fn dms_after(h: &Harness, user: u64, after: u64) -> Vec<Msg> {
    h.fake
        .state()
        .dms(user)
        .into_iter()
        .filter(|m| m.id > after)
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_block_gets_one_receipt_that_fits() {
    let h = Harness::start().await;
    diplomacy_against_holding_ais(&h, CH, vec![opt("deadline", 3, json!("1d"))]).await;
    dm_with(&h.fake, ALICE, "Your move").await;
    h.delivered().await;
    let sent = h.fake.dm(ALICE, PASTE);
    dm_where(&h.fake, ALICE, "the end of the receipt", |m| {
        m.id > sent && m.text().contains("You can send more")
    })
    .await;
    let replies = dms_after(&h, ALICE, sent);
    let chars: usize = replies.iter().map(|m| m.content().chars().count()).sum();
    let all: String = replies
        .iter()
        .map(|m| m.content())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        replies.len() <= 2,
        "{} DMs, {chars} characters:\n{all}",
        replies.len()
    );
    assert!(!all.contains("Replaced"), "{all}");
    assert_eq!(all.matches("A Bud - Ser").count(), 1, "{all}");
    assert_eq!(all.matches("Your units:").count(), 1, "{all}");
    // The same paste again changes nothing: still one short receipt, no
    // change reported.
    let again = h.fake.dm(ALICE, PASTE);
    dm_where(&h.fake, ALICE, "the second receipt", |m| {
        m.id > again && m.text().contains("You can send more")
    })
    .await;
    let replies = dms_after(&h, ALICE, again);
    let all: String = replies
        .iter()
        .map(|m| m.content())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(replies.len() <= 2, "{all}");
    assert!(
        !all.contains("Changed") && !all.contains("Replaced"),
        "{all}"
    );
    let _ = dm_after;
    h.finish().await;
}

/// The first DM of a game teaches: Austria's units and all three centres,
/// three example orders for those very units that the engine accepts, how
/// to finish (`done` or Ready), and the deadline as Discord timestamps.
fn first_dm_teaches(text: &str, deadline_ms: i64) {
    assert!(
        text.contains("Your centres (3): Budapest, Trieste, Vienna"),
        "{text}"
    );
    let block = text
        .split("```")
        .nth(1)
        .unwrap_or_else(|| panic!("no example block:\n{text}"));
    let examples: Vec<&str> = block.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(examples.len(), 3, "{examples:?}");
    let g = new_game();
    for (ex, unit) in examples.iter().zip(["A Vie", "A Bud", "F Tri"]) {
        assert!(ex.starts_with(unit), "{ex} is not for {unit}");
        let power = g.power_of_seat(AUS).unwrap();
        assert!(g.check_line(power, ex).is_ok(), "{ex} is refused");
    }
    assert!(
        text.contains("`done`") && text.contains("**Ready**"),
        "{text}"
    );
    let s = deadline_ms / 1000;
    assert!(text.contains(&format!("<t:{s}:f> (<t:{s}:R>)")), "{text}");
}

/// The select menu options of a message: (label, value) of every menu.
fn options(m: &Msg) -> Vec<(String, String)> {
    m.selects().into_iter().flat_map(|(_, o)| o).collect()
}

/// Picks `value` in the select menu of `m` that offers it, as `user`, and
/// returns the desk message after the bot answered (edited in place, or new).
async fn pick(h: &Harness, user: u64, m: &Msg, value: &str) -> Msg {
    let (id, _) = m
        .selects()
        .into_iter()
        .find(|(_, o)| o.iter().any(|(_, v)| v == value))
        .unwrap_or_else(|| panic!("no option {value:?} in {:?}", m.selects()));
    let t = h.fake.select(user, m.id, &id, &[value]);
    answer(h, &t, m.id).await
}

/// Clicks the button labelled `label` on `m` and returns the answer.
async fn click(h: &Harness, user: u64, m: &Msg, label: &str) -> Msg {
    let t = support::commands::press(&h.fake, user, m, label);
    answer(h, &t, m.id).await
}

/// The message an interaction answered with: the edited desk message or a
/// new ephemeral one.
async fn answer(h: &Harness, token: &str, message: u64) -> Msg {
    let tok = token.to_string();
    h.fake
        .wait_for("the desk's answer", move |s| {
            let kind = s.interactions.get(&tok)?.response?;
            match kind {
                // UPDATE_MESSAGE: the desk message itself, edited.
                7 => s.message(message).cloned(),
                _ => s
                    .messages
                    .iter()
                    .rev()
                    .find(|m| m.token.as_deref() == Some(tok.as_str()))
                    .cloned(),
            }
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phase_ordered_through_the_menus_in_a_guild_configured_bot() {
    let h = Harness::start_in_guild().await;
    let ch = CH + 1;
    diplomacy_against_holding_ais(&h, ch, vec![opt("deadline", 3, json!("1d"))]).await;
    // The first DM teaches: power, units, centres, examples, how to finish,
    // the deadline in every reader's time zone; Ready apart from the draw.
    let prompt = dm_with(&h.fake, ALICE, "How to order").await;
    let text = prompt.text();
    for needle in [
        "you are Austria",
        "Your units: A Vie, A Bud, F Tri",
        "Vienna",
        "`done`",
        ":R>)",
        ":f>",
    ] {
        assert!(text.contains(needle), "{needle:?} missing:\n{text}");
    }
    first_dm_teaches(&text, h.host().view(1, None).unwrap().deadline.unwrap());
    transcript("bot to Alice (first DM of the game)", &text);
    let buttons: Vec<String> = prompt.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(
        buttons,
        [
            "Order a unit",
            "Map of my orders",
            "Ready",
            "Propose a draw…",
            "Send press…"
        ]
    );
    let rows = prompt.json["components"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "the draw vote has its own row");
    let map = prompt.file("my_orders.png").expect("the private map");
    std::fs::write("/tmp/desk_prompt_map.png", &*map.data).unwrap();

    // `/orders` exists in the DM although the bot registers in one guild.
    let dm = h.fake.dm_channel(ALICE);
    let t = h
        .fake
        .slash_as(ALICE, dm, &["orders"], json!([]), false, false);
    let list = h.fake.reply_text(&t).await;
    assert!(list.contains("nothing sent this turn"), "{list}");

    // Vienna to Galicia by menus: unit, kind, destination.
    let desk = click(&h, ALICE, &prompt, "Order a unit").await;
    transcript_msg("Alice presses Order a unit", &desk);
    let units: Vec<String> = options(&desk).into_iter().map(|o| o.1).collect();
    assert_eq!(units, ["u:vie", "u:bud", "u:tri"]);
    let kinds = pick(&h, ALICE, &desk, "u:vie").await;
    transcript_msg("Alice picks A Vie", &kinds);
    let labels: Vec<String> = kinds.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["Hold", "Move", "Support", "Back to my units"]);
    let moves = click(&h, ALICE, &kinds, "Move").await;
    transcript_msg("Alice presses Move", &moves);
    let dests: Vec<String> = options(&moves).into_iter().map(|o| o.0).collect();
    assert_eq!(
        dests,
        [
            "A Vie - Boh",
            "A Vie - Bud",
            "A Vie - Gal",
            "A Vie - Tri",
            "A Vie - Tyr"
        ],
        "exactly the legal moves"
    );
    let after = pick(&h, ALICE, &moves, "o:A Vie - Gal").await;
    transcript_msg("Alice picks A Vie - Gal", &after);
    assert!(after.text().contains("A Vie - Gal"), "{}", after.text());
    // Budapest supports it: the supported unit, then the supported move.
    let kinds = pick(&h, ALICE, &after, "u:bud").await;
    let sup = click(&h, ALICE, &kinds, "Support").await;
    let whom: Vec<String> = options(&sup).into_iter().map(|o| o.1).collect();
    assert!(whom.contains(&"f:vie".to_string()), "{whom:?}");
    let what = pick(&h, ALICE, &sup, "f:vie").await;
    transcript_msg("Alice presses Support on A Bud, picks A Vie", &what);
    let supports: Vec<String> = options(&what).into_iter().map(|o| o.0).collect();
    assert!(
        supports.contains(&"A Bud S A Vie - Gal".to_string()),
        "{supports:?}"
    );
    assert!(
        supports.iter().all(|s| s.starts_with("A Bud S A Vie")),
        "{supports:?}"
    );
    let after = pick(&h, ALICE, &what, "o:A Bud S A Vie - Gal").await;
    // Trieste holds by one button.
    let kinds = pick(&h, ALICE, &after, "u:tri").await;
    let done = click(&h, ALICE, &kinds, "Hold").await;
    assert!(done.text().contains("F Tri H"), "{}", done.text());
    assert!(
        h.fake.state().rejected.is_empty(),
        "{}",
        h.fake.state().dump()
    );

    // The menus and typing end in the same pending orders.
    let by_menu = h
        .host()
        .own_pending(1, &ALICE.to_string())
        .unwrap()
        .unwrap();
    let g = new_game();
    let typed = g
        .parse_action(AUS, "A Vie - Gal\nA Bud S A Vie - Gal\nF Tri H")
        .unwrap();
    assert_eq!(by_menu, g.describe_action(AUS, &typed));

    // The private map of those orders, to Alice only.
    let t = support::commands::press(&h.fake, ALICE, &prompt, "Map of my orders");
    h.fake.reply_text(&t).await;
    let map = dm_where(&h.fake, ALICE, "the orders map", |m| {
        m.file("my_orders.png").is_some() && m.text().contains("only you see this")
    })
    .await;
    assert!(map.text().contains("A Bud S A Vie - Gal"), "{}", map.text());
    let png = map.file("my_orders.png").expect("the map image");
    std::fs::write("/tmp/desk_orders_map.png", &*png.data).unwrap();
    assert_ne!(png.data, prompt.file("my_orders.png").unwrap().data);
    {
        let s = h.fake.state();
        let holders: Vec<&Msg> = s
            .messages
            .iter()
            .filter(|m| m.file("my_orders.png").is_some())
            .collect();
        assert!(
            holders
                .iter()
                .all(|m| m.dm_user == Some(ALICE) || m.for_user == Some(ALICE)),
            "the private map went to someone else:\n{}",
            s.dump()
        );
    }
    // Ready by button resolves the phase (the AIs hold).
    let ready = click(&h, ALICE, &prompt, "Ready").await;
    transcript_msg("Alice presses Ready", &ready);
    assert!(ready.text().contains("resolved"), "{}", ready.text());
    h.finish().await;
}

/// Appends one exchange to the docs/games/diplomacy.md transcript, when
/// `GAMEHOST_TRANSCRIPT` names the file to write it to (tests write
/// nothing outside their temporary directories otherwise).
fn transcript(who: &str, text: &str) {
    use std::io::Write;
    let Some(path) = std::env::var_os("GAMEHOST_TRANSCRIPT") else {
        return;
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    writeln!(f, "--- {who}\n{text}").unwrap();
}

/// Appends a message with its buttons and menu options to the transcript.
fn transcript_msg(who: &str, m: &Msg) {
    let mut text = m.text();
    let buttons: Vec<String> = m.buttons().into_iter().map(|b| b.0).collect();
    if !buttons.is_empty() {
        text.push_str(&format!("\n[buttons: {}]", buttons.join(" | ")));
    }
    let menu: Vec<String> = options(m).into_iter().map(|o| o.0).collect();
    if !menu.is_empty() {
        text.push_str(&format!("\n[menu: {}]", menu.join(" | ")));
    }
    transcript(who, &text);
}

/// A Diplomacy game with Alice (Austria) and Bob (England) and five AIs
/// that hold, a day per movement phase; returns when both have their
/// first prompt.
async fn alice_and_bob(h: &Harness, ch: u64) -> (Msg, Msg) {
    support::setup::lobby_with_bob(h, ch, "diplomacy", vec![opt("deadline", 3, json!("1d"))]).await;
    for _ in 0..5 {
        support::setup::add_ai(h, ch, Some("hold")).await;
    }
    support::setup::start(h, ch).await;
    let a = dm_with(&h.fake, ALICE, "How to order").await;
    let b = dm_with(&h.fake, BOB, "How to order").await;
    (a, b)
}

/// Sends `text` to the bot by DM as `user` and returns the receipt.
async fn send_orders(h: &Harness, user: u64, text: &str) -> String {
    let sent = h.fake.dm(user, text);
    let r = dm_where(&h.fake, user, "the receipt", |m| {
        m.id > sent && m.text().contains("You can send more")
    })
    .await;
    r.text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_go_only_to_powers_missing_orders_and_say_what_and_when() {
    let h = Harness::start().await;
    let ch = CH + 2;
    alice_and_bob(&h, ch).await;
    // Alice orders every unit but does not say `done`: her orders stand
    // at the deadline, so she is not reminded. Bob orders one of three.
    send_orders(&h, ALICE, "A Vie - Gal\nA Bud - Ser\nF Tri - Alb").await;
    let receipt = send_orders(&h, BOB, "A Lvp - Yor").await;
    assert!(
        receipt.contains("No order yet (will hold): F Lon, F Edi"),
        "{receipt}"
    );
    h.delivered().await;
    let deadline = h.host().view(1, None).unwrap().deadline.unwrap();
    // 80% of the day gone: the reminder falls due.
    h.advance(20 * 3_600_000);
    let r = dm_with(&h.fake, BOB, "left to move in").await;
    let text = r.text();
    transcript("bot to Bob (reminder)", &text);
    let s = deadline / 1000;
    for needle in [
        "2 of 3 units have no order (F Lon, F Edi); they hold at the deadline.".to_string(),
        format!("<t:{s}:f>"),
        format!("<t:{s}:R>"),
    ] {
        assert!(text.contains(&needle), "{needle:?} missing:\n{text}");
    }
    h.delivered().await;
    assert_eq!(count_in_dms(&h.fake, ALICE, "left to move in"), 0);
    assert_eq!(count_in_dms(&h.fake, BOB, "left to move in"), 1);
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_power_that_sent_nothing_is_reminded_of_every_unit() {
    let h = Harness::start().await;
    let ch = CH + 3;
    alice_and_bob(&h, ch).await;
    send_orders(&h, BOB, "A Lvp - Yor\nF Lon - Nth\nF Edi - Nrg").await;
    h.delivered().await;
    h.advance(20 * 3_600_000);
    let r = dm_with(&h.fake, ALICE, "left to move in").await;
    assert!(
        r.text()
            .contains("3 of 3 units have no order (A Vie, A Bud, F Tri)"),
        "{}",
        r.text()
    );
    h.delivered().await;
    assert_eq!(count_in_dms(&h.fake, BOB, "left to move in"), 0);
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orders_list_shows_orders_and_units_without_one_not_old_notes() {
    let h = Harness::start().await;
    let ch = CH + 4;
    diplomacy_against_holding_ais(&h, ch, vec![opt("deadline", 3, json!("1d"))]).await;
    dm_with(&h.fake, ALICE, "How to order").await;
    let dm = h.fake.dm_channel(ALICE);
    let list = |h: &Harness| {
        h.fake
            .slash_as(ALICE, dm, &["orders"], json!([]), false, false)
    };
    let t = list(&h);
    let before = h.fake.reply_text(&t).await;
    assert!(
        before.contains("nothing sent this turn. No orders yet (all hold): A Vie, A Bud, F Tri"),
        "{before}"
    );
    // Two orders for Budapest in one message: the receipt says which stays.
    let receipt = send_orders(&h, ALICE, "A Bud - Ser\nA Bud - Rum\nA Vie - Bud").await;
    transcript("Alice", "A Bud - Ser\nA Bud - Rum\nA Vie - Bud");
    transcript("bot", &receipt);
    assert!(receipt.contains("Two orders for `A Bud`"), "{receipt}");
    // The list shows the orders and the unit without one, not that note.
    let t = list(&h);
    let listed = h.fake.reply_text(&t).await;
    transcript("Alice: /orders", &listed);
    for needle in [
        "A Bud - Rum",
        "A Vie - Bud",
        "No order yet (will hold): F Tri",
    ] {
        assert!(listed.contains(needle), "{needle:?} missing:\n{listed}");
    }
    assert!(!listed.contains("Two orders"), "{listed}");
    assert!(!listed.contains("A Bud - Ser"), "{listed}");
    // A refused line is reported once, in its receipt, and not listed after.
    let receipt = send_orders(&h, ALICE, "F Tri - Vie\nA Vie - Gal").await;
    transcript("Alice", "F Tri - Vie\nA Vie - Gal");
    transcript("bot", &receipt);
    assert!(receipt.contains("Refused 1 line"), "{receipt}");
    assert!(
        receipt.contains("Changed `A Vie - Bud` to `A Vie - Gal`."),
        "{receipt}"
    );
    let t = list(&h);
    let listed = h.fake.reply_text(&t).await;
    assert!(
        !listed.contains("Refused") && !listed.contains("Changed"),
        "{listed}"
    );
    assert!(
        listed.contains("No order yet (will hold): F Tri"),
        "{listed}"
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_vote_is_confirmed_apart_from_ready_and_can_be_withdrawn() {
    let h = Harness::start().await;
    let ch = CH + 5;
    diplomacy_against_holding_ais(&h, ch, vec![opt("deadline", 3, json!("1d"))]).await;
    let prompt = dm_with(&h.fake, ALICE, "How to order").await;
    // Proposing asks first; nothing is recorded yet.
    let ask = click(&h, ALICE, &prompt, "Propose a draw…").await;
    transcript("Alice presses Propose a draw…", &ask.text());
    assert!(ask.text().contains("Vote for a draw?"), "{}", ask.text());
    let labels: Vec<String> = ask.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["Yes, vote for a draw", "Withdraw my draw vote"]);
    assert!(
        h.host()
            .own_pending(1, &ALICE.to_string())
            .unwrap()
            .is_none()
    );
    // Confirmed: the vote is recorded, and Alice is not made ready by it.
    let voted = click(&h, ALICE, &ask, "Yes, vote for a draw").await;
    transcript("Alice presses Yes, vote for a draw", &voted.text());
    assert!(
        voted.text().contains("Votes for a draw."),
        "{}",
        voted.text()
    );
    let pending = h
        .host()
        .own_pending(1, &ALICE.to_string())
        .unwrap()
        .unwrap();
    assert!(pending.contains("Votes for a draw."), "{pending}");
    assert!(pending.contains("Not final"), "{pending}");
    // Withdrawn from the same question, asked again.
    let ask = click(&h, ALICE, &prompt, "Propose a draw…").await;
    let withdrawn = click(&h, ALICE, &ask, "Withdraw my draw vote").await;
    assert!(
        withdrawn.text().contains("Withdraws any draw vote."),
        "{}",
        withdrawn.text()
    );
    let pending = h
        .host()
        .own_pending(1, &ALICE.to_string())
        .unwrap()
        .unwrap();
    assert!(!pending.contains("Votes for a draw"), "{pending}");
    assert!(pending.contains("Not final"), "{pending}");
    // The phase is still waiting for Alice: the draw did not end it.
    assert_eq!(h.host().view(1, None).unwrap().turn, 0);
    h.finish().await;
}

/// The reminders waiting in the outbox.
fn reminders(h: &host::Host) -> Vec<host::Announcement> {
    h.unsent(1000)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.announcement.ok())
        .filter(|a| a.kind == host::AnnouncementKind::Reminder)
        .collect()
}

#[test]
fn a_power_with_every_unit_ordered_is_reminded_only_when_it_would_forfeit() {
    use store::TimeoutPolicy;
    for policy in [
        TimeoutPolicy::Default,
        TimeoutPolicy::Ai,
        TimeoutPolicy::Forfeit,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let clock = std::sync::Arc::new(host::ManualClock::at(0));
        // Reminders at a fifth of the turn left.
        let h = support::host_builder::diplomacy_host(
            &dir.path().join("g.db"),
            clock.clone(),
            support::host_builder::settings(50, 20),
        );
        let id = h
            .create_game(host::NewGame {
                kind: "diplomacy".into(),
                guild_id: None,
                channel_id: "c".into(),
                creator_id: "alice".into(),
                creator_name: "Alice".into(),
                options: serde_json::Value::Null,
                seed: Some(1),
                turn_seconds: Some(3600),
                timeout_policy: policy,
                creator_plays: true,
            })
            .unwrap();
        for _ in 1..7 {
            h.add_ai(id, "alice", Some("hold"), None).unwrap();
        }
        h.start(id, "alice").unwrap();
        h.run_ai_turns(Some(id), 100).unwrap();
        // Every unit ordered, not `done`.
        h.submit(Some(id), "alice", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb")
            .unwrap();
        clock.advance(2_900_000);
        h.fire_due_deadlines().unwrap();
        let sent = reminders(&h);
        if policy == TimeoutPolicy::Forfeit {
            // Only a final action counts under forfeit: she is reminded.
            assert_eq!(sent.len(), 1, "{policy:?}");
            assert_eq!(sent[0].deadline, Some(3_600_000));
            continue;
        }
        assert!(sent.is_empty(), "{policy:?}: {sent:?}");
        // At the deadline her orders stand as sent, and no miss is counted.
        clock.advance(800_000);
        h.fire_due_deadlines().unwrap();
        let g: Diplomacy =
            serde_json::from_str(h.game(id).unwrap().state.as_deref().unwrap()).unwrap();
        let m = ::games::diplomacy::geo::Map::standard();
        let mut at: Vec<String> = g
            .units()
            .iter()
            .filter(|u| u.power == std_power("Austria"))
            .map(|u| ::games::diplomacy::order::unit_name(m, u))
            .collect();
        at.sort();
        assert_eq!(at, ["A Gal", "A Ser", "F Alb"], "{policy:?}");
        assert_eq!(g.missed_moves(std_power("Austria")), 0, "{policy:?}");
    }
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
