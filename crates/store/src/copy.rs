//! Copying one store into another (`gamehost migrate-db`): every table,
//! row for row with its ids, from one snapshot of the source in one
//! transaction on the target.

use super::db::{Row, Value};
use super::{Store, StoreError};
use std::collections::BTreeMap;

/// Tables not copied: the running instances belong to the source's processes.
const NOT_COPIED: &[&str] = &["instances"];

/// Tables with an identity `id` whose sequence is moved past the copied ids.
const IDENTITY_TABLES: &[&str] = &["games", "outbox", "press", "absences"];

impl Store {
    /// How many rows each table holds.
    pub fn row_counts(&self) -> Result<BTreeMap<String, i64>, StoreError> {
        let tables = self.tables()?;
        self.read(|tx| {
            let mut out = BTreeMap::new();
            for table in tables.keys() {
                let n: i64 = tx
                    .conn
                    .one(&format!("SELECT COUNT(*) FROM {table}"), &[])?
                    .get(0)?;
                out.insert(table.clone(), n);
            }
            Ok(out)
        })
    }

    /// Copies every table of `self` into `target`, which must have the same
    /// schema and no rows, in one transaction on the target (all or
    /// nothing); ids are kept and the target's id sequences continue after
    /// them. Returns the rows copied per table.
    pub fn copy_into(&self, target: &Store) -> Result<BTreeMap<String, i64>, StoreError> {
        let tables = self.tables()?;
        let theirs = target.tables()?;
        if tables != theirs {
            return Err(StoreError::Unsupported(format!(
                "the two databases' schemas differ (source version {}, target version {}); \
                 open both with this gamehost first",
                self.schema_version()?,
                target.schema_version()?
            )));
        }
        let nonempty: Vec<String> = target
            .row_counts()?
            .into_iter()
            .filter(|(t, n)| *n > 0 && !NOT_COPIED.contains(&t.as_str()))
            .map(|(t, n)| format!("{t} ({n} rows)"))
            .collect();
        if !nonempty.is_empty() {
            return Err(StoreError::Unsupported(format!(
                "the target database is not empty: {}; migrate into an empty database",
                nonempty.join(", ")
            )));
        }
        // `games` first: every other table refers to it.
        let mut order: Vec<&String> = tables
            .keys()
            .filter(|t| !NOT_COPIED.contains(&t.as_str()))
            .collect();
        order.sort_by_key(|t| (t.as_str() != "games", t.as_str()));
        // One read transaction on the source around the whole copy: every
        // table from the same snapshot, so rows written meanwhile cannot
        // leave a copied row pointing at a game that was not copied.
        self.read(|stx| {
            target.write(|ttx| {
                let mut copied = BTreeMap::new();
                for &table in &order {
                    let cols = &tables[table];
                    let list = cols.join(", ");
                    let marks = (1..=cols.len())
                        .map(|i| format!("?{i}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let insert = format!("INSERT INTO {table} ({list}) VALUES ({marks})");
                    let mut n = 0i64;
                    stx.conn.each(
                        &format!("SELECT {list} FROM {table} ORDER BY 1"),
                        &[],
                        |row: Row| {
                            ttx.conn.exec(&insert, &row.0)?;
                            n += 1;
                            Ok(())
                        },
                    )?;
                    copied.insert(table.clone(), n);
                }
                if ttx.conn.is_pg() {
                    for table in IDENTITY_TABLES {
                        ttx.conn.one(
                            &format!(
                                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                             COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                            ),
                            &[] as &[Value],
                        )?;
                    }
                }
                Ok(copied)
            })
        })
    }
}
