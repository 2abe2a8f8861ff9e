//! A game's thread and each player's DMs are delivered by lanes of their
//! own (`crates/discord/src/delivery/lanes.rs`): a prompt does not wait for
//! the thread's rate limits. What must still hold, checked here over many
//! fast turns with Discord's limits on: each channel (the thread, the DM)
//! gets its rows in the order they were queued, none twice, and every turn's
//! report reaches the thread.

mod support;

use serde_json::json;
use std::collections::{BTreeSet, HashSet};
use support::commands::opt;
use support::fake_discord::{FakeDiscord, Msg};
use support::*;

const CH: u64 = 3_000_000_000_000_401;

/// The outbox row, route and part a message was posted for, from its nonce
/// `o{row}q{queued}{route}{part}`.
fn nonce_of(m: &Msg) -> Option<(i64, char, u32)> {
    let nonce = m.json["nonce"].as_str()?.strip_prefix('o')?;
    let (row, rest) = nonce.split_once('q')?;
    let at = rest.find(|c: char| c.is_ascii_alphabetic())?;
    let route = rest[at..].chars().next()?;
    let part = rest[at + 1..].parse().ok()?;
    Some((row.parse().ok()?, route, part))
}

/// Answers Alice's DM prompts of `game` the moment each comes (its first
/// button, or its menu's first choice), `turns` times
/// or until the game is over (its `thread` says so); returns how many she
/// answered.
async fn press_at_once(fake: &FakeDiscord, game: i64, thread: u64, turns: usize) -> usize {
    let label = format!("battle #{game}");
    let mut answered: HashSet<u64> = HashSet::new();
    for turn in 0..turns {
        let (seen, label) = (answered.clone(), label.clone());
        let prompt = fake
            .wait_for("Alice's next prompt or the end", move |s| {
                if s.channel(thread)
                    .iter()
                    .any(|m| m.text().contains(" is over: "))
                {
                    return Some(None);
                }
                s.dms(ALICE)
                    .into_iter()
                    .filter(|m| m.text().contains(&label) && !seen.contains(&m.id))
                    .find(|m| !m.buttons().is_empty() || !m.selects().is_empty())
                    .map(|m| Some(Msg::clone(m)))
            })
            .await;
        let Some(prompt) = prompt else {
            return turn;
        };
        answered.insert(prompt.id);
        match prompt.buttons().into_iter().next() {
            Some((_, id)) => fake.click(ALICE, prompt.id, &id),
            None => {
                let (id, choices) = prompt.selects().into_iter().next().expect("a menu");
                fake.select(ALICE, prompt.id, &id, &[choices[0].1.as_str()])
            }
        };
    }
    turns
}

/// The rows whose messages are in `msgs` (from the bot, with a nonce of
/// `route`), in the order they appear; fails on a message posted twice.
fn rows_in_order(msgs: &[&Msg], route: char, dump: &str) -> Vec<i64> {
    let mut seen = HashSet::new();
    let mut rows = Vec::new();
    for m in msgs {
        let Some((row, r, part)) = nonce_of(m) else {
            continue;
        };
        assert!(
            seen.insert((row, r, part)),
            "row {row} part {part} posted twice:\n{dump}"
        );
        if r == route && rows.last() != Some(&row) {
            rows.push(row);
        }
    }
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_and_reports_each_arrive_once_in_their_channels_order_over_many_fast_turns() {
    // Three battles against the AI, Alice pressing each prompt the moment it
    // comes: turns resolve as fast as the round trips allow, well past the
    // thread's 5 messages and 5 edits in 5 seconds, so its lane lags and
    // catches up while her prompts go on.
    let h = Harness::start().await;
    h.fake.allow_threads();
    let mut games = Vec::new();
    for (i, seed) in [3, 5, 8].into_iter().enumerate() {
        let ch = CH + i as u64;
        let id =
            support::setup::against_ai(&h, ch, "battle", vec![opt("seed", 4, json!(seed))]).await;
        games.push((id, support::setup::thread_of(&h.fake, ch).await));
    }
    let played = futures_util::future::join_all(
        games
            .iter()
            .map(|(id, thread)| press_at_once(&h.fake, *id, *thread, 14)),
    )
    .await;
    h.delivered().await;
    h.finish().await;
    let s = h.fake.state();
    let dump = s.dump();
    for ((id, thread), played) in games.iter().zip(played) {
        assert!(played >= 5, "battle #{id}: too few turns to test: {played}");
        // The thread: every row in the order it was queued, each once.
        let posted = rows_in_order(&s.channel(*thread), 'p', &dump);
        let mut sorted = posted.clone();
        sorted.sort_unstable();
        assert_eq!(posted, sorted, "battle #{id}: the thread's order:\n{dump}");
        // Every turn that resolved has its report there: one message that
        // opens each turn, from the start on.
        let turn = h.host().game(*id).unwrap().turn as usize;
        assert!(
            posted.len() > turn,
            "battle #{id}: {} messages in the thread for {turn} turns:\n{dump}",
            posted.len()
        );
        // Alice's DMs of this game: in order, each once, one prompt a turn
        // she answered.
        let label = format!("battle #{id}");
        let dms: Vec<&Msg> = s
            .dms(ALICE)
            .into_iter()
            .filter(|m| m.text().contains(&label))
            .collect();
        let prompts = rows_in_order(&dms, 'p', &dump);
        let distinct: BTreeSet<i64> = prompts.iter().copied().collect();
        assert_eq!(
            prompts,
            distinct.into_iter().collect::<Vec<_>>(),
            "battle #{id}: Alice's DMs out of order:\n{dump}"
        );
        assert!(
            prompts.len() >= played,
            "battle #{id}: {} prompts, {played} answered",
            prompts.len()
        );
    }
}
