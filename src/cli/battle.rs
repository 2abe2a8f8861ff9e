//! `gamehost battle ...`: the battle's tools — an AI tournament and a
//! roster checker.

use super::tournament::{SeatTimes, timed_ai_decision};
use anyhow::{Context, bail};
use games::battle::ai::Level;
use games::battle::engine::Setup;
use games::battle::rules::data::Roster;
use games::battle::{Battle, BattleOptions};
use games::seam::Outcome;
use games::tournament::{elo_difference, fixtures, pairs, play_out, seat_levels, tally};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The battle's command-line tools.
#[derive(clap::Args, Debug)]
pub struct BattleArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BattleCommand,
}

/// The battle subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum BattleCommand {
    /// Play every pair of AIs on random teams (sides swapped) and print win
    /// rates with 95% confidence intervals and Elo differences.
    Tournament(TournamentArgs),
    /// Exploitability of an AI level on small battles the exact solver
    /// takes: its expected loss against the solver's equilibrium and what a
    /// one-move exploiter that knows its action distribution gains.
    Exploit(ExploitArgs),
    /// Fit the search's leaf evaluation to exactly solved small battles
    /// and print the fitted weights next to the hand-set ones.
    FitEval(FitEvalArgs),
    /// Load a roster file and report its problems (or a summary).
    CheckRoster {
        /// The TOML rule file.
        file: PathBuf,
    },
}

/// Options of `gamehost battle tournament`.
#[derive(clap::Args, Debug, Clone)]
pub struct TournamentArgs {
    /// Comma-separated AI levels, e.g. `random,mc:1000,default`.
    #[arg(long, value_delimiter = ',', required = true)]
    pub ai: Vec<String>,
    /// Games per pair of AIs (an odd count plays the last team set once).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed for teams, dice and AIs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Wall-clock limit per decision in ms (default: each AI's own
    /// iteration/playout count, which makes the run reproducible).
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// Print `{"pairs": [...]}` JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Monsters per team.
    #[arg(long, default_value_t = 3)]
    pub team_size: usize,
    /// A roster file instead of the built-in one.
    #[arg(long)]
    pub roster: Option<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Options of `gamehost battle exploit`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExploitArgs {
    /// The AI level to measure, e.g. `default`.
    #[arg(long, default_value = "default")]
    pub ai: String,
    /// Seeded positions to try (those the solver or the seat cannot use are skipped).
    #[arg(long, default_value_t = 100)]
    pub positions: u64,
    /// Decisions sampled per position to estimate the AI's distribution.
    #[arg(long, default_value_t = 32)]
    pub samples: u32,
    /// Seed of the positions and of the AI's seed stream.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Iterations per decision (default: the level's own count; reproducible).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Wall-clock limit per decision in ms instead (not reproducible).
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// Monsters per team (the solver needs small battles).
    #[arg(long, default_value_t = 2)]
    pub team_size: usize,
    /// The most positions the solver may enumerate (larger battles are skipped).
    #[arg(long, default_value_t = games::battle::solver::EXACT_MAX_STATES)]
    pub max_states: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Random turns played before a measured position: 2-9, so most 2-a-side
/// positions fall under the solver's state cap.
const EXPLOIT_ADVANCE: std::ops::Range<u32> = 2..10;

/// The summary of an exploitability run.
#[derive(Debug, Clone)]
pub struct ExploitSummary {
    /// Positions measured.
    pub positions: usize,
    /// Mean loss against the solver and its 95% half-width (score points).
    pub loss: (f64, f64),
    /// Mean one-move exploiter gain and its 95% half-width (score points).
    pub gain: (f64, f64),
}

/// `work` of every index below `count` on `threads` threads: the indices
/// that gave a result, in index order (so the result does not depend on
/// the threads).
fn indexed_in_parallel<T: Send>(
    count: u64,
    threads: usize,
    work: impl Fn(u64) -> Option<T> + Sync,
) -> Vec<(u64, T)> {
    let next = std::sync::atomic::AtomicU64::new(0);
    let results: Mutex<Vec<(u64, T)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= count {
                        break;
                    }
                    if let Some(r) = work(k) {
                        results
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((k, r));
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|r| r.0);
    results
}

/// Runs `gamehost battle exploit`.
pub fn exploit(e: &ExploitArgs) -> anyhow::Result<ExploitSummary> {
    use games::battle::ai::exploit;
    let Some(level) = Level::parse(&e.ai) else {
        bail!(
            "unknown AI `{}`: use default, search:N, duct, hedge, mix, greedy, random, mc:N or exact",
            e.ai
        );
    };
    if !(1..=3).contains(&e.team_size) {
        bail!(
            "--team-size is 1 to 3 for the exact solver, got {}",
            e.team_size
        );
    }
    if e.samples == 0 || e.samples > 10_000 {
        bail!("--samples is 1 to 10000, got {}", e.samples);
    }
    let roster = Roster::builtin().clone();
    let results = indexed_in_parallel(e.positions, e.threads, |k| {
        let (setup, pos, seat) =
            exploit::sample_position(&roster, e.team_size, EXPLOIT_ADVANCE, e.seed, k)?;
        let budget = games::seam::AiBudget {
            iterations: e.iterations,
            deadline: super::tournament::ai_budget(e.budget_ms).deadline,
        };
        exploit::measure(
            &setup,
            &pos,
            seat,
            &level,
            &budget,
            e.samples,
            e.seed ^ k,
            e.max_states,
        )
    });
    let losses: Vec<f64> = results.iter().map(|r| r.1.loss).collect();
    let gains: Vec<f64> = results.iter().map(|r| r.1.gain).collect();
    Ok(ExploitSummary {
        positions: results.len(),
        loss: exploit::mean_interval(&losses),
        gain: exploit::mean_interval(&gains),
    })
}

/// Options of `gamehost battle fit-eval`.
#[derive(clap::Args, Debug, Clone)]
pub struct FitEvalArgs {
    /// Seeded battles to solve (those over the state cap are skipped).
    #[arg(long, default_value_t = 300)]
    pub roots: u64,
    /// Positions drawn from each solve.
    #[arg(long, default_value_t = 200)]
    pub per_root: usize,
    /// Seed of the battles and of the drawing.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most positions one solve may enumerate.
    #[arg(long, default_value_t = games::battle::solver::EXACT_MAX_STATES)]
    pub max_states: usize,
    /// Worker threads (the result does not depend on them).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// What `gamehost battle fit-eval` found.
#[derive(Debug, Clone)]
pub struct FitEvalSummary {
    /// Battles solved.
    pub roots: usize,
    /// Positions fitted on (and, in the second half of the roots, tested on).
    pub samples: usize,
    /// The fitted weights (on the first half of the roots).
    pub fitted: games::battle::ai::eval::Weights,
    /// Mean squared error on the held-out half: hand-set, then fitted.
    pub held_out_error: (f64, f64),
}

/// Runs `gamehost battle fit-eval`: solves `roots` seeded 2-a-side
/// battles, fits on the first half of them and reports the error of both
/// weightings on the second half, so the comparison is out of sample.
pub fn fit_eval(a: &FitEvalArgs) -> anyhow::Result<FitEvalSummary> {
    use games::battle::ai::{eval::Weights, fit};
    if !(2..=100_000).contains(&a.roots) {
        bail!("--roots is 2 to 100000, got {}", a.roots);
    }
    if !(1..=100_000).contains(&a.per_root) {
        bail!("--per-root is 1 to 100000, got {}", a.per_root);
    }
    let roster = Roster::builtin().clone();
    let solved = indexed_in_parallel(a.roots, a.threads, |k| {
        fit::solved_samples(&roster, 2, a.seed, k, a.per_root, a.max_states)
    });
    if solved.len() < 2 {
        bail!(
            "only {} of {} battles could be solved under {} states: raise --roots or --max-states",
            solved.len(),
            a.roots,
            a.max_states
        );
    }
    let half = solved.len() / 2;
    let train: Vec<fit::Sample> = solved[..half].iter().flat_map(|r| r.1.clone()).collect();
    let test: Vec<fit::Sample> = solved[half..].iter().flat_map(|r| r.1.clone()).collect();
    let fitted = fit::fit(&train);
    Ok(FitEvalSummary {
        roots: solved.len(),
        samples: train.len() + test.len(),
        fitted,
        held_out_error: (
            fit::mean_squared_error(&test, &Weights::HAND),
            fit::mean_squared_error(&test, &fitted),
        ),
    })
}

/// Runs a battle subcommand.
pub fn run(args: BattleArgs) -> anyhow::Result<()> {
    match args.command {
        BattleCommand::Tournament(t) => {
            let result = tournament(&t)?;
            let mut out = std::io::stdout().lock();
            if t.json {
                writeln!(out, "{}", result.json())?;
            } else {
                write!(out, "{}", result.table())?;
            }
            Ok(())
        }
        BattleCommand::Exploit(e) => {
            let r = exploit(&e)?;
            println!(
                "{}: {} positions ({} a side, {} samples each, seed {}): loss vs the solver {:.2} ± {:.2} points a decision; one-move exploiter gains {:.2} ± {:.2} points",
                e.ai,
                r.positions,
                e.team_size,
                e.samples,
                e.seed,
                r.loss.0,
                r.loss.1,
                r.gain.0,
                r.gain.1
            );
            Ok(())
        }
        BattleCommand::FitEval(a) => {
            let r = fit_eval(&a)?;
            let w = r.fitted;
            println!(
                "{} battles solved, {} positions (seed {}): fitted tanh({:.3} race + {:.3} material + {:.3} alive); held-out mean squared error {:.4} hand-set, {:.4} fitted",
                r.roots,
                r.samples,
                a.seed,
                w.race,
                w.material,
                w.alive,
                r.held_out_error.0,
                r.held_out_error.1
            );
            Ok(())
        }
        BattleCommand::CheckRoster { file } => {
            let r = crate::operator_file::load_roster(&file)?;
            println!(
                "{}: {} types, {} monsters, alpha {}, beta {}, turn limit {}.",
                file.display(),
                r.types.len(),
                r.monsters.len(),
                r.alpha,
                r.beta,
                r.turn_limit
            );
            Ok(())
        }
    }
}

/// The result of one pair of AIs (the runner's score sheet).
pub use games::tournament::PairResult;

/// The whole tournament.
#[derive(Debug, Clone)]
pub struct TournamentResult {
    /// Every pair in command-line order.
    pub pairs: Vec<PairResult>,
    /// Mean decision time per AI (ms), by AI name.
    pub decision_ms: Vec<(String, f64)>,
}

impl TournamentResult {
    /// The JSON form: `{"pairs": [{"a", "b", "games", "a_wins", "b_wins", "draws"}]}`.
    pub fn json(&self) -> String {
        serde_json::json!({ "pairs": self.pairs }).to_string()
    }

    /// A Markdown table of the results: `a`'s score with its 95% Wilson
    /// interval, and the Elo differences of the score and of the interval's ends.
    pub fn table(&self) -> String {
        let mut s = String::from(
            "| A | B | games | A wins | B wins | draws | A score (95% CI) | Elo A-B (95% CI) |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for p in &self.pairs {
            let (rate, lo, hi, elo) = p.stats();
            let n = f64::from(p.games);
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {:.1}% ({:.1} .. {:.1}) | {:+.0} ({:+.0} .. {:+.0}) |\n",
                p.a,
                p.b,
                p.games,
                p.a_wins,
                p.b_wins,
                p.draws,
                rate * 100.0,
                lo * 100.0,
                hi * 100.0,
                elo,
                elo_difference(lo, n),
                elo_difference(hi, n)
            ));
        }
        s.push_str("\nMean decision time: ");
        let t: Vec<String> = self
            .decision_ms
            .iter()
            .map(|(n, ms)| format!("{n} {ms:.1} ms"))
            .collect();
        s.push_str(&t.join(", "));
        s.push('\n');
        s
    }
}

/// A finished game: the outcome and each seat's total decision time and count.
type GameResult = (Option<Outcome>, SeatTimes);

/// Runs the tournament described by `t`.
pub fn tournament(t: &TournamentArgs) -> anyhow::Result<TournamentResult> {
    let mut names = Vec::new();
    for name in &t.ai {
        if Level::parse(name).is_none() {
            bail!(
                "unknown AI `{name}`: use default, search:N, duct, hedge, mix, greedy, random, mc, mc:N or exact"
            );
        }
        names.push(name.clone());
    }
    if names.len() < 2 {
        bail!("--ai needs at least two AIs, e.g. --ai random,default");
    }
    let Ok(games) = u32::try_from(t.games) else {
        bail!("--games is at most {}, got {}", u32::MAX, t.games);
    };
    let options = BattleOptions {
        team_size: t.team_size,
        ..Default::default()
    };
    // The operator's own command line may name a file; it is read like the
    // config's roster: bounded, regular files only, never quoted.
    let roster = match t.roster.as_deref().map(str::trim) {
        None | Some("") => Roster::builtin().clone(),
        Some(path) => crate::operator_file::load_roster(std::path::Path::new(path))?,
    };
    // The runner's schedule: a game pair 2k, 2k+1 shares teams and battle
    // seed, sides swapped; the seeds make the result independent of threads.
    let jobs = fixtures(names.len(), games, t.seed);
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..t.threads.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(f) = jobs.get(k) else { break };
                    let mut battle = match Battle::with_roster(&roster, &options, f.game_seed) {
                        Ok(b) => b,
                        Err(e) => {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.0);
                            break;
                        }
                    };
                    let mut times = vec![(Duration::ZERO, 0u32); 2];
                    let (outcome, _) = play_out(
                        &mut battle,
                        &seat_levels(&names, f),
                        u64::MAX,
                        timed_ai_decision::<Battle>(f.ai_seed, t.budget_ms, &mut times),
                    );
                    results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some((outcome, times));
                    let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                    if d.is_multiple_of(50) && !t.json {
                        eprintln!("battle tournament: {d}/{} games", jobs.len());
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or(None) {
        bail!(e);
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut played = Vec::with_capacity(jobs.len());
    let mut time = vec![(Duration::ZERO, 0u32); names.len()];
    let all_pairs = pairs(names.len());
    for (f, r) in jobs.iter().zip(&results) {
        let (outcome, tm) = r.as_ref().context("a tournament game did not finish")?;
        let (i, j) = all_pairs[f.pair];
        for (seat, (d, c)) in tm.iter().enumerate() {
            let who = if seat == f.a_seat { i } else { j };
            time[who].0 += *d;
            time[who].1 += c;
        }
        played.push((f, outcome.as_ref()));
    }
    let decision_ms = names
        .iter()
        .zip(&time)
        .map(|(n, (d, c))| (n.clone(), d.as_secs_f64() * 1000.0 / (*c).max(1) as f64))
        .collect();
    Ok(TournamentResult {
        pairs: tally(&names, played),
        decision_ms,
    })
}

/// The context of a fresh battle (for benches): a random `n`-v-`n` on the built-in roster.
pub fn sample_setup(n: usize, seed: u64) -> anyhow::Result<Setup> {
    let options = BattleOptions {
        team_size: n,
        ..Default::default()
    };
    let b =
        Battle::with_roster(Roster::builtin(), &options, seed).map_err(|e| anyhow::anyhow!(e.0))?;
    Ok(b.setup().clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    // The report cross-checks the battle command, which it sits below.
    use crate::cli::tournament::{ReportArgs, run_battles};

    /// A sweep is not certainty: the old normal approximation printed
    /// `100.0% ± 0.0` and an Elo interval of zero width for 10 wins in 10.
    #[test]
    fn a_sweep_keeps_a_wide_interval_in_the_table() {
        let r = TournamentResult {
            pairs: vec![PairResult {
                a: "default".into(),
                b: "random".into(),
                games: 10,
                a_wins: 10,
                b_wins: 0,
                draws: 0,
            }],
            decision_ms: vec![],
        };
        let table = r.table();
        assert!(
            table.contains("| 100.0% (72.2 .. 100.0) | +512 (+166 .. +512) |"),
            "{table}"
        );
    }

    /// The report's runner plays the battle command's schedule: same seeds,
    /// same games, same W/D/L; and its table carries every column.
    #[test]
    fn the_report_reproduces_the_battle_tournament_from_its_seed() {
        let args = ReportArgs {
            game: "battle".into(),
            ai: vec!["greedy".into(), "random".into()],
            games: 8,
            seed: 4,
            budget_ms: None,
            threads: 2,
        };
        let a = {
            let mut a = args.clone();
            a.threads = 1;
            a
        };
        let battle = tournament(&TournamentArgs {
            ai: args.ai.clone(),
            games: 8,
            seed: 4,
            budget_ms: None,
            json: true,
            team_size: 3,
            roster: None,
            threads: 1,
        })
        .unwrap();
        let run = |args: &ReportArgs| run_battles(args).unwrap();
        let (one, two) = (run(&a), run(&args));
        assert_eq!(one.lines[0].result, battle.pairs[0]);
        assert_eq!(two.lines[0].result, battle.pairs[0]);
        let table = two.table();
        assert!(
            table.contains("| A W/D/L |") && table.contains("| own iterations |"),
            "{table}"
        );
        let p = &battle.pairs[0];
        assert!(
            table.contains(&format!(
                "| greedy | random | 8 | {}/{}/{} |",
                p.a_wins, p.draws, p.b_wins
            )),
            "{table}"
        );
    }
}
