//! The small layer that runs one query text on either back end: values
//! bound and read the same way on SQLite and PostgreSQL, `?N` placeholders
//! rewritten to PostgreSQL's `$N`, and prepared statements cached per
//! connection. Every query of the store goes through it, so each is written
//! once; only the few truly dialect-specific ones have two texts.

use super::StoreError;
use super::pg_client::{Pending, PgClient};
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use std::cell::RefCell;
use std::collections::HashMap;

/// A value bound to a placeholder or read from a column.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// Any integer (and booleans, stored as 0 or 1).
    Int(i64),
    /// A floating point number.
    Real(f64),
    /// Text.
    Text(String),
}

/// Rust values that bind to a placeholder.
pub trait ToValue {
    /// The value bound.
    fn to_value(&self) -> Value;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}
impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}
impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}
impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}
impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}
impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}
impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}
macro_rules! int_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(*self as i64)
            }
        }
    )*};
}
int_to_value!(i64, i32, u32, u8);

/// The values of a query's placeholders, in order: `args![a, b]`.
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$($crate::db::ToValue::to_value(&$x)),*][..]
    };
}
pub(crate) use args;

/// Rust values read from a column.
pub trait FromValue: Sized {
    /// The value, or why it is not one of these.
    fn from_value(v: Value) -> Result<Self, String>;
}

impl FromValue for i64 {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Int(i) => Ok(i),
            other => Err(format!("expected an integer, found {other:?}")),
        }
    }
}
macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: Value) -> Result<Self, String> {
                let i = i64::from_value(v)?;
                <$t>::try_from(i).map_err(|_| format!("{i} is out of range"))
            }
        }
    )*};
}
int_from_value!(u32, u8, i32);

impl FromValue for bool {
    fn from_value(v: Value) -> Result<Self, String> {
        Ok(i64::from_value(v)? != 0)
    }
}
impl FromValue for f64 {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Real(f) => Ok(f),
            Value::Int(i) => Ok(i as f64),
            other => Err(format!("expected a number, found {other:?}")),
        }
    }
}
impl FromValue for String {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(format!("expected text, found {other:?}")),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}
impl FromValue for Value {
    fn from_value(v: Value) -> Result<Self, String> {
        Ok(v)
    }
}

/// One result row, the same on both back ends.
#[derive(Debug, Clone)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` as a `T`.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, StoreError> {
        let v = self.0.get(i).cloned().ok_or_else(|| StoreError::Value {
            column: i,
            reason: "no such column".into(),
        })?;
        T::from_value(v).map_err(|reason| StoreError::Value { column: i, reason })
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        // Binds by the type the server inferred for the placeholder, so one
        // integer value fits a BIGINT column, an INTEGER parameter or a
        // double precision expression alike.
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                _ => i.to_string().to_sql(ty, out),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                Type::FLOAT8 => f.to_sql(ty, out),
                _ => f.to_string().to_sql(ty, out),
            },
            Value::Text(s) => s.as_str().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A PostgreSQL row's columns as values.
fn pg_row(r: &postgres::Row) -> Result<Row, StoreError> {
    let mut out = Vec::with_capacity(r.len());
    for (i, col) in r.columns().iter().enumerate() {
        let v = match *col.type_() {
            Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Value::Int),
            Type::INT4 => r
                .try_get::<_, Option<i32>>(i)?
                .map(|x| Value::Int(x.into())),
            Type::INT2 => r
                .try_get::<_, Option<i16>>(i)?
                .map(|x| Value::Int(x.into())),
            Type::BOOL => r
                .try_get::<_, Option<bool>>(i)?
                .map(|x| Value::Int(x.into())),
            Type::FLOAT8 => r.try_get::<_, Option<f64>>(i)?.map(Value::Real),
            Type::FLOAT4 => r
                .try_get::<_, Option<f32>>(i)?
                .map(|x| Value::Real(x.into())),
            _ => r.try_get::<_, Option<String>>(i)?.map(Value::Text),
        };
        out.push(v.unwrap_or(Value::Null));
    }
    Ok(Row(out))
}

/// A SQLite row's columns as values.
fn lite_row(r: &rusqlite::Row<'_>, n: usize) -> rusqlite::Result<Row> {
    use rusqlite::types::ValueRef;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(match r.get_ref(i)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(x) => Value::Int(x),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Text(String::from_utf8_lossy(b).into_owned()),
        });
    }
    Ok(Row(out))
}

/// `?N` placeholders as PostgreSQL's `$N` (no query of the store has a `?`
/// inside a string literal).
pub fn pg_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

/// A PostgreSQL transaction with its connection's statement cache. Its
/// `BEGIN` goes out with its first statement (one round trip for both); one
/// that ends unfinished (an error, a panic) is rolled back when dropped.
pub struct PgTx<'a> {
    /// The connection.
    pub(crate) client: &'a PgClient,
    /// The `BEGIN` not sent yet: nothing has run in this transaction.
    pub(crate) begin: Option<&'static str>,
    /// Committed or rolled back already.
    pub(crate) finished: bool,
    /// Writes whose answers nobody waits for, sent with the next statement
    /// or the commit ([`Conn::exec_later`]).
    pub(crate) deferred: Vec<(postgres::Statement, Vec<Value>)>,
    /// Statements prepared on this connection, by their `?N` text.
    pub cache: &'a mut HashMap<String, postgres::Statement>,
    /// The SQLSTATE of a deadlock or serialization failure that aborted
    /// this transaction: it is lost, and worth running again from the start.
    pub lost_to: Option<String>,
    /// Whether an error of this transaction was the connection being lost
    /// (see `StoreError::is_connection_lost`): nothing was committed, and
    /// the work is worth running again on a new connection.
    pub disconnected: bool,
    /// Rows this transaction already read, by table and game (see
    /// [`Conn::remembered`]); a statement that writes a table drops its
    /// entries.
    pub per_game: HashMap<(&'static str, i64), Vec<Row>>,
}

/// The SQLSTATE of an error that aborts a transaction only because another
/// one ran at the same time (a deadlock, a serialization failure): running
/// the transaction again can succeed.
pub fn retryable_sqlstate(e: &postgres::Error) -> Option<String> {
    use postgres::error::SqlState;
    e.code()
        .filter(|c| {
            **c == SqlState::T_R_DEADLOCK_DETECTED || **c == SqlState::T_R_SERIALIZATION_FAILURE
        })
        .map(|c| c.code().to_string())
}

impl<'a> PgTx<'a> {
    /// Drops the remembered rows a statement may change: every table its
    /// text names unless it is a plain `SELECT`, and everything when it
    /// deletes from `games` (which cascades to each game's rows).
    fn forget_written(&mut self, sql: &str) {
        if self.per_game.is_empty() {
            return;
        }
        let head = sql.trim_start().get(..6).unwrap_or("");
        if head.eq_ignore_ascii_case("SELECT") {
            return;
        }
        if head.eq_ignore_ascii_case("DELETE") && sql.contains("games") {
            self.per_game.clear();
            return;
        }
        self.per_game.retain(|(table, _), _| !sql.contains(table));
    }

    fn statement(&mut self, sql: &str) -> Result<postgres::Statement, StoreError> {
        if let Some(s) = self.cache.get(sql) {
            return Ok(s.clone());
        }
        // Prepared outside the transaction (a statement needs none): its
        // `BEGIN` still goes with the first statement run.
        let stmt = self.client.prepare(&pg_placeholders(sql))?;
        self.cache.insert(sql.to_string(), stmt.clone());
        Ok(stmt)
    }

    /// Sends the `BEGIN` and the writes not sent yet, then `last`, before
    /// reading any answer (one round trip for all); `last`'s answer.
    fn with_unsent<'c, T>(
        &mut self,
        last: impl FnOnce(&'c tokio_postgres::Client) -> Pending<'c, T>,
    ) -> Result<T, postgres::Error>
    where
        'a: 'c,
    {
        let client: &'c PgClient = self.client;
        let writes = std::mem::take(&mut self.deferred);
        let queued: Vec<_> = writes.iter().map(|(s, a)| (s, pg_args(a))).collect();
        client.pipeline(self.begin.take(), &queued, last)
    }

    /// Runs a prepared statement (with what is unsent); rows changed.
    fn execute(&mut self, stmt: &postgres::Statement, args: &[Value]) -> Result<u64, StoreError> {
        let args = pg_args(args);
        Ok(self.with_unsent(|c| Box::pin(c.execute(stmt, &args)))?)
    }

    /// The rows of a prepared query (with what is unsent).
    fn query(
        &mut self,
        stmt: &postgres::Statement,
        args: &[Value],
    ) -> Result<Vec<postgres::Row>, StoreError> {
        let args = pg_args(args);
        Ok(self.with_unsent(|c| Box::pin(c.query(stmt, &args)))?)
    }

    /// Keeps a write to send with the next statement or the commit.
    fn defer(&mut self, stmt: postgres::Statement, args: &[Value]) {
        self.deferred.push((stmt, args.to_vec()));
    }

    /// Commits, with the writes not sent yet (nothing to do when no
    /// statement ran).
    pub(crate) fn commit(mut self) -> Result<(), postgres::Error> {
        self.finished = true;
        if self.begin.is_some() && self.deferred.is_empty() {
            return Ok(());
        }
        self.with_unsent(|c| Box::pin(c.batch_execute("COMMIT")))
    }
}

impl Drop for PgTx<'_> {
    fn drop(&mut self) {
        if self.finished || self.begin.is_some() || self.client.is_closed() {
            return;
        }
        // Unfinished: give the connection back outside any transaction.
        if let Err(e) = self.client.batch_execute("ROLLBACK") {
            tracing::debug!(error = %e, "rolling back a PostgreSQL transaction failed");
        }
    }
}

/// The connection a transaction runs on.
pub enum Conn<'a> {
    /// SQLite.
    Lite(&'a rusqlite::Transaction<'a>),
    /// PostgreSQL.
    Pg(RefCell<PgTx<'a>>),
}

fn pg_args(args: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

impl Conn<'_> {
    /// Whether this is PostgreSQL (for the few dialect-specific texts).
    pub fn is_pg(&self) -> bool {
        matches!(self, Conn::Pg(_))
    }

    /// The rows of `table` for a game this PostgreSQL transaction read
    /// already and has not written since (always `None` on SQLite, where a
    /// query is no round trip).
    pub fn remembered(&self, table: &'static str, game_id: i64) -> Option<Vec<Row>> {
        match self {
            Conn::Lite(_) => None,
            Conn::Pg(cell) => cell.borrow().per_game.get(&(table, game_id)).cloned(),
        }
    }

    /// Keeps rows of `table` for a game (PostgreSQL only), for
    /// [`Conn::remembered`]: the caller knows they cannot change under this
    /// transaction except by its own writes.
    pub fn remember(&self, table: &'static str, game_id: i64, rows: Vec<Row>) {
        if let Conn::Pg(cell) = self {
            cell.borrow_mut().per_game.insert((table, game_id), rows);
        }
    }

    /// Runs a statement; returns how many rows it changed.
    pub fn exec(&self, sql: &str, args: &[Value]) -> Result<usize, StoreError> {
        match self {
            Conn::Lite(tx) => Ok(tx
                .prepare_cached(sql)?
                .execute(rusqlite::params_from_iter(args.iter()))?),
            Conn::Pg(cell) => self.noting_lost(|| {
                let mut pg = cell.borrow_mut();
                pg.forget_written(sql);
                let stmt = pg.statement(sql)?;
                Ok(pg.execute(&stmt, args)? as usize)
            }),
        }
    }

    /// Runs a write whose count nobody needs: on PostgreSQL it is sent
    /// with the transaction's next statement or its commit (one round trip
    /// for several), and its error, if any, is that statement's or the
    /// commit's (the transaction fails all the same); on SQLite it runs now.
    pub fn exec_later(&self, sql: &str, args: &[Value]) -> Result<(), StoreError> {
        match self {
            Conn::Lite(_) => self.exec(sql, args).map(|_| ()),
            Conn::Pg(cell) => self.noting_lost(|| {
                let mut pg = cell.borrow_mut();
                pg.forget_written(sql);
                let stmt = pg.statement(sql)?;
                pg.defer(stmt, args);
                Ok(())
            }),
        }
    }

    /// Runs one PostgreSQL operation and remembers whether its error lost
    /// the transaction to a concurrent one (see [`PgTx::lost_to`]) or lost
    /// the connection (see [`PgTx::disconnected`]).
    fn noting_lost<T>(&self, op: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
        let out = op();
        if let (Conn::Pg(cell), Err(err @ StoreError::Postgres(e))) = (self, &out) {
            if let Some(code) = retryable_sqlstate(e) {
                cell.borrow_mut().lost_to = Some(code);
            } else if err.is_connection_lost() {
                cell.borrow_mut().disconnected = true;
            }
        }
        out
    }

    /// Runs a query and calls `f` on each row as it arrives.
    pub fn each(
        &self,
        sql: &str,
        args: &[Value],
        mut f: impl FnMut(Row) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        match self {
            Conn::Lite(tx) => {
                let mut stmt = tx.prepare_cached(sql)?;
                let n = stmt.column_count();
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                while let Some(r) = rows.next()? {
                    f(lite_row(r, n)?)?;
                }
                Ok(())
            }
            Conn::Pg(cell) => self.noting_lost(|| {
                let rows = {
                    let mut pg = cell.borrow_mut();
                    pg.forget_written(sql);
                    let stmt = pg.statement(sql)?;
                    pg.query(&stmt, args)?
                };
                for r in &rows {
                    f(pg_row(r)?)?;
                }
                Ok(())
            }),
        }
    }

    /// Every row of a query.
    pub fn rows(&self, sql: &str, args: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut out = Vec::new();
        self.each(sql, args, |r| {
            out.push(r);
            Ok(())
        })?;
        Ok(out)
    }

    /// The first row of a query, if any.
    pub fn row(&self, sql: &str, args: &[Value]) -> Result<Option<Row>, StoreError> {
        Ok(self.rows(sql, args)?.into_iter().next())
    }

    /// The first row of a query that always returns one (an aggregate, `RETURNING`).
    pub fn one(&self, sql: &str, args: &[Value]) -> Result<Row, StoreError> {
        self.row(sql, args)?.ok_or_else(|| StoreError::Value {
            column: 0,
            reason: "the query returned no row".into(),
        })
    }
}
