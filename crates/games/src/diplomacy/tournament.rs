//! Self-play for measuring the AI: `gamehost diplomacy tournament`.

use super::geo::Power;
use super::{Diplomacy, DiplomacyOptions};
use crate::seam::{AiBudget, Game, Outcome};
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
    /// Game number (from 0).
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
    let opts = DiplomacyOptions {
        end_year: Some(end_year),
        ..Default::default()
    };
    let mut g = Diplomacy::new_game(opts, seed).expect("valid options");
    let ai_seat = (game as usize) % 7;
    let level = |s: usize| match lineup {
        Lineup::AllAi => "default",
        Lineup::OneAi if s == ai_seat => "default",
        Lineup::OneAi => "random",
    };
    // A game has at most five phases a year; more means something is stuck.
    let limit = (end_year.saturating_sub(1900) as u32 + 1) * 6;
    let levels: Vec<&str> = (0..7).map(level).collect();
    // Every power's AI in a phase draws from the same seed; its orders
    // still differ because its units do.
    let (_, phases) = play_out(&mut g, &levels, u64::from(limit), |g, s, l, phase| {
        g.ai_action(
            s,
            l,
            AiBudget::iterations(1),
            seed.wrapping_mul(31).wrapping_add(phase),
        )
    });
    let phases = u32::try_from(phases).unwrap_or(u32::MAX);
    let powers: Vec<PowerResult> = Power::ALL
        .iter()
        .map(|&p| PowerResult {
            power: p.name().to_string(),
            player: level(p.index()).to_string(),
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
    let ai_top = (lineup == Lineup::OneAi).then(|| {
        let mine = powers[ai_seat].centres;
        powers
            .iter()
            .enumerate()
            .all(|(i, p)| i == ai_seat || p.centres < mine)
    });
    GameResult {
        game,
        seed,
        powers,
        result,
        year: g.year(),
        phases,
        ai_top,
    }
}
