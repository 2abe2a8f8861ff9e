//! The Discord front-end (poise/serenity): slash commands, buttons and select
//! menus, DM routing, outbox delivery and the deadline/AI loop.
//!
//! Thin over the [`Host`]: every command turns into one host call, and
//! everything players see in channels and DMs comes from the host's outbox
//! (`outbox.rs`), so an announcement survives a restart and is posted once.
//!
//! - `game.rs`: `/game new|join|leave|ai|start|abort|forfeit|status|list|history`
//! - `moves.rs`: `/move` (typed moves anywhere) and `/orders` (your pending action)
//! - `dm.rs`: moves written in a direct message
//! - `components.rs`: buttons and select menus (custom ids carry game and turn)
//! - `outbox.rs`: delivery of announcements, with the closed-DM fallback
//! - `scheduler.rs`: deadlines, reminders and AI seats
//! - `render.rs`: message splitting and Discord's limits
//! - `error.rs`: user mistakes shown kindly, faults logged with an apology

mod components;
mod dm;
mod error;
mod game;
mod moves;
mod options;
mod outbox;
mod render;
mod scheduler;

pub use error::BotError;

use crate::config::{Config, DeadlinesConfig};
use crate::host::{Clock, Host, SystemClock};
use crate::store::TimeoutPolicy;
use poise::serenity_prelude as serenity;
use std::sync::{Arc, Mutex};
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
    /// Register the commands in this server only.
    pub guild_id: Option<u64>,
    /// AI thinking budget per decision (ms).
    pub ai_budget_ms: u64,
    /// Default deadlines and timeout policy.
    pub deadlines: DeadlinesConfig,
    /// Kinds whose moves are made in the channel (prompts go there, with
    /// buttons); every other kind is prompted by DM (hidden moves).
    pub channel_move_kinds: Vec<String>,
}

impl std::fmt::Debug for BotSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotSettings")
            .field("token", &"<redacted>")
            .field("api_base", &self.api_base)
            .field("guild_id", &self.guild_id)
            .finish_non_exhaustive()
    }
}

impl BotSettings {
    /// Settings from the config file and environment.
    pub fn from_config(config: &Config) -> BotSettings {
        BotSettings {
            token: config.token().unwrap_or_default().to_string(),
            api_base: config
                .discord
                .api_base
                .clone()
                .filter(|s| !s.trim().is_empty()),
            guild_id: config.discord.guild_id,
            ai_budget_ms: config.ai.budget_ms,
            deadlines: config.deadlines.clone(),
            channel_move_kinds: vec!["cards".into(), "puzzle".into()],
        }
    }

    fn default_policy(&self) -> TimeoutPolicy {
        TimeoutPolicy::parse(&self.deadlines.timeout_policy).unwrap_or(TimeoutPolicy::Default)
    }
}

/// Wakes the delivery and scheduler loops after a change.
#[derive(Clone, Default)]
pub struct Wake {
    outbox: Arc<Notify>,
    scheduler: Arc<Notify>,
}

impl Wake {
    /// Something changed: deliver announcements and look at AIs and deadlines.
    pub fn all(&self) {
        self.outbox.notify_one();
        self.scheduler.notify_one();
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
    pub dm_limiter: Arc<std::sync::Mutex<crate::host::limits::RateLimiter>>,
}

impl Data {
    /// Runs a host call off the async workers and maps its error.
    pub async fn host<T, F>(&self, f: F) -> Result<T, BotError>
    where
        T: Send + 'static,
        F: FnOnce(&Host) -> Result<T, crate::host::HostError> + Send + 'static,
    {
        let host = self.host.clone();
        let out = tokio::task::spawn_blocking(move || f(&host))
            .await
            .map_err(|e| BotError::Internal(format!("host task failed: {e}")))??;
        Ok(out)
    }
}

/// The slash commands.
fn commands() -> Vec<poise::Command<Data, BotError>> {
    vec![game::game(), moves::move_(), moves::orders()]
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
            dm_limiter: Arc::new(std::sync::Mutex::new(
                crate::host::limits::RateLimiter::new(8, 1500),
            )),
        };
        let setup_loops = loops.clone();
        let framework = poise::Framework::builder()
            .options(poise::FrameworkOptions {
                commands: commands(),
                on_error: |e| Box::pin(error::on_error(e)),
                event_handler: |ctx, event, framework, data| {
                    Box::pin(on_event(ctx, event, framework, data))
                },
                ..Default::default()
            })
            .initialize_owners(false)
            .setup(move |ctx, ready, framework| {
                Box::pin(async move {
                    tracing::info!(user = %ready.user.name, "connected to Discord");
                    let result = register_commands(ctx, framework, data.settings.guild_id).await;
                    if let Err(e) = result {
                        let msg = format!("could not register the slash commands: {e}");
                        let _ = fatal_tx.send(msg.clone());
                        return Err(BotError::Internal(msg));
                    }
                    let mut l = setup_loops.lock().unwrap_or_else(|p| p.into_inner());
                    l.push(tokio::spawn(outbox::run(ctx.http.clone(), data.clone())));
                    l.push(tokio::spawn(scheduler::run(data.clone())));
                    data.wake.all();
                    Ok(data)
                })
            })
            .build();
        let intents = serenity::GatewayIntents::GUILDS
            | serenity::GatewayIntents::GUILD_MESSAGES
            | serenity::GatewayIntents::DIRECT_MESSAGES;
        let mut http = serenity::HttpBuilder::new(&settings.token);
        if let Some(base) = &settings.api_base {
            http = http
                .proxy(base.trim_end_matches('/'))
                .ratelimiter_disabled(true);
        }
        let mut client = serenity::ClientBuilder::new_with_http(http.build(), intents)
            .framework(framework)
            .await?;
        let shard_manager = client.shard_manager.clone();
        let client = tokio::spawn(async move { client.start().await });
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
    pub async fn wait(mut self) -> anyhow::Result<()> {
        let result = tokio::select! {
            r = &mut self.client => match r {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(anyhow::anyhow!("the Discord connection failed: {e}")),
                Err(e) => Err(anyhow::anyhow!("the bot task failed: {e}")),
            },
            Some(msg) = self.fatal.recv() => Err(anyhow::anyhow!(msg)),
        };
        self.stop_loops();
        self.shard_manager.shutdown_all().await;
        result
    }

    /// Disconnects and stops the background loops.
    pub async fn shutdown(self) {
        self.stop_loops();
        self.shard_manager.shutdown_all().await;
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), self.client).await;
    }

    fn stop_loops(&self) {
        for h in self
            .loops
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
        {
            h.abort();
        }
    }
}

/// Registers the commands unless Discord already has exactly these.
async fn register_commands(
    ctx: &serenity::Context,
    framework: &poise::Framework<Data, BotError>,
    guild: Option<u64>,
) -> Result<(), serenity::Error> {
    let wanted = poise::builtins::create_application_commands(&framework.options().commands);
    let existing = match guild {
        Some(g) => serenity::GuildId::new(g).get_commands(&ctx.http).await?,
        None => serenity::Command::get_global_commands(&ctx.http).await?,
    };
    let wanted_json = serde_json::to_value(&wanted).unwrap_or_default();
    let existing_json = serde_json::to_value(&existing).unwrap_or_default();
    if render::same_commands(&wanted_json, &existing_json) {
        tracing::info!("slash commands unchanged");
        return Ok(());
    }
    match guild {
        Some(g) => {
            poise::builtins::register_in_guild(
                &ctx.http,
                &framework.options().commands,
                serenity::GuildId::new(g),
            )
            .await?
        }
        None => {
            poise::builtins::register_globally(&ctx.http, &framework.options().commands).await?
        }
    }
    tracing::info!(count = wanted.len(), "slash commands registered");
    Ok(())
}

async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    _framework: poise::FrameworkContext<'_, Data, BotError>,
    data: &Data,
) -> Result<(), BotError> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(c),
        } => components::handle(ctx, data, c).await,
        serenity::FullEvent::Message { new_message } => dm::handle(ctx, data, new_message).await,
        _ => Ok(()),
    }
}

/// Runs the bot from the config until Ctrl-C, or fails with a clear message.
pub fn run_blocking(config: Config) -> anyhow::Result<()> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_new(&config.log.level)
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
    let host = Arc::new(crate::cli::open_host(&config)?);
    let settings = BotSettings::from_config(&config);
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let bot = Bot::start(host, Arc::new(SystemClock), settings).await?;
        let shard_manager = bot.shard_manager.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                tracing::info!("stopping");
                shard_manager.shutdown_all().await;
            }
        });
        bot.wait().await
    })
}
