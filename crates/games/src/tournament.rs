//! The one tournament runner every game's CLI uses: a seeded round-robin
//! schedule with seat rotation, a loop that plays a game to its end through
//! the seam, per-pair scores, and the statistics printed for them (Wilson
//! interval, Elo difference).
//!
//! Pure like the rest of `games`: no clock, no threads, no I/O. A CLI that
//! wants to time decisions or run fixtures on several threads does so around
//! [`play_out`] and [`fixtures`]; the seeds make the result the same however
//! the fixtures are spread over threads.

use crate::seam::{AiBudget, Game, Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The z value of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// The 95% Wilson score interval of a rate of `score` successes in `games`
/// trials (a draw counts half, so `score` may be fractional). Unlike the
/// normal approximation it never collapses to zero width at 0 or `games`.
/// With no games the interval is the whole of `[0, 1]`.
pub fn wilson_interval(score: f64, games: f64) -> (f64, f64) {
    if games <= 0.0 {
        return (0.0, 1.0);
    }
    let n = games;
    let rate = (score / n).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (rate + z2 / (2.0 * n)) / denom;
    let half = Z95 * (rate * (1.0 - rate) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that an expected score `rate` (0 to 1) implies.
/// The rate is held at least half a game away from 0 and 1 (of `games`
/// games) so a clean sweep gives a large but finite number rather than
/// infinity.
pub fn elo_difference(rate: f64, games: f64) -> f64 {
    let margin = 0.5 / games.max(1.0);
    let p = rate.clamp(margin, 1.0 - margin);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// SplitMix64: derives independent seeds from one.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The AI seed of one decision: `seat`'s move in turn `turn` of a game
/// whose AI seed is `game_ai_seed`.
pub fn decision_seed(game_ai_seed: u64, turn: u64, seat: Seat) -> u64 {
    mix(game_ai_seed ^ mix(turn.wrapping_mul(2).wrapping_add(seat as u64)))
}

/// One game of a two-seat round robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixture {
    /// Index of the pair in [`pairs`] order.
    pub pair: usize,
    /// The game's number within its pair (from 0).
    pub round: u32,
    /// The seat contender `a` plays; `b` plays the other one.
    pub a_seat: Seat,
    /// Seed of the game itself (teams, deals, dice). The two games of a
    /// round pair (2k, 2k+1) share it with the seats swapped, and every
    /// pair plays the same seeds, so luck of the draw cancels out.
    pub game_seed: u64,
    /// Seed the AIs of this game draw their decisions from (see [`decision_seed`]).
    pub ai_seed: u64,
}

/// Every pair `(i, j)`, `i < j`, of `n` contenders in list order.
pub fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// The schedule of a round robin among `contenders` contenders, `games`
/// games per pair (an odd count plays its last game set once), from `seed`:
/// pair by pair, seats alternating game by game.
pub fn fixtures(contenders: usize, games: u32, seed: u64) -> Vec<Fixture> {
    let pair_count = pairs(contenders).len();
    (0..pair_count)
        .flat_map(|pair| (0..games).map(move |round| (pair, round)))
        .enumerate()
        .map(|(k, (pair, round))| Fixture {
            pair,
            round,
            a_seat: (round % 2) as Seat,
            game_seed: mix(seed ^ mix(u64::from(round / 2))),
            ai_seed: mix(seed.wrapping_add(1) ^ mix((k as u64) << 1)),
        })
        .collect()
}

/// Plays `game` to its end (or `turn_limit` turns): each turn, every awaited
/// seat's action comes from `decide(game, seat, level of that seat, turn)`.
/// Returns the outcome (`None` when the turn limit stopped the game) and the
/// number of turns played.
pub fn play_out<G: Game>(
    game: &mut G,
    seat_levels: &[&str],
    turn_limit: u64,
    mut decide: impl FnMut(&G, Seat, &str, u64) -> G::Action,
) -> (Option<Outcome>, u64) {
    let mut turn = 0u64;
    while game.outcome().is_none() && turn < turn_limit {
        // A phase that awaits nobody (a Diplomacy retreat phase with no
        // retreats) still resolves, with no actions, as the host does it.
        let mut actions = BTreeMap::new();
        for seat in game.awaiting() {
            let level = seat_levels.get(seat).copied().unwrap_or("default");
            actions.insert(seat, decide(game, seat, level, turn));
        }
        game.resolve(actions);
        turn += 1;
    }
    (game.outcome(), turn)
}

/// The usual decision: the seat's AI through the seam, with a fresh budget
/// from `budget` and the seed [`decision_seed`] gives.
pub fn ai_decision<G: Game>(
    game_ai_seed: u64,
    mut budget: impl FnMut() -> AiBudget,
) -> impl FnMut(&G, Seat, &str, u64) -> G::Action {
    move |game, seat, level, turn| {
        game.ai_action(
            seat,
            level,
            budget(),
            decision_seed(game_ai_seed, turn, seat),
        )
    }
}

/// Wins and draws of one pair of contenders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairResult {
    /// The first contender.
    pub a: String,
    /// The second contender.
    pub b: String,
    /// Games played.
    pub games: u32,
    /// Games `a` won.
    pub a_wins: u32,
    /// Games `b` won.
    pub b_wins: u32,
    /// Drawn games (and games stopped by a turn limit).
    pub draws: u32,
}

impl PairResult {
    /// An empty score sheet for `a` against `b`.
    pub fn new(a: &str, b: &str) -> Self {
        PairResult {
            a: a.to_string(),
            b: b.to_string(),
            games: 0,
            a_wins: 0,
            b_wins: 0,
            draws: 0,
        }
    }

    /// Counts one finished game in which `a` sat at `a_seat`.
    pub fn add(&mut self, outcome: Option<&Outcome>, a_seat: Seat) {
        self.games += 1;
        match outcome {
            Some(Outcome::Win(s)) if *s == a_seat => self.a_wins += 1,
            Some(Outcome::Win(_)) => self.b_wins += 1,
            _ => self.draws += 1,
        }
    }

    /// `a`'s score rate (a win 1, a draw 1/2), 0 with no games.
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (f64::from(self.a_wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games)
    }

    /// `a`'s score rate, its 95% Wilson interval and the Elo difference
    /// `a − b` it implies: `(rate, low, high, elo)`.
    pub fn stats(&self) -> (f64, f64, f64, f64) {
        let n = f64::from(self.games);
        let rate = self.rate();
        let (lo, hi) = wilson_interval(rate * n, n);
        (rate, lo, hi, elo_difference(rate, n))
    }
}

/// Adds up finished fixtures (with their outcomes) into one result per pair
/// of `names`, in [`pairs`] order.
pub fn tally<'a>(
    names: &[String],
    played: impl IntoIterator<Item = (&'a Fixture, Option<&'a Outcome>)>,
) -> Vec<PairResult> {
    let mut out: Vec<PairResult> = pairs(names.len())
        .into_iter()
        .map(|(i, j)| PairResult::new(&names[i], &names[j]))
        .collect();
    for (f, outcome) in played {
        if let Some(r) = out.get_mut(f.pair) {
            r.add(outcome, f.a_seat);
        }
    }
    out
}

/// The levels of the two seats of fixture `f` among `levels`.
pub fn seat_levels<'a>(levels: &'a [String], f: &Fixture) -> [&'a str; 2] {
    let (i, j) = pairs(levels.len())[f.pair];
    let (a, b) = (levels[i].as_str(), levels[j].as_str());
    if f.a_seat == 0 { [a, b] } else { [b, a] }
}

/// Plays a whole round robin of `levels`, one game after another: every
/// pair `games` games (seats alternating), each game made by `new_game`
/// from its seed, each decision by the seat's AI with a fresh `budget`.
/// A game that cannot be created stops the run with its error.
pub fn round_robin<G: Game, E>(
    levels: &[String],
    games: u32,
    seed: u64,
    mut new_game: impl FnMut(u64) -> Result<G, E>,
    mut budget: impl FnMut() -> AiBudget,
    turn_limit: u64,
) -> Result<Vec<PairResult>, E> {
    let schedule = fixtures(levels.len(), games, seed);
    let mut outcomes = Vec::with_capacity(schedule.len());
    for f in &schedule {
        let mut game = new_game(f.game_seed)?;
        let seats = seat_levels(levels, f);
        let (outcome, _) = play_out(
            &mut game,
            &seats,
            turn_limit,
            ai_decision::<G>(f.ai_seed, &mut budget),
        );
        outcomes.push(outcome);
    }
    Ok(tally(
        levels,
        schedule.iter().zip(outcomes.iter().map(Option::as_ref)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_of_67_in_100_is_the_textbook_interval() {
        let (lo, hi) = wilson_interval(67.0, 100.0);
        assert!(close(lo, 0.57305, 1e-4), "{lo}");
        assert!(close(hi, 0.75437, 1e-4), "{hi}");
    }

    #[test]
    fn wilson_keeps_width_at_the_ends() {
        let (lo, hi) = wilson_interval(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.27754, 1e-4), "{hi}");
        let (lo, hi) = wilson_interval(10.0, 10.0);
        assert!(close(lo, 1.0 - 0.27754, 1e-4), "{lo}");
        assert_eq!(hi, 1.0);
        assert_eq!(wilson_interval(0.0, 0.0), (0.0, 1.0));
    }

    #[test]
    fn elo_matches_the_logistic_table() {
        assert!(close(elo_difference(0.671, 1000.0), 123.8, 0.1));
        assert!(close(elo_difference(0.76, 1000.0), 200.2, 0.1));
        assert!(close(elo_difference(0.5, 10.0), 0.0, 1e-9));
        assert!(close(
            elo_difference(0.25, 100.0),
            -elo_difference(0.75, 100.0),
            1e-9
        ));
    }

    #[test]
    fn elo_of_a_sweep_is_finite_and_grows_with_games() {
        let ten = elo_difference(1.0, 10.0);
        let hundred = elo_difference(1.0, 100.0);
        assert!(ten.is_finite() && hundred.is_finite());
        assert!(hundred > ten && ten > 0.0);
        // Half a game lost of ten: 9.5/10.
        assert!(close(ten, elo_difference(0.95, 1e9), 1e-6));
    }

    #[test]
    fn schedule_rotates_seats_and_shares_seeds_by_round_pair() {
        let f = fixtures(3, 4, 7);
        assert_eq!(f.len(), 3 * 4);
        assert_eq!(pairs(3), vec![(0, 1), (0, 2), (1, 2)]);
        for (k, x) in f.iter().enumerate() {
            assert_eq!(x.pair, k / 4);
            assert_eq!(x.a_seat, k % 2);
        }
        // Games 0 and 1 of a pair share the seed, seats swapped; every pair plays the same seeds.
        assert_eq!(f[0].game_seed, f[1].game_seed);
        assert_ne!(f[0].game_seed, f[2].game_seed);
        assert_eq!(f[0].game_seed, f[4].game_seed);
        // AI seeds differ from game to game.
        assert_ne!(f[0].ai_seed, f[1].ai_seed);
        assert_eq!(fixtures(3, 4, 7), f);
        assert_ne!(fixtures(3, 4, 8)[0].game_seed, f[0].game_seed);
    }

    #[test]
    fn seat_levels_follow_the_rotation() {
        let levels = vec!["x".to_string(), "y".to_string(), "z".to_string()];
        let f = fixtures(3, 2, 1);
        assert_eq!(seat_levels(&levels, &f[0]), ["x", "y"]);
        assert_eq!(seat_levels(&levels, &f[1]), ["y", "x"]);
        assert_eq!(seat_levels(&levels, &f[5]), ["z", "y"]);
    }

    #[test]
    fn tally_scores_by_contender_not_by_seat() {
        let names = vec!["a".to_string(), "b".to_string()];
        let f = fixtures(2, 4, 1);
        let outcomes = [
            Some(Outcome::Win(0)), // a at seat 0 wins
            Some(Outcome::Win(0)), // b at seat 0 wins
            Some(Outcome::Draw(vec![0, 1])),
            None, // stopped: counts as a draw
        ];
        let r = tally(&names, f.iter().zip(outcomes.iter().map(Option::as_ref)));
        assert_eq!(r.len(), 1);
        assert_eq!(
            (r[0].games, r[0].a_wins, r[0].b_wins, r[0].draws),
            (4, 1, 1, 2)
        );
        let (rate, lo, hi, elo) = r[0].stats();
        assert!(close(rate, 0.5, 1e-12) && lo < 0.5 && hi > 0.5 && close(elo, 0.0, 1e-9));
    }
}
