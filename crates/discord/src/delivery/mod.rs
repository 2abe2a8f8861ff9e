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
//! Within a lane, each channel keeps its order and channels go at once:
//! the game's channel and thread are one stream, each player's DMs another
//! (a phase's prompts to seven powers go out beside the channel's message
//! and its images, so no player waits for the channel's pictures or for
//! another player's prompt). Only a game's start holds its DMs back: it
//! opens the thread they link to. A DM stream that posts in the thread
//! (the note for a player whose DMs are closed) waits for the thread's
//! rows queued before it (see `home_order`).
//!
//! A row that fails for a reason worth retrying (a 5xx, a network error)
//! ends its lane: that game backs off (doubling, from
//! [`FIRST_BACKOFF`] to [`MAX_BACKOFF`]) and tries the same row again,
//! while every other game goes on. The claims in the database stay the
//! source of truth: rows are delivered only from a claim, and marked sent
//! after delivery, so nothing is lost across a restart and, of several
//! processes, one delivers each game.
//!
//! One row goes down the files, never back up: this file (lanes, streams)
//! hands it to `outbox`, which picks the one part that delivers it: the
//! `lobby`, the `thread`, the living `board` of a game played in the
//! channel, a turn's message and its status line (`turns`), a plain post
//! or a prompt in the channel (`channel`), or a DM (`dm`). `board` builds
//! on `turns`, and all of them on `living` (the keys of posted messages,
//! what each shows, the edit). Below the delivery, and never calling it:
//! `crate::send` and `crate::dm_channels` (requests with their nonces),
//! `crate::images` (board images), `crate::pacing` (rate limits).

mod board;
mod channel;
mod dm;
mod home_order;
mod living;
mod lobby;
mod outbox;
mod thread;
mod turns;

use crate::Data;
use crate::pacing::global_rate::Urgency;
use home_order::{HomeProgress, HomeWaiter, home_order};
use host::{AnnouncementKind, OutboxItem, Target};
use outbox::{Fate, deliver};
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
    /// With the wait a 429 asked for, the game waits that long instead of
    /// its back-off.
    Retry(Option<Duration>),
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
            LaneEnd::Retry(asked) => {
                let backoff = self.backoff.get(&game).map_or(FIRST_BACKOFF, |b| b.next);
                // Discord said how long: neither sooner (another 429) nor
                // a back-off later; the back-off is kept for the next failure.
                let (wait, next) = match asked {
                    Some(asked) => (*asked, backoff),
                    None => (backoff, (backoff * 2).min(MAX_BACKOFF)),
                };
                tracing::warn!(
                    game_id = game,
                    wait_ms = wait.as_millis() as u64,
                    rate_limited = asked.is_some(),
                    "game's delivery backs off"
                );
                self.backoff.insert(
                    game,
                    Backoff {
                        until: now + wait,
                        next,
                    },
                );
            }
        }
        self.more.remove(&game) || matches!(end, LaneEnd::Retry(_))
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
            (game, LaneEnd::Retry(None))
        }
    }
}

/// Delivers one game's rows, marking each sent: segment after segment,
/// and within a segment each stream in its own order, the streams at once.
/// Ends with a retry when any stream had a row to retry; no row of a later
/// segment goes out then (it must not overtake the failed one).
async fn deliver_lane(http: Arc<Http>, data: Data, game: i64, rows: Vec<OutboxItem>) -> LaneEnd {
    let dm_kinds = DmKinds::of(&data);
    let plan = plan_lane(rows, &dm_kinds);
    // A lobby change superseded by a later one would be an edit nobody
    // sees: the later row shows the lobby as it is now.
    for id in plan.superseded {
        mark_sent(&data, id).await;
    }
    for segment in plan.segments {
        if data.wake.stopping() {
            return LaneEnd::Stopped;
        }
        match deliver_segment(&http, &data, game, segment).await {
            LaneEnd::Delivered => {}
            end => return end,
        }
    }
    LaneEnd::Delivered
}

/// Which game kinds prompt by DM (their moves are hidden): only their rows
/// to a user go to a DM channel; the other kinds prompt in the game's
/// channel, so their rows to a user belong to the channel's stream.
struct DmKinds(HashSet<String>);

impl DmKinds {
    fn of(data: &Data) -> DmKinds {
        let registry = data.host.registry();
        DmKinds(
            registry
                .names()
                .into_iter()
                .filter(|name| registry.get(name).is_ok_and(|k| !k.moves_in_channel))
                .map(str::to_string)
                .collect(),
        )
    }
}

/// Where a row goes, as far as order matters: the game's channel and thread
/// (one stream), or one user's DMs.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Stream {
    /// The game's channel, its thread, and anything posted there.
    Home,
    /// One user's direct messages.
    Dm(String),
}

/// The stream a row belongs to.
fn stream_of(item: &OutboxItem, dm_kinds: &DmKinds) -> Stream {
    match (&item.target, &item.announcement) {
        (Target::User(user), Ok(a)) if dm_kinds.0.contains(&a.game_kind) => {
            Stream::Dm(user.clone())
        }
        _ => Stream::Home,
    }
}

/// How a lane delivers a game's rows.
struct LanePlan {
    /// Segments one after the other; each one's streams at once.
    segments: Vec<Vec<(Stream, Vec<OutboxItem>)>>,
    /// Lobby edits a later lobby edit in the same stream supersedes.
    superseded: Vec<i64>,
}

/// Splits a game's rows, in order, into segments whose streams may go out
/// at once: a phase's channel message with its images beside its seven DM
/// prompts, so no player waits for the channel's pictures. A segment ends
/// after a game's start: the start opens the game's thread, which the DMs
/// after it link to. Of a run of lobby changes only the first (it posts
/// the lobby) and the last are kept: the lobby message always shows the
/// seats as they are now, and a hundred games set up at once otherwise
/// cost six edits each before their first turn.
fn plan_lane(rows: Vec<OutboxItem>, dm_kinds: &DmKinds) -> LanePlan {
    let mut plan = LanePlan {
        segments: Vec::new(),
        superseded: Vec::new(),
    };
    let mut current: Vec<(Stream, Vec<OutboxItem>)> = Vec::new();
    for item in rows {
        let stream = stream_of(&item, dm_kinds);
        let kind = item.announcement.as_ref().ok().map(|a| a.kind);
        let opens_thread = stream == Stream::Home && kind == Some(AnnouncementKind::Started);
        match current.iter_mut().find(|(s, _)| *s == stream) {
            Some((_, items)) => {
                // The first lobby row posts the lobby with its heading
                // ("... created cards #1"); the ones after it only edit.
                let is_lobby = |row: &OutboxItem| matches!(&row.announcement, Ok(a) if a.kind == AnnouncementKind::Lobby);
                let edits_a_lobby =
                    items.len() >= 2 && items[items.len() - 2..].iter().all(is_lobby);
                if edits_a_lobby && kind == Some(AnnouncementKind::Lobby) {
                    let old = items.pop().expect("a last row");
                    plan.superseded.push(old.id);
                }
                items.push(item);
            }
            None => current.push((stream, vec![item])),
        }
        if opens_thread {
            plan.segments.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        plan.segments.push(current);
    }
    plan
}

/// Delivers a segment's streams at once, each in order, stopping a stream
/// at its first row to retry. A row of another stream that posts in the
/// home (a closed-DM note) waits for the home's rows queued before it.
async fn deliver_segment(
    http: &Arc<Http>,
    data: &Data,
    game: i64,
    segment: Vec<(Stream, Vec<OutboxItem>)>,
) -> LaneEnd {
    let home_rows: Vec<i64> = segment
        .iter()
        .filter(|(stream, _)| *stream == Stream::Home)
        .flat_map(|(_, items)| items.iter().map(|i| i.id))
        .collect();
    let (progress, waiter) = home_order(&home_rows);
    let mut progress = Some(progress);
    let mut streams = JoinSet::new();
    for (stream, items) in segment {
        let (http, data) = (http.clone(), data.clone());
        let order = match stream {
            Stream::Home => StreamOrder::Home(progress.take().expect("one home stream")),
            Stream::Dm(_) => StreamOrder::Beside(waiter.clone()),
        };
        streams.spawn(async move { deliver_stream(&http, &data, game, items, order).await });
    }
    // Without home rows nothing waits on the home: it is done.
    drop(progress);
    let mut end = LaneEnd::Delivered;
    while let Some(done) = streams.join_next().await {
        match done {
            Ok(LaneEnd::Delivered) => {}
            Ok(LaneEnd::Stopped) => {
                if !matches!(end, LaneEnd::Retry(_)) {
                    end = LaneEnd::Stopped;
                }
            }
            // Of several streams' 429s the longest wait holds; any other
            // failure backs off as before (serenity's bucket still holds a
            // 429's request until the reset it learned).
            Ok(LaneEnd::Retry(asked)) => {
                end = match end {
                    LaneEnd::Retry(None) => LaneEnd::Retry(None),
                    LaneEnd::Retry(Some(before)) => LaneEnd::Retry(asked.map(|a| a.max(before))),
                    _ => LaneEnd::Retry(asked),
                }
            }
            // A panic is that stream's failure: its row is tried again.
            Err(e) => {
                tracing::error!(game_id = game, error = %e, "delivering a stream of announcements failed");
                end = LaneEnd::Retry(None);
            }
        }
    }
    end
}

/// A stream's place in its segment's order of the home.
enum StreamOrder {
    /// The home stream: says how far it has got.
    Home(HomeProgress),
    /// A stream beside it: waits for it before posting in the home.
    Beside(HomeWaiter),
}

/// Delivers one stream's rows one after the other, marking each sent.
async fn deliver_stream(
    http: &Arc<Http>,
    data: &Data,
    game: i64,
    items: Vec<OutboxItem>,
    order: StreamOrder,
) -> LaneEnd {
    let (progress, waiter) = match order {
        StreamOrder::Home(progress) => (Some(progress), HomeWaiter::in_home()),
        StreamOrder::Beside(waiter) => (None, waiter),
    };
    let next_ids: Vec<Option<i64>> = items
        .iter()
        .skip(1)
        .map(|i| Some(i.id))
        .chain([None])
        .collect();
    for (item, next) in items.into_iter().zip(next_ids) {
        if data.wake.stopping() {
            if let Some(p) = &progress {
                p.stalled();
            }
            return LaneEnd::Stopped;
        }
        let started = Instant::now();
        let fate = urgency_of(&item)
            .scope(deliver(http, data, &item, &waiter))
            .await;
        tracing::debug!(
            game_id = game,
            outbox_id = item.id,
            kind = ?item.announcement.as_ref().map(|a| a.kind).ok(),
            ms = started.elapsed().as_millis() as u64,
            "row delivered"
        );
        match fate {
            Fate::Done => mark_sent(data, item.id).await,
            Fate::Skip => {}
            Fate::Retry(asked) => {
                tracing::debug!(game_id = game, outbox_id = item.id, "row to retry");
                if let Some(p) = &progress {
                    p.stalled();
                }
                return LaneEnd::Retry(asked);
            }
        }
        if let Some(p) = &progress {
            p.passed(next);
        }
    }
    LaneEnd::Delivered
}

/// Whether a player waits for a row (see `global_rate`): a turn's result,
/// prompts, reminders, press and a game's end do; lobbies, a game's start,
/// status edits and an abort can wait for them.
fn urgency_of(item: &OutboxItem) -> Urgency {
    use AnnouncementKind::*;
    match item.announcement.as_ref().map(|a| a.kind) {
        Ok(Lobby | Started | Waiting | Aborted) => Urgency::Background,
        Ok(Moved | Turn | Private | Prompt | Reminder | Finished | Press) | Err(_) => Urgency::Turn,
    }
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
            queued_at: 0,
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

    fn announced(item: OutboxItem, kind: &str, what: AnnouncementKind) -> OutboxItem {
        let text = format!("{what:?}");
        OutboxItem {
            announcement: Ok(host::Announcement {
                game_id: item.game_id,
                game_kind: kind.into(),
                kind: what,
                turn: 1,
                text,
                board: None,
                channel_id: "1".into(),
                choices: Vec::new(),
                deadline: None,
                report: None,
            }),
            ..item
        }
    }

    fn shape(segments: &[Vec<(Stream, Vec<OutboxItem>)>]) -> Vec<Vec<(String, Vec<i64>)>> {
        segments
            .iter()
            .map(|seg| {
                seg.iter()
                    .map(|(stream, items)| {
                        let name = match stream {
                            Stream::Home => "home".to_string(),
                            Stream::Dm(u) => u.clone(),
                        };
                        (name, ids(items))
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn dms_go_beside_the_channel_each_stream_in_order_and_a_start_holds_them_back() {
        use AnnouncementKind::*;
        let dm_kinds = DmKinds(HashSet::from(["diplomacy".to_string()]));
        let rows = vec![
            announced(row(1, 10), "diplomacy", Started),
            announced(dm(2, "a"), "diplomacy", Prompt),
            announced(row(3, 10), "diplomacy", Turn),
            announced(dm(4, "a"), "diplomacy", Prompt),
            announced(dm(5, "b"), "diplomacy", Prompt),
            announced(row(6, 10), "diplomacy", Waiting),
            announced(dm(7, "a"), "diplomacy", Press),
        ];
        let plan = plan_lane(rows, &dm_kinds);
        assert!(plan.superseded.is_empty());
        let got = shape(&plan.segments);
        let s = |v: &[(&str, &[i64])]| -> Vec<(String, Vec<i64>)> {
            v.iter().map(|(n, i)| (n.to_string(), i.to_vec())).collect()
        };
        assert_eq!(
            got,
            vec![
                // The start opens the thread the first prompt links to.
                s(&[("home", &[1])]),
                s(&[("a", &[2, 4, 7]), ("home", &[3, 6]), ("b", &[5])]),
            ]
        );
        // A kind that prompts in the channel keeps its rows to users in
        // the channel's stream (the turn's message carries the prompt).
        let rows = vec![
            announced(row(1, 10), "cards", Turn),
            announced(dm(2, "a"), "cards", Prompt),
        ];
        assert_eq!(
            shape(&plan_lane(rows, &dm_kinds).segments),
            vec![s(&[("home", &[1, 2])])]
        );
    }

    #[test]
    fn of_a_run_of_lobby_changes_the_first_and_the_last_are_delivered() {
        use AnnouncementKind::*;
        let dm_kinds = DmKinds(HashSet::from(["diplomacy".to_string()]));
        let rows = vec![
            announced(row(1, 10), "diplomacy", Lobby),
            announced(row(2, 10), "diplomacy", Lobby),
            announced(row(3, 10), "diplomacy", Lobby),
            announced(row(4, 10), "diplomacy", Started),
            announced(row(5, 10), "diplomacy", Lobby),
        ];
        let plan = plan_lane(rows, &dm_kinds);
        assert_eq!(plan.superseded, vec![2]);
        let s = |v: &[(&str, &[i64])]| -> Vec<(String, Vec<i64>)> {
            v.iter().map(|(n, i)| (n.to_string(), i.to_vec())).collect()
        };
        assert_eq!(
            shape(&plan.segments),
            vec![s(&[("home", &[1, 3, 4])]), s(&[("home", &[5])])]
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
        assert!(lanes.finish(10, &LaneEnd::Retry(None), now));
        lanes.take_claim(vec![row(1, 10), row(2, 20)]);
        // Game 20 goes at once; game 10 waits for its backoff.
        let (g, _) = lanes.next_ready(now).unwrap();
        assert_eq!(g, 20);
        assert!(lanes.next_ready(now).is_none());
        assert_eq!(lanes.next_look(now), now + FIRST_BACKOFF);
        let later = now + FIRST_BACKOFF;
        let (g, _) = lanes.next_ready(later).unwrap();
        assert_eq!(g, 10);
        lanes.finish(10, &LaneEnd::Retry(None), later);
        assert_eq!(lanes.backoff[&10].until, later + FIRST_BACKOFF * 2);
        for _ in 0..20 {
            lanes.finish(10, &LaneEnd::Retry(None), later);
        }
        assert_eq!(lanes.backoff[&10].next, MAX_BACKOFF);
        // Delivered at last: the backoff is forgotten.
        lanes.finish(10, &LaneEnd::Delivered, later);
        assert!(!lanes.backoff.contains_key(&10));
    }
}
