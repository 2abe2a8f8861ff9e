//! `gamehost migrate-db --from sqlite:PATH --to postgres://...`: moves an
//! operator from one SQLite file to a PostgreSQL database shared by several
//! bot processes. The source must not be in use by a running gamehost and
//! must pass `gamehost check`; the target must be empty, which is checked
//! before anything is created in it, so a refused target is left exactly as
//! it was. Every table is copied with its ids from one snapshot of the
//! source in one transaction on the target, whose id sequences then
//! continue after the copied ids; the target is checked like `gamehost
//! check` does and its row counts compared with the source's, table by table.

use anyhow::{Context, bail};
use host::{Clock, Host, HostSettings, Registry, SystemClock};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use store::Store;

/// Options of `gamehost migrate-db`.
#[derive(clap::Args, Debug)]
pub struct MigrateDbArgs {
    /// The SQLite database to copy: `sqlite:PATH` (it is only read).
    #[arg(long)]
    pub from: String,
    /// The empty PostgreSQL database to copy into: `postgres://user:password@host:port/db`.
    #[arg(long)]
    pub to: String,
}

/// What a migration copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migrated {
    /// Rows per table, equal in source and target.
    pub rows: BTreeMap<String, i64>,
    /// Games the check of the target went through.
    pub games_checked: usize,
}

/// Runs `gamehost migrate-db` with the engines the config registers.
pub fn run(args: MigrateDbArgs, config: &crate::config::Config) -> anyhow::Result<()> {
    let Some(path) = args.from.strip_prefix("sqlite:") else {
        bail!(
            "--from `{}`: expected sqlite:PATH, the SQLite file to copy (e.g. sqlite:gamehost.db)",
            args.from
        );
    };
    if !(args.to.starts_with("postgres://") || args.to.starts_with("postgresql://")) {
        bail!(
            "--to `{}`: expected a PostgreSQL URL, e.g. postgres://gamehost:password@localhost:5432/gamehost",
            store::redact_url(&args.to)
        );
    }
    let done = migrate(&PathBuf::from(path), &args.to, || {
        super::registry_from_config(config)
    })?;
    println!("table                 rows");
    for (table, n) in &done.rows {
        println!("{table:<20} {n:>6}");
    }
    println!(
        "copied {} rows in {} tables to {}; the target passed the check ({} games)",
        done.rows.values().sum::<i64>(),
        done.rows.len(),
        store::redact_url(&args.to),
        done.games_checked
    );
    Ok(())
}

fn host_on(store: Store, registry: Registry) -> Host {
    Host::new(
        Arc::new(store),
        registry,
        Arc::new(SystemClock),
        HostSettings::default(),
    )
}

/// Copies the SQLite file at `from` into the empty PostgreSQL database at
/// `to` (creating its schema) and checks the result; `registry` makes the
/// engines the games need (to check them).
pub fn migrate(
    from: &Path,
    to: &str,
    registry: impl Fn() -> anyhow::Result<Registry>,
) -> anyhow::Result<Migrated> {
    let source = Store::open_read_only(from)
        .with_context(|| format!("cannot open the source database {}", from.display()))?;
    let version = source.schema_version()?;
    let known = store::schema_version_known();
    if version != known {
        bail!(
            "the source {} has schema version {version}, this gamehost {known}: start this \
             gamehost on it once (it migrates the file), then copy it",
            from.display()
        );
    }
    refuse_live_source(&source, from)?;
    let source = host_on(source, registry()?);
    let (_, problems) = super::inspect::check_problems(&source)?;
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{p}");
        }
        bail!(
            "the source {} fails `gamehost check` ({} problem(s), listed above); repair or \
             restore it first",
            from.display(),
            problems.len()
        );
    }
    refuse_unless_empty(to)?;
    let target = Store::open_postgres(to)
        .with_context(|| format!("cannot open the target database {}", store::redact_url(to)))?;
    let copied = source.store().copy_into(&target).context(
        "the copy failed and was rolled back: the target holds gamehost's tables, empty",
    )?;
    let counts_source = source.store().row_counts()?;
    let counts_target = target.row_counts()?;
    for (table, n) in &copied {
        let (s, t) = (counts_source.get(table), counts_target.get(table));
        if s != Some(n) || t != Some(n) {
            bail!("table {table}: {n} rows copied but the source has {s:?} and the target {t:?}");
        }
    }
    let target = host_on(target, registry()?);
    let (games_checked, problems) = super::inspect::check_problems(&target)?;
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{p}");
        }
        bail!(
            "the copy in {} fails `gamehost check` ({} problem(s), listed above)",
            store::redact_url(to),
            problems.len()
        );
    }
    Ok(Migrated {
        rows: copied,
        games_checked,
    })
}

/// Refuses a source a running gamehost still writes to (an instance with a
/// heartbeat within `store::INSTANCE_LIVE_MS`): its copy would miss what
/// the bot writes meanwhile.
fn refuse_live_source(source: &Store, from: &Path) -> anyhow::Result<()> {
    let now = SystemClock.now_ms();
    let live = source.read(|tx| tx.live_instances(now - store::INSTANCE_LIVE_MS))?;
    if let Some(running) = live.first() {
        bail!(
            "the source {} is in use by a running gamehost (process `{}`, alive {} s ago): stop \
             it, then migrate (nothing was copied)",
            from.display(),
            running.id,
            (now - running.heartbeat_at).max(0) / 1000
        );
    }
    Ok(())
}

/// Refuses a target that holds anything: tables of another application, a
/// gamehost schema of another version, or gamehost rows. Looked at over a
/// connection that applies no migration, so a refused target is left
/// exactly as it was.
fn refuse_unless_empty(to: &str) -> anyhow::Result<()> {
    let shown = store::redact_url(to);
    let probe = Store::open_read_only_at(&store::Location::Postgres(to.to_string()))
        .with_context(|| format!("cannot open the target database {shown}"))?;
    let version = probe.schema_version()?;
    let tables = probe.tables()?;
    if version == 0 {
        if !tables.is_empty() {
            let names: Vec<&str> = tables.keys().map(String::as_str).take(10).collect();
            bail!(
                "the target database {shown} holds tables of another application ({}{}); nothing \
                 was changed: migrate into an empty database (createdb --owner gamehost gamehost)",
                names.join(", "),
                if tables.len() > names.len() {
                    ", ..."
                } else {
                    ""
                }
            );
        }
        return Ok(());
    }
    let known = store::schema_version_known();
    if version != known {
        bail!(
            "the target database {shown} has gamehost schema version {version}, this gamehost \
             {known}; nothing was changed: migrate into an empty database"
        );
    }
    let nonempty: Vec<String> = probe
        .row_counts()?
        .into_iter()
        .filter(|(t, n)| *n > 0 && t != "instances")
        .map(|(t, n)| format!("{t} ({n} rows)"))
        .collect();
    if !nonempty.is_empty() {
        bail!(
            "the target database {shown} is not empty: {}; nothing was changed: migrate into an \
             empty database",
            nonempty.join(", ")
        );
    }
    Ok(())
}
