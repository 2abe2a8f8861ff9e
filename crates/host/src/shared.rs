//! What every part of the host shares, at the bottom of the host's
//! modules: reading a running game, the pending actions of its turn, a
//! seat's name, lists of names in a sentence, and a forgotten person's id.
//! Nothing here calls a method of another host module, so any module may
//! use it without a way back up (`tests/module_cycles.rs`).

use super::{GameId, HostError, game_label, require_game};
use games::seam::Seat;
use serde_json::Value;
use std::collections::BTreeMap;
use store::{GameRow, GameStatus, SeatRow, Tx};

/// The prefix of a forgotten person's anonymous id.
pub const FORGOTTEN_PREFIX: &str = "forgotten:";

/// Whether a player id is a forgotten person's anonymous id (never rated,
/// never mentioned, never sent a message).
pub fn is_forgotten(player: &str) -> bool {
    player.starts_with(FORGOTTEN_PREFIX)
}

/// A running game or a user error saying what state it is in.
pub(crate) fn running_game(tx: &Tx<'_>, game_id: GameId) -> Result<GameRow, HostError> {
    let row = require_game(tx, game_id)?;
    match row.status {
        GameStatus::Running => Ok(row),
        GameStatus::Lobby => Err(HostError::user(format!(
            "{} has not started yet; its creator starts it once every seat is taken.",
            game_label(&row)
        ))),
        s => Err(HostError::user(format!(
            "{} is {}.",
            game_label(&row),
            s.as_str()
        ))),
    }
}

/// The pending actions of the game's current turn by seat: (action, final).
/// Rows left from an earlier turn are ignored; a row whose JSON is unreadable
/// is reported as corrupt rather than dropped.
pub(crate) fn current_pending(
    tx: &Tx<'_>,
    row: &GameRow,
) -> Result<BTreeMap<Seat, (Value, bool)>, HostError> {
    let mut out = BTreeMap::new();
    for p in tx.pending(row.id)? {
        if p.turn != row.turn {
            continue;
        }
        let v: Value = serde_json::from_str(&p.action).map_err(|e| HostError::Corrupt {
            game_id: row.id,
            source: super::registry::DecodeError {
                kind: "pending",
                what: "action",
                reason: format!("seat {}: {e}", p.seat),
            },
        })?;
        out.insert(p.seat, (v, p.is_final));
    }
    Ok(out)
}

/// "Alice" for a seat, or "seat 2" if it is somehow empty.
pub(crate) fn seat_display(seats: &[SeatRow], seat: Seat) -> String {
    seats
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.display_name.clone())
        .unwrap_or_else(|| format!("seat {}", seat + 1))
}

/// "Bob", "Bob and Carol", "Alice, Bob and Carol".
pub fn names_and(names: &[String]) -> String {
    names_joined(names, "and")
}

/// "Alice, Bob or Carol": alternatives as a sentence lists them.
pub(crate) fn names_or(names: &[String]) -> String {
    names_joined(names, "or")
}

fn names_joined(names: &[String], word: &str) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::names_and;

    #[test]
    fn names_read_as_a_list() {
        let n = |v: &[&str]| names_and(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(n(&["Bob"]), "Bob");
        assert_eq!(n(&["Bob", "Carol"]), "Bob and Carol");
        assert_eq!(n(&["Alice", "Bob", "Carol"]), "Alice, Bob and Carol");
    }
}
