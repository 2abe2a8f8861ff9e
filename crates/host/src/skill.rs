//! The rating model: a player's skill on the Glicko scale and how one game
//! changes it (Glicko-2 for two seats, Weng-Lin for more). It sits below
//! the ratings the host records (`ratings/`) and the AI ladder that
//! compares players with AI levels (`ladder.rs`), which both use it.

use super::scoring::SeatOutcome;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation.
pub const START_DEVIATION: f64 = 350.0;
/// A new player's Glicko-2 volatility.
pub(super) const START_VOLATILITY: f64 = 0.06;
/// Weng-Lin's μ and σ times this, around 1500, give the Glicko scale.
///
/// Why this number: Glicko (like Elo) expects `1 / (1 + 10^(-d/400))` of a
/// player `d` points ahead, a logistic in `d / 173.72` (400 / ln 10);
/// Weng-Lin (Bradley-Terry) expects `1 / (1 + e^(-Δμ/c))` with
/// `c = √(2β² + σ₁² + σ₂²)`, `√2·β = 5.893` between settled players
/// (β = 25/6). So one μ point is worth 173.72 / 5.893 = 29.48 Glicko
/// points, and a difference on a Diplomacy board means what it means on a
/// battle board. (The first scale, 42, made 25 ± 25/3 look like
/// 1500 ± 350 but blew every difference up by 42 / 29.48 = 1.42: the
/// winner of a first seven-player game gained +664. Now it gains +466,
/// near Glicko-2's +380 for six wins in one rating period, which is what
/// finishing first of seven is: Weng-Lin compares every pair of players.)
/// Migration 0007 converted ratings stored on the old scale.
pub const WENG_LIN_SCALE: f64 = 29.4806;
/// A newcomer's deviation in a Weng-Lin kind: Weng-Lin's own prior σ of
/// 25/3 on the Glicko scale (246; a Glicko-2 newcomer has 350).
pub const WENG_LIN_START_DEVIATION: f64 = 25.0 / 3.0 * WENG_LIN_SCALE;
/// A rating as the models see it, on the Glicko scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Skill {
    /// The rating.
    pub rating: f64,
    /// Its deviation (uncertainty).
    pub deviation: f64,
    /// Glicko-2 volatility (unused by Weng-Lin).
    pub volatility: f64,
}

impl Default for Skill {
    fn default() -> Self {
        Skill {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

impl Skill {
    /// A newcomer's skill in a game of `seats` seats: Glicko-2's
    /// 1500 ± 350 for two, Weng-Lin's prior (1500 ± 246) for more.
    pub fn newcomer(seats: usize) -> Skill {
        if seats <= 2 {
            Skill::default()
        } else {
            Skill {
                rating: START_RATING,
                deviation: WENG_LIN_START_DEVIATION,
                volatility: START_VOLATILITY,
            }
        }
    }
}

/// Glicko-2 for one game between two players; `a` is `a`'s result.
pub fn update_duel(a: Skill, b: Skill, result_a: SeatOutcome) -> (Skill, Skill) {
    let g = |s: Skill| Glicko2Rating {
        rating: s.rating,
        deviation: s.deviation,
        volatility: s.volatility,
    };
    let outcome = match result_a {
        SeatOutcome::Win => Outcomes::WIN,
        SeatOutcome::Draw => Outcomes::DRAW,
        SeatOutcome::Loss | SeatOutcome::Forfeit => Outcomes::LOSS,
    };
    let (na, nb) = glicko2(&g(a), &g(b), &outcome, &Glicko2Config::new());
    let s = |r: Glicko2Rating| Skill {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    (s(na), s(nb))
}

/// Weng-Lin for one game of many players, each with its finishing place
/// (1 best, ties equal).
pub fn update_multi(players: &[(Skill, usize)]) -> Vec<Skill> {
    let teams: Vec<[WengLinRating; 1]> = players
        .iter()
        .map(|(s, _)| {
            [WengLinRating {
                rating: 25.0 + (s.rating - START_RATING) / WENG_LIN_SCALE,
                uncertainty: s.deviation / WENG_LIN_SCALE,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(players)
        .map(|(t, (_, rank))| (&t[..], MultiTeamOutcome::new(*rank)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .zip(players)
        .map(|(team, (before, _))| {
            let r = team.first().copied().unwrap_or_default();
            Skill {
                rating: START_RATING + (r.rating - 25.0) * WENG_LIN_SCALE,
                deviation: r.uncertainty * WENG_LIN_SCALE,
                volatility: before.volatility,
            }
        })
        .collect()
}
