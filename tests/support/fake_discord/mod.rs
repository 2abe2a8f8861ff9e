//! A fake Discord on 127.0.0.1 for the bot's end-to-end tests.
//!
//! - REST (`rest.rs`): the endpoints the bot uses, served over TLS as
//!   `discord.com` at [`FakeDiscord::api_address`] (the bot's `[discord]
//!   api_address`, trusting the test CA [`FakeDiscord::root_ca`] of
//!   `tests/data/fake_discord_tls/`), and over plain HTTP at
//!   [`FakeDiscord::base_url`] for serenity's `HttpBuilder::proxy(..)`; every message payload is checked against
//!   Discord's limits (`limits.rs`) and the message Discord would return is
//!   built and deserialised into serenity's own `Message`, so a payload or a
//!   fixture that serenity could not read fails loudly.
//! - Gateway (`gateway.rs`): a websocket whose URL `GET /api/v10/gateway`
//!   returns: HELLO, IDENTIFY, READY, heartbeats, and events injected by the
//!   tests (slash commands, button clicks, select menus, DMs), each
//!   deserialised into serenity's model types before it is sent.
//! - Uploads (`multipart.rs`): `multipart/form-data` bodies with a
//!   `payload_json` part and `files[n]` parts, checked as Discord does (at
//!   most 10 files, 10 MiB each, every attachment named in `payload_json`
//!   uploaded), on message creates, interaction replies and follow-ups;
//!   the files are kept on the message.
//! - Nonces: a message created with `enforce_nonce` and a nonce the bot
//!   already used in that channel within [`NONCE_WINDOW`] is not created
//!   again: the earlier message is returned and the hit recorded.
//!
//! - Threads: `POST /channels/{c}/messages/{m}/threads` opens a public
//!   thread (a channel of type 11 whose id is the message's, as Discord
//!   does); messages are posted into it like any channel. A second thread
//!   from the same message is refused (400, code 160004), and
//!   [`FakeDiscord::deny_threads`] makes the bot lack the permission (403,
//!   code 50013 "Missing Permissions").
//! - Edits: `PATCH /channels/{c}/messages/{m}` edits in place and counts the
//!   edits of each message ([`State::edits`]).
//!
//! - Rate limits (`ratelimits.rs`), Discord's ([`RateLimits::discord`]) from
//!   the start. Every request counts against a bucket, the
//!   route's shape with its major parameter (channel, guild, webhook id and
//!   token, interaction), in fixed windows: 5 message creates and 5 edits
//!   per 5 s in a channel, 5 DM opens a second, 50 a second on any other
//!   route; and all but the interaction endpoints (callbacks and
//!   follow-ups) against the global 50 a second. Every answer carries
//!   `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds),
//!   `-Reset-After` (seconds) and `-Bucket` (a hash of the route shape).
//!   A request over a limit is not performed: 429 with `Retry-After`
//!   (whole seconds, rounded up), `X-RateLimit-Scope` (`user`, or `global`
//!   with `X-RateLimit-Global: true`) and the body `{"message": "You are
//!   being rate limited.", "retry_after": seconds, "global": bool}`.
//!   [`FakeDiscord::set_rate_limits`] sets, changes or lifts them,
//!   [`FakeDiscord::fail_next_message_with_429`] refuses one message, and
//!   [`FakeDiscord::set_latency`] delays every answer (and gateway event).
//!   Recorded: every request with its arrival time and bucket
//!   ([`State::calls`]), every 429 with how long the bot then left its
//!   bucket alone ([`State::too_many`]), and every request that came while
//!   a 429 still told the bot to wait ([`State::violations`]); a request
//!   arriving within the round trip (plus 20 ms) of a 429 may have been sent
//!   before the bot read it and is not judged.
//!
//! Everything the bot sends is recorded in [`State`]; tests wait on it with
//! [`FakeDiscord::wait_for`] (polling on change notifications with a
//! timeout, never sleeping).

mod gateway;
mod limits;
pub mod multipart;
pub mod ratelimits;
mod rest;

pub use ratelimits::{Call, RateLimits, TooMany, Violation};

use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc};

/// The application (and bot user) id of the fake bot.
pub const APP_ID: u64 = 4_000_000_000_000_001;
/// The guild the tests play in (on shard 1 when the bot runs 2 shards).
pub const GUILD_ID: u64 = 5_000_000_000_000_001;
/// A second guild, on shard 0 when the bot runs 2 shards.
pub const GUILD_ON_SHARD_0: u64 = 5_000_000_004_194_305;
/// The token the bot must present.
pub const TOKEN: &str = "fake-token.not-a-secret";

/// How long Discord remembers a nonce for de-duplication ("a few minutes").
pub const NONCE_WINDOW: Duration = Duration::from_secs(5 * 60);

/// How long a test waits for something before failing.
pub const WAIT: Duration = Duration::from_secs(20);

/// One message as the fake stored it.
#[derive(Debug, Clone)]
pub struct Msg {
    /// Message id.
    pub id: u64,
    /// Channel (a DM channel for DMs).
    pub channel_id: u64,
    /// The user whose DM channel it is in, if a DM.
    pub dm_user: Option<u64>,
    /// For interaction responses: the interaction's user.
    pub for_user: Option<u64>,
    /// Ephemeral (flag 64): only `for_user` sees it.
    pub ephemeral: bool,
    /// Whether it came from an interaction response or follow-up.
    pub from_interaction: bool,
    /// The token of the interaction it answers.
    pub token: Option<String>,
    /// The full message object (as serenity reads it).
    pub json: Value,
    /// The files uploaded with it, in attachment order.
    pub files: Vec<Upload>,
}

/// A file uploaded with a message.
#[derive(Debug, Clone)]
pub struct Upload {
    /// The attachment's file name.
    pub filename: String,
    /// The content type of its form part.
    pub content_type: Option<String>,
    /// The alt text given in `payload_json`.
    pub description: Option<String>,
    /// The bytes (shared: messages are cloned freely in tests).
    pub data: Arc<Vec<u8>>,
}

/// A message create that Discord de-duplicated by its nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DedupeHit {
    /// The channel.
    pub channel_id: u64,
    /// The repeated nonce.
    pub nonce: String,
    /// The message returned instead of a new one.
    pub message_id: u64,
}

impl Msg {
    /// The content.
    pub fn content(&self) -> &str {
        self.json["content"].as_str().unwrap_or("")
    }

    /// Content and embed texts together, for matching.
    pub fn text(&self) -> String {
        let mut s = self.content().to_string();
        if let Some(embeds) = self.json["embeds"].as_array() {
            for e in embeds {
                for k in ["title", "description"] {
                    if let Some(t) = e[k].as_str() {
                        s.push('\n');
                        s.push_str(t);
                    }
                }
                if let Some(fields) = e["fields"].as_array() {
                    for f in fields {
                        s.push('\n');
                        s.push_str(f["name"].as_str().unwrap_or(""));
                        s.push('\n');
                        s.push_str(f["value"].as_str().unwrap_or(""));
                    }
                }
            }
        }
        s
    }

    /// (label, custom_id) of every button.
    pub fn buttons(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for row in self.json["components"].as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                if c["type"] == 2 {
                    out.push((
                        c["label"].as_str().unwrap_or("").to_string(),
                        c["custom_id"].as_str().unwrap_or("").to_string(),
                    ));
                }
            }
        }
        out
    }

    /// (custom_id, [(label, value)]) of every select menu.
    pub fn selects(&self) -> Vec<(String, Vec<(String, String)>)> {
        let mut out = Vec::new();
        for row in self.json["components"].as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                if c["type"] == 3 {
                    let opts = c["options"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|o| {
                            (
                                o["label"].as_str().unwrap_or("").to_string(),
                                o["value"].as_str().unwrap_or("").to_string(),
                            )
                        })
                        .collect();
                    out.push((c["custom_id"].as_str().unwrap_or("").to_string(), opts));
                }
            }
        }
        out
    }

    /// The uploaded file with this name, if any.
    pub fn file(&self, filename: &str) -> Option<&Upload> {
        self.files.iter().find(|f| f.filename == filename)
    }

    /// Whether every button of the message is disabled (and it has some).
    pub fn buttons_disabled(&self) -> bool {
        let mut any = false;
        for row in self.json["components"].as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                if c["type"] == 2 {
                    any = true;
                    if c["disabled"] != true {
                        return false;
                    }
                }
            }
        }
        any
    }

    /// The custom id of the button whose label contains `label` (case-insensitive).
    pub fn button(&self, label: &str) -> Option<String> {
        let l = label.to_lowercase();
        self.buttons()
            .into_iter()
            .find(|(lab, _)| lab.to_lowercase().contains(&l))
            .map(|(_, id)| id)
    }
}

/// One interaction the fake sent and its response state.
#[derive(Debug, Clone)]
pub struct Interaction {
    /// Interaction id.
    pub id: u64,
    /// The user who acted.
    pub user: u64,
    /// The channel.
    pub channel_id: u64,
    /// When it was sent to the bot.
    pub sent_at: Instant,
    /// The response type (4, 5, 6, 7...) once answered.
    pub response: Option<u64>,
    /// The message the interaction came from (components).
    pub message_id: Option<u64>,
    /// The original response message, once there is one.
    pub original: Option<u64>,
}

/// A thread the bot opened.
#[derive(Debug, Clone)]
pub struct Thread {
    /// The thread's id (the id of the message it was started from).
    pub id: u64,
    /// The channel it hangs off.
    pub parent_id: u64,
    /// Its name.
    pub name: String,
}

/// Everything the fake has seen.
#[derive(Default)]
pub struct State {
    /// Threads opened, in order.
    pub threads: Vec<Thread>,
    /// Answer thread creation with 403 Missing Permissions (50013).
    pub deny_threads: bool,
    /// How many times each message was edited (by message id).
    pub edits: HashMap<u64, usize>,
    /// Messages in creation order (edits update in place).
    pub messages: Vec<Msg>,
    /// Every REST request: "METHOD path -> status".
    pub requests: Vec<String>,
    /// Every REST request with its arrival time and rate-limit bucket.
    pub calls: Vec<Call>,
    /// Every 429 the fake answered, in order.
    pub too_many: Vec<TooMany>,
    /// Requests that came while a 429 still told the bot to wait.
    pub violations: Vec<Violation>,
    /// The rate limits, the latency and the limiter's windows.
    pub(crate) limiter: ratelimits::Limiter,
    /// The JSON body of every POST and PATCH (`payload_json` of an
    /// upload), with "METHOD path", in order.
    pub bodies: Vec<(String, Value)>,
    /// Payloads the fake rejected as Discord would, with the reason.
    pub rejected: Vec<String>,
    /// Registered application commands (the last PUT body, either scope).
    pub commands: Option<Value>,
    /// The commands registered globally (usable in DMs and every guild).
    pub global_commands: Option<Value>,
    /// The commands registered in the test guild only (not in DMs).
    pub guild_commands: Option<Value>,
    /// How many times commands were registered.
    pub command_puts: usize,
    /// The last IDENTIFY payload.
    pub identify: Option<Value>,
    /// Every IDENTIFY payload accepted, in order.
    pub identifies: Vec<Value>,
    /// How many gateway shards the bot must run (`GET /gateway/bot` says so;
    /// an IDENTIFY with another total is refused).
    pub shard_total: u32,
    /// The guild of each guild channel the tests use other than [`GUILD_ID`]'s.
    pub channel_guilds: HashMap<u64, u64>,
    /// Number of gateway sessions that reached READY.
    pub sessions: usize,
    /// Interactions by token.
    pub interactions: HashMap<String, Interaction>,
    /// DM channel of each user.
    pub dm_channels: HashMap<u64, u64>,
    /// Users whose DMs are closed to the bot (error 50007).
    pub closed_dms: HashSet<u64>,
    /// Guild channels where the bot may not write (error 50013).
    pub muted_channels: HashSet<u64>,
    /// The locale each user's Discord client sends (default `en-US`).
    pub user_locales: HashMap<u64, String>,
    /// Each server's own locale (`guild_locale`, `preferred_locale`; default `en-US`).
    pub guild_locales: HashMap<u64, String>,
    /// Display names of users.
    pub names: HashMap<u64, String>,
    /// The server roles (ids) of users, sent in their interactions' `member`.
    pub member_roles: HashMap<u64, Vec<u64>>,
    /// Answer command registration with an error (start-up failure).
    pub fail_commands: bool,
    /// Message creates answered with an earlier message because of their nonce.
    pub dedupe_hits: Vec<DedupeHit>,
    /// Nonces used per (channel, nonce): the message and when it was created.
    pub(crate) nonces: HashMap<(u64, String), (u64, Instant)>,
    pub(crate) next_id: u64,
    /// The live session of each shard: its number and its sender of frames
    /// (each with the time it is due, after the latency).
    pub(crate) gateways: std::collections::BTreeMap<u32, (u64, mpsc::UnboundedSender<Frame>)>,
    pub(crate) seq: u64,
    /// The gateway is down: new connections are dropped before the
    /// websocket handshake ([`FakeDiscord::gateway_down`]).
    pub(crate) gateway_down: bool,
}

impl State {
    pub(crate) fn id(&mut self) -> u64 {
        self.next_id += 1;
        6_000_000_000_000_000 + self.next_id
    }

    /// Messages visible in a channel (not ephemeral).
    pub fn channel(&self, channel_id: u64) -> Vec<&Msg> {
        self.messages
            .iter()
            .filter(|m| m.channel_id == channel_id && !m.ephemeral)
            .collect()
    }

    /// The thread opened from a channel's message whose text contains
    /// `needle`, if any.
    pub fn thread_from(&self, needle: &str) -> Option<&Thread> {
        self.threads.iter().find(|t| {
            self.message(t.id)
                .is_some_and(|m| m.text().contains(needle))
        })
    }

    /// DMs the bot sent to a user.
    pub fn dms(&self, user: u64) -> Vec<&Msg> {
        self.messages
            .iter()
            .filter(|m| m.dm_user == Some(user))
            .collect()
    }

    /// Interaction responses / follow-ups shown to a user (ephemeral or not).
    pub fn replies_to(&self, user: u64) -> Vec<&Msg> {
        self.messages
            .iter()
            .filter(|m| m.from_interaction && m.for_user == Some(user))
            .collect()
    }

    /// A message by id.
    pub fn message(&self, id: u64) -> Option<&Msg> {
        self.messages.iter().find(|m| m.id == id)
    }

    /// The 429s answered on a channel's buckets.
    pub fn too_many_in(&self, channel: u64) -> Vec<&TooMany> {
        let major = format!("@ channels/{channel}");
        self.too_many
            .iter()
            .filter(|t| t.bucket.ends_with(&major))
            .collect()
    }

    /// The message creates in a channel that Discord performed, in order.
    pub fn creates_in(&self, channel: u64) -> Vec<&Call> {
        let request = format!("POST /api/v10/channels/{channel}/messages");
        self.calls
            .iter()
            .filter(|c| c.request == request && c.status == 200)
            .collect()
    }

    /// 429s after which the bot sent to the same bucket too early.
    pub fn unhonoured(&self) -> Vec<&TooMany> {
        self.too_many
            .iter()
            .filter(|t| t.honoured() == Some(false))
            .collect()
    }

    /// Everything as text, for failure messages.
    pub fn dump(&self) -> String {
        let mut s = String::new();
        for m in &self.messages {
            s.push_str(&format!(
                "[{} ch={} dm={:?} eph={} btns={:?} sel={} files={:?}] {}\n",
                m.id,
                m.channel_id,
                m.dm_user,
                m.ephemeral,
                m.buttons().iter().map(|b| &b.0).collect::<Vec<_>>(),
                m.selects().len(),
                m.files.iter().map(|f| &f.filename).collect::<Vec<_>>(),
                m.text().replace('\n', " | ")
            ));
        }
        s.push_str(&format!("rejected: {:?}\n", self.rejected));
        s.push_str(&format!("dedupe hits: {:?}\n", self.dedupe_hits));
        s.push_str(&format!("429s: {:#?}\n", self.too_many));
        s.push_str(&format!("violations: {:#?}\n", self.violations));
        s
    }
}

/// The running fake.
pub struct FakeDiscord {
    /// `127.0.0.1:PORT`, where the fake answers REST over TLS as
    /// `discord.com`: the bot's `[discord] api_address`, with
    /// [`FakeDiscord::root_ca`] as its `api_root_ca`.
    pub api_address: std::net::SocketAddr,
    /// The test CA that signed the fake's `discord.com` certificate.
    pub root_ca: std::path::PathBuf,
    /// `http://127.0.0.1:PORT`, the same REST API over plain HTTP, for
    /// serenity's proxy setting (`[discord] api_base`): for the tests of
    /// that setting and of the fake itself. Through it, serenity 0.12's rate
    /// limiter sends its requests past the proxy, so a bot must run without
    /// it there.
    pub base_url: String,
    /// The gateway URL.
    pub gateway_url: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// A gateway event's text and when it is due (sent after the latency).
pub(crate) type Frame = (tokio::time::Instant, String);

/// Shared between the servers and the test.
#[derive(Clone)]
pub(crate) struct Shared {
    pub state: Arc<Mutex<State>>,
    pub changed: Arc<Notify>,
    pub gateway_url: String,
}

impl Shared {
    pub fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let out = f(&mut self.state.lock().unwrap());
        self.changed.notify_waiters();
        out
    }
}

impl FakeDiscord {
    /// Starts the REST server and the gateway on ephemeral ports, for a bot
    /// on one gateway shard.
    pub async fn start() -> FakeDiscord {
        FakeDiscord::start_sharded(1).await
    }

    /// Starts the fake for a bot that must run `shard_total` gateway shards.
    pub async fn start_sharded(shard_total: u32) -> FakeDiscord {
        let rest = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let rest_tls = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let api_address = rest_tls.local_addr().unwrap();
        let gw = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", rest.local_addr().unwrap());
        let gateway_url = format!("ws://{}", gw.local_addr().unwrap());
        // Discord's rate limits from the start (`RateLimits::default()`):
        // the bot reaches the fake at `api_address` with serenity's limiter.
        let state = State {
            shard_total: shard_total.max(1),
            ..State::default()
        };
        let state = Arc::new(Mutex::new(state));
        let changed = Arc::new(Notify::new());
        let shared = Shared {
            state: state.clone(),
            changed: changed.clone(),
            gateway_url: gateway_url.clone(),
        };
        let tasks = vec![
            tokio::spawn(rest::serve(rest, shared.clone(), None)),
            tokio::spawn(rest::serve(
                rest_tls,
                shared.clone(),
                Some(rest::tls_acceptor()),
            )),
            tokio::spawn(gateway::serve(gw, shared)),
        ];
        FakeDiscord {
            api_address,
            root_ca: rest::tls_dir().join("ca.pem"),
            base_url,
            gateway_url,
            state,
            changed,
            tasks,
        }
    }

    fn shared(&self) -> Shared {
        Shared {
            state: self.state.clone(),
            changed: self.changed.clone(),
            gateway_url: self.gateway_url.clone(),
        }
    }

    /// Reads the state.
    pub fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    /// Names a user (shown as their display name).
    pub fn user(&self, id: u64, name: &str) {
        self.shared().with(|s| s.names.insert(id, name.to_string()));
    }

    /// Gives a user these server roles (ids) in their interactions from now on.
    pub fn give_roles(&self, user: u64, roles: &[u64]) {
        self.shared()
            .with(|s| s.member_roles.insert(user, roles.to_vec()));
    }

    /// Takes the permission to open threads from the bot (403, code 50013).
    pub fn deny_threads(&self) {
        self.shared().with(|s| s.deny_threads = true);
    }

    /// Records a thread on a message as if the bot had opened it and died
    /// before noting it (Discord then refuses a second one with 160004).
    pub fn thread_already_opened(&self, message_id: u64, name: &str) {
        self.shared().with(|s| {
            let parent_id = s.message(message_id).map(|m| m.channel_id).unwrap_or(0);
            s.threads.push(Thread {
                id: message_id,
                parent_id,
                name: name.to_string(),
            })
        });
    }

    /// Gives the bot the permission to open threads (and post in them).
    pub fn allow_threads(&self) {
        self.shared().with(|s| s.deny_threads = false);
    }

    /// Sets the rate limits the fake enforces (none until then).
    pub fn set_rate_limits(&self, limits: RateLimits) {
        self.shared().with(|s| s.limiter.limits = limits);
    }

    /// Delays every REST answer by `round_trip` (half before the request is
    /// performed, half after) and every gateway event by half of it.
    pub fn set_latency(&self, round_trip: Duration) {
        self.shared().with(|s| s.limiter.latency = round_trip);
    }

    /// Answers the next message create in `channel` with a 429 asking the
    /// bot to wait `retry_after` (the message is not created).
    pub fn fail_next_message_with_429(&self, channel: u64, retry_after: Duration) {
        self.shared()
            .with(|s| s.limiter.force_429(channel, retry_after));
    }

    /// Like [`FakeDiscord::fail_next_message_with_429`], the 429 without a
    /// `Retry-After` header: only its body (without `code`) and its
    /// `X-RateLimit-*` headers say how long to wait.
    pub fn fail_next_message_with_429_without_retry_after_header(
        &self,
        channel: u64,
        retry_after: Duration,
    ) {
        self.shared().with(|s| {
            s.limiter
                .force_429_without_retry_after_header(channel, retry_after)
        });
    }

    /// Panics if the bot sent a request while a 429 told it to wait.
    pub fn assert_rate_limits_honoured(&self) {
        let s = self.state();
        assert!(
            s.violations.is_empty() && s.unhonoured().is_empty(),
            "the bot did not wait as 429s told it: {:#?}\n{:#?}",
            s.violations,
            s.unhonoured()
        );
    }

    /// Marks a user as refusing DMs from the bot.
    pub fn close_dms(&self, user: u64) {
        self.shared().with(|s| s.closed_dms.insert(user));
    }

    /// Waits until `f` returns Some, failing the test after [`WAIT`].
    pub async fn wait_for<T>(&self, what: &str, f: impl Fn(&State) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let s = self.state();
                if let Some(t) = f(&s) {
                    return t;
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let s = self.state();
                if let Some(t) = f(&s) {
                    return t;
                }
                panic!("timed out waiting for {what}\n{}", s.dump());
            }
        }
    }

    /// Returns when anything changes, or after `limit` (for watchers that
    /// read every change themselves).
    pub async fn changed_within(&self, limit: Duration) {
        let _ = tokio::time::timeout(limit, self.changed.notified()).await;
    }

    /// Waits for a gateway session to be READY (`n` sessions so far).
    pub async fn wait_ready(&self, n: usize) {
        self.wait_for("the bot to connect", |s| {
            (s.sessions >= n && !s.gateways.is_empty()).then_some(())
        })
        .await;
    }

    /// Waits until every shard in `shards` has a live session.
    pub async fn wait_shards(&self, shards: &[u32]) {
        let want: Vec<u32> = shards.to_vec();
        self.wait_for("the shards to connect", move |s| {
            want.iter()
                .all(|id| s.gateways.contains_key(id))
                .then_some(())
        })
        .await;
    }

    /// Takes the gateway down as an outage would: every session is closed
    /// (close code 4000, "unknown error", after which a bot reconnects) and
    /// new connections are dropped until [`FakeDiscord::gateway_up`].
    pub fn gateway_down(&self) {
        self.shared().with(|s| {
            s.gateway_down = true;
            let now = tokio::time::Instant::now();
            for (_, tx) in s.gateways.values() {
                let _ = tx.send((now, gateway::CLOSE.to_string()));
            }
        });
    }

    /// Lets the bot connect to the gateway again.
    pub fn gateway_up(&self) {
        self.shared().with(|s| s.gateway_down = false);
    }

    /// The bot joins `guild`: a GUILD_CREATE with these text channels (in
    /// this order of position) and system channel; the channels are put in
    /// that guild.
    pub fn join_guild(&self, guild: u64, system_channel: Option<u64>, text_channels: &[u64]) {
        let channels: Vec<Value> = text_channels
            .iter()
            .enumerate()
            .map(|(i, ch)| {
                json!({"id": ch.to_string(), "type": 0, "guild_id": guild.to_string(),
                       "position": i, "permission_overwrites": [], "name": format!("channel-{i}"),
                       "topic": null, "nsfw": false, "last_message_id": null,
                       "rate_limit_per_user": 0, "parent_id": null, "flags": 0})
            })
            .collect();
        for ch in text_channels {
            self.put_channel_in_guild(*ch, guild);
        }
        let d = json!({
            "id": guild.to_string(), "name": "A new server", "icon": null, "splash": null,
            "discovery_splash": null, "owner_id": "1000000000000009", "afk_channel_id": null,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": [], "emojis": [], "features": [],
            "mfa_level": 0, "application_id": null,
            "system_channel_id": system_channel.map(|c| c.to_string()),
            "system_channel_flags": 0, "rules_channel_id": null, "vanity_url_code": null,
            "description": null, "banner": null, "premium_tier": 0,
            "preferred_locale": self.guild_locale(guild), "public_updates_channel_id": null, "nsfw_level": 0,
            "stickers": [], "premium_progress_bar_enabled": false,
            "joined_at": "2026-01-01T00:00:00.000000+00:00", "large": false,
            "unavailable": false, "member_count": 2, "voice_states": [], "members": [],
            "channels": channels, "threads": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [],
        });
        self.dispatch("GUILD_CREATE", d);
    }

    /// Sets the locale `user`'s Discord client sends with interactions.
    pub fn set_user_locale(&self, user: u64, locale: &str) {
        self.shared()
            .with(|s| s.user_locales.insert(user, locale.to_string()));
    }

    /// Sets a server's own locale (sent as `guild_locale` and `preferred_locale`).
    pub fn set_guild_locale(&self, guild: u64, locale: &str) {
        self.shared()
            .with(|s| s.guild_locales.insert(guild, locale.to_string()));
    }

    fn guild_locale(&self, guild: u64) -> String {
        self.state()
            .guild_locales
            .get(&guild)
            .cloned()
            .unwrap_or_else(|| "en-US".to_string())
    }

    /// Takes away the bot's permission to write in `channel`.
    pub fn mute_channel(&self, channel: u64) {
        self.shared().with(|s| s.muted_channels.insert(channel));
    }

    /// Puts a guild channel in `guild` (channels are in [`GUILD_ID`] otherwise).
    pub fn put_channel_in_guild(&self, channel: u64, guild: u64) {
        self.shared()
            .with(|s| s.channel_guilds.insert(channel, guild));
    }

    /// Waits for the bot to register its commands.
    pub async fn wait_commands(&self) -> Value {
        self.wait_for("command registration", |s| s.commands.clone())
            .await
    }

    /// The id of a user's DM channel (created if needed).
    pub fn dm_channel(&self, user: u64) -> u64 {
        self.shared().with(|s| {
            if let Some(c) = s.dm_channels.get(&user) {
                return *c;
            }
            let c = s.id();
            s.dm_channels.insert(user, c);
            c
        })
    }

    fn dispatch(&self, t: &str, d: Value) {
        gateway::validate_event(t, &d)
            .unwrap_or_else(|e| panic!("bad fixture for {t}: {e}\n{d:#}"));
        self.shared().with(|s| {
            s.seq += 1;
            let shard = gateway::shard_of(&d, s.shard_total);
            let frame = json!({"op": 0, "t": t, "s": s.seq, "d": d}).to_string();
            let due = tokio::time::Instant::now() + s.limiter.latency / 2;
            s.gateways
                .get(&shard)
                .unwrap_or_else(|| panic!("no gateway session for shard {shard}"))
                .1
                .send((due, frame))
                .expect("gateway closed");
        });
    }

    fn user_json(&self, id: u64) -> Value {
        let name = self
            .state()
            .names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("user{id}"));
        json!({"id": id.to_string(), "username": name.to_lowercase(), "global_name": name,
               "discriminator": "0", "avatar": null, "bot": false})
    }

    fn member_json(&self, id: u64, moderator: bool) -> Value {
        let roles: Vec<String> = self
            .state()
            .member_roles
            .get(&id)
            .into_iter()
            .flatten()
            .map(u64::to_string)
            .collect();
        json!({"user": self.user_json(id), "roles": roles, "joined_at": "2024-01-01T00:00:00.000000+00:00",
               "deaf": false, "mute": false, "flags": 0, "pending": false,
               "permissions": if moderator { "32" } else { "0" }})
    }

    fn interaction_base(
        &self,
        kind: u8,
        user: u64,
        channel: u64,
        in_guild: bool,
        moderator: bool,
    ) -> (String, Value) {
        let (id, token) = self.shared().with(|s| {
            let id = s.id();
            (id, format!("itoken-{id}"))
        });
        let mut v = json!({
            "id": id.to_string(), "application_id": APP_ID.to_string(), "type": kind,
            "token": token, "version": 1, "channel_id": channel.to_string(),
            "app_permissions": "0", "entitlements": [],
            "locale": self.state().user_locales.get(&user).cloned().unwrap_or_else(|| "en-US".to_string()),
            "authorizing_integration_owners": {}, "context": if in_guild { 0 } else { 1 },
            "attachment_size_limit": 8_388_608,
        });
        if in_guild {
            let guild = self
                .state()
                .channel_guilds
                .get(&channel)
                .copied()
                .unwrap_or(GUILD_ID);
            v["guild_id"] = json!(guild.to_string());
            v["guild_locale"] = json!(self.guild_locale(guild));
            v["member"] = self.member_json(user, moderator);
        } else {
            v["user"] = self.user_json(user);
        }
        self.shared().with(|s| {
            s.interactions.insert(
                token.clone(),
                Interaction {
                    id,
                    user,
                    channel_id: channel,
                    sent_at: Instant::now(),
                    response: None,
                    message_id: None,
                    original: None,
                },
            )
        });
        (token, v)
    }

    /// A slash command in a guild channel. `path` is e.g. `["game", "new"]`,
    /// `options` the leaf options as `[{name, type, value}]`.
    pub fn slash(&self, user: u64, channel: u64, path: &[&str], options: Value) -> String {
        self.slash_as(user, channel, path, options, true, false)
    }

    /// A slash command with full control: in a guild or a DM, as a moderator or not.
    pub fn slash_as(
        &self,
        user: u64,
        channel: u64,
        path: &[&str],
        options: Value,
        in_guild: bool,
        moderator: bool,
    ) -> String {
        // Discord offers a command in a DM only when it is registered
        // globally; a guild-only command does not exist there.
        if !in_guild {
            let global = self.state().global_commands.clone();
            let known = global
                .as_ref()
                .and_then(|c| c.as_array().cloned())
                .unwrap_or_default()
                .iter()
                .any(|c| c["name"] == path[0]);
            assert!(
                known,
                "/{} does not exist in a DM: it is not registered globally (global: {:?})",
                path[0],
                global.map(|g| g.to_string())
            );
        }
        let (token, mut v) = self.interaction_base(2, user, channel, in_guild, moderator);
        let mut opts = options;
        for sub in path[1..].iter().rev() {
            opts = json!([{"name": sub, "type": 1, "options": opts}]);
        }
        // Discord sends the users, channels and roles options name in `resolved`.
        let mut resolved = Resolved::default();
        self.resolve_options(&opts, &mut resolved);
        v["data"] = json!({"id": "7000000000000001", "name": path[0], "type": 1, "options": opts,
                           "resolved": {"users": resolved.users, "channels": resolved.channels,
                                        "roles": resolved.roles}});
        self.dispatch("INTERACTION_CREATE", v);
        token
    }

    /// The users, channels and roles named by user (type 6), channel (7)
    /// and role (8) options anywhere in `opts`.
    fn resolve_options(&self, opts: &Value, out: &mut Resolved) {
        for o in opts.as_array().into_iter().flatten() {
            let id = o["value"].as_str().and_then(|v| v.parse::<u64>().ok());
            match (o["type"].as_u64(), id) {
                (Some(6), Some(id)) => {
                    out.users.insert(id.to_string(), self.user_json(id));
                }
                (Some(7), Some(id)) => {
                    out.channels.insert(
                        id.to_string(),
                        json!({"id": id.to_string(), "name": format!("channel-{id}"),
                               "type": 0, "permissions": "0"}),
                    );
                }
                (Some(8), Some(id)) => {
                    out.roles.insert(
                        id.to_string(),
                        json!({"id": id.to_string(), "name": format!("role-{id}"), "color": 0,
                               "hoist": false, "position": 1, "permissions": "0",
                               "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
                               "managed": false, "mentionable": true, "flags": 0}),
                    );
                }
                _ => {}
            }
            self.resolve_options(&o["options"], out);
        }
    }

    /// A click on a button of a message.
    pub fn click(&self, user: u64, message_id: u64, custom_id: &str) -> String {
        self.component(
            user,
            message_id,
            json!({"custom_id": custom_id, "component_type": 2}),
        )
    }

    /// A choice in a select menu of a message.
    pub fn select(&self, user: u64, message_id: u64, custom_id: &str, values: &[&str]) -> String {
        self.component(
            user,
            message_id,
            json!({"custom_id": custom_id, "component_type": 3, "values": values}),
        )
    }

    fn component(&self, user: u64, message_id: u64, data: Value) -> String {
        let msg = self
            .state()
            .message(message_id)
            .cloned()
            .expect("no such message");
        let in_guild = msg.dm_user.is_none();
        let (token, mut v) = self.interaction_base(3, user, msg.channel_id, in_guild, false);
        v["data"] = data;
        v["message"] = msg.json.clone();
        self.shared().with(|s| {
            if let Some(i) = s.interactions.get_mut(&token) {
                i.message_id = Some(message_id);
            }
        });
        self.dispatch("INTERACTION_CREATE", v);
        token
    }

    /// A user writes a DM to the bot.
    pub fn dm(&self, user: u64, content: &str) -> u64 {
        let channel = self.dm_channel(user);
        let id = self.shared().with(|s| s.id());
        let v = json!({
            "id": id.to_string(), "channel_id": channel.to_string(), "author": self.user_json(user),
            "content": content, "timestamp": "2026-01-01T00:00:00.000000+00:00", "edited_timestamp": null,
            "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": false, "type": 0,
        });
        self.dispatch("MESSAGE_CREATE", v);
        id
    }

    /// Waits for the response to an interaction and returns the messages it
    /// produced (original response and follow-ups), once there is at least one.
    pub async fn replies(&self, token: &str) -> Vec<Msg> {
        let tok = token.to_string();
        self.wait_for("an interaction reply", move |s| {
            let i = s.interactions.get(&tok)?;
            i.response?;
            let msgs: Vec<Msg> = s
                .messages
                .iter()
                .filter(|m| m.token.as_deref() == Some(tok.as_str()))
                .cloned()
                .collect();
            (!msgs.is_empty() || i.response == Some(6)).then_some(msgs)
        })
        .await
    }

    /// The text of all replies to an interaction.
    pub async fn reply_text(&self, token: &str) -> String {
        let tok = token.to_string();
        // Wait until a reply with content arrives (a deferred response has none yet).
        self.wait_for("a reply with text", move |s| {
            let t: Vec<String> = s
                .messages
                .iter()
                .filter(|m| m.token.as_deref() == Some(tok.as_str()))
                .map(|m| m.text())
                .filter(|t| !t.trim().is_empty())
                .collect();
            (!t.is_empty()).then(|| t.join("\n"))
        })
        .await
    }
}

/// The `resolved` part of a slash command: what its options name, by id.
#[derive(Default)]
struct Resolved {
    users: serde_json::Map<String, Value>,
    channels: serde_json::Map<String, Value>,
    roles: serde_json::Map<String, Value>,
}
