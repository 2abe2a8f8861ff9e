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
