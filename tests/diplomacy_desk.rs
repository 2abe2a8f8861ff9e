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
use support::messages::{dm_after, dm_where, dm_with};
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
    let units: Vec<String> = options(&desk).into_iter().map(|o| o.1).collect();
    assert_eq!(units, ["u:vie", "u:bud", "u:tri"]);
    let kinds = pick(&h, ALICE, &desk, "u:vie").await;
    let labels: Vec<String> = kinds.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["Hold", "Move", "Support", "Back to my units"]);
    let moves = click(&h, ALICE, &kinds, "Move").await;
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
    assert!(after.text().contains("A Vie - Gal"), "{}", after.text());
    // Budapest supports it: the supported unit, then the supported move.
    let kinds = pick(&h, ALICE, &after, "u:bud").await;
    let sup = click(&h, ALICE, &kinds, "Support").await;
    let whom: Vec<String> = options(&sup).into_iter().map(|o| o.1).collect();
    assert!(whom.contains(&"f:vie".to_string()), "{whom:?}");
    let what = pick(&h, ALICE, &sup, "f:vie").await;
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
    assert!(ready.text().contains("resolved"), "{}", ready.text());
    h.finish().await;
}
