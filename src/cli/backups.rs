//! Backups of a SQLite database: dated snapshots in a folder (`gamehost
//! backup DIR`, the `[backup] every` schedule, and one before a migration),
//! pruned to the newest `[backup] keep`; `gamehost restore FILE`; and the
//! lock that keeps one `gamehost run` per SQLite file.

use super::said::Said;
use anyhow::{Context, bail};
use i18n::msg;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Store;

/// The name every dated snapshot starts with; pruning deletes only files
/// named `gamehost-YYYYMMDD-HHMMSS[-N].db`.
const DATED_PREFIX: &str = "gamehost-";

/// Writes a consistent snapshot of the SQLite file `db` into `dir` as
/// `<prefix>YYYYMMDD-HHMMSS.db` (with `-2`, `-3`... for a second already
/// taken): to a hidden temporary file first, published under its final
/// name only once on disk. Returns the file written.
pub fn dated_snapshot(db: &Path, dir: &Path, prefix: &str) -> anyhow::Result<PathBuf> {
    dated_snapshot_through(db, dir, prefix, &temporary_in(dir))
}

/// [`dated_snapshot`] written first to `tmp` (a [`temporary_in`] `dir`).
fn dated_snapshot_through(
    db: &Path,
    dir: &Path,
    prefix: &str,
    tmp: &Path,
) -> anyhow::Result<PathBuf> {
    let store = Store::open_existing(db)
        .map_err(super::cannot_open(super::Opened::Database, &db.display()))?;
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "backup to {} failed: cannot create the folder",
            dir.display()
        )
    })?;
    let written = write_snapshot(&store, tmp);
    let published = written.and_then(|()| publish_unique(tmp, dir, prefix));
    let _ = std::fs::remove_file(tmp);
    published.with_context(|| format!("backup to {} failed", dir.display()))
}

/// How a backup's temporary file is named: `<this>-<pid>-<nanos>.partial`.
const PARTIAL_PREFIX: &str = ".gamehost-backup-";

/// A hidden name in `dir` no other backup uses at the same time.
pub fn temporary_in(dir: &Path) -> PathBuf {
    dir.join(format!(
        "{PARTIAL_PREFIX}{}-{}.partial",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ))
}

/// `VACUUM INTO tmp`, then the copy flushed to disk.
pub fn write_snapshot(store: &Store, tmp: &Path) -> anyhow::Result<()> {
    store.backup_to(tmp)?;
    // The copy must be on disk before it carries the final name.
    std::fs::File::open(tmp).and_then(|f| f.sync_all())?;
    Ok(())
}

/// Publishes `tmp` in `dir` as `<prefix>YYYYMMDD-HHMMSS.db`, or with `-2`,
/// `-3`... when a backup of the same second is already there (a hard link
/// is atomic and never replaces a file).
fn publish_unique(tmp: &Path, dir: &Path, prefix: &str) -> anyhow::Result<PathBuf> {
    let stamp = utc_stamp(now_secs());
    for n in 1..1000 {
        let name = if n == 1 {
            format!("{prefix}{stamp}.db")
        } else {
            format!("{prefix}{stamp}-{n}.db")
        };
        let dest = dir.join(name);
        match std::fs::hard_link(tmp, &dest) {
            Ok(()) => return Ok(dest),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.into()),
        }
    }
    bail!("999 backups of this second already exist")
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Whether `name` is a dated snapshot (`gamehost-YYYYMMDD-HHMMSS[-N].db`).
fn is_dated(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix(DATED_PREFIX)
        .and_then(|r| r.strip_suffix(".db"))
    else {
        return false;
    };
    let mut parts = rest.split('-');
    let digits = |p: Option<&str>, n: usize| {
        p.is_some_and(|p| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let stamp_ok = digits(parts.next(), 8) && digits(parts.next(), 6);
    let tail_ok = match (parts.next(), parts.next()) {
        (None, _) => true,
        (Some(n), None) => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    };
    stamp_ok && tail_ok
}

/// Deletes the oldest dated snapshots in `dir` until `keep` are left
/// (0: keeps every one); returns how many it deleted. Other files (a
/// pre-migration backup, anything else) are never touched.
pub fn prune(dir: &Path, keep: usize) -> anyhow::Result<usize> {
    if keep == 0 {
        return Ok(0);
    }
    let mut dated: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            is_dated(&name).then(|| (sort_key(&name), e.path()))
        })
        .collect();
    dated.sort();
    let excess = dated.len().saturating_sub(keep);
    for (_, path) in dated.iter().take(excess) {
        std::fs::remove_file(path).with_context(|| format!("cannot delete {}", path.display()))?;
    }
    Ok(excess)
}

/// Orders `gamehost-STAMP.db` before `gamehost-STAMP-2.db` before `-10`.
fn sort_key(name: &str) -> String {
    let rest = &name[DATED_PREFIX.len()..name.len() - 3];
    let (stamp, n) = match rest.get(15..) {
        Some(tail) if tail.starts_with('-') => (&rest[..15], tail[1..].parse().unwrap_or(0)),
        _ => (rest, 1u32),
    };
    format!("{stamp}-{n:04}")
}

/// Deletes the temporary files in `dir` of backups cut short: those of
/// processes that no longer run, or that carry this process's id (a
/// restarted container's process often gets the id of the one before).
/// Called by `run` once it holds the database, before any backup of its
/// own. Returns how many it deleted.
pub fn remove_stale_partials(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0; // no folder yet: nothing left behind
    };
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PARTIAL_PREFIX)?.strip_suffix(".partial"))
            .and_then(|rest| rest.split('-').next()?.parse::<u32>().ok())
        else {
            continue;
        };
        if (pid == std::process::id() || !process_runs(pid))
            && std::fs::remove_file(entry.path()).is_ok()
        {
            tracing::info!(file = %entry.path().display(), "removed a backup cut short");
            removed += 1;
        }
    }
    removed
}

/// Whether a process `pid` runs (where that cannot be told: yes, so a
/// running backup is never deleted).
fn process_runs(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// The scheduled backups of a running bot: dropping it (the bot stopped,
/// however) deletes the temporary file of a backup still being written,
/// which the exit is about to cut short.
pub struct ScheduledBackups {
    writing: Arc<Mutex<Option<PathBuf>>>,
}

impl Drop for ScheduledBackups {
    fn drop(&mut self) {
        let writing = self
            .writing
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(tmp) = writing
            && std::fs::remove_file(&tmp).is_ok()
        {
            tracing::info!(file = %tmp.display(), "stopped during a scheduled backup; its partial copy deleted");
        }
    }
}

/// Takes a snapshot of `db` into `dir` every `every` and prunes to `keep`,
/// on a thread of its own (its own connection: the bot's games go on).
/// Each one is logged; a failed one is logged and retried next time.
pub fn schedule(db: PathBuf, dir: PathBuf, every: Duration, keep: usize) -> ScheduledBackups {
    tracing::info!(every_s = every.as_secs(), keep, dir = %dir.display(), "scheduled backups");
    let writing: Arc<Mutex<Option<PathBuf>>> = Arc::default();
    let handle = ScheduledBackups {
        writing: writing.clone(),
    };
    let spawned = std::thread::Builder::new()
        .name("backups".into())
        .spawn(move || {
            loop {
                std::thread::sleep(every);
                let tmp = temporary_in(&dir);
                *writing.lock().unwrap_or_else(|p| p.into_inner()) = Some(tmp.clone());
                let done = dated_snapshot_through(&db, &dir, DATED_PREFIX, &tmp);
                writing.lock().unwrap_or_else(|p| p.into_inner()).take();
                match done.and_then(|file| Ok((file, prune(&dir, keep)?))) {
                    Ok((file, pruned)) => {
                        tracing::info!(file = %file.display(), pruned, "scheduled backup written")
                    }
                    Err(e) => tracing::error!(
                        error = %super::error_line(&e),
                        "scheduled backup failed; trying again at the next one"
                    ),
                }
            }
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "cannot start the backup thread; no scheduled backups");
    }
    handle
}

/// Before `run` migrates the SQLite file `db` to a newer schema: a
/// snapshot in `dir` named for the versions, kept until deleted by hand
/// (pruning leaves it). `None` when nothing is to migrate.
pub fn before_migration(db: &Path, dir: &Path) -> anyhow::Result<Option<PathBuf>> {
    if !std::fs::metadata(db).is_ok_and(|m| m.is_file() && m.len() > 0) {
        return Ok(None);
    }
    let found = Store::open_read_only(db)?.schema_version()?;
    let known = store::schema_version_known();
    if found == 0 || found >= known {
        return Ok(None);
    }
    let prefix = format!("gamehost-v{found}-before-v{known}-");
    let file = dated_snapshot(db, dir, &prefix)?;
    tracing::info!(file = %file.display(), from = found, to = known, "backup before the migration written");
    Ok(Some(file))
}

/// Holds the SQLite file of a running bot: a second process on it is
/// refused (an advisory lock on the file, released when the process ends,
/// however it ends).
pub struct DatabaseLock {
    _file: std::fs::File,
}

/// Locks the SQLite file `db` for this process, or says which process
/// holds it. `None` if there is no file yet (lock it once created).
pub fn lock(db: &Path, doing: &str) -> anyhow::Result<Option<DatabaseLock>> {
    let file = match std::fs::File::open(db) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Said::new(msg!(
                "operator-file-cannot-open",
                path = db.display().to_string()
            ))
            .because(e)
            .into());
        }
    };
    match file.try_lock() {
        Ok(()) => Ok(Some(DatabaseLock { _file: file })),
        Err(std::fs::TryLockError::WouldBlock) => Err(Said::new(msg!(
            "operator-db-locked",
            doing = doing,
            path = db.display().to_string()
        ))
        .into()),
        Err(std::fs::TryLockError::Error(e)) => Err(Said::new(msg!(
            "operator-file-cannot-lock",
            path = db.display().to_string()
        ))
        .because(e)
        .into()),
    }
}

/// `YYYYMMDD-HHMMSS` in UTC for Unix seconds, so backup names sort by time
/// without a date crate.
pub fn utc_stamp(secs: i64) -> String {
    let (year, month, day) = utc_date(secs);
    let rem = secs.rem_euclid(86_400);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The UTC (year, month, day) of Unix seconds: Howard Hinnant's
/// civil-from-days in the proleptic Gregorian calendar.
pub fn utc_date(secs: i64) -> (i64, i64, i64) {
    let days = secs.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_stamps_match_known_dates() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        assert_eq!(utc_stamp(951_782_400), "20000229-000000");
        assert_eq!(utc_stamp(1_800_000_000), "20270115-080000");
        assert_eq!(utc_stamp(1_709_251_199), "20240229-235959");
    }

    #[test]
    fn partial_copies_of_stopped_processes_are_removed_and_running_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let me = std::process::id();
        // No process has an id that large (Linux stops at 2^22).
        let dead = format!("{PARTIAL_PREFIX}4000000000-1.partial");
        let mine = format!("{PARTIAL_PREFIX}{me}-2.partial");
        let init = format!("{PARTIAL_PREFIX}1-3.partial");
        for name in [
            &dead,
            &mine,
            &init,
            &"gamehost-20250101-000000.db".to_string(),
        ] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        assert_eq!(remove_stale_partials(dir.path()), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, [init, "gamehost-20250101-000000.db".to_string()]);
        assert_eq!(remove_stale_partials(&dir.path().join("none")), 0);
    }

    #[test]
    fn a_stop_during_a_scheduled_backup_deletes_its_partial_copy() {
        let dir = tempfile::tempdir().unwrap();
        let tmp = temporary_in(dir.path());
        std::fs::write(&tmp, b"half a database").unwrap();
        let backups = ScheduledBackups {
            writing: Arc::new(Mutex::new(Some(tmp.clone()))),
        };
        drop(backups);
        assert!(!tmp.exists());
        // Between two backups there is nothing to delete.
        drop(ScheduledBackups {
            writing: Arc::default(),
        });
    }

    #[test]
    fn prune_keeps_the_newest_dated_files_and_touches_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "gamehost-20260101-000000.db",
            "gamehost-20260101-000000-2.db",
            "gamehost-20260101-000000-10.db",
            "gamehost-20260102-000000.db",
            "gamehost-v3-before-v4-20250101-000000.db",
            "gamehost.db",
            "gamehost-notes.db",
        ];
        for n in names {
            std::fs::write(dir.path().join(n), b"x").unwrap();
        }
        assert_eq!(prune(dir.path(), 2).unwrap(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "gamehost-20260101-000000-10.db",
                "gamehost-20260102-000000.db",
                "gamehost-notes.db",
                "gamehost-v3-before-v4-20250101-000000.db",
                "gamehost.db",
            ]
        );
        assert_eq!(prune(dir.path(), 0).unwrap(), 0, "keep = 0 keeps every one");
    }
}
