//! The `gamehost` command line: run the bot, play in a terminal, and the
//! per-game tools (solvers, simulators, tournaments).

use crate::config::{Config, DEFAULT_CONFIG_FILE};
use clap::{Parser, Subcommand};
use host::{Host, HostSettings, Registry, SystemClock};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use store::Store;

// gamehost:cli-modules — one `pub mod <game>;` line per game's tools.
pub mod admin;
pub mod backups;
pub mod battle;
pub mod cards;
pub mod diplomacy;
pub mod health;
pub mod inspect;
pub mod ladder;
pub mod map_check;
pub mod migrate_db;
pub mod puzzle;
pub mod said;
pub mod soak;
pub mod tournament;

/// A self-hosted Discord bot that runs many games at once, one per channel.
#[derive(Parser, Debug)]
#[command(name = "gamehost", version, about, long_about = None)]
pub struct Cli {
    /// The config file (TOML). Without it, `gamehost.toml` is read if present.
    #[arg(long, global = true, env = "GAMEHOST_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the Discord bot (needs a token: DISCORD_TOKEN or `[discord] token`).
    Run(admin::RunArgs),
    /// Play a game in this terminal against the AI, no Discord needed.
    Play(crate::terminal::PlayArgs),
    /// Check the database: every game loads and replays from its turn log.
    Check {
        /// Check this SQLite file instead of the configured database.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Copy the live database to a consistent snapshot file.
    Backup {
        /// Where to write the copy: a new file, or a folder to write
        /// gamehost-<time>.db in (default: `[database] backup_dir`).
        dest: Option<PathBuf>,
        /// Back up this SQLite file instead of the configured database.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Put a backup in place of the database, once it passes the check (never while a bot runs on it).
    Restore {
        /// The backup file (written by `gamehost backup` or the schedule).
        file: PathBuf,
        /// Restore to this SQLite file instead of the configured database.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Ask a running bot's /healthz (at `[metrics] listen`): exit 0 if it is healthy.
    Health,
    /// Copy a SQLite database into an empty PostgreSQL one, then check it.
    MigrateDb(migrate_db::MigrateDbArgs),
    /// Crash-safety soak: plays games until killed (used by tests).
    #[command(hide = true)]
    Soak(soak::SoakArgs),
    // gamehost:cli-commands — one `<Game>(<game>::<Game>Args)` variant per game.
    /// Monster battle: AI tournaments, roster checks.
    Battle(battle::BattleArgs),
    /// Puzzle duel: simulate AI games, replay records, run AI tournaments.
    Puzzle(puzzle::PuzzleArgs),
    /// Diplomacy: adjudicate DATC-style records, parse orders, export and render games.
    Diplomacy(diplomacy::DiplomacyArgs),
    /// Invisible, the card duel: solve the reference problem, deal, run AI tournaments.
    Cards(cards::CardsArgs),
    /// Ratings: measure the AI levels' ladder by self-play.
    Ratings(ladder::RatingsArgs),
    /// AI tournaments of any two-seat game: the tables in docs/games/ (W/D/L, score, Elo, time, budget, load).
    Tournament(tournament::ReportArgs),
}

/// Parses the arguments, runs the command, and turns failures into one
/// clear line on stderr and a non-zero exit code.
pub fn main_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    // Read once: the errors an operator meets first are said in the
    // environment's language; logs stay English.
    let lang = said::operator_lang();
    match dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gamehost: {}", error_line_in(lang, &e));
            ExitCode::from(1)
        }
    }
}

/// The token of the loaded config, blanked out of the final error line.
static TOKEN_TO_HIDE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// An error and its causes as one line, in English (as logs say it).
pub fn error_line(e: &anyhow::Error) -> String {
    error_line_in(i18n::Lang::En, e)
}

/// An error and its causes as one line in `lang`: each cause with words in
/// the catalogues in those, the others as they say themselves. A cause
/// whose English text the line already holds is left out: many errors
/// quote their source in their own message (`database error: {0}`), and
/// printing the chain as well would repeat it.
pub fn error_line_in(lang: i18n::Lang, e: &anyhow::Error) -> String {
    let mut english: Vec<String> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        let said = |t: &str| english.iter().any(|p| p.contains(t));
        // "Error code 14: unable to open ..." only adds a code to a text
        // already said.
        let repeats_with_a_prefix = text
            .split_once(": ")
            .is_some_and(|(prefix, rest)| prefix.len() <= 20 && said(rest));
        if text.is_empty() || said(&text) || repeats_with_a_prefix {
            continue;
        }
        parts.push(match lang {
            i18n::Lang::En => text.clone(),
            _ => said::in_lang(lang, cause).unwrap_or_else(|| text.clone()),
        });
        english.push(text);
    }
    let line = parts.join(": ");
    match TOKEN_TO_HIDE.get() {
        Some(token) => line.replace(token.as_str(), "<redacted>"),
        None => line,
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => {
            let config = load_config(&cli.config)?;
            admin::run_bot(config, &args)
        }
        Command::Play(args) => {
            let config = load_config(&cli.config)?;
            play_in_terminal(config, args)
        }
        Command::Check { db } => admin::check(&with_db(load_config(&cli.config)?, db)),
        Command::Backup { dest, db } => {
            admin::backup(&with_db(load_config(&cli.config)?, db), dest)
        }
        Command::Restore { file, db } => {
            admin::restore(&with_db(load_config(&cli.config)?, db), &file)
        }
        Command::Health => health::run(&load_config(&cli.config)?),
        Command::Soak(a) => soak::run(a),
        Command::MigrateDb(a) => migrate_db::run(a, &load_config(&cli.config)?),
        // gamehost:cli-dispatch — one `Command::<Game>(a) => <game>::run(a),` arm per game.
        Command::Battle(a) => battle::run(a),
        Command::Puzzle(a) => puzzle::run(a),
        Command::Diplomacy(a) => diplomacy::run(a, &cli.config),
        Command::Cards(a) => cards::run(a),
        Command::Ratings(a) => ladder::run(a),
        Command::Tournament(a) => tournament::run(a),
    }
}

/// The config with `--db FILE` (a SQLite file) in place of its database.
fn with_db(mut config: Config, db: Option<PathBuf>) -> Config {
    if let Some(db) = db {
        config.database.path = db;
        config.database.url = None;
    }
    config
}

/// Reads the config named by `--config` (which must exist) or the default file (optional).
pub fn load_config(explicit: &Option<PathBuf>) -> anyhow::Result<Config> {
    let (path, explicit) = match explicit {
        Some(p) => (p.clone(), true),
        None => (PathBuf::from(DEFAULT_CONFIG_FILE), false),
    };
    let config = Config::load(&path, explicit)?;
    if let Some(token) = config.token().filter(|t| t.len() >= 4) {
        let _ = TOKEN_TO_HIDE.set(token.to_string());
    }
    Ok(config)
}

/// The engines, with the data the operator configured: the `[battle]
/// roster` file and the `[diplomacy] maps` files are read here, once, at
/// start-up (bounded, regular files only) and handed to the engines as
/// data. No option a game's creator sends names a file.
pub fn registry_from_config(config: &Config) -> anyhow::Result<Registry> {
    for path in &config.diplomacy.maps {
        let map = crate::operator_maps::install_map_file(std::path::Path::new(path.trim()))
            .map_err(|e| anyhow::anyhow!("config `[diplomacy] maps`: {e}"))?;
        tracing::info!(
            map = map.id(),
            title = map.title(),
            "installed a Diplomacy map"
        );
    }
    let path = config.battle.roster.trim();
    if path.is_empty() {
        return Ok(Registry::standard());
    }
    let roster = crate::operator_file::load_roster(std::path::Path::new(path))
        .map_err(|e| anyhow::anyhow!("config `[battle] roster`: {e}"))?;
    Ok(Registry::standard_with_roster(Some(roster)))
}

/// What cannot be opened: the database or a backup.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Opened {
    /// The database.
    Database,
    /// A backup file.
    Backup,
}

/// The one wording of a database or backup (`what`) at `location` that
/// cannot be opened, whichever command opens it: a missing file is the
/// store's `no database at <path>`; anything else names what was opened.
pub(crate) fn cannot_open(
    what: Opened,
    location: &impl std::fmt::Display,
) -> impl FnOnce(store::StoreError) -> anyhow::Error {
    let location = location.to_string();
    let shown = match what {
        Opened::Database => i18n::msg!("operator-db-cannot-open", location = location),
        Opened::Backup => i18n::msg!("operator-backup-cannot-open", location = location),
    };
    move |e| match e {
        e @ store::StoreError::NotFound { .. } => anyhow::Error::new(e),
        e => said::Said::new(shown).because(e).into(),
    }
}

/// Opens the configured database read-only (it must exist) and builds a
/// host on it with every engine, for the commands that only read.
pub fn open_host_read_only(config: &Config) -> anyhow::Result<Host> {
    let registry = registry_from_config(config)?;
    let location = config.database.location();
    let store =
        Store::open_read_only_at(&location).map_err(cannot_open(Opened::Database, &location))?;
    Ok(Host::new(
        Arc::new(store),
        registry,
        Arc::new(SystemClock),
        HostSettings {
            ai_budget_ms: config.ai.budget_ms,
            reminder_percent: config.deadlines.reminder_percent,
        },
    ))
}

/// Runs `gamehost play` on stdin/stdout, on the configured database or
/// the one `--db` names.
fn play_in_terminal(mut config: Config, args: crate::terminal::PlayArgs) -> anyhow::Result<()> {
    if let Some(db) = &args.db {
        config.database.path = db.clone();
        config.database.url = None;
    }
    let host = open_host(&config)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    crate::terminal::play(&host, &args, stdin.lock(), stdout.lock())
}

/// Opens the configured database and builds a host on it with every engine.
pub fn open_host(config: &Config) -> anyhow::Result<Host> {
    // The roster first: a bad config must not create or touch the database.
    let registry = registry_from_config(config)?;
    let location = config.database.location();
    let store = Store::open_at(&location).map_err(|e| {
        said::Said::new(i18n::msg!(
            "operator-db-cannot-open",
            location = location.to_string()
        ))
        .because(e)
    })?;
    Ok(Host::new(
        Arc::new(store),
        registry,
        Arc::new(SystemClock),
        HostSettings {
            ai_budget_ms: config.ai.budget_ms,
            reminder_percent: config.deadlines.reminder_percent,
        },
    ))
}
