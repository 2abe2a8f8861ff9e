//! Abuse limits: a per-user rate limiter for actions and DMs, and the
//! largest message a player may send.
//!
//! The limiter is pure (the caller passes the clock in milliseconds), so a
//! front-end owns one and asks it before handing a message to the host. A
//! flood gets one polite warning, then silence until the bucket refills.

use super::registry::KindEntry;
use std::collections::HashMap;
use std::io::{BufRead, Read};

/// The longest message any game may accept; defined by the registry, which
/// caps every kind with it, and re-exported here among the other limits.
pub use crate::registry::MAX_ORDERS_CHARS;

/// Longest game options a creator may give, in characters of JSON (the
/// largest real ones, two fixed battle teams, take a few hundred).
pub const MAX_OPTIONS_CHARS: usize = 2000;

/// Checks a player's message against the size limit of its kind (the
/// registry entry's `max_action_chars`); the error is the sentence to show them.
pub fn check_message_size(kind: &KindEntry, text: &str) -> Result<(), String> {
    let (max, kind) = (kind.max_action_chars, kind.name);
    // Count at most max + 1 characters: a huge message costs no more to refuse.
    let n = text.chars().take(max + 1).count();
    if n > max {
        return Err(format!(
            "That message is too long: at most {max} characters are accepted for a move in {kind}."
        ));
    }
    Ok(())
}

/// The longest line, in bytes, a front-end reading text (the terminal)
/// accepts: the longest message of any game at four bytes per character,
/// plus a line ending. Longer lines are skipped without being kept.
pub const MAX_LINE_BYTES: usize = MAX_ORDERS_CHARS * 4 + 2;

/// One line read with a byte cap (see [`read_line_capped`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CappedLine {
    /// A whole line of UTF-8 text, with its line ending.
    Text(String),
    /// The input ended.
    End,
    /// The line was longer than the cap; it was read past and dropped.
    TooLong,
    /// The line is not UTF-8 text; it was dropped.
    NotUtf8,
}

/// Reads one line of at most `max_bytes` bytes (line ending included),
/// keeping at most `max_bytes + 1` bytes in memory whatever the input: a
/// longer line is consumed up to its end and reported as too long.
pub fn read_line_capped<R: BufRead + ?Sized>(
    input: &mut R,
    max_bytes: usize,
) -> std::io::Result<CappedLine> {
    let mut buf = Vec::new();
    let n = (&mut *input)
        .take(max_bytes as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(CappedLine::End);
    }
    if buf.len() > max_bytes {
        if buf.last() != Some(&b'\n') {
            skip_line(input)?;
        }
        return Ok(CappedLine::TooLong);
    }
    Ok(String::from_utf8(buf).map_or(CappedLine::NotUtf8, CappedLine::Text))
}

/// Consumes the input up to and including the next line ending.
fn skip_line<R: BufRead + ?Sized>(input: &mut R) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|b| *b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let len = buf.len();
        input.consume(len);
    }
}

/// Reads the whole input if it has at most `max_bytes` bytes; `None` when
/// it has more (then at most `max_bytes + 1` bytes were read and kept).
pub fn read_all_capped<R: Read + ?Sized>(
    input: &mut R,
    max_bytes: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    (&mut *input)
        .take(max_bytes as u64 + 1)
        .read_to_end(&mut buf)?;
    Ok((buf.len() <= max_bytes).then_some(buf))
}

/// Checks a requested turn deadline (`None` or 0: none) against the minimum
/// of its kind (the registry entry's `min_turn_seconds`); the error is the
/// sentence to show the creator.
pub fn check_turn_seconds(kind: &KindEntry, seconds: Option<u64>) -> Result<(), String> {
    let (min, kind) = (kind.min_turn_seconds, kind.name);
    match seconds {
        Some(s) if s > 0 && s < min => Err(format!(
            "A deadline of {} per turn is too short for {kind}: the minimum is {} \
             (or 0 for no deadline).",
            super::durations::duration_words(s.saturating_mul(1000) as i64),
            super::durations::duration_words(min as i64 * 1000)
        )),
        _ => Ok(()),
    }
}

/// How many deadlines in a row may pass without any person in a game acting
/// before the host ends it as abandoned (`[deadlines] abandon_after`).
pub const DEFAULT_ABANDON_AFTER: u32 = 3;

/// What to do with one message from a user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Handle it.
    Allowed,
    /// Refuse it and say so once, politely (the first refusal of a flood).
    Warn,
    /// Refuse it without a reply (the flood goes on).
    Silent,
}

#[derive(Debug, Clone)]
struct Bucket {
    tokens: f64,
    last_ms: i64,
    warned: bool,
}

/// A token bucket per user: `burst` messages at once, refilled at one token
/// every `refill_ms` milliseconds.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    burst: f64,
    refill_ms: f64,
    buckets: HashMap<String, Bucket>,
}

impl RateLimiter {
    /// A limiter allowing bursts of `burst` (at least 1) and one more message
    /// every `refill_ms` (at least 1) milliseconds.
    pub fn new(burst: u32, refill_ms: u64) -> RateLimiter {
        RateLimiter {
            burst: burst.max(1) as f64,
            refill_ms: refill_ms.max(1) as f64,
            buckets: HashMap::new(),
        }
    }

    /// Takes one token for `user` at time `now_ms`.
    pub fn check(&mut self, user: &str, now_ms: i64) -> Verdict {
        let (burst, refill_ms) = (self.burst, self.refill_ms);
        let b = self
            .buckets
            .entry(user.to_string())
            .or_insert_with(|| Bucket {
                tokens: burst,
                last_ms: now_ms,
                warned: false,
            });
        // A clock going backwards refills nothing.
        let elapsed = (now_ms - b.last_ms).max(0) as f64;
        b.tokens = (b.tokens + elapsed / refill_ms).min(burst);
        b.last_ms = b.last_ms.max(now_ms);
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            b.warned = false;
            Verdict::Allowed
        } else if b.warned {
            Verdict::Silent
        } else {
            b.warned = true;
            Verdict::Warn
        }
    }

    /// Forgets users whose bucket is full again at `now_ms` (bounds memory).
    pub fn forget_idle(&mut self, now_ms: i64) {
        let (burst, refill_ms) = (self.burst, self.refill_ms);
        self.buckets.retain(|_, b| {
            let elapsed = (now_ms - b.last_ms).max(0) as f64;
            b.tokens + elapsed / refill_ms < burst
        });
    }

    /// Users currently tracked.
    pub fn tracked(&self) -> usize {
        self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;

    #[test]
    fn a_burst_is_allowed_then_one_warning_then_silence() {
        let mut l = RateLimiter::new(3, 1000);
        for _ in 0..3 {
            assert_eq!(l.check("u", 0), Verdict::Allowed);
        }
        assert_eq!(l.check("u", 0), Verdict::Warn);
        for t in [1, 10, 500, 999] {
            assert_eq!(l.check("u", t), Verdict::Silent);
        }
    }

    #[test]
    fn the_bucket_refills_and_the_warning_rearms() {
        let mut l = RateLimiter::new(2, 1000);
        assert_eq!(l.check("u", 0), Verdict::Allowed);
        assert_eq!(l.check("u", 0), Verdict::Allowed);
        assert_eq!(l.check("u", 0), Verdict::Warn);
        assert_eq!(l.check("u", 500), Verdict::Silent);
        // One token back after a second.
        assert_eq!(l.check("u", 1000), Verdict::Allowed);
        assert_eq!(l.check("u", 1000), Verdict::Warn);
        // Long idle: the whole burst again, never more.
        for _ in 0..2 {
            assert_eq!(l.check("u", 100_000), Verdict::Allowed);
        }
        assert_eq!(l.check("u", 100_000), Verdict::Warn);
    }

    #[test]
    fn users_are_limited_separately() {
        let mut l = RateLimiter::new(1, 1000);
        assert_eq!(l.check("a", 0), Verdict::Allowed);
        assert_eq!(l.check("a", 0), Verdict::Warn);
        assert_eq!(l.check("b", 0), Verdict::Allowed);
        assert_eq!(l.check("a", 0), Verdict::Silent);
    }

    #[test]
    fn a_clock_going_back_gives_no_tokens() {
        let mut l = RateLimiter::new(1, 1000);
        assert_eq!(l.check("u", 10_000), Verdict::Allowed);
        assert_eq!(l.check("u", 0), Verdict::Warn);
        assert_eq!(l.check("u", 10_500), Verdict::Silent);
        assert_eq!(l.check("u", 11_000), Verdict::Allowed);
    }

    #[test]
    fn idle_users_are_forgotten() {
        let mut l = RateLimiter::new(2, 1000);
        l.check("a", 0);
        l.check("b", 0);
        l.check("b", 1500);
        l.forget_idle(1600);
        assert_eq!(l.tracked(), 1, "a is full again, b is not");
        l.forget_idle(10_000);
        assert_eq!(l.tracked(), 0);
    }

    #[test]
    fn lines_are_read_up_to_the_cap_and_longer_ones_skipped() {
        let mut bytes = format!(
            "{}\n{}\n{}\nok\n",
            "a".repeat(9),
            "b".repeat(10),
            "c".repeat(100_000)
        )
        .into_bytes();
        bytes.extend_from_slice(b"\xe9t\xe9\n");
        let mut input = std::io::Cursor::new(bytes);
        let mut next = || read_line_capped(&mut input, 10).unwrap();
        assert_eq!(next(), CappedLine::Text(format!("{}\n", "a".repeat(9))));
        assert_eq!(next(), CappedLine::TooLong);
        assert_eq!(next(), CappedLine::TooLong);
        assert_eq!(next(), CappedLine::Text("ok\n".into()));
        assert_eq!(next(), CappedLine::NotUtf8);
        assert_eq!(next(), CappedLine::End);
    }

    #[test]
    fn whole_inputs_are_read_up_to_the_cap() {
        assert_eq!(
            read_all_capped(&mut "abc".as_bytes(), 3).unwrap(),
            Some(b"abc".to_vec())
        );
        assert_eq!(read_all_capped(&mut "abcd".as_bytes(), 3).unwrap(), None);
    }

    #[test]
    fn deadlines_below_the_minimum_of_their_kind_are_refused() {
        let registry = Registry::standard();
        let kind = |name| registry.get(name).unwrap();
        assert!(check_turn_seconds(kind("battle"), None).is_ok());
        assert!(check_turn_seconds(kind("battle"), Some(0)).is_ok());
        assert!(check_turn_seconds(kind("battle"), Some(30)).is_ok());
        assert_eq!(
            check_turn_seconds(kind("battle"), Some(1)).unwrap_err(),
            "A deadline of 1 s per turn is too short for battle: the minimum is 30 s \
             (or 0 for no deadline)."
        );
        assert!(check_turn_seconds(kind("puzzle"), Some(29)).is_err());
        assert!(check_turn_seconds(kind("cards"), Some(29)).is_err());
        let err = check_turn_seconds(kind("diplomacy"), Some(300)).unwrap_err();
        assert!(err.contains("the minimum is 10 min"), "{err}");
        assert!(check_turn_seconds(kind("diplomacy"), Some(600)).is_ok());
        // No overflow on absurd values.
        assert!(check_turn_seconds(kind("battle"), Some(u64::MAX)).is_ok());
    }

    #[test]
    fn message_sizes_are_limited_per_kind() {
        let registry = Registry::standard();
        let kind = |name| registry.get(name).unwrap();
        assert!(check_message_size(kind("puzzle"), &"a".repeat(200)).is_ok());
        let err = check_message_size(kind("puzzle"), &"a".repeat(201)).unwrap_err();
        assert!(err.contains("at most 200 characters"), "{err}");
        assert!(check_message_size(kind("diplomacy"), &"A Par - Bur\n".repeat(300)).is_ok());
        let err = check_message_size(kind("diplomacy"), &"x".repeat(4001)).unwrap_err();
        assert!(err.contains("4000"), "{err}");
        // Characters, not bytes.
        assert!(check_message_size(kind("cards"), &"é".repeat(200)).is_ok());
    }
}
