//! What each seat of a finished game came to: win, draw, loss or forfeit,
//! Diplomacy's scoring points, and the finishing ranks a multiplayer rating
//! model needs. Pure: the host hands in what the engine and the turn log say.

use games::seam::{Outcome, Seat};

/// How a Diplomacy game shares its 100 points, chosen per game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// Draw-size scoring: a solo takes 100; a draw splits 100 equally
    /// among the powers in it.
    DrawSize,
    /// Sum of squares: a solo takes 100; in a draw each power in it gets
    /// 100 × its centres² / the sum of the centres² of the powers in it.
    SumOfSquares,
    /// Only a solo counts: the winner takes 100; a draw scores nobody.
    SoloOnly,
}

impl Scoring {
    /// Every system, in the order commands offer them.
    pub const ALL: [Scoring; 3] = [Scoring::DrawSize, Scoring::SumOfSquares, Scoring::SoloOnly];

    /// The text stored with a game and typed in commands.
    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::DrawSize => "dss",
            Scoring::SumOfSquares => "sos",
            Scoring::SoloOnly => "solo",
        }
    }

    /// The name players read.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::DrawSize => "draw-size",
            Scoring::SumOfSquares => "sum-of-squares",
            Scoring::SoloOnly => "solo-only",
        }
    }

    /// Reads the stored or typed text (`dss`, `sos`, `solo`, or the names).
    pub fn parse(s: &str) -> Option<Scoring> {
        let s = s.trim().to_ascii_lowercase();
        Scoring::ALL
            .into_iter()
            .find(|x| x.as_str() == s || x.name() == s)
    }
}

/// What one seat came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatOutcome {
    /// Won outright.
    Win,
    /// Shared a draw.
    Draw,
    /// Lost (beaten, eliminated, or out of a draw).
    Loss,
    /// Gave up, or was left in civil disorder: a loss, counted apart.
    Forfeit,
}

impl SeatOutcome {
    /// The text stored in `game_results.result`.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatOutcome::Win => "win",
            SeatOutcome::Draw => "draw",
            SeatOutcome::Loss => "loss",
            SeatOutcome::Forfeit => "forfeit",
        }
    }
}

/// One seat's result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatResult {
    /// What it came to.
    pub outcome: SeatOutcome,
    /// Scoring points (0-100), when the game is scored.
    pub score: Option<f64>,
    /// Finishing place, 1 best; equal places tie.
    pub rank: usize,
}

/// What the engine and the log say about a finished game.
#[derive(Debug, Clone)]
pub struct FinishedGame<'a> {
    /// The engine's outcome.
    pub outcome: &'a Outcome,
    /// Seat count.
    pub seats: usize,
    /// Seats that forfeited (the turn log) or ended in civil disorder.
    pub gave_up: &'a [Seat],
    /// Seats that forfeited explicitly (the rest of `gave_up` was civil disorder).
    pub forfeited: &'a [Seat],
    /// Each seat's material standing ([`games::seam::Game::strength`]).
    pub strengths: &'a [u32],
    /// The scoring system, for games that are scored.
    pub scoring: Option<Scoring>,
}

/// Each seat's result, by seat. A seat that gave up is never in a win or
/// a draw, and ranks below every seat that did not.
pub fn seat_results(g: &FinishedGame<'_>) -> Vec<SeatResult> {
    let gave_up = |s: Seat| g.gave_up.contains(&s);
    let lost = |s: Seat| {
        if g.forfeited.contains(&s) || gave_up(s) {
            SeatOutcome::Forfeit
        } else {
            SeatOutcome::Loss
        }
    };
    // Who shares the result, and the points each takes.
    let (outcomes, points): (Vec<SeatOutcome>, Vec<f64>) = match g.outcome {
        Outcome::Win(w) => (0..g.seats)
            .map(|s| {
                if s == *w && !gave_up(s) {
                    (SeatOutcome::Win, 100.0)
                } else {
                    (lost(s), 0.0)
                }
            })
            .unzip(),
        Outcome::Draw(v) => {
            let in_draw: Vec<Seat> = v.iter().copied().filter(|s| !gave_up(*s)).collect();
            // Over the powers in the draw, so the draw shares all 100 points
            // even when a power in civil disorder still holds centres.
            let sum_sq: f64 = in_draw
                .iter()
                .map(|&s| {
                    let c = f64::from(g.strengths.get(s).copied().unwrap_or(0));
                    c * c
                })
                .sum();
            (0..g.seats)
                .map(|s| {
                    if !in_draw.contains(&s) {
                        return (lost(s), 0.0);
                    }
                    let share = match g.scoring {
                        Some(Scoring::SoloOnly) => 0.0,
                        Some(Scoring::SumOfSquares) if sum_sq > 0.0 => {
                            let c = f64::from(g.strengths.get(s).copied().unwrap_or(0));
                            100.0 * c * c / sum_sq
                        }
                        _ => 100.0 / in_draw.len() as f64,
                    };
                    (SeatOutcome::Draw, share)
                })
                .unzip()
        }
    };
    // Places: by points, best first; a seat that gave up below all others.
    let key = |s: Seat| -> (u8, f64) {
        let tier = match outcomes[s] {
            SeatOutcome::Win | SeatOutcome::Draw => 0,
            SeatOutcome::Loss => 1,
            SeatOutcome::Forfeit => 2,
        };
        (tier, -points[s])
    };
    (0..g.seats)
        .map(|s| {
            let mine = key(s);
            let ahead = (0..g.seats)
                .filter(|&o| {
                    let k = key(o);
                    k.0 < mine.0 || (k.0 == mine.0 && k.1 < mine.1 - 1e-9)
                })
                .count();
            SeatResult {
                outcome: outcomes[s],
                score: g.scoring.map(|_| (points[s] * 10.0).round() / 10.0),
                rank: ahead + 1,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game<'a>(
        outcome: &'a Outcome,
        strengths: &'a [u32],
        gave_up: &'a [Seat],
        scoring: Scoring,
    ) -> FinishedGame<'a> {
        FinishedGame {
            outcome,
            seats: 7,
            gave_up,
            forfeited: &[],
            strengths,
            scoring: Some(scoring),
        }
    }

    #[test]
    fn draw_size_splits_equally_among_the_powers_in_the_draw() {
        let o = Outcome::Draw(vec![0, 2, 4]);
        let r = seat_results(&game(&o, &[10, 0, 8, 0, 16, 0, 0], &[], Scoring::DrawSize));
        assert_eq!(r[0].score, Some(33.3));
        assert_eq!(r[4].score, Some(33.3));
        assert_eq!(r[1].score, Some(0.0));
        assert_eq!(r[0].outcome, SeatOutcome::Draw);
        assert_eq!(r[1].outcome, SeatOutcome::Loss);
        assert_eq!((r[0].rank, r[2].rank, r[4].rank, r[1].rank), (1, 1, 1, 4));
    }

    #[test]
    fn sum_of_squares_shares_by_centres_squared() {
        let o = Outcome::Draw(vec![0, 2, 4]);
        // 10² + 8² + 16² = 420.
        let r = seat_results(&game(
            &o,
            &[10, 0, 8, 0, 16, 0, 0],
            &[],
            Scoring::SumOfSquares,
        ));
        assert_eq!(r[4].score, Some(61.0));
        assert_eq!(r[0].score, Some(23.8));
        assert_eq!(r[2].score, Some(15.2));
        assert_eq!((r[4].rank, r[0].rank, r[2].rank, r[6].rank), (1, 2, 3, 4));
    }

    #[test]
    fn solo_only_scores_a_solo_and_nothing_else() {
        let draw = Outcome::Draw(vec![0, 1]);
        let r = seat_results(&game(
            &draw,
            &[17, 17, 0, 0, 0, 0, 0],
            &[],
            Scoring::SoloOnly,
        ));
        assert!(r.iter().all(|x| x.score == Some(0.0)));
        assert_eq!(r[0].outcome, SeatOutcome::Draw);
        let solo = Outcome::Win(3);
        let r = seat_results(&game(
            &solo,
            &[0, 0, 0, 18, 0, 0, 0],
            &[],
            Scoring::SoloOnly,
        ));
        assert_eq!(r[3].score, Some(100.0));
        assert_eq!(r[3].outcome, SeatOutcome::Win);
        assert_eq!(r[3].rank, 1);
        assert_eq!(r[0].rank, 2);
    }

    #[test]
    fn civil_disorder_is_a_loss_below_everyone_even_inside_a_draw() {
        let o = Outcome::Draw(vec![0, 1, 2]);
        let r = seat_results(&game(
            &o,
            &[10, 10, 10, 0, 0, 0, 0],
            &[1],
            Scoring::DrawSize,
        ));
        assert_eq!(r[1].outcome, SeatOutcome::Forfeit);
        assert_eq!(r[1].score, Some(0.0));
        assert_eq!(r[0].score, Some(50.0));
        assert_eq!(r[1].rank, 7);
    }
}
