//! Opening a store (SQLite file or PostgreSQL server, read-only or not),
//! its migrations, and the checks of its schema and integrity.

use super::*;

/// The migrations, in order; the schema version is their count.
pub(crate) const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/0001_initial.sql"),
    include_str!("../../../migrations/0002_deadline_extensions.sql"),
    include_str!("../../../migrations/0003_idle_deadlines.sql"),
    include_str!("../../../migrations/0004_ratings.sql"),
    include_str!("../../../migrations/0005_press.sql"),
    include_str!("../../../migrations/0006_seat_terms.sql"),
    include_str!("../../../migrations/0007_weng_lin_scale.sql"),
    include_str!("../../../migrations/0008_pauses.sql"),
    include_str!("../../../migrations/0009_claims_and_instances.sql"),
    include_str!("../../../migrations/0010_posted_messages.sql"),
    include_str!("../../../migrations/0011_dm_channels.sql"),
    include_str!("../../../migrations/0012_greeted_guilds.sql"),
    include_str!("../../../migrations/0013_server_settings.sql"),
    include_str!("../../../migrations/0014_languages.sql"),
];

impl Store {
    /// Opens the store at `location` (creating the SQLite file if needed)
    /// and applies any migrations not yet applied.
    pub fn open_at(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::Sqlite(path) => Store::open(path),
            Location::Postgres(url) => Store::open_postgres(url),
        }
    }

    /// Connects to the PostgreSQL database at `url` and applies any
    /// migrations not yet applied (one process at a time: an advisory lock).
    pub fn open_postgres(url: &str) -> Result<Store, StoreError> {
        let conn = postgres_store::PgConn::open(url)?;
        Ok(Store {
            backend: Backend::Postgres(Box::new(postgres_store::PgPool::new(
                conn,
                postgres_store::POOL_SIZE,
            ))),
            path: PathBuf::from(redact_url(url)),
        })
    }

    /// Whether this store is on PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Opens (creating if needed) the database at `path`, turns on WAL and
    /// applies any migrations not yet applied.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut conn = Connection::open(path)?;
        // WAL lets readers run beside the writer; NORMAL sync keeps every
        // committed transaction across a process crash (not across power loss).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // What is deleted is overwritten with zeros, so a deleted person's
        // rows leave nothing readable in the file's free space.
        conn.pragma_update(None, "secure_delete", "ON")?;
        conn.busy_timeout(Duration::from_secs(10))?;

        let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if found > schema_version_known() {
            return Err(StoreError::SchemaTooNew {
                path: path.display().to_string(),
                found,
                known: schema_version_known(),
            });
        }
        let migrations = Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect());
        migrations.to_latest(&mut conn)?;
        Ok(Store::on_sqlite(conn, path))
    }

    /// Makes every SQLite commit wait for its flush to disk (`synchronous =
    /// FULL`, as PostgreSQL's default `synchronous_commit = on` does), for
    /// comparing the two back ends at the same durability; the store opens
    /// with `NORMAL` (see [`Store::open`]). PostgreSQL: unsupported.
    pub fn sqlite_flush_every_commit(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => {
                Store::lock_sqlite(c).pragma_update(None, "synchronous", "FULL")?;
                Ok(())
            }
            Backend::Postgres(_) => Err(StoreError::Unsupported(
                "synchronous is a SQLite setting; PostgreSQL's is synchronous_commit".into(),
            )),
        }
    }

    fn on_sqlite(conn: Connection, path: &Path) -> Store {
        Store {
            backend: Backend::Sqlite(Mutex::new(conn)),
            path: path.to_path_buf(),
        }
    }

    /// Opens an existing database for reading only (`SQLITE_OPEN_READ_ONLY`):
    /// never creates the file, applies no migration and changes no setting
    /// in it, so `gamehost check` and `backup` leave it as they found it. A
    /// missing file is [`StoreError::NotFound`]; a schema version other than
    /// this build's is left for the caller to report.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        // `metadata` rather than `exists`: a dangling symlink or a directory
        // is no database either.
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Err(StoreError::NotFound {
                path: path.display().to_string(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        // A read-only connection to a WAL database creates its `-wal` and
        // `-shm` files when they are missing (and leaves them). They are
        // missing only when no connection has the file open, and then the
        // file alone is the whole database: read it as immutable, touching
        // nothing. With a `-wal` present (the bot is running, or crashed),
        // read through it to see every committed change.
        let mut wal = PathBuf::from(path);
        wal.as_mut_os_string().push("-wal");
        let conn = if is_wal_file(path) && !wal.exists() {
            Connection::open_with_flags(
                format!("file:{}?immutable=1", uri_path(path)),
                flags | OpenFlags::SQLITE_OPEN_URI,
            )?
        } else {
            Connection::open_with_flags(path, flags)?
        };
        // Belt and braces: even a statement that would write is refused.
        conn.pragma_update(None, "query_only", "ON")?;
        conn.busy_timeout(Duration::from_secs(10))?;
        Ok(Store::on_sqlite(conn, path))
    }

    /// Opens an existing store for reading: a SQLite file read-only
    /// ([`Store::open_read_only`]); a PostgreSQL database without applying
    /// any migration.
    pub fn open_read_only_at(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::Sqlite(path) => Store::open_read_only(path),
            Location::Postgres(url) => Ok(Store {
                backend: Backend::Postgres(Box::new(postgres_store::PgPool::new(
                    postgres_store::PgConn::connect(url)?,
                    postgres_store::POOL_SIZE,
                ))),
                path: PathBuf::from(redact_url(url)),
            }),
        }
    }

    /// Opens an existing database to copy it ([`Store::backup_to`] needs a
    /// connection that may write the copy): never creates the file, applies
    /// no migration. A missing file is [`StoreError::NotFound`].
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Err(StoreError::NotFound {
                path: path.display().to_string(),
            });
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(10))?;
        Ok(Store::on_sqlite(conn, path))
    }

    /// Checks the database below the level of rows. On SQLite: its own
    /// `PRAGMA integrity_check` (pages, indexes), `PRAGMA foreign_key_check`
    /// (rows of games that do not exist), and the schema against the one the
    /// migrations build for the file's version (a dropped or altered table).
    /// On PostgreSQL (which enforces its constraints itself): the tables and
    /// columns against those the migrations build for its version.
    /// Each problem is one line; an empty list means none was found.
    pub fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        let conn = match &self.backend {
            Backend::Sqlite(c) => c.lock().unwrap_or_else(|p| p.into_inner()),
            Backend::Postgres(pool) => return pool.get()?.integrity_problems(),
        };
        let mut problems = Vec::new();
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let objects = schema_objects(&conn)?;
        if version == 0 && objects.is_empty() {
            let empty = std::fs::metadata(&self.path).is_ok_and(|m| m.len() == 0);
            problems.push(if empty {
                "the file is empty: it is not a gamehost database".to_string()
            } else {
                "the file has no gamehost tables (schema version 0): it is not a gamehost database"
                    .to_string()
            });
            return Ok(problems);
        }
        // At most 100 messages: a badly damaged file must not flood the report.
        let mut stmt = conn.prepare("PRAGMA integrity_check(100)")?;
        let lines = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        drop(stmt);
        problems.extend(
            lines
                .into_iter()
                .filter(|l| l != "ok")
                .map(|l| format!("integrity_check: {l}")),
        );
        if (1..=schema_version_known()).contains(&version) {
            let expected = expected_schema(version)?;
            for (name, sql) in &expected {
                match objects.get(name) {
                    None => problems.push(format!("{name} is missing from the schema")),
                    Some(found) if found != sql => problems.push(format!(
                        "{name} differs from the schema of version {version}"
                    )),
                    Some(_) => {}
                }
            }
        }
        if problems.is_empty() {
            let mut stmt = conn.prepare("PRAGMA foreign_key_check")?;
            let orphans = stmt
                .query_map([], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(1)?))
                })?
                .take(100)
                .collect::<Result<Vec<_>, _>>()?;
            for (table, rowid) in orphans {
                problems.push(format!(
                    "{table} row {} belongs to a game that does not exist",
                    rowid.map_or("?".to_string(), |r| r.to_string())
                ));
            }
        }
        Ok(problems)
    }

    /// The database file this store is on (for PostgreSQL: its URL without
    /// the password, for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version recorded in the database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => Ok(c
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pragma_query_value(None, "user_version", |r| r.get(0))?),
            Backend::Postgres(pool) => pool.get()?.schema_version(),
        }
    }

    /// Every table of the schema with its columns, in column order (to
    /// compare the two back ends' schemas and to copy one into the other).
    pub fn tables(&self) -> Result<std::collections::BTreeMap<String, Vec<String>>, StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => {
                let conn = c.lock().unwrap_or_else(|p| p.into_inner());
                sqlite_tables(&conn)
            }
            Backend::Postgres(pool) => pool.get()?.tables(),
        }
    }

    /// Copies the live database to `dest` (which must not exist yet) with
    /// `VACUUM INTO`: one consistent, compacted snapshot even while games are
    /// being played. SQLite only: a PostgreSQL database is backed up with
    /// `pg_dump`.
    pub fn backup_to(&self, dest: &Path) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => {
                let conn = Store::lock_sqlite(c);
                conn.execute("VACUUM INTO ?1", [dest.to_string_lossy()])?;
                Ok(())
            }
            Backend::Postgres(_) => Err(StoreError::Unsupported(
                "`gamehost backup` copies a SQLite file; back a PostgreSQL database up with \
                 `pg_dump`"
                    .into(),
            )),
        }
    }
}

/// Every table of a SQLite database with its columns in order.
fn sqlite_tables(
    conn: &Connection,
) -> Result<std::collections::BTreeMap<String, Vec<String>>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid",
    )?;
    let mut out = std::collections::BTreeMap::<String, Vec<String>>::new();
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    for (table, column) in rows {
        out.entry(table).or_default().push(column);
    }
    Ok(out)
}

/// Whether the file's header says it is in WAL mode (read and write
/// versions 2 at offsets 18 and 19).
fn is_wal_file(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .is_ok()
        && header.starts_with(b"SQLite format 3\0")
        && header[18] == 2
        && header[19] == 2
}

/// A path for a `file:` URI: the characters a URI gives a meaning
/// (`%`, `?`, `#`) and anything not printable ASCII, percent-encoded.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            0x21..=0x7e => out.push(*b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The tables and indexes of a database by "table NAME" / "index NAME",
/// with their SQL, leaving out SQLite's own.
fn schema_objects(
    conn: &Connection,
) -> Result<std::collections::BTreeMap<String, String>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT type, name, COALESCE(sql, '') FROM sqlite_master \
         WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'index', 'view', 'trigger')",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                format!("{} {}", r.get::<_, String>(0)?, r.get::<_, String>(1)?),
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// The schema the migrations build up to `version`, in a scratch in-memory
/// database (never the file being checked).
fn expected_schema(version: i64) -> Result<std::collections::BTreeMap<String, String>, StoreError> {
    // The migrations' SQL run directly: rusqlite_migration would log a
    // "migrated" line that reads as if the checked file had been changed.
    let conn = Connection::open_in_memory()?;
    for sql in MIGRATIONS.iter().take(version.max(0) as usize) {
        conn.execute_batch(sql)?;
    }
    schema_objects(&conn)
}
