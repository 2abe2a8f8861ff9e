//! What one person may see of a game: the board from their seat, who has
//! acted (never what), and their own hidden action.

use super::pause::{LeaveStatus, leave_status};
use super::shared::current_pending;
use super::{GameId, Host, HostError, require_game, seat_of_user};
use games::seam::{Seat, View};
use store::{GameStatus, Occupant};

/// One seat as shown to anyone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    /// Seat number.
    pub seat: Seat,
    /// The seat's name in the game ("England", "Player 1").
    pub role: String,
    /// Who sits there.
    pub occupant: Occupant,
    /// The occupant's display name.
    pub name: String,
    /// Whether the game waits for this seat now: a person's seat whose
    /// move it is (an AI moves on its own and is never awaited).
    pub awaited: bool,
    /// Whether it has a final action in for this turn (the action stays hidden).
    pub acted: bool,
}

/// A game as one viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    /// The game.
    pub game_id: GameId,
    /// Its kind.
    pub kind: String,
    /// Its status.
    pub status: GameStatus,
    /// Turns resolved.
    pub turn: u32,
    /// The seats (filled ones only in the lobby).
    pub seats: Vec<SeatView>,
    /// The viewer's seat, if they play.
    pub viewer_seat: Option<Seat>,
    /// The engine's view from the viewer's seat (None in the lobby).
    pub view: Option<View>,
    /// The viewer's own pending action this turn, described.
    pub own_pending: Option<String>,
    /// When the current turn's deadline falls (ms), if any.
    pub deadline: Option<i64>,
    /// Whether the game is paused, who asked for a pause, who is away.
    pub leave: LeaveStatus,
}

impl Host {
    /// The game as `viewer` (a user id, or None for a spectator) may see it.
    pub fn view(&self, game_id: GameId, viewer: Option<&str>) -> Result<GameView, HostError> {
        self.store.read(|tx| {
            let row = require_game(tx, game_id)?;
            let seats = tx.seats(game_id)?;
            let viewer_seat = viewer.and_then(|u| seat_of_user(&seats, u));
            let deadline = tx.deadline(game_id)?.map(|d| d.due_at);
            let (engine, pending) = match row.state {
                Some(_) => (Some(self.engine_of(&row)?), current_pending(tx, &row)?),
                None => (None, Default::default()),
            };
            let awaiting = engine.as_ref().map(|e| e.awaiting()).unwrap_or_default();
            let running = row.status == GameStatus::Running;
            let seat_views = seats
                .iter()
                .map(|s| SeatView {
                    seat: s.seat,
                    // The game's own name of the seat ("England"); a
                    // generic "Player 1" says only the seat's number.
                    role: engine
                        .as_ref()
                        .map(|e| e.seat_name(s.seat))
                        .filter(|r| !super::announce::is_generic_label(r))
                        .unwrap_or_else(|| format!("Seat {}", s.seat + 1)),
                    occupant: s.occupant.clone(),
                    name: s.display_name.clone(),
                    awaited: running
                        && awaiting.contains(&s.seat)
                        && matches!(s.occupant, Occupant::User(_)),
                    acted: running && pending.get(&s.seat).is_some_and(|(_, f)| *f),
                })
                .collect();
            let own_pending = match (&engine, viewer_seat) {
                (Some(e), Some(seat)) if running => match pending.get(&seat) {
                    Some((a, _)) => e.describe_action(seat, a).ok(),
                    None => None,
                },
                _ => None,
            };
            let view = engine.as_ref().map(|e| {
                let mut v = e.view(viewer_seat);
                // Named as the announcements name the players ("Alice",
                // not the engine's "Player 1"), AI seats never awaited.
                let named = |t: &str| super::announce::name_seats(t, &seats, |s| e.seat_name(s));
                let finished: Vec<Seat> = pending
                    .iter()
                    .filter(|(_, (_, is_final))| *is_final)
                    .map(|(seat, _)| *seat)
                    .collect();
                v.status = named(&super::announce::status_of_awaited(
                    &v.status,
                    &seats,
                    &finished,
                    |s| e.seat_name(s),
                ));
                v.board = named(&v.board);
                if !running || !viewer_seat.is_some_and(|s| awaiting.contains(&s)) {
                    v.choices.clear();
                }
                v
            });
            Ok(GameView {
                game_id,
                kind: row.kind.clone(),
                status: row.status,
                turn: row.turn,
                seats: seat_views,
                viewer_seat,
                view,
                own_pending,
                deadline,
                leave: leave_status(tx, game_id, self.now())?,
            })
        })
    }
}
