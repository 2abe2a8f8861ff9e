//! Press: the messages between Diplomacy powers the bot relayed (migration
//! 0005). Rows are written when a message is accepted and read back for the
//! rate limit and, once the game has ended, for the press log.

use super::db::{Row, args};
use super::{StoreError, Tx};

/// A message to store: one accepted relay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPressRow {
    /// The game.
    pub game_id: i64,
    /// Resolved turns when it was sent.
    pub turn: u32,
    /// The phase's name ("Spring 1901 movement").
    pub phase: String,
    /// The sender's seat.
    pub sender_seat: usize,
    /// The sender's power ("France").
    pub sender_power: String,
    /// Whether it went to every power.
    pub to_all: bool,
    /// The powers addressed, in seat order.
    pub recipients: Vec<String>,
    /// The message.
    pub text: String,
    /// When (ms).
    pub sent_at: i64,
}

/// A stored message, as read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressRow {
    /// Row id, increasing with time.
    pub id: i64,
    /// The message as it was stored.
    pub message: NewPressRow,
}

const PRESS_COLUMNS: &str =
    "id, game_id, turn, phase, sender_seat, sender_power, to_all, recipients, text, sent_at";

fn press_from_row(r: &Row) -> Result<PressRow, StoreError> {
    let recipients: String = r.get(7)?;
    let seat: i64 = r.get(4)?;
    Ok(PressRow {
        id: r.get(0)?,
        message: NewPressRow {
            game_id: r.get(1)?,
            turn: r.get(2)?,
            phase: r.get(3)?,
            // Seats are small and never negative (written from a `usize`).
            sender_seat: usize::try_from(seat).unwrap_or_default(),
            sender_power: r.get(5)?,
            to_all: r.get(6)?,
            recipients: recipients
                .split(',')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
            text: r.get(8)?,
            sent_at: r.get(9)?,
        },
    })
}

impl Tx<'_> {
    /// Stores one relayed message and returns its id.
    pub fn insert_press(&self, p: &NewPressRow) -> Result<i64, StoreError> {
        self.conn
            .one(
                "INSERT INTO press (game_id, turn, phase, sender_seat, sender_power, to_all, \
             recipients, text, sent_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
                args![
                    p.game_id,
                    p.turn,
                    p.phase,
                    p.sender_seat as i64,
                    p.sender_power,
                    p.to_all,
                    p.recipients.join(","),
                    p.text,
                    p.sent_at
                ],
            )?
            .get(0)
    }

    /// Every message of a game, oldest first.
    pub fn press_of_game(&self, game_id: i64) -> Result<Vec<PressRow>, StoreError> {
        let sql = format!("SELECT {PRESS_COLUMNS} FROM press WHERE game_id = ?1 ORDER BY id");
        self.conn
            .rows(&sql, args![game_id])?
            .iter()
            .map(press_from_row)
            .collect()
    }

    /// How many messages a seat sent in a game at or after `since` (ms).
    pub fn press_sent_since(
        &self,
        game_id: i64,
        sender_seat: usize,
        since: i64,
    ) -> Result<u32, StoreError> {
        self.conn
            .one(
                "SELECT COUNT(*) FROM press WHERE game_id = ?1 AND sender_seat = ?2 AND sent_at >= ?3",
                args![game_id, sender_seat as i64, since],
            )?
            .get(0)
    }
}
