//! Self-play for measuring the AI: `gamehost diplomacy tournament`.

use super::{Diplomacy, DiplomacyAction, DiplomacyOptions};
use crate::seam::{AiBudget, Game, Outcome, Seat};
use crate::tournament::play_out;
use serde::Serialize;

/// Who sits at each power in a tournament game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Lineup {
    /// One `default` AI (rotating over the powers game by game) against six `random` players.
    OneAi,
    /// Seven `default` AIs.
    AllAi,
}

/// One power's line in a tournament game's result.
#[derive(Debug, Clone, Serialize)]
pub struct PowerResult {
    /// The power.
    pub power: String,
    /// The AI level playing it (`default`, `random`).
    pub player: String,
    /// Supply centres at the end.
    pub centres: usize,
}

/// The result of one tournament game.
#[derive(Debug, Clone, Serialize)]
pub struct GameResult {
    /// Game number (from 0; 0 from [`play_levels`], which does not know it).
    pub game: u32,
    /// The game's seed.
    pub seed: u64,
    /// Each power's player and final centre count.
    pub powers: Vec<PowerResult>,
    /// `solo POWER`, `draw P1 P2 ...` or `stall` (the phase limit was hit).
    pub result: String,
    /// Year the game ended in.
    pub year: u16,
    /// Phases played.
    pub phases: u32,
    /// Whether the `default` AI (in a one-AI game) has strictly the most centres.
    pub ai_top: Option<bool>,
}

/// Plays one game with the given lineup to its end (solo, or a draw after `end_year`).
pub fn play(game: u32, seed: u64, lineup: Lineup, end_year: u16) -> GameResult {
    let ai_seat = focus_seat(game);
    let levels: [&str; 7] = std::array::from_fn(|s| match lineup {
        Lineup::AllAi => "default",
        Lineup::OneAi if s == ai_seat => "default",
        Lineup::OneAi => "random",
    });
    let focus = (lineup == Lineup::OneAi).then_some(ai_seat);
    GameResult {
        game,
        ..play_levels(seed, levels, focus, end_year, || AiBudget::iterations(1))
    }
}

/// The seat of the measured AI in game `game` of a one-against-six
/// tournament: it rotates over the seven powers game by game.
pub fn focus_seat(game: u32) -> usize {
    (game as usize) % 7
}

/// Plays one game with the AI level `levels[s]` at each power `s` to its
/// end (solo, agreed draw, or a draw after `end_year`), each decision with
/// a fresh `budget`. `focus` is the seat whose top finish
/// [`GameResult::ai_top`] reports.
pub fn play_levels(
    seed: u64,
    levels: [&str; 7],
    focus: Option<usize>,
    end_year: u16,
    mut budget: impl FnMut() -> AiBudget,
) -> GameResult {
    play_with(seed, levels, focus, end_year, |g, s, l, decision_seed| {
        g.ai_action(s, l, budget(), decision_seed)
    })
}

/// [`play_levels`] with each decision made by `decide(game, seat, level,
/// seed)`, so a caller can time the AIs (the games crate has no clock).
pub fn play_with(
    seed: u64,
    levels: [&str; 7],
    focus: Option<usize>,
    end_year: u16,
    decide: impl FnMut(&Diplomacy, Seat, &str, u64) -> DiplomacyAction,
) -> GameResult {
    play_on_map("", seed, &levels, focus, end_year, decide)
}

/// The number of powers on the map `map` names (`""`: the standard map),
/// or `None` if no such map is known.
pub fn power_count(map: &str) -> Option<usize> {
    let opts = DiplomacyOptions {
        map: map.to_string(),
        ..Default::default()
    };
    Diplomacy::new_game(opts, 0)
        .ok()
        .map(|g| g.map().power_count())
}

/// The first year of a game on the map `map` names (`""`: the standard
/// map; 1901 if no such map is known).
pub fn start_year(map: &str) -> u16 {
    let opts = DiplomacyOptions {
        map: map.to_string(),
        ..Default::default()
    };
    Diplomacy::new_game(opts, 0).map_or(1901, |g| g.year())
}

/// [`play_with`] on the map `map` names (`""`: the standard map), with one
/// level per power of that map in `levels`.
pub fn play_on_map(
    map: &str,
    seed: u64,
    levels: &[&str],
    focus: Option<usize>,
    end_year: u16,
    mut decide: impl FnMut(&Diplomacy, Seat, &str, u64) -> DiplomacyAction,
) -> GameResult {
    let opts = DiplomacyOptions {
        map: map.to_string(),
        end_year: Some(end_year),
        ..Default::default()
    };
    let mut g = Diplomacy::new_game(opts, seed).expect("valid options");
    // A game has at most five phases a year; more means something is stuck.
    let limit = (end_year.saturating_sub(g.year()) as u32 + 2) * 6;
    // Every power's AI in a phase draws from the same seed; its orders
    // still differ because its units do.
    let (_, phases) = play_out(&mut g, levels, u64::from(limit), |g, s, l, phase| {
        decide(g, s, l, seed.wrapping_mul(31).wrapping_add(phase))
    });
    let phases = u32::try_from(phases).unwrap_or(u32::MAX);
    let powers: Vec<PowerResult> = g
        .map()
        .powers()
        .map(|p| PowerResult {
            power: g.power_name(p).to_string(),
            player: levels
                .get(p.index())
                .copied()
                .unwrap_or("default")
                .to_string(),
            centres: g.centre_count(p),
        })
        .collect();
    let result = match g.outcome() {
        Some(Outcome::Win(s)) => format!("solo {}", g.seat_name(s)),
        Some(Outcome::Draw(v)) => format!(
            "draw {}",
            v.iter()
                .map(|&s| g.seat_name(s))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        None => "stall".to_string(),
    };
    let ai_top = focus.map(|f| {
        let mine = powers[f].centres;
        powers
            .iter()
            .enumerate()
            .all(|(i, p)| i == f || p.centres < mine)
    });
    GameResult {
        game: 0,
        seed,
        powers,
        result,
        year: g.year(),
        phases,
        ai_top,
    }
}
