//! `gamehost puzzle ...`: simulate a game between AIs, replay a record,
//! draw a position of a record, run a tournament between AI levels.

use anyhow::{Context, bail};
use games::puzzle::record::{self, PairResult, ReplayReport};
use games::puzzle::{PuzzleDuel, PuzzleOptions, notation};
use games::seam::{AiBudget, Game};
use host::limits::read_all_capped;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `gamehost puzzle`.
#[derive(clap::Args, Debug)]
pub struct PuzzleArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: PuzzleCommand,
}

/// The puzzle subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PuzzleCommand {
    /// Play one game between two AIs and print every action and the result.
    Simulate {
        /// The game's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// AI level of seat 0, then of seat 1 (give `--ai` twice).
        #[arg(long = "ai", num_args = 1)]
        ai: Vec<String>,
        /// Print JSON lines (header, one object per action, result).
        #[arg(long)]
        json: bool,
        /// Both fields start identical.
        #[arg(long)]
        fair: bool,
        /// Wall-clock limit per AI decision, in milliseconds.
        #[arg(long)]
        budget_ms: Option<u64>,
    },
    /// Check that a record written by `simulate --json` reproduces (`-` reads stdin).
    Replay {
        /// The record file.
        file: PathBuf,
    },
    /// Draw a position of a record written by `simulate --json` as a PNG
    /// (stdout): both fields at the end of a turn, by default the last.
    Render {
        /// The record file (`-` reads stdin).
        file: PathBuf,
        /// The turn whose end is drawn (0: the start; default: the end of the game).
        #[arg(long, value_name = "N")]
        turn: Option<u32>,
    },
    /// Play every pair of AI levels against each other.
    Tournament {
        /// Comma-separated AI levels, e.g. `random,greedy,default`.
        #[arg(long, value_delimiter = ',', default_value = "random,greedy,default")]
        ai: Vec<String>,
        /// Games per pair.
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Base seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Wall-clock limit per AI decision, in milliseconds.
        #[arg(long)]
        budget_ms: Option<u64>,
        /// Print `{"pairs": [...]}` as JSON.
        #[arg(long)]
        json: bool,
    },
}

fn budget_fn(ms: Option<u64>) -> impl FnMut() -> AiBudget {
    move || super::tournament::ai_budget(ms)
}

fn check_levels(levels: &[String]) -> anyhow::Result<()> {
    for l in levels {
        let name = l.split(':').next().unwrap_or("");
        if !<PuzzleDuel as Game>::ai_levels().contains(&name) {
            bail!(
                "unknown AI level `{l}`; the levels are {}",
                <PuzzleDuel as Game>::ai_levels().join(", ")
            );
        }
    }
    Ok(())
}

/// Runs `gamehost puzzle ...`.
pub fn run(args: PuzzleArgs) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.command {
        PuzzleCommand::Simulate {
            seed,
            ai,
            json,
            fair,
            budget_ms,
        } => {
            let ai = match ai.len() {
                0 => vec!["default".to_string(), "default".to_string()],
                1 => vec![ai[0].clone(), ai[0].clone()],
                2 => ai,
                n => bail!("give --ai once or twice (one level per seat), not {n} times"),
            };
            check_levels(&ai)?;
            let options = PuzzleOptions {
                fair_start: fair,
                ..PuzzleOptions::default()
            };
            let (game, rec) =
                record::simulate(seed, options, [&ai[0], &ai[1]], budget_fn(budget_ms))
                    .map_err(|e| anyhow::anyhow!(e.0))?;
            if json {
                out.write_all(rec.to_json_lines().as_bytes())?;
            } else {
                writeln!(out, "puzzle seed {seed}: P1 = {}, P2 = {}", ai[0], ai[1])?;
                for m in &rec.moves {
                    let sent = match m.sent_kind {
                        Some(k) => format!("{} {}", m.sent_count, k.name()),
                        None => "nothing".into(),
                    };
                    let q0: usize = m.queues[0].iter().sum();
                    let q1: usize = m.queues[1].iter().sum();
                    writeln!(
                        out,
                        "T{:<3} P{} {:<3} ({},{}) {} {:<2} c={} o={} w={} sent {} | queues P1 {:?} ({q0}) P2 {:?} ({q1})",
                        m.turn,
                        m.player + 1,
                        notation::format_cell(m.x, m.y),
                        m.x,
                        m.y,
                        m.color,
                        m.size,
                        m.c,
                        m.o,
                        m.w,
                        sent,
                        m.queues[0],
                        m.queues[1]
                    )?;
                }
                writeln!(out, "{}", game.text_board())?;
                writeln!(out, "result: {}", game.status_line())?;
            }
        }
        PuzzleCommand::Render { file, turn } => {
            let text = read_record(&file)?;
            let game = position_at(&text, turn).map_err(anyhow::Error::msg)?;
            out.write_all(&render::render_puzzle_png(&game)?)?;
        }
        PuzzleCommand::Replay { file } => {
            let text = read_record(&file)?;
            match record::replay(&text).map_err(|e| anyhow::anyhow!(e))? {
                ReplayReport::Ok { actions, result } => {
                    writeln!(
                        out,
                        "OK: {actions} actions reproduce; result {} {:?} ({}) in turn {}",
                        result.outcome, result.winner, result.reason, result.turn
                    )?;
                }
                ReplayReport::Divergence { line, detail } => {
                    bail!("divergence at line {line}: {detail}");
                }
            }
        }
        PuzzleCommand::Tournament {
            ai,
            games,
            seed,
            budget_ms,
            json,
        } => {
            check_levels(&ai)?;
            if ai.len() < 2 {
                bail!("a tournament needs at least two AI levels");
            }
            let pairs = record::tournament(&ai, games, seed, budget_fn(budget_ms));
            if json {
                writeln!(out, "{}", serde_json::json!({ "pairs": pairs }))?;
            } else {
                write!(out, "{}", tournament_table(&pairs))?;
            }
        }
    }
    Ok(())
}

/// A record file's text (`-`: stdin), refused beyond [`record::MAX_RECORD_BYTES`].
fn read_record(file: &std::path::Path) -> anyhow::Result<String> {
    let max = record::MAX_RECORD_BYTES;
    let bytes = if file.as_os_str() == "-" {
        read_all_capped(&mut std::io::stdin().lock(), max)?
    } else {
        let mut f =
            std::fs::File::open(file).with_context(|| format!("reading {}", file.display()))?;
        read_all_capped(&mut f, max).with_context(|| format!("reading {}", file.display()))?
    };
    let Some(bytes) = bytes else {
        bail!("the record is larger than {max} bytes; the longest game is far shorter");
    };
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("the record is not UTF-8 text; records are JSON lines"))
}

/// The position of a record (as `simulate --json` writes it) at the end
/// of `turn` (0: the start; `None`: the end of the game). The record must
/// reproduce (as `puzzle replay` checks), so the drawn position is the one
/// the game really reached.
pub fn position_at(text: &str, turn: Option<u32>) -> Result<PuzzleDuel, String> {
    if let ReplayReport::Divergence { line, detail } = record::replay(text)? {
        return Err(format!(
            "the record does not reproduce at line {line} ({detail}); `puzzle replay` shows why"
        ));
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: record::RecordHeader =
        serde_json::from_str(lines.next().unwrap_or_default()).map_err(|e| e.to_string())?;
    let mut moves: Vec<games::puzzle::MoveRecord> = Vec::new();
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
        if v.get("result").is_some() {
            break;
        }
        moves.push(serde_json::from_value(v).map_err(|e| e.to_string())?);
    }
    let last = moves.last().map_or(0, |m| m.turn);
    let turn = turn.unwrap_or(last);
    if turn > last {
        return Err(format!(
            "the game ended in turn {last}; give --turn from 0 (the start) to {last}"
        ));
    }
    let mut game = PuzzleDuel::create(header.options, header.seed).map_err(|e| e.0)?;
    for m in moves.iter().take_while(|m| m.turn <= turn) {
        game.play(m.player, m.x, m.y).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// The human tournament table: `a`'s score rate with its 95% Wilson
/// interval and the Elo difference it implies.
pub fn tournament_table(pairs: &[PairResult]) -> String {
    let mut s = String::from(
        "a          b          games  a_wins b_wins draws  a_rate  95% CI          Elo(a-b)\n",
    );
    for p in pairs {
        let (rate, lo, hi, elo) = p.stats();
        s.push_str(&format!(
            "{:<10} {:<10} {:>5}  {:>6} {:>6} {:>5}  {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {:>+7.0}\n",
            p.a,
            p.b,
            p.games,
            p.a_wins,
            p.b_wins,
            p.draws,
            100.0 * rate,
            100.0 * lo,
            100.0 * hi,
            elo
        ));
    }
    s
}
