//! Game records: playing a game between two AIs (`simulate`), writing it as
//! JSON lines, and checking that a record reproduces (`replay`).
//!
//! Record format, one JSON object per line:
//! 1. a header `{"game":"puzzle","seed":S,"options":{..},"ai":["a","b"]}`
//!    (needed to rebuild the start position; it has no `turn` field);
//! 2. one [`MoveRecord`] per action (`turn`, `player`, `x`, `y`, `color`,
//!    `size`, `c`, `o`, `w`, `sent_kind`, `sent_count`, `queues`);
//! 3. a last line `{"result": {..}}` (see [`ResultRecord`]).

use super::engine::MoveRecord;
use super::{EndReason, PuzzleDuel, PuzzleOptions, ai};
use crate::seam::{AiBudget, Game, Outcome, Seat};
use serde::{Deserialize, Serialize};

/// The first line of a record: what is needed to rebuild the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordHeader {
    /// Always `"puzzle"`.
    pub game: String,
    /// The game's seed.
    pub seed: u64,
    /// The game's options.
    pub options: PuzzleOptions,
    /// The AI level of seat 0 and seat 1.
    pub ai: [String; 2],
}

/// How the game ended, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// `"win"` or `"draw"`.
    pub outcome: String,
    /// The winning seat, if any.
    pub winner: Option<Seat>,
    /// `"stuck"`, `"turn_limit"` or `"forfeit"`.
    pub reason: String,
    /// The turn in which it ended.
    pub turn: u32,
    /// Each seat's garbage score (`2 * hard + soft`, field and queues) at the end.
    pub scores: [u32; 2],
}

impl ResultRecord {
    /// The result of a finished (or unfinished) game.
    pub fn of(game: &PuzzleDuel) -> ResultRecord {
        let (outcome, winner) = match game.outcome() {
            Some(Outcome::Win(s)) => ("win", Some(s)),
            Some(Outcome::Draw(_)) => ("draw", None),
            None => ("unfinished", None),
        };
        let reason = match game.finish.as_ref().map(|f| &f.reason) {
            Some(EndReason::Stuck { .. }) => "stuck",
            Some(EndReason::TurnLimit { .. }) => "turn_limit",
            Some(EndReason::Forfeit { .. }) => "forfeit",
            None => "none",
        };
        ResultRecord {
            outcome: outcome.into(),
            winner,
            reason: reason.into(),
            turn: game.turn,
            scores: [game.sides[0].score(), game.sides[1].score()],
        }
    }
}

/// A whole recorded game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Seed, options and players.
    pub header: RecordHeader,
    /// Every action in order.
    pub moves: Vec<MoveRecord>,
    /// How it ended.
    pub result: ResultRecord,
}

/// The seed an AI gets for the `n`th action of a game (a fixed mix of the
/// game seed and `n`, so simulations are reproducible).
pub fn ai_seed(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays a game between two AI levels; `budget` is asked for a fresh
/// budget before every decision (so a wall-clock deadline can be set).
pub fn simulate(
    seed: u64,
    options: PuzzleOptions,
    ais: [&str; 2],
    mut budget: impl FnMut() -> AiBudget,
) -> Result<(PuzzleDuel, GameRecord), crate::seam::OptionsError> {
    let mut game = PuzzleDuel::create(options.clone(), seed)?;
    let mut moves = Vec::new();
    let mut n = 0u64;
    while let Some(seat) = game.mover() {
        let a = ai::choose(&game, seat, ais[seat], budget(), ai_seed(seed, n));
        n += 1;
        match game.play(seat, a.x, a.y) {
            Ok(r) => moves.push(r),
            // An AI only names groups; should one ever not, the seat
            // forfeits rather than looping forever.
            Err(_) => {
                game.forfeit(seat);
            }
        }
    }
    let record = GameRecord {
        header: RecordHeader {
            game: "puzzle".into(),
            seed,
            options,
            ai: [ais[0].to_string(), ais[1].to_string()],
        },
        moves,
        result: ResultRecord::of(&game),
    };
    Ok((game, record))
}

impl GameRecord {
    /// The record as JSON lines (header, actions, result), newline-terminated.
    pub fn to_json_lines(&self) -> String {
        let mut out = String::new();
        out.push_str(&serde_json::to_string(&self.header).unwrap_or_default());
        out.push('\n');
        for m in &self.moves {
            out.push_str(&serde_json::to_string(m).unwrap_or_default());
            out.push('\n');
        }
        let res = serde_json::json!({ "result": self.result });
        out.push_str(&res.to_string());
        out.push('\n');
        out
    }
}

/// The outcome of checking a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayReport {
    /// Every action and the result reproduce.
    Ok {
        /// Actions replayed.
        actions: usize,
        /// The reproduced result.
        result: ResultRecord,
    },
    /// The first line that does not reproduce.
    Divergence {
        /// 1-based line number in the record.
        line: usize,
        /// What differs.
        detail: String,
    },
}

/// The largest record `puzzle replay` reads, in bytes: a game of the
/// longest allowed (1000 turns of two actions, under 200 bytes each) is
/// well under half of it.
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;
/// The longest line of a record, in bytes (a header or an action line is
/// under 200; the queues are bounded by the rules).
pub const MAX_LINE_BYTES: usize = 4096;

/// Replays a JSON-lines record and reports the first divergence, or OK.
/// A record that cannot be read at all (or is beyond [`MAX_RECORD_BYTES`]
/// or has a line beyond [`MAX_LINE_BYTES`]) is an `Err`.
pub fn replay(text: &str) -> Result<ReplayReport, String> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "the record is larger than {MAX_RECORD_BYTES} bytes; the longest game is far shorter"
        ));
    }
    if let Some((i, _)) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.len() > MAX_LINE_BYTES)
    {
        return Err(format!(
            "line {} is longer than {MAX_LINE_BYTES} bytes; a record line is one short JSON object",
            i + 1
        ));
    }
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, head) = lines.next().ok_or("the record is empty")?;
    let header: RecordHeader =
        serde_json::from_str(head).map_err(|e| format!("line 1 is not a record header: {e}"))?;
    if header.game != "puzzle" {
        return Err(format!("the record is of `{}`, not `puzzle`", header.game));
    }
    let mut game = PuzzleDuel::create(header.options.clone(), header.seed).map_err(|e| e.0)?;
    for (actions, (i, line)) in lines.enumerate() {
        let lineno = i + 1;
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("line {lineno} is not JSON: {e}"))?;
        if let Some(res) = v.get("result") {
            let want: ResultRecord = serde_json::from_value(res.clone())
                .map_err(|e| format!("line {lineno}: bad result: {e}"))?;
            let got = ResultRecord::of(&game);
            if want != got {
                return Ok(ReplayReport::Divergence {
                    line: lineno,
                    detail: format!("result recorded {want:?}, replayed {got:?}"),
                });
            }
            return Ok(ReplayReport::Ok {
                actions,
                result: got,
            });
        }
        let want: MoveRecord =
            serde_json::from_value(v).map_err(|e| format!("line {lineno}: bad action: {e}"))?;
        let got = match game.play(want.player, want.x, want.y) {
            Ok(r) => r,
            Err(e) => {
                return Ok(ReplayReport::Divergence {
                    line: lineno,
                    detail: format!("the action is refused: {e}"),
                });
            }
        };
        if got != want {
            return Ok(ReplayReport::Divergence {
                line: lineno,
                detail: format!("recorded {want:?}, replayed {got:?}"),
            });
        }
    }
    Err("the record has no result line".into())
}

/// Wins and draws of one pair of AI levels in a tournament.
pub use crate::tournament::PairResult;

/// Plays `games` games for every pair of distinct levels (in list order),
/// through the shared tournament runner.
///
/// Games come in pairs from the same seed with a fair start (both fields
/// identical), the seats swapped in the second game of each pair, so
/// neither the field nor moving first favours a level.
pub fn tournament(
    levels: &[String],
    games: u32,
    seed: u64,
    budget: impl FnMut() -> AiBudget,
) -> Vec<PairResult> {
    let new_game = |game_seed| {
        let options = PuzzleOptions {
            fair_start: true,
            ..PuzzleOptions::default()
        };
        PuzzleDuel::create(options, game_seed)
    };
    // Every game ends by the rules (the fields fill up); the limit only
    // guards against an engine bug looping forever.
    // The default options always make a game; should they not, no pair played.
    crate::tournament::round_robin(levels, games, seed, new_game, budget, 1 << 20)
        .unwrap_or_default()
}
