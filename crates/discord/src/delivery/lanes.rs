//! Which rows the loop hands to which lane, and when.
//!
//! A lane is one stream of one game: the game's channel and thread (its
//! home), or one player's DMs. Each delivers its rows one after the other;
//! a game's lanes go at once, so a prompt by DM never waits for the
//! thread's rate limits (Discord counts 5 messages and 5 edits per 5 s in
//! each channel). Only a game's start holds its DMs back: the start opens
//! the thread they link to.
//!
//! Rows nobody would see are not sent: of a run of lobby changes only the
//! first (it posts the lobby) and the last are delivered, and a turn's
//! status line ("waiting for Bob") is not edited in when a later row of
//! the same lane already opens a later turn (its edit would be taken off
//! again at once, two edits of the thread's five in five seconds for
//! nothing).

use crate::delivery::home_order::HomeOrder;
use host::{AnnouncementKind, OutboxItem, Target};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;
use tokio::time::Instant;

/// The longest the loop waits without looking at the outbox: each look
/// renews this process's claims and takes over a dead process's lapsed ones.
pub(crate) const MAX_IDLE: Duration = Duration::from_millis(host::CLAIM_RENEW_EVERY_MS as u64);

/// The first wait of a lane whose delivery failed.
pub(crate) const FIRST_BACKOFF: Duration = Duration::from_millis(500);

/// The longest wait of a lane whose delivery keeps failing.
pub(crate) const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Which game kinds prompt by DM (their moves are hidden): only their rows
/// to a user go to a DM channel; the other kinds prompt in the game's
/// channel, so their rows to a user belong to the home.
pub(crate) struct DmKinds(pub(crate) HashSet<String>);

/// Where a row goes, as far as order matters: the game's channel and thread
/// (one stream), or one user's DMs.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum Stream {
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

/// One lane: a stream of a game.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) struct LaneKey {
    /// The game.
    pub game: i64,
    /// Its stream.
    pub stream: Stream,
}

impl LaneKey {
    fn home(game: i64) -> LaneKey {
        LaneKey {
            game,
            stream: Stream::Home,
        }
    }
}

/// A lane ready to start: its rows, and the rows it marks sent unsent.
pub(crate) struct Ready {
    /// The lane.
    pub key: LaneKey,
    /// Its rows to deliver, oldest first.
    pub rows: Vec<OutboxItem>,
    /// Rows nobody would see (superseded): marked sent without a request.
    pub superseded: Vec<i64>,
}

/// How a lane ended.
pub(crate) enum LaneEnd {
    /// Every row it had was delivered (or is not ours).
    Delivered,
    /// A row must be tried again later; the rows after it wait with it.
    /// With the wait a 429 asked for, the lane waits that long instead of
    /// its back-off.
    Retry(Option<std::time::Duration>),
    /// The bot is stopping; the row in hand was finished first.
    Stopped,
}

/// A lane waiting after a failed delivery.
struct Backoff {
    /// Not tried again before this.
    until: Instant,
    /// The wait after its next failure.
    next: Duration,
}

/// What the loop knows of the lanes it delivers.
#[derive(Default)]
pub(crate) struct Lanes {
    /// Claimed rows of lanes not running yet, oldest first.
    waiting: BTreeMap<LaneKey, Vec<OutboxItem>>,
    /// Lanes running now, with the last row id each has.
    busy: HashMap<LaneKey, i64>,
    /// Lanes a claim found newer rows for (or held rows back for): claim
    /// again when they end.
    more: HashSet<LaneKey>,
    /// Lanes backing off after a failure.
    backoff: HashMap<LaneKey, Backoff>,
    /// Each game's home order, for notes posted in the home by a DM lane.
    homes: HashMap<i64, HomeOrder>,
}

impl Lanes {
    /// Takes a claim's rows: lanes running now are left to themselves
    /// (noting any newer rows), every other lane's rows replace what was
    /// waiting. DM rows after a game's start wait for the start.
    pub(crate) fn take_claim(&mut self, items: Vec<OutboxItem>, dm_kinds: &DmKinds) {
        self.waiting.clear();
        // What is pending in an idle home is what this claim says.
        for (game, order) in &self.homes {
            if !self.busy.contains_key(&LaneKey::home(*game)) {
                order.reset();
            }
        }
        let starts = first_starts(&items, dm_kinds);
        for item in items {
            let key = LaneKey {
                game: item.game_id,
                stream: stream_of(&item, dm_kinds),
            };
            let home = key.stream == Stream::Home;
            if !home && starts.get(&key.game).is_some_and(|s| item.id > *s) {
                // The start opens the thread this row links to.
                self.more.insert(LaneKey::home(key.game));
                continue;
            }
            match self.busy.get(&key) {
                Some(last) if item.id <= *last => continue,
                Some(_) => {
                    self.more.insert(key.clone());
                }
                None => {}
            }
            if home {
                self.homes.entry(key.game).or_default().queued([item.id]);
            }
            if !self.busy.contains_key(&key) {
                self.waiting.entry(key).or_default().push(item);
            }
        }
        self.forget_idle_homes();
    }

    /// Drops the home order of games with nothing pending and no lane.
    fn forget_idle_homes(&mut self) {
        let running: HashSet<i64> = self.busy.keys().map(|k| k.game).collect();
        self.homes
            .retain(|game, order| running.contains(game) || !order.idle());
    }

    /// The next lane that may start now, of a game already running or while
    /// fewer than `games_at_once` games run.
    pub(crate) fn next_ready(&mut self, now: Instant, games_at_once: usize) -> Option<Ready> {
        let running: HashSet<i64> = self.busy.keys().map(|k| k.game).collect();
        let key = self
            .waiting
            .keys()
            .find(|k| {
                self.backoff.get(k).is_none_or(|b| b.until <= now)
                    && (running.contains(&k.game) || running.len() < games_at_once)
            })?
            .clone();
        let rows = self.waiting.remove(&key)?;
        let last = rows.last().map_or(i64::MIN, |r| r.id);
        self.busy.insert(key.clone(), last);
        let (rows, superseded) = without_superseded(rows);
        Some(Ready {
            key,
            rows,
            superseded,
        })
    }

    /// The home order of `game` (for a lane of it about to start).
    pub(crate) fn home_of(&mut self, game: i64) -> &HomeOrder {
        self.homes.entry(game).or_default()
    }

    /// Whether any lane runs.
    pub(crate) fn running(&self) -> bool {
        !self.busy.is_empty()
    }

    /// Whether no lane waits to start.
    pub(crate) fn none_waiting(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Records a lane's end; true when its game has more rows to claim.
    pub(crate) fn finish(&mut self, key: &LaneKey, end: &LaneEnd, now: Instant) -> bool {
        self.busy.remove(key);
        match end {
            LaneEnd::Delivered | LaneEnd::Stopped => {
                self.backoff.remove(key);
            }
            LaneEnd::Retry(asked) => {
                let backoff = self.backoff.get(key).map_or(FIRST_BACKOFF, |b| b.next);
                // Discord said how long: neither sooner (another 429) nor
                // a back-off later; the back-off is kept for the next failure.
                let (wait, next) = match asked {
                    Some(asked) => (*asked, backoff),
                    None => (backoff, (backoff * 2).min(MAX_BACKOFF)),
                };
                tracing::warn!(
                    game_id = key.game,
                    home = key.stream == Stream::Home,
                    wait_ms = wait.as_millis() as u64,
                    rate_limited = asked.is_some(),
                    "a lane's delivery backs off"
                );
                self.backoff.insert(
                    key.clone(),
                    Backoff {
                        until: now + wait,
                        next,
                    },
                );
            }
        }
        self.more.remove(key) || matches!(end, LaneEnd::Retry(_))
    }

    /// When the loop must look again at the latest: the end of the first
    /// backoff of a waiting lane, or after [`MAX_IDLE`].
    pub(crate) fn next_look(&self, now: Instant) -> Instant {
        self.waiting
            .keys()
            .filter_map(|k| self.backoff.get(k).map(|b| b.until))
            .chain(std::iter::once(now + MAX_IDLE))
            .min()
            .unwrap_or(now + MAX_IDLE)
            .max(now)
    }
}

/// The first game-start row in each game's home, by game.
fn first_starts(items: &[OutboxItem], dm_kinds: &DmKinds) -> HashMap<i64, i64> {
    let mut starts = HashMap::new();
    for item in items {
        let started = matches!(&item.announcement, Ok(a) if a.kind == AnnouncementKind::Started);
        if started && stream_of(item, dm_kinds) == Stream::Home {
            starts.entry(item.game_id).or_insert(item.id);
        }
    }
    starts
}

/// A lane's rows without those nobody would see, and those left out: of a
/// run of lobby changes the first (it posts the lobby, with its heading)
/// and the last (the seats as they are now) stay, the edits between go;
/// a status line of a turn a later row opens a later turn after goes.
fn without_superseded(rows: Vec<OutboxItem>) -> (Vec<OutboxItem>, Vec<i64>) {
    let kind = |row: &OutboxItem| row.announcement.as_ref().ok().map(|a| (a.kind, a.turn));
    let last_turn_opened = rows
        .iter()
        .filter_map(kind)
        .filter(|(k, _)| matches!(k, AnnouncementKind::Turn | AnnouncementKind::Finished))
        .map(|(_, turn)| turn)
        .max();
    let mut kept: Vec<OutboxItem> = Vec::new();
    let mut superseded = Vec::new();
    let is_lobby = |row: &OutboxItem| matches!(kind(row), Some((AnnouncementKind::Lobby, _)));
    for row in rows {
        match kind(&row) {
            Some((AnnouncementKind::Waiting, turn))
                if last_turn_opened.is_some_and(|t| t > turn) =>
            {
                superseded.push(row.id);
                continue;
            }
            Some((AnnouncementKind::Lobby, _))
                if kept.len() >= 2 && kept[kept.len() - 2..].iter().all(is_lobby) =>
            {
                let old = kept.pop().expect("a last row");
                superseded.push(old.id);
            }
            _ => {}
        }
        kept.push(row);
    }
    superseded.sort_unstable();
    (kept, superseded)
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

    fn announced(item: OutboxItem, kind: &str, what: AnnouncementKind, turn: u32) -> OutboxItem {
        let text = format!("{what:?}");
        OutboxItem {
            announcement: Ok(host::Announcement {
                game_id: item.game_id,
                game_kind: kind.into(),
                kind: what,
                turn,
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

    fn no_dm_kinds() -> DmKinds {
        DmKinds(HashSet::new())
    }

    fn dm_kinds() -> DmKinds {
        DmKinds(HashSet::from(["diplomacy".to_string()]))
    }

    /// Every lane that can start now: (stream name, row ids).
    fn start_all(lanes: &mut Lanes, now: Instant) -> Vec<(String, Vec<i64>)> {
        let mut started = Vec::new();
        while let Some(ready) = lanes.next_ready(now, 32) {
            let name = match &ready.key.stream {
                Stream::Home => format!("home {}", ready.key.game),
                Stream::Dm(u) => format!("{u} {}", ready.key.game),
            };
            started.push((name, ids(&ready.rows)));
        }
        started
    }

    fn lanes(v: &[(&str, &[i64])]) -> Vec<(String, Vec<i64>)> {
        v.iter().map(|(n, i)| (n.to_string(), i.to_vec())).collect()
    }

    #[test]
    fn each_stream_is_a_lane_and_a_start_holds_the_dms_after_it() {
        use AnnouncementKind::*;
        let mut l = Lanes::default();
        let now = Instant::now();
        let claim = || {
            vec![
                announced(dm(1, "a"), "diplomacy", Prompt, 0),
                announced(row(2, 10), "diplomacy", Started, 0),
                announced(dm(3, "a"), "diplomacy", Prompt, 0),
                announced(row(4, 10), "diplomacy", Turn, 1),
                announced(dm(5, "b"), "diplomacy", Prompt, 1),
            ]
        };
        l.take_claim(claim(), &dm_kinds());
        // The start opens the thread the prompts after it link to.
        assert_eq!(
            start_all(&mut l, now),
            lanes(&[("home 10", &[2, 4]), ("a 10", &[1])])
        );
        assert!(l.finish(&LaneKey::home(10), &LaneEnd::Delivered, now));
        // Claimed again once the start is out (rows 2 and 4 sent).
        let rest: Vec<OutboxItem> = claim().into_iter().filter(|r| r.id % 2 == 1).collect();
        l.take_claim(rest, &dm_kinds());
        assert_eq!(start_all(&mut l, now), lanes(&[("b 10", &[5])]));
        let a = LaneKey {
            game: 10,
            stream: Stream::Dm("a".into()),
        };
        assert!(l.finish(&a, &LaneEnd::Delivered, now), "row 3 waits");
        // A kind that prompts in the channel keeps its rows to users in
        // the home (the turn's message carries the prompt).
        let mut l = Lanes::default();
        l.take_claim(
            vec![
                announced(row(1, 10), "cards", Turn, 1),
                announced(dm(2, "a"), "cards", Prompt, 1),
            ],
            &dm_kinds(),
        );
        assert_eq!(start_all(&mut l, now), lanes(&[("home 10", &[1, 2])]));
    }

    #[test]
    fn a_busy_home_keeps_its_rows_and_a_dm_lane_goes_beside_it() {
        use AnnouncementKind::*;
        let mut l = Lanes::default();
        let now = Instant::now();
        l.take_claim(
            vec![announced(row(1, 10), "diplomacy", Waiting, 1)],
            &dm_kinds(),
        );
        assert_eq!(start_all(&mut l, now), lanes(&[("home 10", &[1])]));
        // The status edit still waits for the thread's bucket when the
        // turn resolves: its prompt goes at once, its report after the edit.
        l.take_claim(
            vec![
                announced(row(1, 10), "diplomacy", Waiting, 1),
                announced(row(2, 10), "diplomacy", Turn, 2),
                announced(dm(3, "a"), "diplomacy", Prompt, 2),
            ],
            &dm_kinds(),
        );
        assert_eq!(start_all(&mut l, now), lanes(&[("a 10", &[3])]));
        assert!(l.finish(&LaneKey::home(10), &LaneEnd::Delivered, now));
    }

    #[test]
    fn rows_nobody_would_see_are_left_out() {
        use AnnouncementKind::*;
        let rows = vec![
            announced(row(1, 10), "battle", Lobby, 0),
            announced(row(2, 10), "battle", Lobby, 0),
            announced(row(3, 10), "battle", Lobby, 0),
            announced(row(4, 10), "battle", Started, 0),
            announced(row(5, 10), "battle", Waiting, 0),
            announced(row(6, 10), "battle", Turn, 1),
            announced(row(7, 10), "battle", Waiting, 1),
        ];
        let (kept, superseded) = without_superseded(rows);
        // Turn 0's status line would be taken off at once by turn 1's
        // message; turn 1's stays (nothing opened turn 2 yet).
        assert_eq!(ids(&kept), vec![1, 3, 4, 6, 7]);
        assert_eq!(superseded, vec![2, 5]);
    }

    #[test]
    fn each_lane_gets_its_rows_in_order_and_newer_rows_wait_for_its_end() {
        let mut l = Lanes::default();
        let now = Instant::now();
        l.take_claim(
            vec![row(1, 10), row(2, 20), row(3, 10), row(4, 20)],
            &no_dm_kinds(),
        );
        assert_eq!(
            start_all(&mut l, now),
            lanes(&[("home 10", &[1, 3]), ("home 20", &[2, 4])])
        );
        // A claim while both lanes run hands neither out again; a newer
        // row of game 10 is noted for when its lane ends.
        l.take_claim(
            vec![row(1, 10), row(2, 20), row(3, 10), row(5, 10)],
            &no_dm_kinds(),
        );
        assert!(l.next_ready(now, 32).is_none());
        assert!(l.finish(&LaneKey::home(10), &LaneEnd::Delivered, now));
        assert!(!l.finish(&LaneKey::home(20), &LaneEnd::Delivered, now));
    }

    #[test]
    fn at_most_so_many_games_run_at_once() {
        let mut l = Lanes::default();
        let now = Instant::now();
        l.take_claim(
            vec![row(1, 10), row(2, 20), dm(3, "a")],
            &DmKinds(HashSet::from(["x".into()])),
        );
        assert!(l.next_ready(now, 1).is_some());
        assert!(l.next_ready(now, 1).is_none(), "game 20 waits for a place");
    }

    #[test]
    fn a_failing_lane_backs_off_alone_and_doubles_up_to_the_cap() {
        let mut l = Lanes::default();
        let now = Instant::now();
        let ten = LaneKey::home(10);
        l.take_claim(vec![row(1, 10), row(2, 20)], &no_dm_kinds());
        assert_eq!(l.next_ready(now, 32).unwrap().key, ten);
        assert!(l.finish(&ten, &LaneEnd::Retry(None), now));
        l.take_claim(vec![row(1, 10), row(2, 20)], &no_dm_kinds());
        // Game 20 goes at once; game 10 waits for its backoff.
        assert_eq!(l.next_ready(now, 32).unwrap().key, LaneKey::home(20));
        assert!(l.next_ready(now, 32).is_none());
        assert_eq!(l.next_look(now), now + FIRST_BACKOFF);
        let later = now + FIRST_BACKOFF;
        assert_eq!(l.next_ready(later, 32).unwrap().key, ten);
        l.finish(&ten, &LaneEnd::Retry(None), later);
        assert_eq!(l.backoff[&ten].until, later + FIRST_BACKOFF * 2);
        for _ in 0..20 {
            l.finish(&ten, &LaneEnd::Retry(None), later);
        }
        assert_eq!(l.backoff[&ten].next, MAX_BACKOFF);
        // Delivered at last: the backoff is forgotten.
        l.finish(&ten, &LaneEnd::Delivered, later);
        assert!(!l.backoff.contains_key(&ten));
    }
}
