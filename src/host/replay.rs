//! Replaying a game from its seed and turn log, to prove the log is complete
//! and the engine deterministic (used by `gamehost check` and tests).

use super::history::{TurnActions, parse_actions};
use super::{GameId, Host, HostError, require_game};
use serde_json::Value;

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
        let mut engine = self.initial_engine(&row)?;
        for entry in &log {
            match parse_actions(game_id, entry)? {
                TurnActions::Forfeit(seats) => {
                    for s in seats {
                        engine.forfeit(s);
                    }
                }
                TurnActions::Moves(actions) => {
                    engine
                        .resolve(&actions)
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
}
