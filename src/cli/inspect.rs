//! `check`'s inspection of a database: the file, and every game's row,
//! seats, turn log, replay, pending actions and outbox, one line per
//! problem. Used by `check`, by `run` before it connects, and by
//! `migrate-db` on both sides.

use crate::config::Config;
use host::{Announcement, Host, HostSettings, SystemClock};
use std::collections::BTreeSet;
use std::sync::Arc;
use store::{GameStatus, Store, StoreError, TurnLogSpan, schema_version_known};

/// What `check` found: how many games it looked at and one line per problem.
pub(crate) struct Inspection {
    /// How many games were looked at.
    pub games: usize,
    /// The database's schema version.
    pub version: i64,
    /// "database: ..." or "game N: ..." lines.
    pub problems: Vec<String>,
    /// The games with at least one problem.
    pub bad_games: BTreeSet<i64>,
}

impl Inspection {
    fn game(&mut self, id: i64, what: impl std::fmt::Display) {
        self.bad_games.insert(id);
        self.problems.push(format!("game {id}: {what}"));
    }
}

/// A host on an already opened store (read-only for `check`), with the
/// engines as the config sets them up (the operator's `[battle] roster`),
/// so that games replay with the rules they were created with.
pub(crate) fn host_on(config: &Config, store: Store) -> anyhow::Result<Host> {
    Ok(Host::new(
        Arc::new(store),
        super::registry_from_config(config)?,
        Arc::new(SystemClock),
        HostSettings {
            ai_budget_ms: config.ai.budget_ms,
            reminder_percent: config.deadlines.reminder_percent,
        },
    ))
}

/// What `gamehost check` finds in the database `host` is on: the games
/// checked and one line per problem (none: it passed).
pub fn check_problems(host: &Host) -> anyhow::Result<(usize, Vec<String>)> {
    let report = inspect(host)?;
    Ok((report.games, report.problems))
}

/// Most outbox problems reported for one game (the rest are counted).
const MAX_OUTBOX_PROBLEMS: usize = 5;

/// Looks at everything that can break a game: the file (SQLite's integrity
/// check, foreign keys, the schema), then every game: its row, state, seats,
/// turn counter against its turn log, the replay of the log, pending actions
/// and outbox rows. Problems are collected, not returned as errors, so one
/// bad game does not hide the others.
pub(crate) fn inspect(host: &Host) -> anyhow::Result<Inspection> {
    let store = host.store();
    let path = store.path().display().to_string();
    let unreadable = |e: StoreError| {
        anyhow::Error::from(
            super::said::Said::new(i18n::msg!("operator-db-unreadable", path = &path)).because(e),
        )
    };
    let version = store.schema_version().map_err(unreadable)?;
    let known = schema_version_known();
    if version > known {
        return Err(super::said::Said::new(i18n::msg!(
            "operator-db-too-new-to-check",
            path = &path,
            found = version.to_string(),
            known = known.to_string()
        ))
        .into());
    }
    let mut report = Inspection {
        games: 0,
        version,
        problems: Vec::new(),
        bad_games: BTreeSet::new(),
    };
    let file_problems = store.integrity_problems().map_err(unreadable)?;
    let file_ok = file_problems.is_empty();
    report
        .problems
        .extend(file_problems.into_iter().map(|p| format!("database: {p}")));
    if version == 0 && !file_ok {
        return Ok(report);
    }
    if version < known {
        report.problems.push(format!(
            "database: schema version {version} is older than the {known} this gamehost uses; \
             `gamehost run` migrates it (back it up first with `gamehost backup`); its games \
             were not checked"
        ));
        return Ok(report);
    }
    let ids = match store.read(|tx| tx.all_game_ids()) {
        Ok(ids) => ids,
        Err(e) => {
            report
                .problems
                .push(format!("database: cannot list the games: {e}"));
            return Ok(report);
        }
    };
    report.games = ids.len();
    match store.read(|tx| tx.turn_log_spans()) {
        Ok(spans) => {
            for s in spans {
                if let Some(what) = span_problem(&s) {
                    report.game(s.game_id, what);
                }
            }
        }
        Err(e) => report
            .problems
            .push(format!("database: cannot read the turn log: {e}")),
    }
    for id in ids {
        inspect_game(host, id, file_ok, &mut report);
    }
    Ok(report)
}

/// What is wrong between a game's turn counter and its turn log, if anything:
/// the log must hold exactly turns 1 to the counter.
fn span_problem(s: &TurnLogSpan) -> Option<String> {
    let (first, last) = (s.first.unwrap_or(0), s.last.unwrap_or(0));
    if s.turn < 0 {
        return Some(format!("the turn counter is negative ({})", s.turn));
    }
    if s.rows > 0 && first < 1 {
        return Some(format!(
            "the turn log has a row for turn {first}; turns are numbered from 1"
        ));
    }
    if last > s.turn {
        return Some(format!(
            "the turn counter ({}) is behind the turn log, which has {} row(s) up to turn {last}",
            s.turn, s.rows
        ));
    }
    if s.rows < s.turn {
        return Some(format!(
            "the turn log is missing turns: {} row(s) for {} resolved turn(s)",
            s.rows, s.turn
        ));
    }
    None
}

/// Checks one game and adds what is wrong with it to `report`.
fn inspect_game(host: &Host, id: i64, file_ok: bool, report: &mut Inspection) {
    let store = host.store();
    let row = match host.game(id) {
        Ok(row) => row,
        Err(e) => return report.game(id, e),
    };
    let options: serde_json::Value = match serde_json::from_str(&row.options) {
        Ok(v) => v,
        Err(e) => return report.game(id, format!("its options are not JSON: {e}")),
    };
    // Seats: a game that started has every seat filled, and none past the end.
    inspect_seats(host, &row, &options, report);
    // The state loads, the log replays to it, and it is the last logged state.
    match host.view(id, None).and_then(|_| host.replay(id)) {
        Ok(r) => {
            if let Some(turn) = r.first_divergence {
                report.game(id, format!("replay diverges at turn {turn}"));
            }
        }
        Err(e) => report.game(id, e),
    }
    inspect_last_state(host, &row, report);
    if !file_ok {
        // A damaged or altered schema fails every query below; it is
        // reported once for the file.
        return;
    }
    match store.read(|tx| tx.pending(id)) {
        Ok(pending) => {
            for p in pending {
                if let Err(e) = serde_json::from_str::<serde_json::Value>(&p.action) {
                    report.game(
                        id,
                        format!("the pending action of seat {} is not JSON: {e}", p.seat + 1),
                    );
                }
            }
        }
        Err(e) => report.game(id, e),
    }
    inspect_outbox(host, id, report);
}

/// No seat past the game's seat count, and none missing once it started.
fn inspect_seats(
    host: &Host,
    row: &store::GameRow,
    options: &serde_json::Value,
    report: &mut Inspection,
) {
    let id = row.id;
    match (
        host.seats(id),
        host.registry().seat_count(&row.kind, options),
    ) {
        (Err(e), _) => report.game(id, e),
        (_, Err(e)) => report.game(id, e),
        (Ok(seats), Ok(count)) => {
            if let Some(extra) = seats.iter().find(|s| s.seat >= count) {
                report.game(
                    id,
                    format!("seat {} is past the game's {count} seat(s)", extra.seat + 1),
                );
            }
            if matches!(row.status, GameStatus::Running | GameStatus::Finished) {
                let missing: Vec<String> = (0..count)
                    .filter(|i| !seats.iter().any(|s| s.seat == *i))
                    .map(|i| (i + 1).to_string())
                    .collect();
                if !missing.is_empty() {
                    report.game(
                        id,
                        format!(
                            "seat(s) {} missing: a {} game has {count} seat(s)",
                            missing.join(", "),
                            row.status.as_str()
                        ),
                    );
                }
            }
        }
    }
}

/// The stored state is the state after the last turn of the turn log.
fn inspect_last_state(host: &Host, row: &store::GameRow, report: &mut Inspection) {
    let id = row.id;
    if let (Some(state), true) = (&row.state, row.turn > 0) {
        match host.store().read(|tx| tx.turn_log_entry(id, row.turn)) {
            Ok(Some(last)) => {
                let normal = |s: &str| {
                    host.registry().load(&row.kind, s).ok().and_then(|g| {
                        serde_json::from_str::<serde_json::Value>(&g.state_json()).ok()
                    })
                };
                let current = normal(state);
                if current.is_some() && current != normal(&last.state_after) {
                    report.game(
                        id,
                        format!(
                            "the stored state is not the state after turn {} of the turn log",
                            row.turn
                        ),
                    );
                }
            }
            Ok(None) => {} // reported with the turn counter
            Err(e) => report.game(id, e),
        }
    }
}

/// Every outbox row of the game reads as an announcement of it (the first
/// [`MAX_OUTBOX_PROBLEMS`] problems listed, the rest counted).
fn inspect_outbox(host: &Host, id: i64, report: &mut Inspection) {
    let mut outbox = Vec::new();
    let walked = host.store().read(|tx| {
        tx.each_outbox_row_of_game(id, |r| {
            let problem = match r {
                Err(e) => Some(e.to_string()),
                Ok(r) => match serde_json::from_str::<Announcement>(&r.payload) {
                    Err(e) => Some(format!("outbox row {} is unreadable: {e}", r.id)),
                    Ok(a) if a.game_id != id => Some(format!(
                        "outbox row {} announces game {} instead",
                        r.id, a.game_id
                    )),
                    Ok(_) => None,
                },
            };
            outbox.extend(problem);
        })
    });
    if let Err(e) = walked {
        report.game(id, e);
    }
    let more = outbox.len().saturating_sub(MAX_OUTBOX_PROBLEMS);
    for p in outbox.into_iter().take(MAX_OUTBOX_PROBLEMS) {
        report.game(id, p);
    }
    if more > 0 {
        report.game(id, format!("and {more} more unreadable outbox row(s)"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_log_must_hold_exactly_turns_one_to_the_counter() {
        let span = |turn, rows, first, last| TurnLogSpan {
            game_id: 1,
            turn,
            rows,
            first,
            last,
        };
        assert_eq!(span_problem(&span(0, 0, None, None)), None);
        assert_eq!(span_problem(&span(3, 3, Some(1), Some(3))), None);
        assert!(
            span_problem(&span(2, 3, Some(1), Some(3)))
                .unwrap()
                .contains("behind")
        );
        assert!(
            span_problem(&span(3, 2, Some(1), Some(3)))
                .unwrap()
                .contains("missing")
        );
        assert!(
            span_problem(&span(1, 2, Some(0), Some(1)))
                .unwrap()
                .contains("turn 0")
        );
    }
}
