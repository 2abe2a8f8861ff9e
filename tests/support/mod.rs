//! The one test-support module: the `rps` engine and the host builder of the
//! host tests, and for the bot's end-to-end tests the fake Discord, tiny
//! engines, and a harness that runs the real bot against them.
#![allow(dead_code)]

pub mod commands;
pub mod fake_discord;
pub mod games;
pub mod host_builder;
pub mod messages;
pub mod process;
pub mod rps;
pub mod setup;

use discord::{Bot, BotSettings};
use fake_discord::{FakeDiscord, TOKEN};
use host::{Host, ManualClock, Registry};
use std::path::PathBuf;
use std::sync::Arc;

/// Users of the tests.
pub const ALICE: u64 = 1_000_000_000_000_001;
/// Bob.
pub const BOB: u64 = 1_000_000_000_000_002;
/// Carol.
pub const CAROL: u64 = 1_000_000_000_000_003;
/// A moderator (Manage Server).
pub const MOD: u64 = 1_000_000_000_000_004;

/// The fake, a database, a hand-moved clock and the bot.
pub struct Harness {
    /// The fake Discord.
    pub fake: FakeDiscord,
    /// The hand-moved clock the host's deadlines use.
    pub clock: Arc<ManualClock>,
    /// The database file.
    pub db: PathBuf,
    /// The current bot's host.
    pub host: Option<Arc<Host>>,
    registry: fn() -> Registry,
    /// `[discord] guild_id` of the bot (None: commands registered globally).
    guild_id: Option<u64>,
    bot: Option<Bot>,
    _dir: tempfile::TempDir,
}

/// The test engines plus every engine gamehost ships.
pub fn registry() -> Registry {
    Registry::standard().with::<rps::Rps>().with::<games::Nim>()
}

impl Harness {
    /// Starts the fake and the bot, and waits until it is connected and its
    /// commands are registered.
    pub async fn start() -> Harness {
        Self::start_with(registry).await
    }

    /// Like [`Harness::start`] with `guild_id` set to the test guild, as an
    /// operator who registers the commands in their server would run it.
    pub async fn start_in_guild() -> Harness {
        Self::start_full(registry, Some(fake_discord::GUILD_ID)).await
    }

    /// Like [`Harness::start`] with another set of engines.
    pub async fn start_with(registry: fn() -> Registry) -> Harness {
        Self::start_full(registry, None).await
    }

    async fn start_full(registry: fn() -> Registry, guild_id: Option<u64>) -> Harness {
        let fake = FakeDiscord::start().await;
        for (id, name) in [
            (ALICE, "Alice"),
            (BOB, "Bob"),
            (CAROL, "Carol"),
            (MOD, "Mod"),
        ] {
            fake.user(id, name);
        }
        // Most scenarios play in the channel, as a bot invited without the
        // thread permissions does (it says so once per game);
        // `discord_threads.rs` grants them and plays in threads.
        fake.deny_threads();
        let dir = tempfile::tempdir().unwrap();
        let mut h = Harness {
            fake,
            clock: Arc::new(ManualClock::at(1_800_000_000_000)),
            db: dir.path().join("gamehost.db"),
            host: None,
            registry,
            guild_id,
            bot: None,
            _dir: dir,
        };
        h.boot().await;
        h
    }

    /// The settings the bot runs with in tests.
    pub fn settings(&self) -> BotSettings {
        BotSettings {
            token: TOKEN.into(),
            // discord.com at the fake's TLS address, with serenity's rate
            // limiter on (through `api_base` it would have to be off).
            api_base: None,
            api_address: Some(self.fake.api_address),
            api_root_ca: Some(self.fake.root_ca.clone()),
            guild_id: self.guild_id,
            ai_budget_ms: 20,
            // No deadline for any kind unless a test sets one.
            turn_seconds: Registry::standard()
                .names()
                .into_iter()
                .map(|kind| (kind.to_string(), 0))
                .collect(),
            timeout_policy: host::TimeoutPolicy::Default,
            shards: None,
            delivery_lanes: 0,
            requests_per_second: 0,
        }
    }

    async fn boot(&mut self) {
        let sessions = self.fake.state().sessions;
        let host = Arc::new(self.new_host());
        let settings = self.settings();
        let bot = Bot::start(host.clone(), self.clock.clone(), settings)
            .await
            .expect("bot starts");
        self.host = Some(host);
        self.bot = Some(bot);
        self.fake.wait_ready(sessions + 1).await;
    }

    /// Stops the bot and starts a new one on the same database.
    pub async fn restart(&mut self) {
        self.stop().await;
        self.boot().await;
    }

    /// Stops the bot (as a crash would, between two deliveries); the
    /// database stays for [`Harness::start_again`].
    pub async fn stop(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
        self.host = None;
    }

    /// Starts a bot again on the database after [`Harness::stop`].
    pub async fn start_again(&mut self) {
        assert!(self.bot.is_none(), "the bot is still running");
        self.boot().await;
    }

    /// A host on the bot's database and clock without a bot (to change a
    /// game while the bot is down).
    pub fn offline_host(&self) -> Host {
        self.new_host()
    }

    /// A host on the harness's database, engines and clock, with the
    /// settings the bot's host runs with.
    fn new_host(&self) -> Host {
        host_builder::host_with(&self.db, (self.registry)(), self.clock.clone(), 20)
    }

    /// Runs SQL on the database (to simulate a crash or damage).
    pub fn sql(&self, statement: &str) -> usize {
        let c = rusqlite::Connection::open(&self.db).expect("open the database");
        c.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
        c.execute(statement, []).expect("run SQL")
    }

    /// Moves the host's clock and wakes the bot's scheduler.
    pub fn advance(&self, ms: i64) {
        self.clock.advance(ms);
        if let Some(b) = &self.bot {
            b.wake();
        }
    }

    /// The current host.
    pub fn host(&self) -> &Host {
        self.host.as_ref().unwrap()
    }

    /// Waits until the outbox is empty (everything delivered).
    pub async fn delivered(&self) {
        let host = self.host.clone().unwrap();
        let deadline = tokio::time::Instant::now() + fake_discord::WAIT;
        loop {
            if host.unsent(1).unwrap().is_empty() {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                panic!("outbox not delivered\n{}", self.fake.state().dump());
            }
            // Delivery happens in the bot; wait for the fake to record something.
            let _ = tokio::time::timeout(std::time::Duration::from_millis(50), self.fake_changed())
                .await;
        }
    }

    async fn fake_changed(&self) {
        let before = self.fake.state().requests.len();
        self.fake
            .wait_for("a request", |s| (s.requests.len() > before).then_some(()))
            .await;
    }

    /// How a test ends: waits until everything is delivered, then checks
    /// that the fake rejected nothing the bot sent and that the bot waited
    /// as every 429 told it.
    pub async fn finish(&self) {
        self.delivered().await;
        self.assert_clean();
        self.fake.assert_rate_limits_honoured();
    }

    /// Panics if the fake rejected anything the bot sent.
    pub fn assert_clean(&self) {
        let s = self.fake.state();
        assert!(
            s.rejected.is_empty(),
            "the fake rejected: {:#?}\n{}",
            s.rejected,
            s.dump()
        );
    }
}
