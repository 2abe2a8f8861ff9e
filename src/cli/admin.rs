//! Operator commands: running the bot, checking and backing up the database.
//!
//! `check` and `backup` open the database read-only: they never create,
//! migrate or change the file they look at. `run` checks the database the
//! way `check` does before it connects, and refuses to start on one that
//! would break games.

use super::inspect::{host_on, inspect};
use super::said::Said;
use crate::config::Config;
use anyhow::{Context, bail};
use i18n::{Message, msg};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use store::{Store, schema_version_known};

/// How `gamehost run` splits the gateway between processes.
#[derive(clap::Args, Debug, Default)]
pub struct RunArgs {
    /// The gateway shards this process runs: `A..B` (B not included),
    /// `A..=B`, or one shard `A`. Needs `--shard-total`. Run shard 0 in one
    /// of the processes: Discord sends DMs to shard 0 only.
    #[arg(long, value_name = "A..B", requires = "shard_total")]
    pub shards: Option<String>,
    /// How many shards the bot runs across all its processes.
    #[arg(long, value_name = "N")]
    pub shard_total: Option<u32>,
}

impl RunArgs {
    /// The shard range asked for, checked; `None` for a one-process bot.
    pub fn shard_range(&self) -> anyhow::Result<Option<discord::ShardRange>> {
        match (&self.shards, self.shard_total) {
            (None, None) => Ok(None),
            (None, Some(total)) => discord::ShardRange::parse(&format!("0..{total}"), total)
                .map(Some)
                .map_err(anyhow::Error::msg),
            (Some(range), Some(total)) => discord::ShardRange::parse(range, total)
                .map(Some)
                .map_err(anyhow::Error::msg),
            (Some(_), None) => bail!(
                "`--shards` needs `--shard-total N`, the number of shards across all processes"
            ),
        }
    }
}

/// Starts the Discord bot, or explains clearly why it cannot.
pub fn run_bot(config: Config, args: &RunArgs) -> anyhow::Result<()> {
    // Bad flags are refused before anything is opened or logged in.
    let shards = args.shard_range()?;
    if config.token().is_none() {
        return Err(Said::new(Message::new("operator-no-token")).into());
    }
    if let Some(base) = config
        .discord
        .api_base
        .as_deref()
        .filter(|b| !b.trim().is_empty())
    {
        discord::check_api_base(base)?;
    }
    api_address(&config)?;
    check_deadline_minimums(&config)?;
    init_logging(&config.log.level, config.token());
    let path = &config.database.path;
    let location = config.database.location();
    // An empty file is not a new database: it is more likely a copy that
    // failed half-way, and filling it with a fresh schema would hide that.
    if matches!(location, store::Location::Sqlite(_))
        && std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0)
    {
        return Err(Said::new(msg!(
            "operator-db-empty-file",
            path = path.display().to_string()
        ))
        .into());
    }
    // One process per SQLite file: the lock is held until this returns.
    let mut lock = None;
    if let store::Location::Sqlite(path) = &location {
        lock = super::backups::lock(path, "start")?;
        // Backups (and a restore, beside the file) cut short by an exit.
        super::backups::remove_stale_partials(&config.database.backup_dir);
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        super::backups::remove_stale_partials(folder.unwrap_or(Path::new(".")));
        super::backups::before_migration(path, &config.database.backup_dir)?;
    }
    let host = super::open_host(&config)?.with_abandon_after(config.deadlines.abandon_after);
    if let (None, store::Location::Sqlite(path)) = (&lock, &location) {
        lock = super::backups::lock(path, "start")?; // the file is new
    }
    let report = inspect(&host)?;
    if !report.problems.is_empty() {
        for p in &report.problems {
            eprintln!("{p}");
        }
        return Err(Said::new(msg!(
            "operator-db-has-problems",
            location = location.to_string(),
            count = report.problems.len().to_string()
        ))
        .into());
    }
    let mut settings = bot_settings(&config, host.registry());
    settings.shards = shards;
    let _backups = schedule_backups(&config);
    // Refused while a process of another gamehost version runs on the
    // database (a shared PostgreSQL one); its claims are given up on a
    // clean stop so other processes take its work over at once.
    host.register_instance(env!("CARGO_PKG_VERSION"))?;
    let host = Arc::new(host);
    // Config::load has checked the address.
    let metrics = config.metrics.address().ok().flatten();
    let ran = discord::run_blocking(settings, host.clone(), metrics);
    if let Err(e) = host.unregister_instance() {
        tracing::warn!(error = %e, "could not unregister this instance");
    }
    drop(lock);
    ran
}

/// Starts the `[backup] every` schedule (SQLite only: a PostgreSQL
/// database is backed up with `pg_dump`), until the returned handle drops.
fn schedule_backups(config: &Config) -> Option<super::backups::ScheduledBackups> {
    // Config::load has checked the span.
    let Ok(Some(every)) = crate::config::parse_every(&config.backup.every) else {
        return None;
    };
    match config.database.location() {
        store::Location::Sqlite(path) => Some(super::backups::schedule(
            path,
            config.database.backup_dir.clone(),
            every,
            config.backup.keep,
        )),
        store::Location::Postgres(_) => {
            tracing::info!(
                "`[backup] every` copies a SQLite file; back the PostgreSQL database up with pg_dump"
            );
            None
        }
    }
}

/// Refuses a `[deadlines] <kind>_seconds` below its game's minimum (0, no
/// deadline, is allowed): the same rule `/game new` applies to players.
fn check_deadline_minimums(config: &Config) -> anyhow::Result<()> {
    let registry = super::registry_from_config(config)?;
    for kind in registry.names() {
        let (Some(seconds), Ok(entry)) = (config.deadlines.seconds_for(kind), registry.get(kind))
        else {
            continue;
        };
        host::limits::check_turn_seconds(entry, Some(seconds)).map_err(|why| {
            anyhow::anyhow!("config `[deadlines] {kind}_seconds = {seconds}`: {why}")
        })?;
    }
    Ok(())
}

/// `[discord] api_address` as a socket address (`host:port`, looked up
/// once), or a clear error.
fn api_address(config: &Config) -> anyhow::Result<Option<std::net::SocketAddr>> {
    use std::net::ToSocketAddrs;
    let Some(text) = config
        .discord
        .api_address
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Ok(None);
    };
    let shown: String = text.chars().take(200).collect();
    let found = text
        .to_socket_addrs()
        .map_err(|e| {
            anyhow::anyhow!(
                "invalid `[discord] api_address` `{shown}`: {e}; expected host:port such as 127.0.0.1:8443"
            )
        })?
        .next();
    match found {
        Some(address) => Ok(Some(address)),
        None => bail!(
            "`[discord] api_address` `{shown}` names no address; expected host:port such as 127.0.0.1:8443"
        ),
    }
}

/// The bot's settings from the config: the token, where Discord is, the AI
/// budget, and the operator's default deadlines of every registered kind.
pub fn bot_settings(config: &Config, registry: &host::Registry) -> discord::BotSettings {
    discord::BotSettings {
        token: config.token().unwrap_or_default().to_string(),
        api_base: config
            .discord
            .api_base
            .clone()
            .filter(|s| !s.trim().is_empty()),
        // Checked by `run` before the bot starts.
        api_address: api_address(config).ok().flatten(),
        api_root_ca: config
            .discord
            .api_root_ca
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(std::path::PathBuf::from),
        guild_id: config.discord.guild_id,
        ai_budget_ms: config.ai.budget_ms,
        turn_seconds: registry
            .names()
            .into_iter()
            .filter_map(|kind| Some((kind.to_string(), config.deadlines.seconds_for(kind)?)))
            .collect(),
        // Config::load has checked the policy's name.
        timeout_policy: host::TimeoutPolicy::parse(&config.deadlines.timeout_policy)
            .unwrap_or(host::TimeoutPolicy::Default),
        shards: None,
        delivery_lanes: config.discord.delivery_lanes,
        requests_per_second: config.discord.requests_per_second,
    }
}

/// Sends `tracing` output to stderr (never stdout, which belongs to the
/// command's own output), without colour codes unless stderr is a terminal,
/// filtered by `RUST_LOG` or the config's level (checked when the config
/// loaded, so a typo is refused rather than silencing every log line).
/// `secret` (the bot token) is blanked out of every line written.
pub fn init_logging(level: &str, secret: Option<&str>) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let writer = RedactingStderr {
        secret: secret
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| std::sync::Arc::from(s.as_bytes())),
    };
    // A second initialisation (tests) is harmless; ignore it.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// Writes log lines to stderr with a secret replaced. `tracing`'s formatter
/// hands over each event as one buffer, so a secret is never split across
/// two writes.
#[derive(Clone)]
struct RedactingStderr {
    secret: Option<std::sync::Arc<[u8]>>,
}

impl std::io::Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut err = std::io::stderr().lock();
        match &self.secret {
            Some(s) if buf.windows(s.len()).any(|w| w == &s[..]) => {
                let mut out = Vec::with_capacity(buf.len());
                let mut i = 0;
                while i < buf.len() {
                    if buf[i..].starts_with(s) {
                        out.extend_from_slice(b"<redacted>");
                        i += s.len();
                    } else {
                        out.push(buf[i]);
                        i += 1;
                    }
                }
                err.write_all(&out)?;
            }
            _ => err.write_all(buf)?,
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for RedactingStderr {
    type Writer = RedactingStderr;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// Checks the database without changing it: the file (SQLite's integrity
/// check, foreign keys, schema), and every game (row, seats, turn counter
/// against the turn log, replay, pending actions, outbox). Prints one line
/// per problem and fails if there is any.
pub fn check(config: &Config) -> anyhow::Result<()> {
    let location = config.database.location();
    let store = Store::open_read_only_at(&location)
        .map_err(super::cannot_open(super::Opened::Database, &location))?;
    let host = host_on(config, store)?;
    let report = inspect(&host)?;
    for p in &report.problems {
        println!("{p}");
    }
    println!(
        "{} game(s) checked, {} problem(s); schema version {}",
        report.games,
        report.problems.len(),
        report.version
    );
    if report.problems.is_empty() {
        return Ok(());
    }
    let file = report.problems.len()
        - report
            .problems
            .iter()
            .filter(|p| p.starts_with("game "))
            .count();
    match (report.bad_games.len(), file) {
        (n, 0) => bail!("{n} game(s) failed the check"),
        (0, f) => bail!("the database file failed the check ({f} problem(s))"),
        (n, f) => bail!("{n} game(s) failed the check, and the database file has {f} problem(s)"),
    }
}

/// Writes a consistent copy of the live database: to a temporary file in
/// the destination's directory first, published under its final name only
/// once complete, and never over an existing file.
pub fn backup(config: &Config, dest: Option<PathBuf>) -> anyhow::Result<()> {
    if let store::Location::Postgres(url) = config.database.location() {
        bail!(
            "`gamehost backup` copies a SQLite file; the games are on PostgreSQL ({}): back \
             them up with `pg_dump`",
            store::redact_url(&url)
        );
    }
    // Into a folder (`[database] backup_dir` by default, an existing
    // folder, or a path written with a trailing `/`, created like
    // `backup_dir`): a dated file.
    let folder = match &dest {
        None => Some(config.database.backup_dir.clone()),
        Some(d) if d.is_dir() || names_a_folder(d) => Some(d.clone()),
        Some(_) => None,
    };
    if let Some(folder) = folder {
        let file = super::backups::dated_snapshot(&config.database.path, &folder, "gamehost-")?;
        println!("backed up to {}", file.display());
        return Ok(());
    }
    let store = Store::open_existing(&config.database.path).map_err(super::cannot_open(
        super::Opened::Database,
        &config.database.path.display(),
    ))?;
    let dir = dest
        .as_ref()
        .and_then(|d| d.parent())
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    if let Some(d) = dest.as_ref().filter(|d| d.exists()) {
        bail!(
            "backup to {} refused: the file exists, and a backup never overwrites one",
            d.display()
        );
    }
    if !dir.is_dir() {
        bail!(
            "backup to {} refused: the folder {} does not exist; create it, or write the \
             destination as a folder ending in `/` to have it created",
            dest.as_deref().unwrap_or(&dir).display(),
            dir.display()
        );
    }
    let tmp = super::backups::temporary_in(&dir);
    let written = super::backups::write_snapshot(&store, &tmp);
    let target = dest.unwrap_or_else(|| dir.join("gamehost.db"));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.context(format!("backup to {} failed", target.display())));
    }
    let published = publish(&tmp, &target);
    let _ = std::fs::remove_file(&tmp);
    published?;
    println!("backed up to {}", target.display());
    Ok(())
}

/// Puts the backup `file` in place of the configured SQLite database once
/// it passes the check, refusing while a bot runs on the database. The
/// database it replaces (and its `-wal`/`-shm` files) is kept beside it as
/// `<name>.replaced-YYYYMMDD-HHMMSS`.
pub fn restore(config: &Config, file: &Path) -> anyhow::Result<()> {
    let store::Location::Sqlite(target) = config.database.location() else {
        bail!(
            "`gamehost restore` puts back a SQLite file; the games are on PostgreSQL: restore \
             a `pg_dump` with `pg_restore`"
        );
    };
    let backup = Store::open_read_only(file)
        .map_err(super::cannot_open(super::Opened::Backup, &file.display()))?;
    let report = inspect(&host_on(config, backup)?)?;
    let older = report.version < schema_version_known();
    // An older schema is one problem `check` names, not damage: `run`
    // migrates it (and an older gamehost runs it as it is: a rollback).
    let damage: Vec<&String> = report
        .problems
        .iter()
        .filter(|p| !(older && p.starts_with("database: schema version")))
        .collect();
    if !damage.is_empty() {
        for p in &damage {
            eprintln!("{p}");
        }
        bail!(
            "restore refused: the backup {} has {} problem(s) (listed above)",
            file.display(),
            damage.len()
        );
    }
    let _lock = super::backups::lock(&target, "restore")?;
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = super::backups::temporary_in(dir);
    let copied = std::fs::copy(file, &tmp)
        .and_then(|_| std::fs::File::open(&tmp)?.sync_all())
        .with_context(|| format!("restore to {} failed", target.display()));
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let kept = set_aside(&target)?;
    std::fs::rename(&tmp, &target)
        .with_context(|| format!("restore to {} failed", target.display()))?;
    match kept {
        Some(old) => println!(
            "restored {} to {} ({} game(s), schema version {}); the database it replaced is {}",
            file.display(),
            target.display(),
            report.games,
            report.version,
            old.display()
        ),
        None => println!(
            "restored {} to {} ({} game(s), schema version {})",
            file.display(),
            target.display(),
            report.games,
            report.version
        ),
    }
    Ok(())
}

/// Renames the database `target` and its `-wal` and `-shm` files to
/// `<name>.replaced-STAMP[-wal|-shm]`; the old WAL must never meet the
/// restored file. `None` if there was no database.
fn set_aside(target: &Path) -> anyhow::Result<Option<PathBuf>> {
    if !target.exists() {
        return Ok(None);
    }
    let stamp = super::backups::utc_stamp(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0),
    );
    let mut aside = target.as_os_str().to_os_string();
    aside.push(format!(".replaced-{stamp}"));
    let aside = PathBuf::from(aside);
    for suffix in ["-wal", "-shm", ""] {
        let mut from = target.as_os_str().to_os_string();
        from.push(suffix);
        let mut to = aside.as_os_str().to_os_string();
        to.push(suffix);
        if Path::new(&from).exists() {
            std::fs::rename(&from, &to).with_context(|| {
                format!(
                    "restore refused: cannot move {} aside",
                    Path::new(&from).display()
                )
            })?;
        }
    }
    Ok(Some(aside))
}

/// Whether a destination was written as a folder (`bk/`, `bk/.`).
fn names_a_folder(dest: &Path) -> bool {
    let text = dest.as_os_str().to_string_lossy();
    text.ends_with(std::path::MAIN_SEPARATOR) || text.ends_with('/') || dest.ends_with(".")
}

/// Gives the finished copy `tmp` the name `dest`, failing if that exists
/// (a hard link is atomic and never replaces a file).
fn publish(tmp: &Path, dest: &Path) -> anyhow::Result<()> {
    match std::fs::hard_link(tmp, dest) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "backup to {} refused: the file exists, and a backup never overwrites one",
            dest.display()
        ),
        Err(e) => {
            Err(anyhow::Error::from(e).context(format!("backup to {} failed", dest.display())))
        }
    }
}
