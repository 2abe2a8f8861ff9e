//! A game's past: the turn log as players may read it, and the engine as it
//! was after any resolved turn (so a late delivery shows the turn it
//! announces, not the position the game has reached since).
//!
//! What a seat did is its action's canonical text (`describe_action` on the
//! position before the turn). That text is shown only to the seat's own
//! player: engines put things in it that stay secret after the turn
//! resolves (Diplomacy's draw votes, a player's refused order lines), and
//! the host cannot tell those apart from the rest. Everyone reads the
//! turn's public report, which is where engines say what was done. After a
//! takeover, the seat's new player sees its actions from the takeover on,
//! not those of the player before (a player who takes their own seat back
//! is treated the same way: the host does not record who left).
//!
//! A game that hides its board while it runs (Fog of War) logs public
//! reports without the orders; once it has ended its history shows them
//! ([`games::seam::Game::report_after_end`]) and its replay opens.

use super::{AnyGame, GameId, Host, HostError, game_label, require_game, seat_of_user};
use crate::registry::DecodeError;
use games::seam::{Seat, TurnReport};
use serde_json::Value;
use std::collections::BTreeMap;
use store::{GameRow, TurnLogRow};

/// Turns on one page of [`Host::history`].
pub const HISTORY_PAGE: u32 = 10;

/// What one seat did in a resolved turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatMove {
    /// The seat.
    pub seat: Seat,
    /// The seat's name in the game ("England", "Player 1").
    pub role: String,
    /// The seat gave up this turn (public: the report says so too).
    pub forfeited: bool,
    /// The action's canonical text; `Some` only for the viewer's own seat
    /// (see the module documentation for why).
    pub action: Option<String>,
}

/// One resolved turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnSummary {
    /// The turn's number, from 1.
    pub turn: u32,
    /// The seats that acted (or forfeited) in it, by seat.
    pub moves: Vec<SeatMove>,
    /// The public report of what happened.
    pub report: String,
    /// When it resolved (ms since the epoch).
    pub resolved_at: i64,
}

/// A page of a game's turn log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryPage {
    /// The game.
    pub game_id: GameId,
    /// This page, from 1.
    pub page: u32,
    /// Pages in all (at least 1, even with no turns).
    pub pages: u32,
    /// Turns resolved in all.
    pub total: u32,
    /// The turns on this page, oldest first.
    pub turns: Vec<TurnSummary>,
}

/// The actions a logged turn applied.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnActions {
    /// The awaited seats' actions (JSON as the engine stores them).
    Moves(BTreeMap<Seat, Value>),
    /// The seats forfeited; nothing else happened.
    Forfeit(Vec<Seat>),
    /// The seats (left open) were taken by a new player or an AI.
    Takeover(Vec<Seat>),
}

/// A turn log row's actions, or why they cannot be read.
pub(super) fn parse_actions(game_id: GameId, entry: &TurnLogRow) -> Result<TurnActions, HostError> {
    let corrupt = |reason: String| HostError::Corrupt {
        game_id,
        source: DecodeError {
            kind: "turn_log",
            what: "actions",
            reason: format!("turn {}: {reason}", entry.turn),
        },
    };
    let actions: Value =
        serde_json::from_str(&entry.actions).map_err(|e| corrupt(e.to_string()))?;
    if let Some(forfeits) = actions.get("forfeit") {
        let seats: Vec<Seat> =
            serde_json::from_value(forfeits.clone()).map_err(|e| corrupt(e.to_string()))?;
        return Ok(TurnActions::Forfeit(seats));
    }
    if let Some(taken) = actions.get("takeover") {
        let seats: Vec<Seat> =
            serde_json::from_value(taken.clone()).map_err(|e| corrupt(e.to_string()))?;
        return Ok(TurnActions::Takeover(seats));
    }
    let map: BTreeMap<String, Value> =
        serde_json::from_value(actions).map_err(|e| corrupt(e.to_string()))?;
    let mut typed = BTreeMap::new();
    for (k, v) in map {
        let seat: Seat = k.parse().map_err(|_| corrupt(format!("seat `{k}`")))?;
        typed.insert(seat, v);
    }
    Ok(TurnActions::Moves(typed))
}

impl Host {
    /// The engine as it was when the game started, rebuilt from its stored
    /// options and seed (what `start` created).
    pub(super) fn initial_engine(&self, row: &GameRow) -> Result<Box<dyn AnyGame>, HostError> {
        let corrupt = |what: &'static str, reason: String| HostError::Corrupt {
            game_id: row.id,
            source: DecodeError {
                kind: "options",
                what,
                reason,
            },
        };
        let options: Value =
            serde_json::from_str(&row.options).map_err(|e| corrupt("options", e.to_string()))?;
        // The options were accepted when the game was created: a refusal
        // now means the stored row no longer fits the engine, not a user error.
        self.registry
            .create(&row.kind, &options, row.seed)
            .map_err(|e| corrupt("options", e.to_string()))
    }

    /// The engine loaded from a logged turn's state.
    fn engine_after(
        &self,
        row: &GameRow,
        entry: &TurnLogRow,
    ) -> Result<Box<dyn AnyGame>, HostError> {
        self.loaded(row, &entry.state_after)
    }

    /// The game as it was after `turn` resolved turns: turn 0 is the start
    /// (rebuilt from options and seed), turn N the state the log stored for
    /// turn N. A turn the game has not reached is a user error.
    pub fn state_at(&self, game_id: GameId, turn: u32) -> Result<Box<dyn AnyGame>, HostError> {
        let (row, entry) = self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, game_id)?;
            let entry = match turn {
                0 => None,
                t => tx.turn_log_entry(game_id, t)?,
            };
            Ok((row, entry))
        })?;
        check_turn(&row, turn)?;
        if turn == 0 {
            return Ok(super::reveal_if_over(&row, self.initial_engine(&row)?));
        }
        let entry = entry.ok_or_else(|| missing_turn(&row, turn))?;
        self.engine_after(&row, &entry)
    }

    /// The actions turn `turn` (from 1) applied, as the log stored them.
    pub fn turn_actions(&self, game_id: GameId, turn: u32) -> Result<TurnActions, HostError> {
        let (row, entry) = self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, game_id)?;
            Ok((row, tx.turn_log_entry(game_id, turn)?))
        })?;
        check_turn(&row, turn)?;
        if turn == 0 {
            return Err(HostError::user(format!(
                "Turn 0 of {} is the start; no actions led to it. Turns are numbered from 1.",
                game_label(&row)
            )));
        }
        let entry = entry.ok_or_else(|| missing_turn(&row, turn))?;
        parse_actions(game_id, &entry)
    }

    /// The actions of turn `turn` (1-based) with its stored report, for
    /// renderers that draw a turn from the report's detail instead of
    /// replaying it.
    pub fn turn_record(
        &self,
        game_id: GameId,
        turn: u32,
    ) -> Result<(TurnActions, TurnReport), HostError> {
        let actions = self.turn_actions(game_id, turn)?;
        let entry = self
            .store
            .read(|tx| tx.turn_log_entry(game_id, turn))?
            .ok_or_else(|| HostError::Corrupt {
                game_id,
                source: DecodeError {
                    kind: "turn_log",
                    what: "report",
                    reason: format!("turn {turn} is missing"),
                },
            })?;
        let report = serde_json::from_str(&entry.report).map_err(|e| HostError::Corrupt {
            game_id,
            source: DecodeError {
                kind: "turn_log",
                what: "report",
                reason: format!("turn {turn}: {e}"),
            },
        })?;
        Ok((actions, report))
    }

    /// A page of the turn log ([`HISTORY_PAGE`] turns a page, `None` for the
    /// last page) as `viewer` (a user id, or `None` for a spectator) may read
    /// it: every turn's public report, and the viewer's own actions.
    pub fn history(
        &self,
        game_id: GameId,
        page: Option<u32>,
        viewer: Option<&str>,
    ) -> Result<HistoryPage, HostError> {
        let (row, seats, total) = self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, game_id)?;
            Ok((row, tx.seats(game_id)?, tx.turn_log_len(game_id)?))
        })?;
        let pages = total.div_ceil(HISTORY_PAGE).max(1);
        let page = page.unwrap_or(pages);
        if page == 0 || page > pages {
            return Err(HostError::user(format!(
                "{} has {pages} page(s) of history; ask for a page from 1 to {pages} (or leave it out for the last).",
                game_label(&row)
            )));
        }
        let empty = HistoryPage {
            game_id,
            page,
            pages,
            total,
            turns: Vec::new(),
        };
        if total == 0 {
            return Ok(empty);
        }
        let viewer_seat = viewer.and_then(|u| seat_of_user(&seats, u));
        let finished = row.status != store::GameStatus::Running;
        // A seat taken over changed hands: its earlier actions were someone
        // else's secrets, so the viewer sees only those since the last
        // takeover of their seat.
        let held_since = self.seat_held_since(game_id, viewer_seat)?;
        // The page's turns, and the one before them for the position they
        // were played on.
        let first = (page - 1) * HISTORY_PAGE; // 0-based offset of the page's first turn
        let (offset, limit) = match first {
            0 => (0, HISTORY_PAGE),
            f => (f - 1, HISTORY_PAGE + 1),
        };
        let mut rows = self
            .store
            .read(|tx| tx.turn_log(game_id, offset, limit))?
            .into_iter();
        let mut before = match first {
            0 => self.initial_engine(&row)?,
            _ => match rows.next() {
                Some(prev) => self.engine_after(&row, &prev)?,
                None => return Ok(empty),
            },
        };
        let mut turns = Vec::new();
        for entry in rows {
            let report: TurnReport =
                serde_json::from_str(&entry.report).map_err(|e| HostError::Corrupt {
                    game_id,
                    source: DecodeError {
                        kind: "turn_log",
                        what: "report",
                        reason: format!("turn {}: {e}", entry.turn),
                    },
                })?;
            let moves = seat_moves(game_id, &entry, before.as_ref(), viewer_seat, held_since)?;
            let next = self.engine_after(&row, &entry)?;
            // Engines write "Player 1"; readers know the players' names
            // (the seat's present occupant, as the announcements name it).
            // What a game kept secret while it ran (Fog of War's orders)
            // opens once it has ended.
            let text = if finished {
                before.report_after_end(&report)
            } else {
                report.public.clone()
            };
            let report = super::announce::name_seats(&text, &seats, |s| before.seat_name(s));
            turns.push(TurnSummary {
                turn: entry.turn,
                moves,
                report,
                resolved_at: entry.resolved_at,
            });
            before = next;
        }
        Ok(HistoryPage { turns, ..empty })
    }

    /// Refuses, with a user error, the replay of a game that hides its
    /// board while it runs (Fog of War): its positions and orders open at
    /// the end.
    pub fn check_replay_open(&self, game_id: GameId) -> Result<(), HostError> {
        let row = self.game(game_id)?;
        let running = row.status == store::GameStatus::Running;
        if running && row.state.is_some() && self.engine_of(&row)?.hides_board() {
            return Err(HostError::user(format!(
                "{} is played under Fog of War: its replay opens when the game ends.",
                game_label(&row)
            )));
        }
        Ok(())
    }

    /// The last turn at which `seat` was taken over (0 if never, or no
    /// seat): the viewer sees their seat's actions only after it.
    fn seat_held_since(&self, game_id: GameId, seat: Option<Seat>) -> Result<u32, HostError> {
        Ok(match seat {
            None => 0,
            Some(seat) => {
                let log = self.store.read(|tx| tx.turn_log(game_id, 0, u32::MAX))?;
                let mut since = 0;
                for entry in &log {
                    if let TurnActions::Takeover(taken) = parse_actions(game_id, entry)?
                        && taken.contains(&seat)
                    {
                        since = since.max(entry.turn);
                    }
                }
                since
            }
        })
    }
}

/// What each seat did in one logged turn, as the viewer may read it: the
/// forfeits, and the viewer's own actions (since `held_since`) described by
/// `before`, the game as it was when the turn was played.
fn seat_moves(
    game_id: GameId,
    entry: &TurnLogRow,
    before: &dyn AnyGame,
    viewer_seat: Option<Seat>,
    held_since: u32,
) -> Result<Vec<SeatMove>, HostError> {
    Ok(match parse_actions(game_id, entry)? {
        TurnActions::Forfeit(forfeited) => forfeited
            .into_iter()
            .map(|seat| SeatMove {
                seat,
                role: before.seat_name(seat),
                forfeited: true,
                action: None,
            })
            .collect(),
        // The public report names who took the seat.
        TurnActions::Takeover(_) => Vec::new(),
        TurnActions::Moves(actions) => actions
            .iter()
            .map(|(&seat, action)| {
                let action = if viewer_seat == Some(seat) && entry.turn > held_since {
                    Some(
                        before
                            .describe_action(seat, action)
                            .map_err(|source| HostError::Corrupt { game_id, source })?,
                    )
                } else {
                    None
                };
                Ok(SeatMove {
                    seat,
                    role: before.seat_name(seat),
                    forfeited: false,
                    action,
                })
            })
            .collect::<Result<Vec<_>, HostError>>()?,
    })
}

/// A user error unless the game has started and reached `turn`.
fn check_turn(row: &GameRow, turn: u32) -> Result<(), HostError> {
    if row.state.is_none() {
        return Err(HostError::user(format!(
            "{} has not started yet, so it has no turns.",
            game_label(row)
        )));
    }
    if turn > row.turn {
        return Err(HostError::user(format!(
            "{} has resolved {} turn(s) so far; ask for a turn from 0 (the start) to {}.",
            game_label(row),
            row.turn,
            row.turn
        )));
    }
    Ok(())
}

/// A turn the game reached but the log does not hold: the store lost it.
fn missing_turn(row: &GameRow, turn: u32) -> HostError {
    HostError::Corrupt {
        game_id: row.id,
        source: DecodeError {
            kind: "turn_log",
            what: "turn",
            reason: format!("turn {turn} is missing from the log"),
        },
    }
}
