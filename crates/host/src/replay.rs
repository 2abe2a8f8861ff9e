//! Replaying a game from its seed and turn log, to prove the log is complete
//! and the engine deterministic (used by `gamehost check` and tests), and
//! reading the log back as a sequence of positions (for exports).

use super::history::{TurnActions, parse_actions};
use super::{GameId, Host, HostError, require_game};
use serde_json::Value;
use store::{GameRow, TurnLogRow};

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

/// One entry of the turn log with the positions around it.
#[derive(Debug, Clone)]
pub struct LoggedTurn {
    /// The turn number (1 for the first entry).
    pub turn: u32,
    /// The engine state before it (JSON).
    pub state_before: String,
    /// What happened.
    pub step: TurnActions,
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

impl Host {
    /// A game's row and its whole turn log, read together.
    fn game_and_log(&self, game_id: GameId) -> Result<(GameRow, Vec<TurnLogRow>), HostError> {
        self.store.read(|tx| -> Result<_, HostError> {
            let row = require_game(tx, game_id)?;
            let log = tx.turn_log(game_id, 0, u32::MAX)?;
            Ok((row, log))
        })
    }

    /// Rebuilds a started game from its options and seed, applies every
    /// logged turn, and compares each resulting state with the logged one.
    pub fn replay(&self, game_id: GameId) -> Result<ReplayReport, HostError> {
        let (row, log) = self.game_and_log(game_id)?;
        if row.state.is_none() {
            return Ok(ReplayReport {
                game_id,
                turns: 0,
                first_divergence: None,
            });
        }
        let mut engine = self.initial_engine(&row)?;
        for entry in &log {
            match parse_actions(game_id, entry)? {
                TurnActions::Forfeit(seats) => {
                    for s in seats {
                        engine.forfeit(s);
                    }
                }
                TurnActions::Takeover(seats) => {
                    for s in seats {
                        engine.take_over(s);
                    }
                }
                TurnActions::Moves(typed) => {
                    engine
                        .resolve(&typed)
                        .map_err(|source| HostError::Corrupt { game_id, source })?;
                }
            }
            // The logged state goes through the engine too, so a field added
            // by a later gamehost (absent from older rows, defaulted on load)
            // is not taken for a divergence.
            let logged = self
                .registry
                .load(&row.kind, &entry.state_after)
                .ok()
                .and_then(|g| serde_json::from_str::<Value>(&g.state_json()).ok());
            let same = logged.is_some()
                && serde_json::from_str::<Value>(&engine.state_json()).ok() == logged;
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
        let (row, log) = self.game_and_log(game_id)?;
        if row.state.is_none() {
            return Err(HostError::user(format!(
                "{} has not started yet; it has no history.",
                crate::game_label(&row)
            )));
        }
        let initial_state = self.initial_engine(&row)?.state_json();
        let mut before = initial_state.clone();
        let mut turns = Vec::with_capacity(log.len());
        for entry in log {
            let step = parse_actions(game_id, &entry)?;
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
