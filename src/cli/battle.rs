//! `gamehost battle ...`: the battle's tools — an AI tournament and a
//! roster checker.

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use crate::games::battle::ai::{self, Level};
use crate::games::battle::engine::{Ctx, Res};
use crate::games::battle::rules::data::Roster;
use crate::games::battle::{Battle, BattleOptions};
use crate::games::seam::AiBudget;
use crate::host::ThinkingDeadline;
use anyhow::{Context, bail};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
        BattleCommand::CheckRoster { file } => {
            let r = super::operator_file::load_roster(&file)?;
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

/// The result of one pair of AIs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairResult {
    /// First AI as given.
    pub a: String,
    /// Second AI as given.
    pub b: String,
    /// Games played.
    pub games: usize,
    /// Wins of `a`.
    pub a_wins: usize,
    /// Wins of `b`.
    pub b_wins: usize,
    /// Draws.
    pub draws: usize,
}

impl PairResult {
    /// `a`'s score (win 1, draw 1/2) and its 95% confidence half-width.
    pub fn score(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let p = (self.a_wins as f64 + 0.5 * self.draws as f64) / n;
        // Variance of the per-game score (1, 1/2, 0) around its mean.
        let var = (self.a_wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.b_wins as f64 * p.powi(2))
            / n;
        (p, 1.96 * (var / n).sqrt())
    }
}

/// The whole tournament.
#[derive(Debug, Clone)]
pub struct TournamentResult {
    /// Every pair in command-line order.
    pub pairs: Vec<PairResult>,
    /// Mean decision time per AI (ms), by AI name.
    pub decision_ms: Vec<(String, f64)>,
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / p - 1.0).log10()
}

impl TournamentResult {
    /// The JSON form: `{"pairs": [{"a", "b", "games", "a_wins", "b_wins", "draws"}]}`.
    pub fn json(&self) -> String {
        let pairs: Vec<serde_json::Value> = self
            .pairs
            .iter()
            .map(|p| {
                serde_json::json!({
                    "a": p.a, "b": p.b, "games": p.games,
                    "a_wins": p.a_wins, "b_wins": p.b_wins, "draws": p.draws,
                })
            })
            .collect();
        serde_json::json!({ "pairs": pairs }).to_string()
    }

    /// A Markdown table of the results.
    pub fn table(&self) -> String {
        let mut s = String::from(
            "| A | B | games | A wins | B wins | draws | A score (95% CI) | Elo A-B (95% CI) |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for p in &self.pairs {
            let (sc, h) = p.score();
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {:.1}% ± {:.1} | {:+.0} ({:+.0} .. {:+.0}) |\n",
                p.a,
                p.b,
                p.games,
                p.a_wins,
                p.b_wins,
                p.draws,
                sc * 100.0,
                h * 100.0,
                elo(sc),
                elo(sc - h),
                elo(sc + h)
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

/// SplitMix64, to derive independent seeds from one.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A finished game: the result and each seat's total decision time and count.
type GameResult = (Res, [(Duration, u32); 2]);

/// Plays one battle between two levels; returns the result and the total
/// decision time and count of each seat.
pub fn play_one(
    ctx_battle: &Battle,
    levels: [&Level; 2],
    budget_ms: Option<u64>,
    seed: u64,
) -> GameResult {
    let mut b = ctx_battle.clone();
    let mut time = [(Duration::ZERO, 0u32); 2];
    let mut step = 0u64;
    while b.pos().result.is_none() {
        let mut acts = [None, None];
        for x in 0..2 {
            if b.pos().awaits(x) {
                let budget = AiBudget {
                    iterations: None,
                    deadline: budget_ms.map(|ms| ThinkingDeadline::after_ms(ms).stopwatch()),
                };
                let t0 = Instant::now();
                let s = mix(seed ^ mix(step * 2 + x as u64));
                acts[x] = Some(ai::choose(b.ctx(), b.pos(), x, levels[x], budget, s));
                time[x].0 += t0.elapsed();
                time[x].1 += 1;
            }
        }
        b.apply_acts(acts);
        step += 1;
    }
    (b.pos().result.unwrap_or(Res::Draw), time)
}

/// Runs the tournament described by `t`.
pub fn tournament(t: &TournamentArgs) -> anyhow::Result<TournamentResult> {
    let mut levels = Vec::new();
    for name in &t.ai {
        let Some(l) = Level::parse(name) else {
            bail!("unknown AI `{name}`: use default, search:N, greedy, random, mc, mc:N or exact");
        };
        levels.push((name.clone(), l));
    }
    if levels.len() < 2 {
        bail!("--ai needs at least two AIs, e.g. --ai random,default");
    }
    let options = BattleOptions {
        team_size: t.team_size,
        ..Default::default()
    };
    // The operator's own command line may name a file; it is read like the
    // config's roster: bounded, regular files only, never quoted.
    let roster = match t.roster.as_deref().map(str::trim) {
        None | Some("") => Roster::builtin().clone(),
        Some(path) => super::operator_file::load_roster(std::path::Path::new(path))?,
    };
    // Jobs: (pair, game); a game pair 2k, 2k+1 shares teams and battle seed, sides swapped.
    let mut pairs = Vec::new();
    for i in 0..levels.len() {
        for j in i + 1..levels.len() {
            pairs.push((i, j));
        }
    }
    let jobs: Vec<(usize, usize)> = (0..pairs.len())
        .flat_map(|p| (0..t.games).map(move |g| (p, g)))
        .collect();
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..t.threads.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&(p, g)) = jobs.get(k) else { break };
                    let (i, j) = pairs[p];
                    let battle_seed = mix(t.seed ^ mix(g as u64 / 2));
                    let battle = match Battle::with_roster(&roster, &options, battle_seed) {
                        Ok(b) => b,
                        Err(e) => {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.0);
                            break;
                        }
                    };
                    let swap = g % 2 == 1;
                    let seat_levels = if swap {
                        [&levels[j].1, &levels[i].1]
                    } else {
                        [&levels[i].1, &levels[j].1]
                    };
                    let ai_seed = mix(t.seed.wrapping_add(1) ^ mix((k as u64) << 1));
                    let (res, time) = play_one(&battle, seat_levels, t.budget_ms, ai_seed);
                    results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some((res, time));
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
    let mut out = Vec::new();
    let mut time = vec![(Duration::ZERO, 0u32); levels.len()];
    for (p, &(i, j)) in pairs.iter().enumerate() {
        let mut r = PairResult {
            a: levels[i].0.clone(),
            b: levels[j].0.clone(),
            games: 0,
            a_wins: 0,
            b_wins: 0,
            draws: 0,
        };
        for (k, &(pp, g)) in jobs.iter().enumerate() {
            if pp != p {
                continue;
            }
            let (res, tm) = results[k].context("a tournament game did not finish")?;
            let a_seat = if g % 2 == 1 { 1 } else { 0 };
            let a_ix = [i, j];
            for x in 0..2 {
                let who = if x == a_seat { a_ix[0] } else { a_ix[1] };
                time[who].0 += tm[x].0;
                time[who].1 += tm[x].1;
            }
            r.games += 1;
            match res {
                Res::Draw => r.draws += 1,
                Res::Win(x) if x as usize == a_seat => r.a_wins += 1,
                Res::Win(_) => r.b_wins += 1,
            }
        }
        out.push(r);
    }
    let decision_ms = levels
        .iter()
        .zip(&time)
        .map(|((n, _), (d, c))| (n.clone(), d.as_secs_f64() * 1000.0 / (*c).max(1) as f64))
        .collect();
    Ok(TournamentResult {
        pairs: out,
        decision_ms,
    })
}

/// The context of a fresh battle (for benches): a random `n`-v-`n` on the built-in roster.
pub fn sample_ctx(n: usize, seed: u64) -> anyhow::Result<Ctx> {
    let options = BattleOptions {
        team_size: n,
        ..Default::default()
    };
    let b =
        Battle::with_roster(Roster::builtin(), &options, seed).map_err(|e| anyhow::anyhow!(e.0))?;
    Ok(b.ctx().clone())
}
