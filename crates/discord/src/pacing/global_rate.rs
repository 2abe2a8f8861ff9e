//! The bot's own pace for Discord's global rate limit (50 requests a
//! second per bot, interaction replies aside), with a turn's messages
//! ahead of the rest.
//!
//! serenity's rate limiter learns of the global limit only from a 429, and
//! requests already past its check when the 429 arrives still go out: with
//! a hundred games starting at once the bot met 198 global 429s in 40 s and
//! sent 8 requests before their `retry_after` was over. Every REST request
//! the bot starts on its own (deliveries, edits, threads, DM channels)
//! first takes a token here, so the bot stays under the limit instead of
//! learning it. Interaction replies do not count against the global limit
//! and do not wait.
//!
//! When requests queue, the ones a player is waiting for (a resolved turn,
//! the next prompts, the answer to a DM) go before the ones nobody is
//! waiting for yet (a lobby, a game's start and thread, a status edit):
//! a hundred games starting at once queue about 500 requests, twelve
//! seconds at this pace, and the moves of games already under way should
//! not wait behind them. The rest still get one token in
//! [`BACKGROUND_SHARE`], so a busy bot starts new games, only slower.
//!
//! A request's urgency is that of the work it is part of: the outbox
//! delivers each row within [`Urgency::scope`] of its announcement's
//! urgency, and everything the row sends (its messages, edits, thread,
//! DM channel) waits as that. Requests outside any scope (replies to DMs,
//! the order desk) are a player's own and count as [`Urgency::Turn`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::time::Instant;

/// Requests a second a process allows itself by default: with [`BURST`],
/// at most 45 in any second, under Discord's 50 whichever way its windows
/// fall. Processes sharing one bot token share Discord's 50: each is given
/// its part (`[discord] requests_per_second`).
pub const DEFAULT_REQUESTS_PER_SECOND: u32 = 40;

/// The most a process may allow itself: 45 and the burst of 5 make 50 in
/// a second at most, Discord's limit.
pub const MAX_REQUESTS_PER_SECOND: u32 = 45;

/// Requests that may go at once after a quiet spell (fewer at a pace below
/// five a second).
const BURST: f64 = 5.0;

/// What rounding may leave a whole token short of 1 (1/45 of a second
/// has no exact float): counted as a token, so the bucket never waits a
/// sleep too short for the timer to advance.
const ROUNDING: f64 = 1e-9;

/// While both kinds wait, one token in this many goes to a
/// [`Urgency::Background`] request (8 a second of the 40).
const BACKGROUND_SHARE: u32 = 5;

/// Whether a player is waiting for a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// A player waits for it: a turn's result, a prompt, a reminder, a
    /// reply to their DM.
    Turn,
    /// Nobody waits for it yet: a lobby, a game's start and its thread,
    /// a status edit, a game's end.
    Background,
}

tokio::task_local! {
    /// The urgency of the work the current task does (see the module doc).
    static URGENCY: Urgency;
}

impl Urgency {
    /// Runs `work` with its requests waiting as `self`.
    pub async fn scope<F: std::future::Future>(self, work: F) -> F::Output {
        URGENCY.scope(self, work).await
    }

    /// The urgency of the current task's work ([`Urgency::Turn`] outside
    /// any scope).
    fn current() -> Urgency {
        URGENCY.try_with(|u| *u).unwrap_or(Urgency::Turn)
    }
}

/// A token bucket shared by every task that sends to Discord, with a
/// queue for each [`Urgency`].
pub struct GlobalRate {
    state: Arc<Mutex<Pace>>,
}

impl Default for GlobalRate {
    fn default() -> Self {
        GlobalRate::new(0)
    }
}

/// The bucket and who waits for it.
struct Pace {
    /// Tokens earned a second.
    per_second: f64,
    /// Tokens kept at most.
    burst: f64,
    tokens: f64,
    at: Instant,
    turn: VecDeque<oneshot::Sender<()>>,
    background: VecDeque<oneshot::Sender<()>>,
    /// Tokens given to [`Urgency::Turn`] in a row while background waited.
    turns_in_a_row: u32,
    /// Whether a task is handing out tokens to the queues.
    handing_out: bool,
}

impl Pace {
    /// A full bucket earning `per_second` tokens a second.
    fn new(per_second: u32) -> Pace {
        let per_second = f64::from(per_second.max(1));
        let burst = BURST.min(per_second);
        Pace {
            per_second,
            burst,
            tokens: burst,
            at: Instant::now(),
            turn: VecDeque::new(),
            background: VecDeque::new(),
            turns_in_a_row: 0,
            handing_out: false,
        }
    }

    /// Adds the tokens earned since the last look.
    fn refill(&mut self, now: Instant) {
        let earned = now.saturating_duration_since(self.at).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.at = now;
    }

    /// Whether a whole token is there to take.
    fn has_token(&self) -> bool {
        self.tokens + ROUNDING >= 1.0
    }

    /// The next waiter to get a token: a turn's first, but background gets
    /// one in [`BACKGROUND_SHARE`] while both wait.
    fn next_waiter(&mut self) -> Option<oneshot::Sender<()>> {
        let background_due = self.turns_in_a_row + 1 >= BACKGROUND_SHARE;
        if !self.background.is_empty() && (self.turn.is_empty() || background_due) {
            self.turns_in_a_row = 0;
            return self.background.pop_front();
        }
        let next = self.turn.pop_front()?;
        if !self.background.is_empty() {
            self.turns_in_a_row += 1;
        }
        Some(next)
    }

    /// Gives the tokens there are to waiters, in order; how long until the
    /// next token, or `None` when nobody waits any more.
    fn hand_out(&mut self, now: Instant) -> Option<Duration> {
        self.refill(now);
        while self.has_token() {
            let Some(waiter) = self.next_waiter() else {
                self.handing_out = false;
                return None;
            };
            // A waiter that gave up (its task was cancelled) takes nothing.
            if waiter.send(()).is_ok() {
                self.tokens -= 1.0;
            }
        }
        let short = (1.0 - self.tokens) / self.per_second;
        Some(Duration::from_secs_f64(short).max(Duration::from_millis(1)))
    }
}

impl GlobalRate {
    /// A pace of `per_second` requests a second (0: the default,
    /// [`DEFAULT_REQUESTS_PER_SECOND`]; more than
    /// [`MAX_REQUESTS_PER_SECOND`] is taken as that).
    pub fn new(per_second: u32) -> GlobalRate {
        let per_second = match per_second {
            0 => DEFAULT_REQUESTS_PER_SECOND,
            n => n.min(MAX_REQUESTS_PER_SECOND),
        };
        GlobalRate {
            state: Arc::new(Mutex::new(Pace::new(per_second))),
        }
    }

    /// Waits until one more request of the current work's urgency fits in
    /// the global limit.
    pub async fn wait(&self) {
        self.wait_as(Urgency::current()).await
    }

    /// Waits until one more request fits in the global limit. Requests of
    /// one urgency go in the order they came.
    pub async fn wait_as(&self, urgency: Urgency) {
        let ticket = {
            let mut pace = self.state.lock().unwrap_or_else(|p| p.into_inner());
            pace.refill(Instant::now());
            let queued = !pace.turn.is_empty() || !pace.background.is_empty();
            if !queued && pace.has_token() {
                pace.tokens -= 1.0;
                return;
            }
            let (give, ticket) = oneshot::channel();
            match urgency {
                Urgency::Turn => pace.turn.push_back(give),
                Urgency::Background => pace.background.push_back(give),
            }
            if !pace.handing_out {
                pace.handing_out = true;
                tokio::spawn(hand_out_tokens(self.state.clone()));
            }
            ticket
        };
        // Dropped only if the runtime is shutting down: go, nothing waits.
        let _ = ticket.await;
    }
}

/// Hands the tokens to the queues as they are earned, until nobody waits.
async fn hand_out_tokens(state: Arc<Mutex<Pace>>) {
    loop {
        let next = {
            let mut pace = state.lock().unwrap_or_else(|p| p.into_inner());
            pace.hand_out(Instant::now())
        };
        match next {
            Some(wait) => tokio::time::sleep(wait).await,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `n` tokens of `urgency` at once; when each was given.
    async fn times_of(rate: &Arc<GlobalRate>, n: usize, urgency: Urgency) -> Vec<Duration> {
        let start = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..n {
            let rate = rate.clone();
            tasks.push(tokio::spawn(async move {
                rate.wait_as(urgency).await;
                start.elapsed()
            }));
            // Queued in this order.
            tokio::task::yield_now().await;
        }
        let mut times = Vec::new();
        for t in tasks {
            times.push(t.await.expect("a waiter"));
        }
        times
    }

    #[tokio::test(start_paused = true)]
    async fn no_second_holds_more_than_45_requests() {
        let rate = Arc::new(GlobalRate::default());
        let (turns, background) = tokio::join!(
            times_of(&rate, 120, Urgency::Turn),
            times_of(&rate, 80, Urgency::Background)
        );
        let mut sent: Vec<Duration> = turns.into_iter().chain(background).collect();
        sent.sort();
        // Every window of one second, wherever it starts.
        for (i, first) in sent.iter().enumerate() {
            let within = sent[i..]
                .iter()
                .take_while(|t| **t < *first + Duration::from_secs(1))
                .count();
            assert!(
                within <= 45,
                "{within} requests in the second after {first:?}"
            );
        }
        // And it is not slower than it needs to be: 200 requests in about
        // (200 - 5) / 40 s.
        let took = sent.last().unwrap().as_secs_f64();
        assert!((4.8..5.0).contains(&took), "{took}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_turn_goes_before_queued_background_which_still_gets_its_share() {
        let rate = Arc::new(GlobalRate::default());
        // A hundred games start: 400 background requests queue (10 s).
        let starts = {
            let rate = rate.clone();
            tokio::spawn(async move { times_of(&rate, 400, Urgency::Background).await })
        };
        tokio::time::sleep(Duration::from_secs(1)).await;
        // A move resolves a turn: its 8 requests come after the 400.
        let turn = times_of(&rate, 8, Urgency::Turn).await;
        let turn_done = *turn.iter().max().unwrap();
        // 8 of every 10 tokens go to the turn while both wait: 10 tokens,
        // a quarter of a second, not the ten seconds of the queue.
        assert!(turn_done <= Duration::from_millis(300), "{turn_done:?}");
        let starts = starts.await.unwrap();
        // Background went on meanwhile, in order, and finished.
        assert!(starts.windows(2).all(|w| w[0] <= w[1]));
        let second = starts
            .iter()
            .filter(|t| (Duration::from_secs(1)..Duration::from_secs(2)).contains(*t))
            .count();
        assert!(
            second >= 30,
            "background got {second} tokens in the turn's second"
        );
        let last = starts.last().unwrap().as_secs_f64();
        assert!((10.0..10.5).contains(&last), "{last}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_cancelled_waiter_takes_no_token() {
        let rate = Arc::new(GlobalRate::default());
        // Use the burst up.
        for _ in 0..5 {
            rate.wait_as(Urgency::Turn).await;
        }
        let start = Instant::now();
        let gone = {
            let rate = rate.clone();
            tokio::spawn(async move { rate.wait_as(Urgency::Turn).await })
        };
        tokio::task::yield_now().await;
        gone.abort();
        rate.wait_as(Urgency::Turn).await;
        // The next token (25 ms) went to the waiter still there.
        assert!(
            start.elapsed() <= Duration::from_millis(26),
            "{:?}",
            start.elapsed()
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_process_given_a_share_keeps_to_it() {
        // Two processes on one token, 20 a second each.
        let rate = Arc::new(GlobalRate::new(20));
        let sent = times_of(&rate, 105, Urgency::Turn).await;
        // (105 - 5) / 20 s.
        let took = sent.last().unwrap().as_secs_f64();
        assert!((4.9..5.1).contains(&took), "{took}");
        // A pace above the maximum is the maximum.
        let rate = Arc::new(GlobalRate::new(1000));
        let sent = times_of(&rate, 95, Urgency::Turn).await;
        let took = sent.last().unwrap().as_secs_f64();
        assert!((1.9..2.1).contains(&took), "{took}");
    }

    #[tokio::test(start_paused = true)]
    async fn work_waits_as_its_scope_says() {
        let rate = Arc::new(GlobalRate::default());
        for _ in 0..5 {
            rate.wait().await;
        }
        let start = Instant::now();
        let background = {
            let rate = rate.clone();
            tokio::spawn(Urgency::Background.scope(async move {
                for _ in 0..20 {
                    rate.wait().await;
                }
                start.elapsed()
            }))
        };
        tokio::task::yield_now().await;
        // Outside a scope: a player's own request, ahead of the queue.
        rate.wait().await;
        assert!(
            start.elapsed() <= Duration::from_millis(50),
            "{:?}",
            start.elapsed()
        );
        assert!(background.await.unwrap() >= Duration::from_millis(500));
    }
}
