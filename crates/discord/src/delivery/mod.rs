//! Runs the delivery of the host's outbox: games in parallel, each game's
//! announcements in order.
//!
//! Each stream of a game with undelivered announcements gets a lane (see
//! `lanes`): a task that delivers that stream's rows one after the other,
//! so a channel's, a thread's and each player's DMs keep their order. The
//! game's channel and thread are one stream, each player's DMs another,
//! and they go at once: a prompt by DM never waits for the thread, whose
//! rate limits (5 messages and 5 edits per 5 s) a game resolving a turn
//! a second meets, and a phase's seven prompts go out beside the channel's
//! message and its images. Only a game's start holds its DMs back: it
//! opens the thread they link to. A DM lane that posts in the thread (the
//! note for a player whose DMs are closed) waits for the thread's rows
//! queued before it (see `home_order`). The lanes of at most [`LANES`]
//! games run at once. Discord's rate limits are per route and channel,
//! and serenity's rate limiter makes a request wait for its own bucket
//! only, so a busy or rate-limited thread holds back its own lane and no
//! other.
//!
//! A row that fails for a reason worth retrying (a 5xx, a network error)
//! ends its lane: that lane backs off (doubling, from 0.5 s to 60 s) and
//! tries the same row again, while every other lane goes on. The claims in the database stay the
//! source of truth: rows are delivered only from a claim, and marked sent
//! after delivery, so nothing is lost across a restart and, of several
//! processes, one delivers each game.
//!
//! One row goes down the files, never back up: this file (the loop and
//! each lane, with `lanes` deciding which rows go in which) hands it to
//! `outbox`, which picks the one part that delivers it: the
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
mod lanes;
mod living;
mod lobby;
mod outbox;
mod thread;
mod turns;

use crate::Data;
use crate::pacing::global_rate::Urgency;
use home_order::{HomeProgress, HomeWaiter};
use host::{AnnouncementKind, OutboxItem};
use lanes::{DmKinds, LaneEnd, LaneKey, Lanes, MAX_IDLE, Ready, Stream};
use outbox::{Fate, deliver};
use poise::serenity_prelude::Http;
use std::sync::Arc;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tracing::Instrument;

/// Games delivered at once by default (`[discord] delivery_lanes`). Enough that a burst of turns in many games is
/// limited by Discord's global rate (50 requests a second), not by lanes
/// waiting on the round trip; few enough that one process never holds
/// hundreds of requests open.
pub const LANES: usize = 32;

/// The most games a setting can ask for at once: more would only queue on
/// Discord's global limit with hundreds of requests open.
const MAX_LANES: usize = 256;

/// The rows one claim reads (of at most the host's claimed games).
const CLAIM_ROWS: u32 = 500;

/// Runs until the bot stops: each lane sees the stop between two rows, so
/// the rows in hand are delivered and marked sent first.
pub async fn run(http: Arc<Http>, data: Data) {
    let mut lanes = Lanes::default();
    let mut running: JoinSet<(LaneKey, LaneEnd)> = JoinSet::new();
    let mut claim = true;
    let mut claimed_at = Instant::now();
    let games_at_once = match data.settings.delivery_lanes {
        0 => LANES,
        n => n.min(MAX_LANES),
    };
    let dm_kinds = dm_kinds(&data);
    while !data.wake.stopping() {
        // However busy the lanes keep the loop, the claim (and with it the
        // lease on the games waiting here) is renewed every MAX_IDLE.
        if claim || claimed_at.elapsed() >= MAX_IDLE {
            lanes.take_claim(claim_rows(&data).await, &dm_kinds);
            claimed_at = Instant::now();
        }
        while let Some(ready) = lanes.next_ready(Instant::now(), games_at_once) {
            let order = match ready.key.stream {
                Stream::Home => StreamOrder::Home(lanes.home_of(ready.key.game).lane()),
                Stream::Dm(_) => StreamOrder::Beside(lanes.home_of(ready.key.game).waiter()),
            };
            running.spawn(lane(http.clone(), data.clone(), ready, order));
        }
        let look = lanes.next_look(Instant::now());
        claim = tokio::select! {
            _ = data.wake.outbox.notified() => true,
            Some(ended) = running.join_next(), if lanes.running() => match ended {
                Ok((key, end)) => {
                    lanes.finish(&key, &end, Instant::now()) || lanes.none_waiting()
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

/// Which game kinds prompt by DM (their moves are hidden).
fn dm_kinds(data: &Data) -> DmKinds {
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

/// One lane: its rows delivered in its own task, so that a panic while
/// delivering is that lane's retry, not the loop's end.
async fn lane(http: Arc<Http>, data: Data, ready: Ready, order: StreamOrder) -> (LaneKey, LaneEnd) {
    let key = ready.key.clone();
    let game = key.game;
    let delivered = tokio::spawn(async move {
        // A lobby change superseded by a later one, or a status line a
        // later turn's message takes off again, would be an edit nobody
        // sees.
        for id in ready.superseded {
            mark_sent(&data, id).await;
        }
        deliver_stream(&http, &data, game, ready.rows, order).await
    });
    match delivered.await {
        Ok(end) => (key, end),
        Err(e) => {
            tracing::error!(game_id = game, error = %e, "delivering a game's announcements failed");
            (key, LaneEnd::Retry(None))
        }
    }
}

/// A lane's place in the order of its game's home.
enum StreamOrder {
    /// The home lane: says how far it has got.
    Home(HomeProgress),
    /// A DM lane: waits for the home before posting in it.
    Beside(HomeWaiter),
}

/// Delivers one lane's rows one after the other, marking each sent; ends
/// at the first row to retry (the rows after it wait with it).
async fn deliver_stream(
    http: &Arc<Http>,
    data: &Data,
    game: i64,
    items: Vec<OutboxItem>,
    order: StreamOrder,
) -> LaneEnd {
    let (mut progress, waiter) = match order {
        StreamOrder::Home(progress) => (Some(progress), HomeWaiter::in_home()),
        StreamOrder::Beside(waiter) => (None, waiter),
    };
    for item in items {
        if data.wake.stopping() {
            if let Some(p) = &mut progress {
                p.stalled();
            }
            return LaneEnd::Stopped;
        }
        let started = Instant::now();
        // The row's requests are logged within its span (which game and row).
        let span = tracing::debug_span!("row", game_id = game, outbox_id = item.id);
        let fate = urgency_of(&item)
            .scope(deliver(http, data, &item, &waiter))
            .instrument(span)
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
                if let Some(p) = &mut progress {
                    p.stalled();
                }
                return LaneEnd::Retry(asked);
            }
        }
        if let Some(p) = &progress {
            p.passed(item.id);
        }
    }
    if let Some(p) = &mut progress {
        p.done();
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
