//! `gamehost puzzle ...`: simulate a game between AIs, replay a record,
//! run a tournament between AI levels.

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
        PuzzleCommand::Replay { file } => {
            let max = record::MAX_RECORD_BYTES;
            let bytes = if file.as_os_str() == "-" {
                read_all_capped(&mut std::io::stdin().lock(), max)?
            } else {
                let mut f = std::fs::File::open(&file)
                    .with_context(|| format!("reading {}", file.display()))?;
                read_all_capped(&mut f, max)
                    .with_context(|| format!("reading {}", file.display()))?
            };
            let Some(bytes) = bytes else {
                bail!("the record is larger than {max} bytes; the longest game is far shorter");
            };
            let text = String::from_utf8(bytes).map_err(|_| {
                anyhow::anyhow!("the record is not UTF-8 text; records are JSON lines")
            })?;
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
