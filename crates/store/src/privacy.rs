//! What the store holds about one person, forgetting them, and a scan of
//! every column of every table for a text (to prove a person is gone).
//!
//! Forgetting deletes what has no value without the person (their
//! remembered DM channel, pause votes, absences, missed deadlines and civil
//! disorders, ratings, announcements addressed to them) and rewrites what
//! other players' games need under an anonymous identity: their seats, seat
//! terms, results and the games they created take an id that is never a
//! Discord id, their seats a name like "Former player", and the texts of
//! their games (announcements, posted messages, turn reports, states) lose
//! their id, their mentions and their names.

use super::db::args;
use super::{Store, StoreError, Tx};
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// How many rows of each kind the store holds about one person.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserDataCounts {
    /// Finished or aborted games they held a seat in.
    pub ended_games: i64,
    /// Rating rows (one per server and kind of game).
    pub ratings: i64,
    /// Missed deadlines and civil disorders recorded against them.
    pub player_events: i64,
    /// Absences they declared.
    pub absences: i64,
    /// Pause votes not yet taken effect.
    pub pause_votes: i64,
    /// Whether a DM channel to them is remembered.
    pub dm_channel: bool,
    /// Whether their language (chosen, or their client's) is remembered.
    pub language: bool,
}

/// The seats' name for a forgotten person ("Former player", then
/// "Former player 2"... when one game has several).
pub const FORMER_PLAYER: &str = "Former player";

/// What forgetting a person changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForgetReport {
    /// Games whose rows now name the anonymous id instead.
    pub games: Vec<i64>,
    /// Rows deleted (ratings, events, absences, votes, DM channel, DMs).
    pub rows_deleted: usize,
}

/// The text columns of a game's rows rewritten when a player is forgotten:
/// table, column, and the columns that pick one row.
/// Only texts written for people: engine data (states, actions, outcomes)
/// holds seats, never ids or names, and must not be touched (a player
/// named "A" must not rewrite the orders `A Par - Bur`).
const GAME_TEXTS: &[(&str, &str, &[&str])] = &[
    ("turn_log", "report", &["game_id", "turn"]),
    ("outbox", "payload", &["id"]),
    ("posted_messages", "content", &["game_id", "key"]),
    ("press", "text", &["id"]),
];

/// Every table whose rows [`Tx::forget_user`] deletes or rewrites: their
/// files are rewritten by [`Store::erase_deleted_rows`].
const PERSON_TABLES: &[&str] = &[
    "seats",
    "seat_terms",
    "game_results",
    "games",
    "ratings",
    "player_events",
    "absences",
    "pause_votes",
    "dm_channels",
    "user_languages",
    "outbox",
    "posted_messages",
    "turn_log",
    "press",
];

impl Store {
    /// Makes the rows deleted or rewritten so far unreadable from the
    /// database's files, after [`Tx::forget_user`] (outside its transaction).
    ///
    /// SQLite: the store runs with `secure_delete` on, so a row deleted now
    /// is overwritten with zeros, in its table and index pages and in freed
    /// pages; `VACUUM` then rewrites the whole file, so what was deleted
    /// before that setting (or by an older gamehost) goes too, and a
    /// `TRUNCATE` checkpoint empties the write-ahead log, whose frames held
    /// the pages as they were. It takes about as long as copying the file,
    /// during which other writes wait.
    ///
    /// PostgreSQL: a deleted or updated row stays in its page as a dead
    /// version until the page is rewritten; `VACUUM FULL` of the tables
    /// above writes each into a new file and empties the old one. Limits,
    /// for the operator's documentation: the server's write-ahead log
    /// segments (until recycled after later checkpoints), its replicas,
    /// WAL archives and backups keep what they already held.
    pub fn erase_deleted_rows(&self) -> Result<(), StoreError> {
        match &self.backend {
            super::Backend::Sqlite(c) => {
                let conn = Store::lock_sqlite(c);
                conn.execute_batch("VACUUM")?;
                let busy: i64 =
                    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
                if busy != 0 {
                    // Another process (a `check` or a backup) reads an
                    // older snapshot: the log is emptied at its next
                    // checkpoint, or when the last connection closes.
                    tracing::warn!(
                        "the write-ahead log could not be emptied now: a reader holds it"
                    );
                }
                Ok(())
            }
            super::Backend::Postgres(pool) => {
                let mut conn = pool.get()?;
                conn.execute_outside_transaction(&format!(
                    "VACUUM FULL {}",
                    PERSON_TABLES.join(", ")
                ))
            }
        }
    }
}

impl Tx<'_> {
    /// How many rows of each kind name `user_id`.
    pub fn user_data_counts(&self, user_id: &str) -> Result<UserDataCounts, StoreError> {
        let count =
            |sql: &str| -> Result<i64, StoreError> { self.conn.one(sql, args![user_id])?.get(0) };
        Ok(UserDataCounts {
            ended_games: count(
                "SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id \
                 WHERE s.user_id = ?1 AND g.status IN ('finished', 'aborted')",
            )?,
            ratings: count("SELECT COUNT(*) FROM ratings WHERE player = ?1")?,
            player_events: count("SELECT COUNT(*) FROM player_events WHERE user_id = ?1")?,
            absences: count("SELECT COUNT(*) FROM absences WHERE user_id = ?1")?,
            pause_votes: count("SELECT COUNT(*) FROM pause_votes WHERE user_id = ?1")?,
            dm_channel: count("SELECT COUNT(*) FROM dm_channels WHERE user_id = ?1")? > 0,
            language: count("SELECT COUNT(*) FROM user_languages WHERE user_id = ?1")? > 0,
        })
    }

    /// Forgets `user_id` (see the module's comment): `anonymous_id` takes
    /// their place in every game's rows; their seats are named
    /// [`FORMER_PLAYER`] (numbered when a game already has one). Games in
    /// the lobby or running should be left or forfeited first: this only
    /// rewrites rows.
    pub fn forget_user(
        &self,
        user_id: &str,
        anonymous_id: &str,
        names: &[String],
    ) -> Result<ForgetReport, StoreError> {
        let games = self.games_naming(user_id)?;
        let mut report = ForgetReport {
            games: games.clone(),
            ..ForgetReport::default()
        };
        let mut names: BTreeSet<String> = names.iter().cloned().collect();
        for r in self.conn.rows(
            "SELECT DISTINCT display_name FROM seats WHERE user_id = ?1",
            args![user_id],
        )? {
            names.insert(r.get(0)?);
        }
        for &game_id in &games {
            // On PostgreSQL this locks the game's row, as every change to it does.
            self.game(game_id)?;
            let new_name = self.rename_seats(game_id, user_id, anonymous_id)?;
            let scrub = Scrub {
                user_id,
                names: &names,
                anonymous_name: &new_name,
            };
            for (table, column, keys) in GAME_TEXTS {
                self.scrub_column(game_id, table, column, keys, &scrub)?;
            }
        }
        self.seats_seen.borrow_mut().clear();
        for sql in [
            "UPDATE seat_terms SET user_id = ?2 WHERE user_id = ?1",
            "UPDATE game_results SET player = ?2 WHERE player = ?1",
            "UPDATE games SET creator_id = ?2 WHERE creator_id = ?1",
        ] {
            self.conn.exec(sql, args![user_id, anonymous_id])?;
        }
        for sql in [
            "DELETE FROM dm_channels WHERE user_id = ?1",
            "DELETE FROM user_languages WHERE user_id = ?1",
            "DELETE FROM pause_votes WHERE user_id = ?1",
            "DELETE FROM absences WHERE user_id = ?1",
            "DELETE FROM player_events WHERE user_id = ?1",
            "DELETE FROM ratings WHERE player = ?1",
            "DELETE FROM outbox WHERE target_kind = 'user' AND target_id = ?1",
        ] {
            report.rows_deleted += self.conn.exec(sql, args![user_id])?;
        }
        Ok(report)
    }

    /// Games in the lobby or running that `user_id` created (seated in or not).
    pub fn active_games_created_by(&self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        self.conn
            .rows(
                "SELECT id FROM games WHERE creator_id = ?1 AND status IN ('lobby', 'running') \
                 ORDER BY id",
                args![user_id],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Deletes every announcement addressed to `user_id` (delivered or not).
    pub fn delete_outbox_to_user(&self, user_id: &str) -> Result<usize, StoreError> {
        self.conn.exec(
            "DELETE FROM outbox WHERE target_kind = 'user' AND target_id = ?1",
            args![user_id],
        )
    }

    /// Every game whose rows name `user_id`, in id order.
    fn games_naming(&self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        self.conn
            .rows(
                "SELECT game_id FROM seats WHERE user_id = ?1 \
                 UNION SELECT game_id FROM seat_terms WHERE user_id = ?1 \
                 UNION SELECT game_id FROM game_results WHERE player = ?1 \
                 UNION SELECT id FROM games WHERE creator_id = ?1 \
                 UNION SELECT game_id FROM player_events WHERE user_id = ?1 \
                 UNION SELECT game_id FROM absences WHERE user_id = ?1 \
                 UNION SELECT game_id FROM pause_votes WHERE user_id = ?1 \
                 UNION SELECT game_id FROM outbox WHERE target_kind = 'user' AND target_id = ?1 \
                 ORDER BY 1",
                args![user_id],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Gives `user_id`'s seat in a game (if any) to `anonymous_id` under a
    /// name no other seat of the game has; returns that name.
    fn rename_seats(
        &self,
        game_id: i64,
        user_id: &str,
        anonymous_id: &str,
    ) -> Result<String, StoreError> {
        let taken: BTreeSet<String> = self
            .conn
            .rows(
                "SELECT display_name FROM seats WHERE game_id = ?1 \
                 AND (user_id IS NULL OR user_id <> ?2)",
                args![game_id, user_id],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect::<Result<_, _>>()?;
        let name = (1..)
            .map(|n| match n {
                1 => FORMER_PLAYER.to_string(),
                n => format!("{FORMER_PLAYER} {n}"),
            })
            .find(|n| !taken.contains(n))
            .unwrap_or_else(|| FORMER_PLAYER.to_string());
        self.conn.exec(
            "UPDATE seats SET user_id = ?3, display_name = ?4 WHERE game_id = ?1 AND user_id = ?2",
            args![game_id, user_id, anonymous_id, name],
        )?;
        Ok(name)
    }

    /// Rewrites one text column of a game's rows that names the person.
    fn scrub_column(
        &self,
        game_id: i64,
        table: &str,
        column: &str,
        keys: &[&str],
        scrub: &Scrub<'_>,
    ) -> Result<(), StoreError> {
        let key_list = keys.join(", ");
        let rows = self.conn.rows(
            &format!(
                "SELECT {column}, {key_list} FROM {table} WHERE game_id = ?1 AND {column} IS NOT NULL"
            ),
            args![game_id],
        )?;
        let condition = keys
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{k} = ?{}", i + 2))
            .collect::<Vec<_>>()
            .join(" AND ");
        let update = format!("UPDATE {table} SET {column} = ?1 WHERE {condition}");
        for row in rows {
            let text: String = row.get(0)?;
            let Some(clean) = scrub.text(&text) else {
                continue;
            };
            let mut values = vec![super::db::Value::Text(clean)];
            values.extend(row.0.into_iter().skip(1));
            self.conn.exec(&update, &values)?;
        }
        Ok(())
    }
}

/// Names shorter than this are left in texts (their seats are renamed all
/// the same): "Al" or "A" would match too many words of other meaning.
const MIN_NAME_CHARS: usize = 3;

/// What to take out of a text: a person's id (as a mention too) and names.
struct Scrub<'a> {
    user_id: &'a str,
    names: &'a BTreeSet<String>,
    anonymous_name: &'a str,
}

impl Scrub<'_> {
    /// The text without the person, or `None` when it did not name them.
    /// JSON is rewritten string by string, so it stays valid JSON.
    fn text(&self, text: &str) -> Option<String> {
        if !text.contains(self.user_id)
            && !self
                .names
                .iter()
                .any(|n| n.chars().count() >= MIN_NAME_CHARS && text.contains(n.as_str()))
        {
            return None;
        }
        let clean = match serde_json::from_str::<Json>(text) {
            Ok(mut json @ (Json::Object(_) | Json::Array(_))) => {
                self.json(&mut json);
                json.to_string()
            }
            _ => self.plain(text),
        };
        (clean != text).then_some(clean)
    }

    fn json(&self, v: &mut Json) {
        match v {
            Json::String(s) => *s = self.plain(s),
            Json::Array(items) => items.iter_mut().for_each(|i| self.json(i)),
            Json::Object(map) => map.values_mut().for_each(|i| self.json(i)),
            _ => {}
        }
    }

    /// Mentions and names become the anonymous name; the bare id goes too.
    fn plain(&self, s: &str) -> String {
        let id = self.user_id;
        let mut out = s
            .replace(&format!("<@!{id}>"), self.anonymous_name)
            .replace(&format!("<@{id}>"), self.anonymous_name)
            .replace(id, self.anonymous_name);
        // Longest names first, so "Ann Lee" goes before "Ann" could split it.
        let mut names: Vec<&String> = self
            .names
            .iter()
            .filter(|n| n.chars().count() >= MIN_NAME_CHARS)
            .collect();
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for name in names {
            out = replace_words(&out, name, self.anonymous_name);
        }
        out
    }
}

/// Replaces `word` in `text` where it stands as a word of its own (not
/// inside a longer word), so a player named "Al" leaves "Albania" alone.
fn replace_words(text: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + word.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        out.push_str(&rest[..at]);
        out.push_str(if edge(before) && edge(after) {
            with
        } else {
            word
        });
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

impl Store {
    /// Every `table.column` whose value, as text, contains `needle`, with
    /// how many rows: scans all columns of all tables, so a table added
    /// later is covered too (to show a forgotten person is gone).
    pub fn columns_containing(&self, needle: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let tables = self.tables()?;
        let pattern = format!(
            "%{}%",
            needle
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        self.read(|tx| {
            let mut found = Vec::new();
            for (table, columns) in &tables {
                for column in columns {
                    let n: i64 = tx
                        .conn
                        .one(
                            &format!(
                                "SELECT COUNT(*) FROM \"{table}\" \
                                 WHERE CAST(\"{column}\" AS TEXT) LIKE ?1 ESCAPE '\\'"
                            ),
                            args![pattern],
                        )?
                        .get(0)?;
                    if n > 0 {
                        found.push((format!("{table}.{column}"), n));
                    }
                }
            }
            Ok(found)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_replaced_as_words_only() {
        assert_eq!(
            replace_words("Al holds Albania; Al.", "Al", "X"),
            "X holds Albania; X."
        );
    }

    #[test]
    fn json_stays_json_and_loses_the_person() {
        let names: BTreeSet<String> = ["Al \"q\"".to_string()].into();
        let s = Scrub {
            user_id: "123",
            names: &names,
            anonymous_name: "Former player",
        };
        let text = r#"{"text":"<@123> and Al \"q\" move","n":123}"#;
        let clean = s.text(text).unwrap();
        let v: Json = serde_json::from_str(&clean).unwrap();
        assert_eq!(v["text"], "Former player and Former player move");
        assert_eq!(v["n"], 123, "numbers are not names");
        assert!(s.text("nothing here").is_none());
    }
}
