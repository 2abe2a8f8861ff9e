//! Ratings per server and per kind, leaderboards, profiles and reliability.
//!
//! A game's results and its rating change are written in the transaction
//! that ends it ([`Host::record_results`], called from `finish`), so a crash
//! leaves both or neither. Two-seat games use Glicko-2; games with more
//! seats (Diplomacy) use Weng-Lin, a Bayesian multiplayer model whose values
//! are stored on the Glicko scale (× [`WENG_LIN_SCALE`] around 1500), so
//! every leaderboard reads the same way: the scale makes a rating
//! difference mean the same expected score in both models. The maths is
//! `skillratings`'.

mod read;
mod record;
mod reliability;

use super::scoring::{FinishedGame, Scoring, SeatResult, seat_results};
use super::shared::{is_forgotten, seat_display};
use super::skill::{Skill, update_duel, update_multi};
use super::{AnyGame, GameId, Host, HostError, game_label, require_game};
use games::seam::{Outcome, Seat};
use store::{GameResultRow, GameRow, GameRulesRow, Occupant, RatingRow, SeatRow, Tx};

/// Players per leaderboard page.
pub const LEADERBOARD_PAGE: u32 = 10;
/// Recent games shown on a profile.
pub const PROFILE_RECENT: usize = 5;
/// Reliability points a civil disorder costs.
pub const CIVIL_DISORDER_PENALTY: u32 = 10;

/// What a game's creator chose about rating, scoring and who may join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRules {
    /// Whether the game may change ratings (default yes).
    pub rated: bool,
    /// The scoring system of a game with more than two seats (default draw-size).
    pub scoring: Option<Scoring>,
    /// The least reliability (percent) a player needs to join.
    pub min_reliability: Option<u8>,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            rated: true,
            scoring: None,
            min_reliability: None,
        }
    }
}

impl GameRules {
    fn from_row(r: GameRulesRow) -> GameRules {
        GameRules {
            rated: r.rated,
            scoring: r.scoring.as_deref().and_then(Scoring::parse),
            min_reliability: r.min_reliability,
        }
    }
}

/// A player's reliability in one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reliability {
    /// Turns the player's seats were awaited in (logged turns).
    pub turns_awaited: u32,
    /// Deadlines they let pass without moving.
    pub missed_deadlines: u32,
    /// Times their seat fell into civil disorder.
    pub civil_disorders: u32,
    /// The share of awaited turns moved in time, less
    /// [`CIVIL_DISORDER_PENALTY`] points per civil disorder; 100 for a
    /// newcomer.
    pub percent: u8,
}

impl Reliability {
    fn from_counts(c: store::ReliabilityCounts) -> Reliability {
        let base = if c.turns_awaited == 0 {
            100
        } else {
            let on_time = c.turns_awaited.saturating_sub(c.missed_deadlines);
            on_time * 100 / c.turns_awaited
        };
        let percent = base.saturating_sub(c.civil_disorders * CIVIL_DISORDER_PENALTY);
        Reliability {
            turns_awaited: c.turns_awaited,
            missed_deadlines: c.missed_deadlines,
            civil_disorders: c.civil_disorders,
            percent: percent.min(100) as u8,
        }
    }
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardEntry {
    /// 1-based place.
    pub place: u32,
    /// User id, or `ai:<level>`.
    pub player: String,
    /// Rating.
    pub rating: f64,
    /// Deviation.
    pub deviation: f64,
    /// Rated games played.
    pub games: u32,
}

/// A page of a kind's leaderboard in one server.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    /// The kind.
    pub kind: String,
    /// This page, from 1.
    pub page: u32,
    /// How many pages there are (at least 1).
    pub pages: u32,
    /// How many players are rated.
    pub total: u32,
    /// The page's players, best first.
    pub entries: Vec<LeaderboardEntry>,
    /// The viewer's own line, if they are rated.
    pub viewer: Option<LeaderboardEntry>,
}

/// A player's standing in one kind.
#[derive(Debug, Clone, PartialEq)]
pub struct KindProfile {
    /// The kind.
    pub kind: String,
    /// Rating and deviation, once rated.
    pub rating: Option<(f64, f64)>,
    /// Place on the kind's leaderboard, once rated.
    pub place: Option<u32>,
    /// Finished games (rated or not).
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses (forfeits not included).
    pub losses: u32,
    /// Forfeits and civil disorders.
    pub forfeits: u32,
    /// Wins in a row (positive) or losses in a row (negative) up to now.
    pub streak: i32,
    /// Mean scoring points of scored games, if any.
    pub mean_score: Option<f64>,
    /// Where the player stands against each AI level of the kind (the AI
    /// ladder), from their rating or a newcomer's.
    pub ai_ladder: Vec<super::LevelStanding>,
}

/// One finished game on a profile.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentGame {
    /// The game.
    pub game_id: GameId,
    /// Its kind.
    pub kind: String,
    /// Its server, if any.
    pub guild_id: Option<String>,
    /// Its channel.
    pub channel_id: String,
    /// `win`, `draw`, `loss` or `forfeit`.
    pub result: String,
    /// Scoring points, if scored.
    pub score: Option<f64>,
    /// Rating before and after, if rated.
    pub change: Option<(f64, f64)>,
    /// When it ended (ms).
    pub ended_at: i64,
}

/// What `/game profile` shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// The user.
    pub user_id: String,
    /// One entry per kind played, by kind.
    pub kinds: Vec<KindProfile>,
    /// Reliability in this server.
    pub reliability: Reliability,
    /// The latest finished games, newest first.
    pub recent: Vec<RecentGame>,
}

/// The scope key of a server (or of games outside one).
fn scope_key(guild_id: Option<&str>) -> String {
    guild_id.unwrap_or("").to_string()
}

/// The player key of a seat's occupant.
fn player_key(o: &Occupant) -> String {
    match o {
        Occupant::User(u) => u.clone(),
        Occupant::Ai(level) => format!("ai:{level}"),
    }
}

/// One seat's result with the key of the player (or AI level) holding it.
type KeyedResult<'a> = (&'a SeatRow, String, SeatResult);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::SeatOutcome;
    use crate::skill::{START_DEVIATION, START_RATING, START_VOLATILITY, WENG_LIN_SCALE};
    use skillratings::MultiTeamOutcome;
    use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

    /// skillratings' published Glicko-2 example: two new players, one win.
    #[test]
    fn glicko2_matches_the_crates_published_example() {
        let (a, b) = update_duel(Skill::default(), Skill::default(), SeatOutcome::Win);
        assert_eq!(a.rating.round(), 1662.0);
        assert_eq!(a.deviation.round(), 290.0);
        assert!((a.volatility - 0.05999967537233814).abs() < 1e-12);
        assert_eq!(b.rating.round(), 1338.0);
        assert_eq!(b.deviation.round(), 290.0);
        // A forfeit is the same loss.
        let (_, f) = update_duel(Skill::default(), Skill::default(), SeatOutcome::Forfeit);
        let (_, l) = update_duel(Skill::default(), Skill::default(), SeatOutcome::Loss);
        assert_eq!(f, l);
    }

    /// skillratings' published Weng-Lin example (three players of three
    /// teams: 1st, 3rd, 2nd) through the Glicko-scale conversion: with one
    /// player per team the conversion must give the crate's numbers back.
    #[test]
    fn weng_lin_matches_the_crate_through_the_scale_conversion() {
        let to_skill = |mu: f64, sigma: f64| Skill {
            rating: START_RATING + (mu - 25.0) * WENG_LIN_SCALE,
            deviation: sigma * WENG_LIN_SCALE,
            volatility: 0.0,
        };
        let players = [
            (to_skill(25.1, 5.0), 1),
            (to_skill(44.0, 1.2), 3),
            (to_skill(25.0, 25.0 / 3.0), 2),
        ];
        let ours = update_multi(&players);
        let wl = |mu: f64, sigma: f64| {
            [WengLinRating {
                rating: mu,
                uncertainty: sigma,
            }]
        };
        let (t1, t2, t3) = (wl(25.1, 5.0), wl(44.0, 1.2), wl(25.0, 25.0 / 3.0));
        let theirs = weng_lin_multi_team(
            &[
                (&t1[..], MultiTeamOutcome::new(1)),
                (&t2[..], MultiTeamOutcome::new(3)),
                (&t3[..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        for (o, t) in ours.iter().zip(&theirs) {
            let back = 25.0 + (o.rating - START_RATING) / WENG_LIN_SCALE;
            assert!(
                (back - t[0].rating).abs() < 1e-9,
                "{back} vs {}",
                t[0].rating
            );
            assert!((o.deviation / WENG_LIN_SCALE - t[0].uncertainty).abs() < 1e-9);
        }
        // The winner gains, the favourite who came last loses.
        assert!(ours[0].rating > players[0].0.rating);
        assert!(ours[1].rating < players[1].0.rating);
    }

    /// The crate's published multi-team example, first team's first player:
    /// 25.1 ± 5.0 in a team taking 1st of 3 rises to about 28.
    #[test]
    fn weng_lin_published_multi_team_example() {
        let t1 = [
            WengLinRating {
                rating: 25.1,
                uncertainty: 5.0,
            },
            WengLinRating {
                rating: 24.0,
                uncertainty: 1.2,
            },
            WengLinRating {
                rating: 18.0,
                uncertainty: 6.5,
            },
        ];
        let t2 = [
            WengLinRating {
                rating: 44.0,
                uncertainty: 1.2,
            },
            WengLinRating {
                rating: 32.0,
                uncertainty: 2.0,
            },
            WengLinRating {
                rating: 12.0,
                uncertainty: 3.2,
            },
        ];
        let t3 = [WengLinRating::new(); 3];
        let new = weng_lin_multi_team(
            &[
                (&t1[..], MultiTeamOutcome::new(1)),
                (&t2[..], MultiTeamOutcome::new(3)),
                (&t3[..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        assert_eq!(new[0][0].rating.round(), 28.0);
    }

    /// The display scale: a Weng-Lin difference means the Glicko-2
    /// expected score of the same difference (settled players), and a
    /// newcomer's first seven-player win is about Glicko-2's six wins.
    #[test]
    fn weng_lin_differences_mean_what_glicko_differences_mean() {
        let settled = |rating: f64| Skill {
            rating,
            deviation: 1e-6,
            volatility: START_VOLATILITY,
        };
        for d in [50.0, 200.0, 400.0] {
            let g = crate::expected_score(
                crate::LadderModel::Glicko2,
                settled(1500.0 + d),
                settled(1500.0),
            );
            let w = crate::expected_score(
                crate::LadderModel::WengLin,
                settled(1500.0 + d),
                settled(1500.0),
            );
            // Logistic in both; the same slope to a part in a thousand.
            assert!((g - w).abs() < 0.001, "{d}: glicko {g}, weng-lin {w}");
        }
        // 400 points ahead: about 10 to 1, in both.
        let w = crate::expected_score(
            crate::LadderModel::WengLin,
            settled(1900.0),
            settled(1500.0),
        );
        assert!((w - 10.0 / 11.0).abs() < 0.001, "{w}");
    }

    #[test]
    fn a_first_seven_player_win_gains_about_six_glicko_wins() {
        let new = Skill::newcomer(7);
        assert_eq!(new.deviation.round(), 246.0);
        assert_eq!(Skill::newcomer(2).deviation, START_DEVIATION);
        // A solo: the winner first, the six others share second place.
        let players: Vec<(Skill, usize)> =
            (0..7).map(|s| (new, if s == 0 { 1 } else { 2 })).collect();
        let after = update_multi(&players);
        let gain = after[0].rating - START_RATING;
        assert_eq!(gain.round(), 466.0, "{gain}");
        // On the old scale (×42) the same game gave +660.
        assert_eq!((gain * 42.0 / WENG_LIN_SCALE).round(), 664.0);
        // Glicko-2: a newcomer winning six games against newcomers in one
        // rating period.
        let six =
            crate::update_period(Skill::default(), &[(Skill::default(), SeatOutcome::Win); 6]);
        let glicko_gain = six.rating - START_RATING;
        println!(
            "first seven-player win: weng-lin {gain:+.1}, glicko-2 six wins {glicko_gain:+.1}"
        );
        assert!(
            (350.0..420.0).contains(&glicko_gain) && gain < 1.3 * glicko_gain,
            "weng-lin {gain}, glicko-2 {glicko_gain}"
        );
        // Each loser drops by a sixth as much (one lost comparison to the
        // winner; the ties among them move nothing).
        let loss = START_RATING - after[1].rating;
        assert!((loss - gain / 6.0).abs() < 1.0, "{loss} {gain}");
    }

    #[test]
    fn reliability_counts_missed_turns_and_civil_disorders() {
        let r = |t, m, c| {
            Reliability::from_counts(store::ReliabilityCounts {
                turns_awaited: t,
                missed_deadlines: m,
                civil_disorders: c,
            })
            .percent
        };
        assert_eq!(r(0, 0, 0), 100);
        assert_eq!(r(20, 2, 0), 90);
        assert_eq!(r(20, 2, 1), 80);
        assert_eq!(r(10, 10, 3), 0);
    }
}
