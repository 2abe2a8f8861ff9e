//! The rules in motion: removing a group with the garbage it catches,
//! gravity, refills, sending garbage, turn order and the end of the game.

use super::field::{CELLS, COLOR_NAMES, COLORS, Cell, Side, WIDTH, neighbours, xy};
use super::garbage::{Kind, garbage_sent, push_garbage};
use super::groups::{MIN_GROUP, component_of, has_group};
use super::{EndReason, Finish, PuzzleDuel};
use crate::seam::{ActionError, Outcome, Seat};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// What one removal did on the remover's field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removal {
    /// Colour of the group.
    pub color: u8,
    /// Coloured balls removed (the group's size).
    pub c: u32,
    /// Garbage balls removed.
    pub o: u32,
    /// Hard garbage balls weakened or removed.
    pub w: u32,
    /// Kind of the garbage it sends.
    pub kind: Kind,
    /// Number of garbage balls it sends (may be 0).
    pub count: u32,
}

/// Removes `group` (cell indices of one whole group) from `side`, with the
/// garbage it catches, lets the balls fall and refills the columns: first
/// from the column's queue (the first popped ends lowest), then with random
/// colours drawn from `rng`, column by column from the left, lowest empty
/// cell first. The caller checks that `group` is a whole group.
pub fn remove_group<R: Rng>(side: &mut Side, group: &[u8], rng: &mut R) -> Removal {
    let mut in_group = [false; CELLS];
    for &i in group {
        in_group[usize::from(i)] = true;
    }
    let color = match side.field.cells[usize::from(group[0])] {
        Cell::Color(c) => c,
        _ => 0,
    };
    let (mut o, mut w) = (0u32, 0u32);
    // Catching is judged on the field before anything moves, so every
    // garbage ball sees the same group.
    let mut touched = [0u8; CELLS];
    for &i in group {
        for n in neighbours(usize::from(i)) {
            touched[n] += 1;
        }
    }
    for (i, &t) in touched.iter().enumerate() {
        if t == 0 {
            continue;
        }
        match side.field.cells[i] {
            Cell::Soft => {
                side.field.cells[i] = Cell::Empty;
                o += 1;
            }
            Cell::Hard if t >= 2 => {
                side.field.cells[i] = Cell::Empty;
                o += 1;
                w += 1;
            }
            Cell::Hard => {
                side.field.cells[i] = Cell::Soft;
                w += 1;
            }
            _ => {}
        }
    }
    for &i in group {
        side.field.cells[usize::from(i)] = Cell::Empty;
    }
    let empty = side.field.apply_gravity();
    for (x, &n) in empty.iter().enumerate() {
        for y in (0..n).rev() {
            let cell = match side.queues.0[x].pop_front() {
                Some(k) => Cell::from(k),
                None => Cell::Color(rng.gen_range(0..COLORS)),
            };
            side.field.cells[y * WIDTH + x] = cell;
        }
    }
    let c = group.len() as u32;
    let (kind, count) = garbage_sent(c, o, w);
    Removal {
        color,
        c,
        o,
        w,
        kind,
        count,
    }
}

/// One action as written to the game record (`simulate --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Turn number, from 1.
    pub turn: u32,
    /// The seat that removed.
    pub player: Seat,
    /// 1-based column of the named cell.
    pub x: usize,
    /// 1-based row of the named cell (1 = top).
    pub y: usize,
    /// Colour name of the group.
    pub color: String,
    /// Size of the group.
    pub size: u32,
    /// Coloured balls removed.
    pub c: u32,
    /// Garbage balls removed.
    pub o: u32,
    /// Hard garbage weakened or removed.
    pub w: u32,
    /// Kind of garbage sent, `None` when nothing was sent.
    pub sent_kind: Option<Kind>,
    /// Number of garbage balls sent.
    pub sent_count: u32,
    /// Queue lengths per column after the action, for seat 0 and seat 1.
    pub queues: [[usize; WIDTH]; 2],
}

impl PuzzleDuel {
    /// The seat to move now, or `None` once the game is over.
    pub fn mover(&self) -> Option<Seat> {
        if self.finish.is_some() {
            return None;
        }
        Some(if self.second_to_move {
            1 - self.first
        } else {
            self.first
        })
    }

    /// The group `seat` would remove by naming the 0-based cell index `i`,
    /// or a message saying why that cell names none.
    pub fn group_at(&self, seat: Seat, i: usize) -> Result<Vec<u8>, String> {
        let field = &self.sides[seat].field;
        let (x, y) = xy(i);
        let name = super::notation::format_cell(x + 1, y + 1);
        match field.cells[i] {
            Cell::Empty => Err(format!("`{name}` is empty.")),
            Cell::Soft => Err(format!(
                "`{name}` holds soft garbage, which is never part of a group."
            )),
            Cell::Hard => Err(format!(
                "`{name}` holds hard garbage, which is never part of a group."
            )),
            Cell::Color(col) => {
                let g = component_of(field, i);
                if g.len() >= MIN_GROUP {
                    Ok(g)
                } else {
                    Err(format!(
                        "`{name}` is in a {} group of {}: a group needs at least {MIN_GROUP} balls.",
                        COLOR_NAMES[usize::from(col)],
                        g.len()
                    ))
                }
            }
        }
    }

    /// Plays `seat`'s removal of the group at 1-based `(x, y)`: removal,
    /// refill, garbage sent, then the turn order moves on and the end of
    /// the game is checked. Refuses a move that is not legal now.
    pub fn play(&mut self, seat: Seat, x: usize, y: usize) -> Result<MoveRecord, ActionError> {
        let Some(mover) = self.mover() else {
            return Err(ActionError::new(
                "The game is over.",
                "No more moves can be made.",
            ));
        };
        if seat != mover {
            return Err(ActionError::new(
                format!("It is not {}'s move.", self.seat_label(seat)),
                format!("Wait for {} to move.", self.seat_label(mover)),
            ));
        }
        if !(1..=WIDTH).contains(&x) || !(1..=super::field::HEIGHT).contains(&y) {
            return Err(ActionError::new(
                format!("({x},{y}) is off the field."),
                super::notation::CELL_HELP,
            ));
        }
        let i = super::field::idx(x - 1, y - 1);
        let group = self
            .group_at(seat, i)
            .map_err(|p| ActionError::new(p, self.available_text(seat)))?;
        let removal = remove_group(&mut self.sides[seat], &group, &mut self.rng);
        let other = 1 - seat;
        push_garbage(
            &mut self.sides[other].queues,
            removal.kind,
            removal.count,
            &mut self.rng,
        );
        let record = MoveRecord {
            turn: self.turn,
            player: seat,
            x,
            y,
            color: COLOR_NAMES[usize::from(removal.color)].to_string(),
            size: removal.c,
            c: removal.c,
            o: removal.o,
            w: removal.w,
            sent_kind: (removal.count > 0).then_some(removal.kind),
            sent_count: removal.count,
            queues: [self.sides[0].queues.lens(), self.sides[1].queues.lens()],
        };
        self.last = Some(record.clone());
        self.advance();
        Ok(record)
    }

    /// Moves the turn order on after a removal and checks the end of the game.
    fn advance(&mut self) {
        let first = self.first;
        let second = 1 - first;
        if !self.second_to_move {
            self.second_to_move = true;
            // The first player could remove this turn; the second's field is
            // unchanged by it (garbage only reached the queues), so if the
            // second has no group now, exactly the second cannot remove.
            if !has_group(&self.sides[second].field) {
                self.finish = Some(Finish {
                    outcome: Outcome::Win(first),
                    reason: EndReason::Stuck {
                        seats: vec![second],
                    },
                });
            }
        } else {
            self.second_to_move = false;
            if self.turn >= self.options.max_turns {
                self.finish_by_score();
            } else {
                self.turn += 1;
                self.check_turn_start();
            }
        }
    }

    /// At the start of a turn: if the first player cannot remove, the turn
    /// ends the game (a draw when the second cannot either, since the
    /// second's field cannot change before their move).
    pub(crate) fn check_turn_start(&mut self) {
        let first = self.first;
        let second = 1 - first;
        if has_group(&self.sides[first].field) {
            return;
        }
        self.finish = Some(if has_group(&self.sides[second].field) {
            Finish {
                outcome: Outcome::Win(second),
                reason: EndReason::Stuck { seats: vec![first] },
            }
        } else {
            Finish {
                outcome: Outcome::Draw(vec![0, 1]),
                reason: EndReason::Stuck {
                    seats: vec![first, second],
                },
            }
        });
    }

    /// Ends the game after the last turn: the lower garbage score wins.
    fn finish_by_score(&mut self) {
        let scores = [self.sides[0].score(), self.sides[1].score()];
        let outcome = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Less => Outcome::Win(0),
            std::cmp::Ordering::Greater => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
        };
        self.finish = Some(Finish {
            outcome,
            reason: EndReason::TurnLimit { scores },
        });
    }
}
