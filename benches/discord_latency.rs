//! Latency as players feel it: the real `gamehost run` binary against the
//! fake Discord of the end-to-end tests, at Discord's round trip and with its rate limits on,
//! timed from a player's move to their next prompt.
//!
//! `cargo bench --bench discord_latency -- SCENARIO` runs one scenario and
//! prints p50/p95/max of the time from the move that resolved a turn to the
//! next prompt of each player, per kind of game, and the REST requests the
//! bot made per resolved turn, in all and by kind of game (a request
//! counts for the game whose channel, thread or player's DM it names):
//!
//! - `field`: 12 battles against the AI (budget `LATENCY_AI_MS`, 1,000 ms)
//!   beside 4 cards games and 2 Diplomacy games between people;
//! - `pressing`: the same games, every player pressing the moment a prompt
//!   comes (think `0-0` unless `LATENCY_THINK_MS` says otherwise) and the AI
//!   at the config's default budget (`[ai] budget_ms`): a battle player
//!   then meets their AI still thinking, beside eleven others thinking too,
//!   where `field`'s 2-6 s of thought let each AI finish first;
//! - `people`: `LATENCY_GAMES` (100) games between people, cards, puzzle
//!   and Diplomacy in turn.
//!
//! In `field` and `pressing`, `LATENCY_DIPLOMACY_GAMES` (2) sets how many
//! Diplomacy games there are, and `LATENCY_DIPLOMACY_AI` (`hold`) the level
//! of their AI seats: `default` makes each phase start five AIs thinking
//! per game beside the battles' (issue 51: sixteen or more AI seats
//! thinking at once).
//!
//! Settings: `LATENCY_RTT_MS` (80) the fake's round trip, `LATENCY_SECS`
//! (60) how long players play, `LATENCY_THINK_MS` (`2000-6000`) how long a
//! person thinks before each move, `LATENCY_LANES` (`0`) the bot's
//! `[discord] delivery_lanes`, several separated by commas to run side by
//! side (`1,0`: one game at a time, as before, then the default). Without a scenario (as `cargo test`
//! runs benches) a short `field` run checks that the bench works.
//!
//! A prompt is a message with buttons for the player: by DM, or in the
//! channel naming them (`<@id>, your move`). Every prompt is answered with
//! its first button (a Diplomacy prompt with "Ready": every unit holds; a
//! battle's replacement with the first choice of its menu).

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

use host::{Host, ManualClock, NewGame, Registry, TimeoutPolicy};
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::fake_discord::{FakeDiscord, Msg, TOKEN};
use support::host_builder::host_with;
use tokio::sync::mpsc;
use tokio::time::Instant;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The level of the Diplomacy games' AI seats: `LATENCY_DIPLOMACY_AI`,
/// else `hold` (AI seats that think cost nothing).
fn diplomacy_ai_level() -> &'static str {
    match std::env::var("LATENCY_DIPLOMACY_AI").as_deref() {
        Ok("default") => "default",
        Ok("dumbbot") => "dumbbot",
        _ => "hold",
    }
}

/// The range a person thinks before moving (ms): `LATENCY_THINK_MS`, else
/// `default`.
fn think_range(default: &str) -> (u64, u64) {
    let spec = std::env::var("LATENCY_THINK_MS").unwrap_or_else(|_| default.into());
    let mut parts = spec.split('-').filter_map(|p| p.trim().parse::<u64>().ok());
    let low = parts.next().unwrap_or(0);
    let high = parts.next().unwrap_or(low).max(low);
    (low, high)
}

/// What one run is made of.
struct Scenario {
    /// Games against the AI: (kind, how many).
    against_ai: Vec<(&'static str, usize)>,
    /// Games between people: (kind, how many).
    between_people: Vec<(&'static str, usize)>,
    /// The AI's budget per decision (ms).
    ai_budget_ms: u64,
    /// How long players play.
    play_for: Duration,
    /// How long a person thinks (ms, from-to).
    think_ms: (u64, u64),
    /// The fake's round trip.
    rtt: Duration,
}

fn scenario(name: &str) -> Option<Scenario> {
    let rtt = Duration::from_millis(env_or("LATENCY_RTT_MS", 80));
    let play_for = Duration::from_secs(env_or("LATENCY_SECS", 60));
    let ai_budget_ms = env_or("LATENCY_AI_MS", 1000);
    let think_ms = think_range("2000-6000");
    let diplomacy_games = env_or("LATENCY_DIPLOMACY_GAMES", 2) as usize;
    match name {
        "field" => Some(Scenario {
            against_ai: vec![("battle", 12)],
            between_people: vec![("cards", 4), ("diplomacy", diplomacy_games)],
            ai_budget_ms,
            play_for,
            think_ms,
            rtt,
        }),
        "pressing" => Some(Scenario {
            against_ai: vec![("battle", 12)],
            between_people: vec![("cards", 4), ("diplomacy", diplomacy_games)],
            ai_budget_ms: env_or(
                "LATENCY_AI_MS",
                gamehost::config::AiConfig::default().budget_ms,
            ),
            play_for,
            think_ms: think_range("0-0"),
            rtt,
        }),
        "people" => {
            let n = env_or("LATENCY_GAMES", 100) as usize;
            let third = n / 3;
            Some(Scenario {
                against_ai: vec![],
                between_people: vec![
                    ("cards", n - 2 * third),
                    ("puzzle", third),
                    ("diplomacy", third),
                ],
                ai_budget_ms,
                play_for,
                think_ms,
                rtt,
            })
        }
        // `cargo test` runs benches: a few seconds that show it works.
        "smoke" => Some(Scenario {
            against_ai: vec![("battle", 2)],
            between_people: vec![("cards", 1), ("diplomacy", 1)],
            ai_budget_ms: 50,
            play_for: Duration::from_secs(4),
            think_ms: (50, 150),
            rtt: Duration::from_millis(20),
        }),
        _ => None,
    }
}

/// A seated person: their user id, game and the game's kind.
#[derive(Clone)]
struct Player {
    user: u64,
    game: usize,
    kind: &'static str,
}

/// One measured wait.
#[derive(Clone, Copy)]
struct Sample {
    /// The kind of game.
    kind: &'static str,
    /// How long the prompt took after the move.
    waited: Duration,
    /// When the move was made, from the start of play.
    moved_at: Duration,
}

/// When each game's last move was made (the move that resolves a turn is
/// the last one before the next prompts).
type LastMoves = Arc<Mutex<HashMap<usize, Instant>>>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .cloned()
        .unwrap_or_else(|| "smoke".into());
    let Some(scenario) = scenario(&name) else {
        eprintln!("unknown scenario `{name}`: expected `field`, `pressing`, `people` or none");
        std::process::exit(2);
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(run(&name, scenario));
}

async fn run(name: &str, s: Scenario) {
    // Side by side in one run: each number of delivery lanes asked for
    // (1 delivers one game at a time, as the bot did before).
    let lanes = std::env::var("LATENCY_LANES").unwrap_or_else(|_| "0".into());
    for n in lanes.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        run_with_lanes(name, &s, n).await;
    }
}

async fn run_with_lanes(name: &str, s: &Scenario, lanes: &str) {
    let fake = FakeDiscord::start().await;
    fake.set_latency(s.rtt);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("latency.db");
    let budget = s.ai_budget_ms.to_string();
    let log_level = std::env::var("LATENCY_LOG_LEVEL").unwrap_or_else(|_| "info".into());
    let bin = support::process::spawn_with(
        dir.path(),
        &db,
        TOKEN,
        &fake,
        &[
            ("GAMEHOST_AI_BUDGET_MS", budget.as_str()),
            ("GAMEHOST_DISCORD_DELIVERY_LANES", lanes),
            ("GAMEHOST_LOG_LEVEL", log_level.as_str()),
        ],
        &[],
    );
    fake.wait_ready(1).await;
    fake.wait_commands().await;
    // The bench's own host on the bot's database sets the games up (not
    // measured); the bot finds their announcements within its idle look.
    let host = Arc::new(host_with(
        &db,
        Registry::standard(),
        Arc::new(ManualClock::at(now_ms())),
        s.ai_budget_ms,
    ));
    let players = seat_everyone(&fake, &host, s).await;
    let requests_before = fake.state().requests.len();
    let turns_before = resolved_turns(&host);
    let samples = play(&fake, &players, s).await;
    let turns = turns_since(&turns_before, resolved_turns(&host));
    bin.signal("INT");
    let (_, output) = bin.exit().await;
    if let Ok(path) = std::env::var("LATENCY_BOT_LOG") {
        let path = format!("{path}.lanes-{lanes}");
        match std::fs::write(&path, output) {
            Ok(()) => println!("the bot's log: {path}"),
            Err(e) => println!("cannot write the bot's log to {path}: {e}"),
        }
    }
    println!("delivery lanes: {lanes} (0: the default)");
    report(name, s, &samples, &fake, requests_before, &turns);
    report_by_kind(&fake, &players, requests_before, &turns);
}

/// Milliseconds since the epoch.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Creates every game through the host (setting up is not measured),
/// seats the people and AIs, and starts them.
async fn seat_everyone(fake: &FakeDiscord, host: &Arc<Host>, s: &Scenario) -> Vec<Player> {
    let mut players = Vec::new();
    let mut game = 0usize;
    let mut next_user = 1_100_000_000_000_000u64;
    let games = s
        .against_ai
        .iter()
        .map(|(k, n)| (*k, *n, true))
        .chain(s.between_people.iter().map(|(k, n)| (*k, *n, false)));
    for (kind, n, ai) in games {
        for _ in 0..n {
            game += 1;
            let channel = 2_100_000_000_000_000u64 + game as u64;
            let people = if ai { 1 } else { 2 };
            let users: Vec<u64> = (0..people).map(|i| next_user + i).collect();
            next_user += people;
            for u in &users {
                fake.user(*u, &format!("Player {u}"));
            }
            let host = host.clone();
            let seated = users.clone();
            tokio::task::spawn_blocking(move || {
                let id = host.create_game(NewGame {
                    kind: kind.into(),
                    guild_id: Some(support::fake_discord::GUILD_ID.to_string()),
                    channel_id: channel.to_string(),
                    creator_id: seated[0].to_string(),
                    creator_name: format!("Player {}", seated[0]),
                    options: serde_json::Value::Null,
                    seed: Some(game as u64),
                    turn_seconds: None,
                    timeout_policy: TimeoutPolicy::Default,
                    creator_plays: true,
                })?;
                for u in &seated[1..] {
                    host.join(id, &u.to_string(), &format!("Player {u}"), None)?;
                }
                let seats = if kind == "diplomacy" { 7 } else { 2 };
                let level = (kind == "diplomacy").then(diplomacy_ai_level);
                for _ in seated.len()..seats {
                    host.add_ai(id, &seated[0].to_string(), level, None)?;
                }
                host.start(id, &seated[0].to_string())
            })
            .await
            .expect("setup task")
            .unwrap_or_else(|e| panic!("cannot set up a {kind} game: {e}"));
            players.extend(users.into_iter().map(|user| Player { user, game, kind }));
        }
    }
    players
}

/// Turns resolved so far, by kind of game.
fn resolved_turns(host: &Host) -> BTreeMap<String, i64> {
    host.store()
        .read(|tx| {
            let mut turns: BTreeMap<String, i64> = BTreeMap::new();
            for id in tx.all_game_ids()? {
                if let Some(g) = tx.game(id)? {
                    *turns.entry(g.kind).or_default() += i64::from(g.turn);
                }
            }
            Ok::<_, store::StoreError>(turns)
        })
        .unwrap_or_default()
}

/// The turns resolved between two counts, by kind.
fn turns_since(
    before: &BTreeMap<String, i64>,
    after: BTreeMap<String, i64>,
) -> BTreeMap<String, i64> {
    after
        .into_iter()
        .map(|(kind, n)| {
            let was = before.get(&kind).copied().unwrap_or(0);
            (kind, n - was)
        })
        .collect()
}

/// Plays until the time is up: one watcher routes each new prompt to its
/// player, and each player thinks, then presses the prompt's first button.
async fn play(fake: &FakeDiscord, players: &[Player], s: &Scenario) -> Vec<Sample> {
    let last_moves: LastMoves = Arc::default();
    let samples: Arc<Mutex<Vec<Sample>>> = Arc::default();
    let mut inboxes = HashMap::new();
    let mut drivers = Vec::new();
    let start = Instant::now();
    let end = start + s.play_for;
    for p in players {
        let (tx, rx) = mpsc::unbounded_channel();
        inboxes.insert(p.user, tx);
        drivers.push(drive(
            fake,
            p.clone(),
            rx,
            last_moves.clone(),
            samples.clone(),
            s.think_ms,
            (start, end),
        ));
    }
    let watcher = watch_prompts(fake, inboxes, end);
    tokio::join!(watcher, futures_util::future::join_all(drivers));
    samples.lock().expect("samples").clone()
}

/// A prompt as its player sees it: the message and when it was seen.
struct Prompt {
    msg: Msg,
    seen: Instant,
}

/// Whether `m` prompts `user`: a DM or a channel message naming them, with
/// buttons, not an answer to a click.
fn prompts(m: &Msg, user: u64) -> bool {
    if m.from_interaction || m.ephemeral || (m.buttons().is_empty() && m.selects().is_empty()) {
        return false;
    }
    m.dm_user == Some(user) || m.content().contains(&format!("<@{user}>, your move"))
}

/// Hands each new message that prompts someone to their driver, seen at
/// the moment the fake recorded it.
async fn watch_prompts(
    fake: &FakeDiscord,
    inboxes: HashMap<u64, mpsc::UnboundedSender<Prompt>>,
    end: Instant,
) {
    let mut cursor = fake.state().messages.len();
    while Instant::now() < end {
        fake.changed_within(Duration::from_millis(100)).await;
        let seen = Instant::now();
        let s = fake.state();
        for m in &s.messages[cursor..] {
            let to = m.dm_user.into_iter().chain(
                inboxes
                    .keys()
                    .copied()
                    .filter(|u| m.dm_user.is_none() && prompts(m, *u)),
            );
            for user in to {
                if prompts(m, user)
                    && let Some(tx) = inboxes.get(&user)
                {
                    let _ = tx.send(Prompt {
                        msg: m.clone(),
                        seen,
                    });
                }
            }
        }
        cursor = s.messages.len();
    }
}

/// One person: waits for each prompt, records how long it took since their
/// game's last move, thinks, and presses the first button.
async fn drive(
    fake: &FakeDiscord,
    p: Player,
    mut inbox: mpsc::UnboundedReceiver<Prompt>,
    last_moves: LastMoves,
    samples: Arc<Mutex<Vec<Sample>>>,
    think_ms: (u64, u64),
    (start, end): (Instant, Instant),
) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(p.user);
    let mut waiting_since: Option<Instant> = None;
    while let Ok(Some(prompt)) = tokio::time::timeout_at(end, inbox.recv()).await {
        let moved = last_moves.lock().expect("moves").get(&p.game).copied();
        if let (Some(moved), Some(asked)) = (moved, waiting_since)
            && moved >= asked
        {
            samples.lock().expect("samples").push(Sample {
                kind: p.kind,
                waited: prompt.seen.saturating_duration_since(moved),
                moved_at: moved.saturating_duration_since(start),
            });
        }
        let think = rng.gen_range(think_ms.0..=think_ms.1);
        tokio::time::sleep(Duration::from_millis(think)).await;
        if Instant::now() >= end {
            break;
        }
        let now = Instant::now();
        if !answer(fake, p.user, &prompt.msg) {
            continue;
        }
        last_moves.lock().expect("moves").insert(p.game, now);
        waiting_since = Some(now);
    }
}

/// Answers a prompt as a hurried person does: "Ready" on a Diplomacy
/// order desk (every unit holds), else the first button, else the first
/// choice of the first menu (a battle's replacement). False if it offers
/// nothing.
fn answer(fake: &FakeDiscord, user: u64, m: &Msg) -> bool {
    if let Some(id) = m
        .button("Ready")
        .or_else(|| m.buttons().into_iter().next().map(|(_, id)| id))
    {
        fake.click(user, m.id, &id);
        return true;
    }
    match m.selects().into_iter().next() {
        Some((id, choices)) if !choices.is_empty() => {
            fake.select(user, m.id, &id, &[choices[0].1.as_str()]);
            true
        }
        _ => false,
    }
}

/// Seconds of play in each window of [`report_by_window`].
const WINDOW_SECS: u64 = 15;

/// The waits of every kind by when the move was made, in windows of
/// [`WINDOW_SECS`]: the games' start (every game's first posts and
/// prompts at once) apart from the play that follows.
fn report_by_window(samples: &[Sample]) {
    let mut by_window: BTreeMap<u64, Vec<Duration>> = BTreeMap::new();
    for sample in samples {
        let window = sample.moved_at.as_secs() / WINDOW_SECS;
        by_window.entry(window).or_default().push(sample.waited);
    }
    println!("| moves made in | prompts | p50 | p95 | max |");
    println!("|---|---|---|---|---|");
    for (window, mut ds) in by_window {
        ds.sort();
        println!(
            "| {}-{} s | {} | {} ms | {} ms | {} ms |",
            window * WINDOW_SECS,
            (window + 1) * WINDOW_SECS,
            ds.len(),
            percentile(&ds, 0.5).as_millis(),
            percentile(&ds, 0.95).as_millis(),
            ds.last().copied().unwrap_or_default().as_millis()
        );
    }
}

/// The requests made, by method and route (ids left out), most first.
fn report_by_route(made: &[String]) {
    let mut by_route: BTreeMap<String, usize> = BTreeMap::new();
    for request in made {
        let call = request.split(" -> ").next().unwrap_or_default();
        let call = call.split('?').next().unwrap_or_default();
        let (method, path) = call.split_once(' ').unwrap_or((call, ""));
        let path: Vec<&str> = path
            .split('/')
            .map(|part| {
                if part.bytes().any(|b| b.is_ascii_digit()) {
                    "{id}"
                } else {
                    part
                }
            })
            .collect();
        let route = format!("{method} {}", path.join("/"));
        *by_route.entry(route).or_default() += 1;
    }
    let mut routes: Vec<_> = by_route.into_iter().collect();
    routes.sort_by_key(|route| std::cmp::Reverse(route.1));
    for (route, n) in routes {
        println!("  {n:>6} {route}");
    }
}

/// The channel id a request's path names (`/channels/{id}/...`), if any.
fn channel_of(request: &str) -> Option<u64> {
    let path = request.split(' ').nth(1)?;
    let mut parts = path.split('/');
    parts.find(|p| *p == "channels")?;
    parts.next()?.parse().ok()
}

/// The REST requests (interaction replies left out) per resolved turn of
/// each kind of game: a request counts for the game whose channel, thread
/// or player's DM channel it names; a DM channel opened counts for its
/// user's game.
fn report_by_kind(
    fake: &FakeDiscord,
    players: &[Player],
    requests_before: usize,
    turns: &BTreeMap<String, i64>,
) {
    let state = fake.state();
    let mut kind_of: HashMap<u64, &str> = HashMap::new();
    for p in players {
        kind_of.insert(2_100_000_000_000_000u64 + p.game as u64, p.kind);
        if let Some(dm) = state.dm_channels.get(&p.user) {
            kind_of.insert(*dm, p.kind);
        }
    }
    for t in &state.threads {
        if let Some(kind) = kind_of.get(&t.parent_id).copied() {
            kind_of.insert(t.id, kind);
        }
    }
    // (messages, edits, threads, other) by kind.
    let mut counts: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for request in &state.requests[requests_before..] {
        if request.contains("/interactions/") || request.contains("/webhooks/") {
            continue;
        }
        let Some(kind) = channel_of(request).and_then(|c| kind_of.get(&c).copied()) else {
            continue;
        };
        let slot = if request.starts_with("POST") && request.contains("/threads") {
            2
        } else if request.starts_with("POST") && request.contains("/messages") {
            0
        } else if request.starts_with("PATCH") {
            1
        } else {
            3
        };
        counts.entry(kind).or_default()[slot] += 1;
    }
    let mut opens: BTreeMap<&str, usize> = BTreeMap::new();
    for p in players {
        if state.dm_channels.contains_key(&p.user) {
            *opens.entry(p.kind).or_default() += 1;
        }
    }
    println!(
        "| kind | turns | messages | edits | threads | DM channels | other | requests a turn |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (kind, n) in turns {
        let c = counts.get(kind.as_str()).copied().unwrap_or_default();
        let dms = opens.get(kind.as_str()).copied().unwrap_or(0);
        let all = c.iter().sum::<usize>() + dms;
        let per_turn = if *n > 0 {
            format!("{:.1}", all as f64 / *n as f64)
        } else {
            "-".into()
        };
        println!(
            "| {kind} | {n} | {} | {} | {} | {dms} | {} | {per_turn} |",
            c[0], c[1], c[2], c[3]
        );
    }
}

/// How long the bot left each bucket alone after a 429, beside how long
/// the 429 asked: a bot that waits its own back-off instead of
/// `retry_after` shows here as waits longer than asked.
fn report_429_waits(too_many: &[support::fake_discord::TooMany]) {
    let mut asked: Vec<Duration> = Vec::new();
    let mut waited: Vec<Duration> = Vec::new();
    for t in too_many {
        if let Some(next) = t.next_after {
            asked.push(t.retry_after);
            waited.push(next);
        }
    }
    if asked.is_empty() {
        return;
    }
    asked.sort();
    waited.sort();
    println!(
        "  after a 429 ({} followed): asked to wait p50 {} ms, max {} ms; next request after p50 {} ms, max {} ms",
        asked.len(),
        percentile(&asked, 0.5).as_millis(),
        asked.last().copied().unwrap_or_default().as_millis(),
        percentile(&waited, 0.5).as_millis(),
        waited.last().copied().unwrap_or_default().as_millis(),
    );
}

/// The p-th percentile of sorted durations.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(
    name: &str,
    s: &Scenario,
    samples: &[Sample],
    fake: &FakeDiscord,
    requests_before: usize,
    turns_by_kind: &BTreeMap<String, i64>,
) {
    let turns: i64 = turns_by_kind.values().sum();
    let mut by_kind: BTreeMap<&str, Vec<Duration>> = BTreeMap::new();
    for sample in samples {
        by_kind.entry(sample.kind).or_default().push(sample.waited);
    }
    println!(
        "discord_latency {name}: round trip {} ms, AI budget {} ms, think {}-{} ms, {} s of play",
        s.rtt.as_millis(),
        s.ai_budget_ms,
        s.think_ms.0,
        s.think_ms.1,
        s.play_for.as_secs()
    );
    println!("| kind | prompts | p50 | p95 | max |");
    println!("|---|---|---|---|---|");
    for (kind, mut ds) in by_kind {
        ds.sort();
        println!(
            "| {kind} | {} | {} ms | {} ms | {} ms |",
            ds.len(),
            percentile(&ds, 0.5).as_millis(),
            percentile(&ds, 0.95).as_millis(),
            ds.last().copied().unwrap_or_default().as_millis()
        );
    }
    report_by_window(samples);
    let state = fake.state();
    let made = &state.requests[requests_before..];
    report_by_route(made);
    let interactions = made
        .iter()
        .filter(|r| r.contains("/interactions/") || r.contains("/webhooks/"))
        .count();
    let limited = made.iter().filter(|r| r.ends_with("-> 429")).count();
    println!(
        "turns resolved {turns}; REST requests {} ({} per turn without interaction replies), 429 answers {limited}, messages de-duplicated by nonce {}",
        made.len(),
        if turns > 0 {
            format!("{:.1}", (made.len() - interactions) as f64 / turns as f64)
        } else {
            "-".into()
        },
        state.dedupe_hits.len()
    );
    // Which buckets answered 429 (serenity learns a bucket from its first
    // answer, so a first burst may meet some), and whether the bot ever
    // sent to a bucket before its 429 said it could.
    let mut refused: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &state.too_many {
        *refused.entry(t.bucket.as_str()).or_default() += 1;
    }
    for (bucket, n) in &refused {
        println!("  429 x{n}: {bucket}");
    }
    report_429_waits(&state.too_many);
    println!(
        "requests sent before a 429's retry_after was over: {} (0 is every 429 honoured)",
        state.violations.len() + state.unhonoured().len()
    );
    for v in &state.violations {
        println!(
            "  early by {} ms: {} (bucket {})",
            v.early_by.as_millis(),
            v.request,
            v.bucket
        );
    }
    for t in state.unhonoured() {
        println!(
            "  429 on {} not waited out: retry_after {} ms, next request after {:?}",
            t.bucket,
            t.retry_after.as_millis(),
            t.next_after
        );
    }
    assert!(
        !samples.is_empty() || name == "smoke",
        "no prompt was measured"
    );
}
