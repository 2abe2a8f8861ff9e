//! Replaying a game from its seed and turn log, to prove the log is complete
//! and the engine deterministic (used by `gamehost check` and tests), and
//! reading the log back as a sequence of positions (for exports).

use super::{GameId, Host, HostError, require_game};
use crate::games::seam::Seat;
use crate::store::GameRow;
use serde_json::Value;
use std::collections::BTreeMap;

/// The result of replaying one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayReport {
    /// The game.
    pub game_id: GameId,
    /// Turns replayed.
    pub turns: u32,
    /// The first turn whose state differed from the logged one, if any.
    pub first_divergence: Option<u32>,
}

/// What one entry of the turn log did.
#[derive(Debug, Clone, PartialEq)]
pub enum LoggedStep {
    /// A turn resolved from the awaited seats' actions (engine JSON by seat).
    Actions(BTreeMap<Seat, Value>),
    /// These seats forfeited.
    Forfeit(Vec<Seat>),
    /// These seats were taken over by a new player or an AI.
    Takeover(Vec<Seat>),
}

/// One entry of the turn log with the positions around it.
#[derive(Debug, Clone)]
pub struct LoggedTurn {
    /// The turn number (1 for the first entry).
    pub turn: u32,
    /// The engine state before it (JSON).
    pub state_before: String,
    /// What happened.
    pub step: LoggedStep,
    /// The engine state after it (JSON).
    pub state_after: String,
}

/// A started game's whole history: its row, its first position and every
/// logged turn in order.
#[derive(Debug, Clone)]
pub struct GameLog {
    /// The game as stored now.
    pub row: GameRow,
    /// The engine state at the start (recreated from the options and seed).
    pub initial_state: String,
    /// Every logged turn, oldest first.
    pub turns: Vec<LoggedTurn>,
}

/// Reads a turn log entry's `actions` column.
fn parse_step(actions: &str) -> Result<LoggedStep, String> {
    let v: Value = serde_json::from_str(actions).map_err(|e| e.to_string())?;
    let seats = |list: &Value| -> Result<Vec<Seat>, String> {
        serde_json::from_value(list.clone()).map_err(|e| e.to_string())
    };
    if let Some(list) = v.get("forfeit") {
        return Ok(LoggedStep::Forfeit(seats(list)?));
    }
    if let Some(list) = v.get("takeover") {
        return Ok(LoggedStep::Takeover(seats(list)?));
    }
    let map: BTreeMap<String, Value> = serde_json::from_value(v).map_err(|e| e.to_string())?;
    let mut typed = BTreeMap::new();
    for (k, v) in map {
        let seat: Seat = k.parse().map_err(|_| format!("seat `{k}`"))?;
        typed.insert(seat, v);
    }
    Ok(LoggedStep::Actions(typed))
}

impl Host {
    /// Rebuilds a started game from its options and seed, applies every
    /// logged turn, and compares each resulting state with the logged one.
    pub fn replay(&self, game_id: GameId) -> Result<ReplayReport, HostError> {
        let (row, log) = self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, game_id)?;
            let log = tx.turn_log(game_id, 0, u32::MAX)?;
            Ok((row, log))
        })?;
        if row.state.is_none() {
            return Ok(ReplayReport {
                game_id,
                turns: 0,
                first_divergence: None,
            });
        }
        let options: Value = serde_json::from_str(&row.options).unwrap_or(Value::Null);
        let mut engine = self.registry.create(&row.kind, &options, row.seed)?;
        for entry in &log {
            let step = parse_step(&entry.actions)
                .map_err(|e| corrupt_log(game_id, format!("turn {}: {e}", entry.turn)))?;
            match step {
                LoggedStep::Forfeit(seats) => {
                    for s in seats {
                        engine.forfeit(s);
                    }
                }
                LoggedStep::Takeover(seats) => {
                    for s in seats {
                        engine.take_over(s);
                    }
                }
                LoggedStep::Actions(typed) => {
                    engine
                        .resolve(&typed)
                        .map_err(|source| HostError::Corrupt { game_id, source })?;
                }
            }
            let same = serde_json::from_str::<Value>(&engine.state_json()).ok()
                == serde_json::from_str::<Value>(&entry.state_after).ok();
            if !same {
                return Ok(ReplayReport {
                    game_id,
                    turns: entry.turn,
                    first_divergence: Some(entry.turn),
                });
            }
        }
        Ok(ReplayReport {
            game_id,
            turns: log.len() as u32,
            first_divergence: None,
        })
    }

    /// A started game's history read from its turn log: the first position
    /// (recreated from the options and seed) and each logged turn with the
    /// states before and after it. Only resolved turns are included; the
    /// actions still pending in the current turn stay hidden.
    pub fn game_log(&self, game_id: GameId) -> Result<GameLog, HostError> {
        let (row, log) = self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, game_id)?;
            let log = tx.turn_log(game_id, 0, u32::MAX)?;
            Ok((row, log))
        })?;
        if row.state.is_none() {
            return Err(HostError::user(format!(
                "Game #{game_id} has not started yet; it has no history."
            )));
        }
        let options: Value = serde_json::from_str(&row.options).unwrap_or(Value::Null);
        let initial_state = self
            .registry
            .create(&row.kind, &options, row.seed)?
            .state_json();
        let mut before = initial_state.clone();
        let mut turns = Vec::with_capacity(log.len());
        for entry in log {
            let step = parse_step(&entry.actions)
                .map_err(|e| corrupt_log(game_id, format!("turn {}: {e}", entry.turn)))?;
            let after = entry.state_after;
            turns.push(LoggedTurn {
                turn: entry.turn,
                state_before: std::mem::replace(&mut before, after.clone()),
                step,
                state_after: after,
            });
        }
        Ok(GameLog {
            row,
            initial_state,
            turns,
        })
    }
}

fn corrupt_log(game_id: GameId, reason: String) -> HostError {
    HostError::Corrupt {
        game_id,
        source: super::registry::DecodeError {
            kind: "turn_log",
            what: "actions",
            reason,
        },
    }
}
