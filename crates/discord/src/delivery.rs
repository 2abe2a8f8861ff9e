//! Runs the delivery of the host's outbox: games in parallel, each game's
//! announcements in order.
//!
//! Each game with undelivered announcements gets a lane: a task that
//! delivers that game's rows one after the other (so a turn's message goes
//! out before its prompts, and a channel's or thread's messages keep their
//! order) while other games' lanes run beside it, at most [`LANES`] at
//! once. Discord's rate limits are per route and channel, and serenity's
//! rate limiter makes a request wait for its own bucket only, so a busy
//! or rate-limited thread holds back its own game and no other.
//!
//! Within a lane, a run of DMs to different players (a phase's prompts to
//! seven powers) goes out at once: they share no channel, so their order
//! among themselves is nobody's to see, and the last player no longer waits
//! for six round trips and six private maps before theirs.
//!
//! A row that fails for a reason worth retrying (a 5xx, a network error)
//! ends its lane: that game backs off (doubling, from
//! [`FIRST_BACKOFF`] to [`MAX_BACKOFF`]) and tries the same row again,
//! while every other game goes on. The claims in the database stay the
//! source of truth: rows are delivered only from a claim, and marked sent
//! after delivery, so nothing is lost across a restart and, of several
//! processes, one delivers each game.

use super::Data;
use super::outbox::{Fate, deliver};
use host::{OutboxItem, Target};
use poise::serenity_prelude::Http;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinSet;
use tokio::time::Instant;

/// Games delivered at once by default (`[discord] delivery_lanes`). Enough that a burst of turns in many games is
/// limited by Discord's global rate (50 requests a second), not by lanes
/// waiting on the round trip; few enough that one process never holds
/// hundreds of requests open.
pub const LANES: usize = 32;

/// The most lanes a setting can ask for: more would only queue on
/// Discord's global limit with hundreds of requests open.
const MAX_LANES: usize = 256;

/// The rows one claim reads (of at most the host's claimed games).
const CLAIM_ROWS: u32 = 500;

/// The longest the loop waits without looking at the outbox: each look
/// renews this process's claims and takes over a dead process's lapsed ones.
const MAX_IDLE: Duration = Duration::from_millis(host::CLAIM_RENEW_EVERY_MS as u64);

/// The first wait of a game whose delivery failed.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);

/// The longest wait of a game whose delivery keeps failing.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// How a lane ended.
enum LaneEnd {
    /// Every row it had was delivered (or is not ours).
    Delivered,
    /// A row must be tried again later; the rows after it wait with it.
    Retry,
    /// The bot is stopping; the row in hand was finished first.
    Stopped,
}

/// A game waiting after a failed delivery.
struct Backoff {
    /// Not tried again before this.
    until: Instant,
    /// The wait after its next failure.
    next: Duration,
}

/// What the loop knows of the games it delivers.
#[derive(Default)]
struct Lanes {
    /// Claimed rows of games not in a lane yet, by game, oldest first.
    waiting: BTreeMap<i64, Vec<OutboxItem>>,
    /// Games in a lane now, with the last row id the lane has.
    busy: HashMap<i64, i64>,
    /// Busy games a claim found newer rows for: claim again when they end.
    more: HashSet<i64>,
    /// Games backing off after a failure.
    backoff: HashMap<i64, Backoff>,
}

impl Lanes {
    /// Takes a claim's rows: games in a lane are left to it (noting any
    /// newer rows), every other game's rows replace what was waiting.
    fn take_claim(&mut self, items: Vec<OutboxItem>) {
        self.waiting.clear();
        for item in items {
            match self.busy.get(&item.game_id) {
                Some(last) => {
                    if item.id > *last {
                        self.more.insert(item.game_id);
                    }
                }
                None => self.waiting.entry(item.game_id).or_default().push(item),
            }
        }
    }

    /// The next game that may start a lane now, with its rows.
    fn next_ready(&mut self, now: Instant) -> Option<(i64, Vec<OutboxItem>)> {
        let game = *self
            .waiting
            .keys()
            .find(|g| self.backoff.get(g).is_none_or(|b| b.until <= now))?;
        let rows = self.waiting.remove(&game)?;
        let last = rows.last().map_or(i64::MIN, |r| r.id);
        self.busy.insert(game, last);
        Some((game, rows))
    }

    /// Records a lane's end; true when the game has more rows to claim.
    fn finish(&mut self, game: i64, end: &LaneEnd, now: Instant) -> bool {
        self.busy.remove(&game);
        match end {
            LaneEnd::Delivered | LaneEnd::Stopped => {
                self.backoff.remove(&game);
            }
            LaneEnd::Retry => {
                let wait = self.backoff.get(&game).map_or(FIRST_BACKOFF, |b| b.next);
                tracing::warn!(
                    game_id = game,
                    wait_ms = wait.as_millis() as u64,
                    "game's delivery backs off"
                );
                self.backoff.insert(
                    game,
                    Backoff {
                        until: now + wait,
                        next: (wait * 2).min(MAX_BACKOFF),
                    },
                );
            }
        }
        self.more.remove(&game) || matches!(end, LaneEnd::Retry)
    }

    /// When the loop must look again at the latest: the end of the first
    /// backoff of a waiting game, or after [`MAX_IDLE`].
    fn next_look(&self, now: Instant) -> Instant {
        self.waiting
            .keys()
            .filter_map(|g| self.backoff.get(g).map(|b| b.until))
            .chain(std::iter::once(now + MAX_IDLE))
            .min()
            .unwrap_or(now + MAX_IDLE)
            .max(now)
    }
}

/// Runs until the bot stops: each lane sees the stop between two rows, so
/// the rows in hand are delivered and marked sent first.
pub async fn run(http: Arc<Http>, data: Data) {
    let mut lanes = Lanes::default();
    let mut running: JoinSet<(i64, LaneEnd)> = JoinSet::new();
    let mut claim = true;
    let mut claimed_at = Instant::now();
    let lanes_at_once = match data.settings.delivery_lanes {
        0 => LANES,
        n => n.min(MAX_LANES),
    };
    while !data.wake.stopping() {
        // However busy the lanes keep the loop, the claim (and with it the
        // lease on the games waiting here) is renewed every MAX_IDLE.
        if claim || claimed_at.elapsed() >= MAX_IDLE {
            lanes.take_claim(claim_rows(&data).await);
            claimed_at = Instant::now();
        }
        while running.len() < lanes_at_once {
            let Some((game, rows)) = lanes.next_ready(Instant::now()) else {
                break;
            };
            running.spawn(lane(http.clone(), data.clone(), game, rows));
        }
        let look = lanes.next_look(Instant::now());
        claim = tokio::select! {
            _ = data.wake.outbox.notified() => true,
            Some(ended) = running.join_next(), if !running.is_empty() => match ended {
                Ok((game, end)) => {
                    lanes.finish(game, &end, Instant::now()) || lanes.waiting.is_empty()
                }
                // Lanes catch their own panics (see `lane`); only a
                // cancelled task lands here.
                Err(e) => {
                    tracing::error!(error = %e, "delivery lane cancelled");
                    true
                }
            },
            _ = tokio::time::sleep_until(look) => true,
        };
    }
    while let Some(ended) = running.join_next().await {
        if let Err(e) = ended {
            tracing::error!(error = %e, "delivery lane failed while stopping");
        }
    }
}

/// Claims games with undelivered rows for this process; nothing on error.
async fn claim_rows(data: &Data) -> Vec<OutboxItem> {
    let host = data.host.clone();
    // Claimed: of several processes on one database, one delivers each
    // game's announcements; a claim also renews this process's lease on
    // the games it is still delivering.
    match tokio::task::spawn_blocking(move || host.claim_unsent(CLAIM_ROWS)).await {
        Ok(Ok(items)) => items,
        Ok(Err(e)) => {
            tracing::error!(error = %e, "cannot read the outbox");
            Vec::new()
        }
        Err(e) => {
            tracing::error!(error = %e, "outbox task failed");
            Vec::new()
        }
    }
}

/// One game's lane: its rows delivered in its own task, so that a panic
/// while delivering is that game's retry, not the loop's end.
async fn lane(http: Arc<Http>, data: Data, game: i64, rows: Vec<OutboxItem>) -> (i64, LaneEnd) {
    match tokio::spawn(deliver_lane(http, data, game, rows)).await {
        Ok(end) => (game, end),
        Err(e) => {
            tracing::error!(game_id = game, error = %e, "delivering a game's announcements failed");
            (game, LaneEnd::Retry)
        }
    }
}

/// Delivers one game's rows in order (a run of DMs to different players
/// at once), marking each sent; stops after the first batch with a row to
/// retry (the later ones must not overtake it).
async fn deliver_lane(http: Arc<Http>, data: Data, game: i64, rows: Vec<OutboxItem>) -> LaneEnd {
    for batch in batches(rows) {
        if data.wake.stopping() {
            return LaneEnd::Stopped;
        }
        if !deliver_batch(&http, &data, game, batch).await {
            return LaneEnd::Retry;
        }
    }
    LaneEnd::Delivered
}

/// Splits a game's rows, in order, into batches that may go out at once:
/// a run of DMs to different users, or a single row.
fn batches(rows: Vec<OutboxItem>) -> Vec<Vec<OutboxItem>> {
    let mut out: Vec<Vec<OutboxItem>> = Vec::new();
    for item in rows {
        let joins_last = match (&item.target, out.last()) {
            (Target::User(user), Some(last)) => last
                .iter()
                .all(|other| matches!(&other.target, Target::User(u) if u != user)),
            _ => false,
        };
        match out.last_mut() {
            Some(last) if joins_last => last.push(item),
            _ => out.push(vec![item]),
        }
    }
    out
}

/// Delivers a batch (its rows at once when several) and marks the
/// delivered ones sent; false when a row must be tried again.
async fn deliver_batch(http: &Arc<Http>, data: &Data, game: i64, batch: Vec<OutboxItem>) -> bool {
    let fates: Vec<(i64, Fate)> = if let [item] = batch.as_slice() {
        vec![(item.id, deliver(http, data, item).await)]
    } else {
        let mut sends = JoinSet::new();
        for item in batch {
            let (http, data) = (http.clone(), data.clone());
            sends.spawn(async move { (item.id, deliver(&http, &data, &item).await) });
        }
        let mut fates = Vec::new();
        while let Some(done) = sends.join_next().await {
            match done {
                Ok(fate) => fates.push(fate),
                // A panic is that row's failure: it is tried again.
                Err(e) => {
                    tracing::error!(game_id = game, error = %e, "delivering a DM failed");
                    fates.push((0, Fate::Retry));
                }
            }
        }
        fates
    };
    let mut all_done = true;
    for (id, fate) in fates {
        match fate {
            Fate::Done => mark_sent(data, id).await,
            Fate::Skip => {}
            Fate::Retry => {
                tracing::debug!(game_id = game, outbox_id = id, "row to retry");
                all_done = false;
            }
        }
    }
    all_done
}

/// Marks a row delivered; a failure is logged (the row goes out again,
/// and its nonce keeps Discord from posting it twice).
async fn mark_sent(data: &Data, id: i64) {
    let host = data.host.clone();
    match tokio::task::spawn_blocking(move || host.mark_sent(id)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            tracing::error!(outbox_id = id, error = %e, "cannot mark an announcement sent")
        }
        Err(e) => {
            tracing::error!(outbox_id = id, error = %e, "marking an announcement sent failed")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, game_id: i64) -> OutboxItem {
        OutboxItem {
            id,
            game_id,
            target: Target::Channel("1".into()),
            announcement: Err("not read in these tests".into()),
        }
    }

    fn ids(rows: &[OutboxItem]) -> Vec<i64> {
        rows.iter().map(|r| r.id).collect()
    }

    fn dm(id: i64, user: &str) -> OutboxItem {
        OutboxItem {
            target: Target::User(user.into()),
            ..row(id, 10)
        }
    }

    #[test]
    fn a_run_of_dms_to_different_players_is_one_batch_and_channels_stay_alone() {
        let rows = vec![
            row(1, 10),
            dm(2, "a"),
            dm(3, "b"),
            dm(4, "c"),
            // A second DM to `a` waits for the first: same channel.
            dm(5, "a"),
            row(6, 10),
            row(7, 10),
            dm(8, "b"),
        ];
        let got: Vec<Vec<i64>> = batches(rows).iter().map(|b| ids(b)).collect();
        assert_eq!(
            got,
            vec![vec![1], vec![2, 3, 4], vec![5], vec![6], vec![7], vec![8]]
        );
    }

    #[test]
    fn each_game_gets_one_lane_with_its_rows_in_order() {
        let mut lanes = Lanes::default();
        lanes.take_claim(vec![row(1, 10), row(2, 20), row(3, 10), row(4, 20)]);
        let now = Instant::now();
        let (g, rows) = lanes.next_ready(now).unwrap();
        assert_eq!((g, ids(&rows)), (10, vec![1, 3]));
        let (g, rows) = lanes.next_ready(now).unwrap();
        assert_eq!((g, ids(&rows)), (20, vec![2, 4]));
        assert!(lanes.next_ready(now).is_none());
        // A claim while both lanes run hands neither game out again; a
        // newer row of game 10 is noted for when its lane ends.
        lanes.take_claim(vec![row(1, 10), row(2, 20), row(3, 10), row(5, 10)]);
        assert!(lanes.next_ready(now).is_none());
        assert!(lanes.finish(10, &LaneEnd::Delivered, now), "row 5 waits");
        assert!(!lanes.finish(20, &LaneEnd::Delivered, now), "nothing new");
    }

    #[test]
    fn a_failing_game_backs_off_alone_and_doubles_up_to_the_cap() {
        let mut lanes = Lanes::default();
        let now = Instant::now();
        lanes.take_claim(vec![row(1, 10), row(2, 20)]);
        let (g, _) = lanes.next_ready(now).unwrap();
        assert_eq!(g, 10);
        assert!(lanes.finish(10, &LaneEnd::Retry, now));
        lanes.take_claim(vec![row(1, 10), row(2, 20)]);
        // Game 20 goes at once; game 10 waits for its backoff.
        let (g, _) = lanes.next_ready(now).unwrap();
        assert_eq!(g, 20);
        assert!(lanes.next_ready(now).is_none());
        assert_eq!(lanes.next_look(now), now + FIRST_BACKOFF);
        let later = now + FIRST_BACKOFF;
        let (g, _) = lanes.next_ready(later).unwrap();
        assert_eq!(g, 10);
        lanes.finish(10, &LaneEnd::Retry, later);
        assert_eq!(lanes.backoff[&10].until, later + FIRST_BACKOFF * 2);
        for _ in 0..20 {
            lanes.finish(10, &LaneEnd::Retry, later);
        }
        assert_eq!(lanes.backoff[&10].next, MAX_BACKOFF);
        // Delivered at last: the backoff is forgotten.
        lanes.finish(10, &LaneEnd::Delivered, later);
        assert!(!lanes.backoff.contains_key(&10));
    }
}
