//! The Discord front-end (poise/serenity): slash commands, buttons and select
//! menus, DM routing, outbox delivery and the deadline/AI loop.
//!
//! Thin over the [`Host`]: every command turns into one host call, and
//! everything players see in channels and DMs comes from the host's outbox,
//! so an announcement survives a restart and is posted once.
//!
//! Laid out by what a part does; each uses only the parts listed after it
//! (`tests/module_cycles.rs` keeps the modules free of cycles):
//! - `commands/`: one file per slash command or `/game` family; command
//!   files never import each other (what they share is `commands/shared.rs`)
//! - `events/`: button and menu clicks, moves written in a DM
//! - `desk/`: the Diplomacy order desk in a player's DMs
//! - `delivery/`: the outbox's delivery: lanes, streams, living messages
//! - `scheduler.rs`: the deadline loop; `ai_pool.rs`: AI seats thinking,
//!   on the lower-priority threads of `ai_threads.rs`
//! - `images/`: board images, each phase's map drawn once
//! - `dm_channels.rs`, `send.rs`: DM channels, messages with nonces
//! - `pacing/`: the global pace, one request at a time per channel, 429 waits
//! - `ui/`: message building, component encoding, shared text
//! - `error.rs`: user mistakes shown kindly, faults logged with an apology

mod ai_pool;
mod ai_threads;
mod command_names;
mod commands;
mod delivery;
mod diplomacy;
mod dm_channels;
mod error;
mod events;
mod images;
mod invite;
mod metrics;
mod pacing;
mod reader;
mod rest_metrics;
mod scheduler;
mod send;
pub mod shards;
mod ui;

// The Diplomacy folder's parts the generic ones call by what they do.
use diplomacy::{desk, press};

pub use ai_pool::ai_workers;
pub use error::BotError;
pub use invite::{INVITE_PERMISSIONS, invite_url};
pub use pacing::global_rate::{DEFAULT_REQUESTS_PER_SECOND, MAX_REQUESTS_PER_SECOND};
pub use rest_metrics::RestMetrics;
pub use shards::ShardRange;

use host::TimeoutPolicy;
use host::{Clock, Host, SystemClock};
use poise::serenity_prelude as serenity;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// A poise context of this bot.
pub type Context<'a> = poise::Context<'a, Data, BotError>;

/// How the bot behaves, from the config.
#[derive(Clone)]
pub struct BotSettings {
    /// The bot token (never logged).
    pub token: String,
    /// Send REST calls (and so discover the gateway) here instead of discord.com.
    pub api_base: Option<String>,
    /// Reach discord.com's REST API at this address instead of looking it up
    /// (its certificate must still be valid for discord.com).
    pub api_address: Option<std::net::SocketAddr>,
    /// A PEM root certificate trusted for discord.com besides the built-in ones.
    pub api_root_ca: Option<std::path::PathBuf>,
    /// Register the commands in this server only.
    pub guild_id: Option<u64>,
    /// AI thinking budget per decision (ms).
    pub ai_budget_ms: u64,
    /// The operator's default turn length per kind of game, in seconds (0 =
    /// no deadline); a kind missing here uses its engine's own default.
    pub turn_seconds: std::collections::BTreeMap<String, u64>,
    /// What happens to a seat that misses a deadline, unless `/game new` says.
    pub timeout_policy: TimeoutPolicy,
    /// The gateway shards this process runs; `None`: the one shard of a
    /// one-process bot.
    pub shards: Option<ShardRange>,
    /// Games whose messages are delivered at once (0: the default,
    /// [`delivery::LANES`]).
    pub delivery_lanes: usize,
    /// REST requests a second this process allows itself (0: the default,
    /// [`DEFAULT_REQUESTS_PER_SECOND`]; at most [`MAX_REQUESTS_PER_SECOND`]).
    pub requests_per_second: u32,
}

impl std::fmt::Debug for BotSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotSettings")
            .field("token", &"<redacted>")
            .field("api_base", &self.api_base)
            .field("api_address", &self.api_address)
            .field("guild_id", &self.guild_id)
            .field("shards", &self.shards)
            .finish_non_exhaustive()
    }
}

/// Wakes the delivery and scheduler loops after a change, and tells them
/// when the bot is stopping.
#[derive(Clone, Default)]
pub struct Wake {
    outbox: Arc<Notify>,
    scheduler: Arc<Notify>,
    ai: Arc<Notify>,
    stopping: Arc<AtomicBool>,
}

impl Wake {
    /// Something changed: deliver announcements and look at AIs and deadlines.
    pub fn all(&self) {
        self.outbox.notify_one();
        self.scheduler.notify_one();
        self.ai.notify_one();
    }

    /// Asks the loops to stop after the piece of work in hand (an outbox
    /// row delivered and marked, a deadline fired), and wakes them to see it.
    fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.all();
    }

    /// Whether the loops should stop now.
    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

/// What every command and handler can reach (cheap to clone).
#[derive(Clone)]
pub struct Data {
    /// The game host.
    pub host: Arc<Host>,
    /// The host's clock (deadlines are in its time).
    pub clock: Arc<dyn Clock>,
    /// Settings.
    pub settings: BotSettings,
    /// Wakes the background loops.
    pub wake: Wake,
    /// Per-user limit on DMs, so a flood gets one warning, not a reply each.
    pub dm_limiter: Arc<std::sync::Mutex<host::limits::RateLimiter>>,
    /// Each user's DM channel, opened once.
    dm_channels: dm_channels::DmChannels,
    /// Sends to one channel take turns (see `channel_turns`).
    channel_turns: pacing::channel_turns::ChannelTurns,
    /// Each recent Diplomacy phase's map, drawn once for every prompt.
    phase_maps: images::phase_maps::PhaseMaps,
    /// The threads AI seats think on, below the rest of the bot.
    ai_threads: Arc<ai_threads::AiThreads>,
    /// The bot's pace under Discord's global rate limit.
    global_rate: Arc<pacing::global_rate::GlobalRate>,
    /// The REST requests' timings and rate-limit hits, for `/metrics`.
    rest_metrics: RestMetrics,
    /// A game's own DM prompt (the Diplomacy order desk's), as the desk
    /// hands it to the delivery.
    own_prompt: OwnPromptFn,
}

/// A game's own DM prompt in place of the plain one: its text, its buttons
/// and an image (the order desk's, with the player's private map).
pub(crate) type OwnPrompt = (
    String,
    Vec<serenity::CreateActionRow>,
    Option<serenity::CreateAttachment>,
);

/// Builds a game's own DM prompt for a user (`None`: the plain prompt goes
/// out). The desk hands it to the delivery when the bot starts, so the
/// delivery sends the desk's prompt without calling into the desk, and the
/// desk uses only the parts below the delivery (images, DM channels).
pub(crate) type OwnPromptFn = for<'a> fn(
    &'a Data,
    &'a host::Announcement,
    &'a str,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = Option<OwnPrompt>> + Send + 'a>,
>;

impl Data {
    /// Runs a host call off the async workers and maps its error.
    pub async fn host<T, F>(&self, f: F) -> Result<T, BotError>
    where
        T: Send + 'static,
        F: FnOnce(&Host) -> Result<T, host::HostError> + Send + 'static,
    {
        let host = self.host.clone();
        let out = tokio::task::spawn_blocking(move || f(&host))
            .await
            .map_err(|e| BotError::Internal(format!("host task failed: {e}")))??;
        Ok(out)
    }

    /// Sends one REST request of the bot's own to `route` (a template of
    /// [`rest_metrics`]) when it fits the global pace, timing it.
    pub(crate) async fn rest<T>(
        &self,
        route: &'static str,
        request: impl std::future::Future<Output = T>,
    ) -> T {
        let asked = std::time::Instant::now();
        self.global_rate.wait().await;
        let paced = asked.elapsed();
        let out = self.rest_metrics.timed(route, request).await;
        // The wait for the global pace apart from the request (whose time
        // includes serenity's waits for the route's bucket): what a slow
        // delivery spent where.
        tracing::debug!(
            route,
            pace_ms = paced.as_millis() as u64,
            ms = (asked.elapsed() - paced).as_millis() as u64,
            "REST request"
        );
        out
    }
}

/// A running bot.
pub struct Bot {
    client: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    shard_manager: Arc<serenity::ShardManager>,
    loops: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
    fatal: tokio::sync::mpsc::UnboundedReceiver<String>,
    wake: Wake,
}

impl Bot {
    /// Logs in and starts handling events. Commands are registered, and the
    /// delivery and scheduler loops started, on the first READY.
    pub async fn start(
        host: Arc<Host>,
        clock: Arc<dyn Clock>,
        settings: BotSettings,
    ) -> anyhow::Result<Bot> {
        Bot::start_counting(host, clock, settings, RestMetrics::default()).await
    }

    /// [`Bot::start`], counting its REST traffic in `rest_metrics`.
    pub async fn start_counting(
        host: Arc<Host>,
        clock: Arc<dyn Clock>,
        settings: BotSettings,
        rest_metrics: RestMetrics,
    ) -> anyhow::Result<Bot> {
        let wake = Wake::default();
        let loops: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();
        let (fatal_tx, fatal) = tokio::sync::mpsc::unbounded_channel::<String>();
        let data = Data {
            host,
            clock,
            settings: settings.clone(),
            wake: wake.clone(),
            // Bursts of 8 DMs, then one every 1.5 s: far above a person
            // typing orders, far below a script.
            dm_limiter: Arc::new(std::sync::Mutex::new(host::limits::RateLimiter::new(
                8, 1500,
            ))),
            dm_channels: Default::default(),
            channel_turns: Default::default(),
            phase_maps: Default::default(),
            ai_threads: Arc::new(ai_threads::AiThreads::start(ai_pool::ai_workers())),
            global_rate: Arc::new(pacing::global_rate::GlobalRate::new(
                settings.requests_per_second,
            )),
            rest_metrics: rest_metrics.clone(),
            own_prompt: desk::own_prompt,
        };
        let setup_loops = loops.clone();
        let framework = poise::Framework::builder()
            .options(poise::FrameworkOptions {
                commands: command_names::localized(commands::all()),
                on_error: |e| Box::pin(error::on_error(e)),
                // Poise's default lets replies ping any user; ours ping
                // nobody unless a reply says whom (see `messages.rs`).
                allowed_mentions: Some(ui::messages::no_pings()),
                event_handler: |framework, event| Box::pin(events::on_event(framework, event)),
                ..Default::default()
            })
            .initialize_owners(false)
            .setup(move |ctx, ready, framework| {
                Box::pin(async move {
                    tracing::info!(user = %ready.user.name, "connected to Discord");
                    tracing::info!(
                        "invite the bot to a server with {}",
                        invite_url(ready.application.id.get())
                    );
                    let result = register_commands(ctx, framework, data.settings.guild_id).await;
                    if let Err(e) = result {
                        let msg = format!("could not register the slash commands: {e}");
                        let _ = fatal_tx.send(msg.clone());
                        return Err(BotError::Internal(msg));
                    }
                    let mut l = setup_loops.lock().unwrap_or_else(|p| p.into_inner());
                    l.push(tokio::spawn(delivery::run(ctx.http.clone(), data.clone())));
                    l.push(tokio::spawn(scheduler::run(data.clone())));
                    l.push(tokio::spawn(ai_pool::run(data.clone())));
                    data.wake.all();
                    Ok(data)
                })
            })
            .build();
        let intents = serenity::GatewayIntents::GUILDS
            | serenity::GatewayIntents::GUILD_MESSAGES
            | serenity::GatewayIntents::DIRECT_MESSAGES;
        let mut client = serenity::ClientBuilder::new_with_http(http_of(&settings)?, intents)
            .framework(framework)
            .event_handler(rest_metrics::RateLimitCounter(rest_metrics))
            .await?;
        let shard_manager = client.shard_manager.clone();
        let client = match settings.shards {
            None => tokio::spawn(async move { client.start().await }),
            Some(range) => {
                tracing::info!(shards = %range, "starting the gateway shards");
                // serenity's `start_shard_range(a..b, n)` starts shards a
                // through b inclusive, so the half-open range ends one early.
                tokio::spawn(async move {
                    client
                        .start_shard_range(range.first..range.end - 1, range.total)
                        .await
                })
            }
        };
        Ok(Bot {
            client,
            shard_manager,
            loops,
            fatal,
            wake,
        })
    }

    /// Wakes the delivery and scheduler loops (e.g. after a test moved the clock).
    pub fn wake(&self) {
        self.wake.all();
    }

    /// Runs until the connection ends or start-up fails.
    pub async fn wait(self) -> anyhow::Result<()> {
        self.run_until(std::future::pending()).await
    }

    /// Runs until the connection ends, start-up fails, or `stop` completes
    /// (a signal): then stops cleanly ([`Bot::shutdown`]) and returns `Ok`.
    pub async fn run_until(
        mut self,
        stop: impl std::future::Future<Output = &'static str>,
    ) -> anyhow::Result<()> {
        let result = tokio::select! {
            r = &mut self.client => match r {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(anyhow::anyhow!("the Discord connection failed: {e}")),
                Err(e) => Err(anyhow::anyhow!("the bot task failed: {e}")),
            },
            Some(msg) = self.fatal.recv() => Err(anyhow::anyhow!(msg)),
            why = stop => {
                tracing::info!("{why} received: stopping (finishing the work in hand)");
                Ok(())
            }
        };
        self.shutdown().await;
        result
    }

    /// Stops cleanly, each step bounded in time: the loops finish the piece
    /// of work in hand (an announcement is delivered and marked sent, a
    /// deadline fired in its transaction) and stop, then the gateway is
    /// closed. Whatever is cut short is either committed or rolled back by
    /// its transaction, and unsent announcements wait in the outbox for the
    /// next start.
    pub async fn shutdown(mut self) {
        self.wake.stop();
        let loops: Vec<_> = self
            .loops
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect();
        for mut h in loops {
            if tokio::time::timeout(STOP_GRACE, &mut h).await.is_err() {
                tracing::warn!("a background loop did not stop in time; cut short");
                h.abort();
            }
        }
        if tokio::time::timeout(STOP_GRACE, self.shard_manager.shutdown_all())
            .await
            .is_err()
        {
            tracing::warn!("the gateway did not close in time");
        }
        self.client.abort();
        let _ = tokio::time::timeout(STOP_GRACE, &mut self.client).await;
        tracing::info!("stopped");
    }
}

/// How long each step of stopping may take before it is cut short.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// The REST client of the settings: through `api_base` if one is set.
///
/// With `api_base`, serenity's rate limiter must stay off: serenity 0.12
/// builds every request its `Ratelimiter` sends without the proxy (serenity
/// issue 1739; still so on its development branches), so with it on, every
/// call would skip `api_base` and go to https://discord.com itself.
///
/// `api_address` keeps the rate limiter on: the calls go to
/// https://discord.com as always, only the connection is made to that
/// address (an egress gateway, or the test suite's fake Discord, whose
/// certificate is trusted through `api_root_ca`).
fn http_of(settings: &BotSettings) -> anyhow::Result<serenity::Http> {
    // Whatever a call forgets to say, it pings nobody.
    let mut http = serenity::HttpBuilder::new(&settings.token)
        .default_allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Some(base) = &settings.api_base {
        http = http
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    } else if let Some(address) = settings.api_address {
        http = http.client(api_client(address, settings.api_root_ca.as_deref())?);
    }
    Ok(http.build())
}

/// An HTTP client that reaches discord.com at `address`, trusting `root_ca`
/// too.
fn api_client(
    address: std::net::SocketAddr,
    root_ca: Option<&std::path::Path>,
) -> anyhow::Result<reqwest::Client> {
    let mut client = reqwest::Client::builder()
        .use_rustls_tls()
        .resolve("discord.com", address);
    if let Some(path) = root_ca {
        let pem = std::fs::read(path).map_err(|e| {
            anyhow::anyhow!(
                "cannot read `[discord] api_root_ca` {}: {e}",
                path.display()
            )
        })?;
        let cert = reqwest::Certificate::from_pem(&pem).map_err(|e| {
            anyhow::anyhow!(
                "`[discord] api_root_ca` {} is not a PEM certificate: {e}",
                path.display()
            )
        })?;
        client = client.add_root_certificate(cert);
    }
    client
        .build()
        .map_err(|e| anyhow::anyhow!("cannot set up the HTTP client: {e}"))
}

/// Checks `[discord] api_base` before anything connects: an http(s) URL
/// with a host and an optional port, so a typo is one clear line at start
/// instead of endless retries.
pub fn check_api_base(base: &str) -> anyhow::Result<()> {
    let bad = |why: &str| {
        anyhow::anyhow!(
            "invalid `[discord] api_base` `{}`: {why}; expected an http(s) base URL such as \
             http://127.0.0.1:8080",
            base.chars().take(200).collect::<String>()
        )
    };
    if base.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("it contains spaces or control characters"));
    }
    let rest = base
        .strip_prefix("http://")
        .or_else(|| base.strip_prefix("https://"))
        .ok_or_else(|| bad("it must start with http:// or https://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(bad("user names and passwords do not belong in it"));
    }
    let (host, port) = match authority.strip_prefix('[') {
        // An IPv6 address: `[::1]` or `[::1]:8080`.
        Some(v6) => match v6.split_once(']') {
            Some((addr, "")) => (addr, None),
            Some((addr, tail)) => match tail.strip_prefix(':') {
                Some(p) => (addr, Some(p)),
                None => return Err(bad("it has no valid host name")),
            },
            None => return Err(bad("it has no valid host name")),
        },
        None => match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        },
    };
    let host_ok = if authority.starts_with('[') {
        host.parse::<std::net::Ipv6Addr>().is_ok()
    } else {
        !host.is_empty()
            && host
                .split('.')
                .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
    };
    if !host_ok {
        return Err(bad("it has no valid host name"));
    }
    if let Some(p) = port
        && p.parse::<u16>().map_or(true, |p| p == 0)
    {
        return Err(bad("its port is not a number from 1 to 65535"));
    }
    Ok(())
}

/// The first wait before trying to reach Discord again, and the longest.
const RETRY_FIRST: Duration = Duration::from_secs(1);
/// The longest wait between two attempts to reach Discord.
const RETRY_MAX: Duration = Duration::from_secs(60);

/// Why a start-up request failed: for good, or worth trying again.
enum Failure {
    /// A rejected token, a wrong `api_base`: stop with this line.
    Fatal(String),
    /// The network or Discord is down: try again later.
    Transient(String),
}

/// Sorts a REST error (its message never holds the token: serenity's
/// errors carry the URL and Discord's JSON, not the headers).
fn classify(e: &serenity::Error) -> Failure {
    use serenity::HttpError;
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            let status = r.status_code.as_u16();
            let what = format!("{status} {}", r.error.message);
            if status == 401 {
                Failure::Fatal(
                    "Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN or \
                     `[discord] token` (a bot token from the Developer Portal)"
                        .into(),
                )
            } else if status == 429 || status >= 500 {
                Failure::Transient(format!("Discord answered {what}"))
            } else {
                Failure::Fatal(format!(
                    "Discord refused the start-up request {} {}: {what}; check `[discord] api_base`",
                    r.method, r.url
                ))
            }
        }
        serenity::Error::Http(HttpError::Request(req)) => {
            // The causes say what actually failed (refused, DNS, TLS...).
            let mut text = req.to_string();
            let mut source = std::error::Error::source(req);
            while let Some(s) = source {
                text.push_str(": ");
                text.push_str(&s.to_string());
                source = s.source();
            }
            Failure::Transient(text)
        }
        other => Failure::Fatal(format!("cannot talk to Discord: {other}")),
    }
}

/// Before connecting: asks Discord who the bot is (`GET /users/@me`) and
/// where its gateway is (`GET /gateway/bot`). A rejected token or a refused
/// request is an error at once; network failures and Discord's own (5xx,
/// 429) are retried with a doubling wait (1 s up to 60 s), one warning
/// line each time.
pub async fn preflight(settings: &BotSettings) -> anyhow::Result<()> {
    let http = http_of(settings)?;
    let mut wait = RETRY_FIRST;
    loop {
        let attempt = async {
            http.get_current_user().await?;
            http.get_bot_gateway().await?;
            Ok::<(), serenity::Error>(())
        };
        let failure = match attempt.await {
            Ok(()) => return Ok(()),
            Err(e) => classify(&e),
        };
        let redact = |m: String| {
            if settings.token.is_empty() {
                m
            } else {
                m.replace(&settings.token, "<token>")
            }
        };
        match failure {
            Failure::Fatal(m) => anyhow::bail!(redact(m)),
            Failure::Transient(m) => {
                tracing::warn!(
                    "cannot reach Discord: {}; retrying in {} s",
                    redact(m),
                    wait.as_secs()
                );
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(RETRY_MAX);
            }
        }
    }
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM, naming the signal.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) {
            (Ok(mut int), Ok(mut term)) => {
                tokio::select! {
                    _ = int.recv() => "SIGINT",
                    _ = term.recv() => "SIGTERM",
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
                "Ctrl-C"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

/// The commands players use where they play, DMs included: registered
/// globally even when `guild_id` keeps the others in one server (Discord
/// offers only global commands in a DM).
const DM_COMMANDS: &[&str] = &["help", "move", "orders", "press", "privacy", "rules"];

/// Registers the commands unless Discord already has exactly these: all
/// globally without a `guild_id`; with one, `/move` and `/orders` globally
/// (so they work in DMs) and the rest in that server.
async fn register_commands(
    ctx: &serenity::Context,
    framework: &poise::Framework<Data, BotError>,
    guild: Option<u64>,
) -> Result<(), serenity::Error> {
    let all = poise::builtins::create_application_commands(&framework.options().commands);
    let name_of = |c: &serenity::CreateCommand| {
        serde_json::to_value(c)
            .ok()
            .and_then(|v| v["name"].as_str().map(str::to_string))
            .unwrap_or_default()
    };
    let (global, in_guild): (Vec<_>, Vec<_>) = match guild {
        None => (all, Vec::new()),
        Some(_) => all
            .into_iter()
            .partition(|c| DM_COMMANDS.contains(&name_of(c).as_str())),
    };
    sync_commands(ctx, None, global).await?;
    if let Some(g) = guild {
        sync_commands(ctx, Some(serenity::GuildId::new(g)), in_guild).await?;
    }
    Ok(())
}

/// Sets one scope's commands (global, or one guild's) unless Discord
/// already has exactly these.
async fn sync_commands(
    ctx: &serenity::Context,
    guild: Option<serenity::GuildId>,
    wanted: Vec<serenity::CreateCommand>,
) -> Result<(), serenity::Error> {
    let existing = match guild {
        Some(g) => g.get_commands(&ctx.http).await?,
        None => serenity::Command::get_global_commands(&ctx.http).await?,
    };
    let wanted_json = serde_json::to_value(&wanted).unwrap_or_default();
    let existing_json = serde_json::to_value(&existing).unwrap_or_default();
    if ui::messages::same_commands(&wanted_json, &existing_json) {
        tracing::info!(?guild, "slash commands unchanged");
        return Ok(());
    }
    let count = wanted.len();
    match guild {
        Some(g) => {
            g.set_commands(&ctx.http, wanted).await?;
        }
        None => {
            serenity::Command::set_global_commands(&ctx.http, wanted).await?;
        }
    }
    tracing::info!(count, ?guild, "slash commands registered");
    Ok(())
}

/// Runs the bot on `host` until SIGINT or SIGTERM (then stops cleanly and
/// returns `Ok`), or fails with a clear message: a rejected token at once,
/// an unreachable Discord retried with backoff until a signal. With
/// `metrics_listen`, `/healthz` and `/metrics` are served there from the
/// start (503 until the gateway is connected).
pub fn run_blocking(
    settings: BotSettings,
    host: Arc<Host>,
    metrics_listen: Option<std::net::SocketAddr>,
) -> anyhow::Result<()> {
    let rt = tokio::runtime::Runtime::new()?;
    let result = rt.block_on(async move {
        let gateway = metrics::Gateway::new(settings.shards.map_or(1, |r| r.end - r.first));
        let rest_metrics = RestMetrics::default();
        if let Some(address) = metrics_listen {
            metrics::serve(address, host.clone(), gateway.clone(), &rest_metrics).await?;
        }
        let stop = stop_signal();
        tokio::pin!(stop);
        tokio::select! {
            r = preflight(&settings) => r?,
            why = &mut stop => {
                tracing::info!("{why} received before connecting: stopping");
                return Ok(());
            }
        }
        let bot = Bot::start_counting(host, Arc::new(SystemClock), settings, rest_metrics).await?;
        gateway.started(bot.shard_manager.clone());
        let stopped = async {
            let why = stop.await;
            // A second signal while stopping cuts it short.
            tokio::spawn(async {
                let again = stop_signal().await;
                eprintln!("gamehost: {again} again: exiting without waiting");
                std::process::exit(1);
            });
            why
        };
        bot.run_until(stopped).await
    });
    // Blocking host calls still running (a transaction, an AI thinking) get
    // a moment to finish; one cut short by the exit is rolled back by SQLite.
    rt.shutdown_timeout(STOP_GRACE);
    result
}

#[cfg(test)]
mod tests {
    use super::check_api_base;

    #[test]
    fn api_base_must_be_an_http_url_with_a_host() {
        for good in [
            "http://127.0.0.1:8080",
            "https://discord.com",
            "https://discord.com/",
            "http://localhost:1/proxy",
            "http://[::1]",
            "http://[::1]:8080/",
        ] {
            assert!(check_api_base(good).is_ok(), "{good}");
        }
        for (bad, why) in [
            ("127.0.0.1:8080", "must start with http"),
            ("ftp://host", "must start with http"),
            ("http://", "no valid host"),
            ("http://:80", "no valid host"),
            ("http://a..b", "no valid host"),
            ("http://[::1", "no valid host"),
            ("http://[zz]:80", "no valid host"),
            ("http://host:99999", "port"),
            ("http://host:0", "port"),
            ("http://host:", "port"),
            ("http://ho st", "spaces"),
            ("http://user:pw@host", "passwords"),
        ] {
            let err = check_api_base(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
            assert!(err.contains("http://127.0.0.1:8080"), "{err}");
        }
    }
}
