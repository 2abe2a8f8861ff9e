//! The real bot under Discord's rate limits: the fake answers with
//! Discord's `X-RateLimit-*` headers and refuses with 429 what goes over a
//! bucket; the bot must wait as told, lose nothing and post nothing twice.
//!
//! The bot reaches the fake as `https://discord.com` at its TLS address
//! (`[discord] api_address`), so with serenity's rate limiter on: it waits
//! for its buckets and retries a 429 after `retry_after`.

mod support;

use serde_json::json;
use std::collections::HashSet;
use std::time::Duration;
use support::commands::{opt, press_reply};
use support::fake_discord::{Msg, RateLimits};
use support::messages::{channel_msg, count_in_channel};
use support::setup::{add_ai, new_game, start};
use support::*;

const CH: u64 = 2_000_000_000_000_301;

/// The bot on a fake with Discord's rate limits.
async fn limited() -> Harness {
    let h = Harness::start().await;
    h.fake.set_rate_limits(RateLimits::discord());
    h
}

/// A Nim game of Alice against the AI in `ch` whose every board is over
/// 2000 characters (two messages a turn); not started.
async fn big_nim_against_ai(h: &Harness, ch: u64, stones: u32) {
    let options = format!("{{\"stones\": {stones}, \"big\": true}}");
    new_game(h, ch, "nim", vec![opt("options", 3, json!(options))]).await;
    add_ai(h, ch, None).await;
}

/// Alice takes one stone at each prompt until the game is over.
async fn take_one_until_over(h: &Harness, ch: u64) {
    let mut answered = HashSet::new();
    loop {
        let next = h
            .fake
            .wait_for("Alice's next prompt or the end", |s| {
                let msgs = s.channel(ch);
                if msgs.iter().any(|m| m.text().contains("is over")) {
                    return Some(None);
                }
                msgs.into_iter()
                    .rev()
                    .find(|m| m.button("Take 1").is_some() && !answered.contains(&m.id))
                    .map(|m| Some(Msg::clone(m)))
            })
            .await;
        let Some(prompt): Option<Msg> = next else {
            return;
        };
        answered.insert(prompt.id);
        press_reply(&h.fake, ALICE, &prompt, "Take 1").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_on_a_channel_is_waited_out_and_the_message_posted_once() {
    let h = limited().await;
    let ch = CH;
    big_nim_against_ai(&h, ch, 3).await;
    // The lobby's announcements are out: the next message is the start.
    h.delivered().await;
    let retry_after = Duration::from_millis(2500);
    h.fake.fail_next_message_with_429(ch, retry_after);
    start(&h, ch).await;
    channel_msg(&h.fake, ch, "nim #1 started:").await;
    h.finish().await;
    let s = h.fake.state();
    let refused = s.too_many_in(ch);
    assert_eq!(refused.len(), 1, "{}", s.dump());
    let next = refused[0].next_after.expect("the bot tried again");
    assert!(
        next >= retry_after,
        "the bot tried again after {next:?}, not the {retry_after:?} Discord asked for"
    );
    let dump = s.dump();
    drop(s);
    assert_eq!(
        count_in_channel(&h.fake, ch, "nim #1 started:"),
        1,
        "{dump}"
    );
    h.fake.assert_rate_limits_honoured();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_without_code_or_retry_after_header_is_waited_out_by_its_retry_after() {
    // serenity retries a 429 itself only after a `Retry-After` header; this
    // one has none, and its body lacks `code` (optional in Discord's docs),
    // so serenity hands the bot an error whose body it could not decode.
    let h = limited().await;
    let ch = CH + 3;
    big_nim_against_ai(&h, ch, 3).await;
    h.delivered().await;
    // Longer than the delivery's first back-off (0.5 s): a bot waiting that
    // instead of the 429's wait sends too early.
    let retry_after = Duration::from_millis(1300);
    h.fake
        .fail_next_message_with_429_without_retry_after_header(ch, retry_after);
    start(&h, ch).await;
    channel_msg(&h.fake, ch, "nim #1 started:").await;
    h.finish().await;
    let s = h.fake.state();
    let refused = s.too_many_in(ch);
    assert_eq!(refused.len(), 1, "{}", s.dump());
    let next = refused[0].next_after.expect("the bot tried again");
    assert!(
        next >= retry_after,
        "the bot tried again after {next:?}, before the {retry_after:?} Discord asked for"
    );
    // Nor a whole second later (2 s, `Retry-After` rounded up): the wait
    // asked, and a little more for the game's delivery to start again.
    assert!(
        next < retry_after + Duration::from_millis(400),
        "the bot tried again after {next:?}, not soon after the {retry_after:?} Discord asked for"
    );
    let dump = s.dump();
    drop(s);
    assert_eq!(
        count_in_channel(&h.fake, ch, "nim #1 started:"),
        1,
        "{dump}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_at_discords_latency_keeps_every_limit() {
    let h = limited().await;
    let ch = CH + 1;
    h.fake.set_latency(Duration::from_millis(80));
    big_nim_against_ai(&h, ch, 6).await;
    start(&h, ch).await;
    take_one_until_over(&h, ch).await;
    h.finish().await;
    h.fake.assert_rate_limits_honoured();
    // Nothing lost, nothing twice: one start, one end.
    assert_eq!(count_in_channel(&h.fake, ch, "nim #1 started:"), 1);
    assert_eq!(count_in_channel(&h.fake, ch, "is over"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_in_one_channel_waits_for_the_bucket_instead_of_meeting_429s() {
    let h = limited().await;
    let ch = CH + 2;
    big_nim_against_ai(&h, ch, 4).await;
    start(&h, ch).await;
    take_one_until_over(&h, ch).await;
    h.finish().await;
    let s = h.fake.state();
    let creates = s.creates_in(ch);
    assert!(creates.len() > 5, "too few messages to test: {}", s.dump());
    // The sixth message of the 5-per-5-s bucket came after the window,
    // because the bot read the headers (Remaining 0, Reset-After) and
    // waited, not because a 429 sent it back.
    let window = creates[5].at - creates[0].at;
    assert!(window >= Duration::from_secs(5), "{window:?}");
    assert!(s.too_many_in(ch).is_empty(), "{}", s.dump());
    drop(s);
    h.fake.assert_rate_limits_honoured();
}
