//! One empty-stack entry of the solver's tables, from the value of playing
//! first: shared by the chain walk ([`super::solver`]) and the lane
//! construction ([`super::lanes`]), so it sits below both.

use crate::seam::Seat;

/// Fills the two empty-stack entries of one `(i, j)` from the value of
/// playing first for each seat (`None`: that seat's deck is empty).
/// `k` is the index of `(i, j, seat 0)`; seat 1 is at `k + 1`.
#[inline]
pub(super) fn fill_empty_stack(
    open: &mut [i64],
    closing: &mut [i64],
    k: usize,
    play: [Option<i64>; 2],
) {
    for t in 0..2 {
        // A pass here ends the game: nothing more is scored.
        closing[k + t] = match play[t] {
            Some(v) => best(t, 0, v),
            None => 0,
        };
    }
    for t in 0..2 {
        // A pass here hands the opponent a "closing" position.
        let pass = closing[k + 1 - t];
        open[k + t] = match play[t] {
            Some(v) => best(t, pass, v),
            None => pass,
        };
    }
}

/// The better of two values for `seat` (P1 maximises, P2 minimises).
#[inline]
pub(super) fn best(seat: Seat, x: i64, y: i64) -> i64 {
    if seat == 0 { x.max(y) } else { x.min(y) }
}
