//! The clock side of the tournament runner in [`games::tournament`]:
//! AI budgets from a wall-clock limit, and timing of decisions. The
//! games crate stays pure; only this module reads the clock.

use games::seam::{AiBudget, Game, Seat};
use games::tournament::decision_seed;
use std::time::{Duration, Instant};

/// The budget of one AI decision: `ms` milliseconds of wall clock from now,
/// or (with `None`) each AI's own iteration count, which makes a run
/// reproducible.
pub fn ai_budget(ms: Option<u64>) -> AiBudget {
    AiBudget {
        iterations: None,
        deadline: ms.map(|m| host::ThinkingDeadline::after_ms(m).stopwatch()),
    }
}

/// Total thinking time and number of decisions, per seat.
pub type SeatTimes = Vec<(Duration, u32)>;

/// A decision function for [`games::tournament::play_out`]: each
/// seat's AI through the seam with [`ai_budget`]`(budget_ms)`, its time
/// added to `times[seat]`.
pub fn timed_ai_decision<G: Game>(
    game_ai_seed: u64,
    budget_ms: Option<u64>,
    times: &mut SeatTimes,
) -> impl FnMut(&G, Seat, &str, u64) -> G::Action + '_ {
    move |game, seat, level, turn| {
        let t0 = Instant::now();
        let action = game.ai_action(
            seat,
            level,
            ai_budget(budget_ms),
            decision_seed(game_ai_seed, turn, seat),
        );
        if times.len() <= seat {
            times.resize(seat + 1, (Duration::ZERO, 0));
        }
        times[seat].0 += t0.elapsed();
        times[seat].1 += 1;
        action
    }
}

/// `gamehost tournament`: the one tournament command behind the docs'
/// tables, for every two-seat game.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// The game: `battle`, `puzzle` or `cards`.
    #[arg(long)]
    pub game: String,
    /// Comma-separated AI levels; every pair plays.
    #[arg(long, value_delimiter = ',', required = true)]
    pub ai: Vec<String>,
    /// Games per pair (sides swapped game by game on the same seeds).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Seed of the schedule, the games and the AIs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Wall-clock limit per decision in ms (default: each AI's own
    /// iteration count, which makes the run reproducible).
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// Worker threads (the result does not depend on them without a budget).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// One pair's line of the report.
#[derive(Debug, Clone)]
pub struct ReportLine {
    /// Wins and draws.
    pub result: games::tournament::PairResult,
    /// Mean decision time of `a` and of `b`, in ms.
    pub ms: [f64; 2],
}

/// A finished `gamehost tournament` run.
#[derive(Debug, Clone)]
pub struct Report {
    /// The game's name.
    pub game: String,
    /// The budget per decision, as given.
    pub budget_ms: Option<u64>,
    /// `/proc/loadavg`'s 1-minute load at the start and the end (if readable).
    pub load: [Option<f64>; 2],
    /// Every pair in command-line order.
    pub lines: Vec<ReportLine>,
}

/// The 1-minute load average, where the system reports one.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl Report {
    /// The Markdown table: matchup, games, A's W/D/L, A's score with its 95%
    /// Wilson interval, the Elo difference (with the interval's ends), mean
    /// decision times, the budget and the load at the time.
    pub fn table(&self) -> String {
        let budget = match self.budget_ms {
            Some(ms) => format!("{ms} ms"),
            None => "own iterations".to_string(),
        };
        let load = |l: Option<f64>| l.map_or("?".to_string(), |l| format!("{l:.2}"));
        let mut s = format!(
            "{}: budget {budget}, load {} .. {}\n\n\
             | A | B | games | A W/D/L | A score (95% CI) | Elo A-B (95% CI) | ms/decision A, B | budget | load |\n\
             |---|---|---|---|---|---|---|---|---|\n",
            self.game,
            load(self.load[0]),
            load(self.load[1])
        );
        for l in &self.lines {
            let p = &l.result;
            let (rate, lo, hi, elo) = p.stats();
            let n = f64::from(p.games);
            s.push_str(&format!(
                "| {} | {} | {} | {}/{}/{} | {:.1}% ({:.1} .. {:.1}) | {:+.0} ({:+.0} .. {:+.0}) | {:.1}, {:.1} | {budget} | {} .. {} |\n",
                p.a,
                p.b,
                p.games,
                p.a_wins,
                p.draws,
                p.b_wins,
                rate * 100.0,
                lo * 100.0,
                hi * 100.0,
                elo,
                games::tournament::elo_difference(lo, n),
                games::tournament::elo_difference(hi, n),
                l.ms[0],
                l.ms[1],
                load(self.load[0]),
                load(self.load[1]),
            ));
        }
        s
    }
}

/// Plays the round robin of `args.ai` on games made by `new_game` from
/// their seeds (the runner's schedule: pairs of games share a seed with
/// the sides swapped), on `args.threads` threads, timing every decision.
pub fn run_report<G: Game>(
    args: &ReportArgs,
    new_game: impl Fn(u64) -> Result<G, String> + Sync,
    turn_limit: u64,
) -> anyhow::Result<Report> {
    use games::tournament::{fixtures, pairs, play_out, seat_levels, tally};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let names = &args.ai;
    anyhow::ensure!(names.len() >= 2, "--ai needs at least two AI levels");
    for l in names {
        if let Err(why) = G::check_ai_level(l) {
            anyhow::bail!(
                "unknown AI level `{l}` for {}: {why}; the levels are {}",
                args.game,
                G::ai_levels().join(", ")
            );
        }
    }
    let load_start = load_average();
    let jobs = fixtures(names.len(), args.games, args.seed);
    type Played = (Option<games::seam::Outcome>, SeatTimes);
    let results: Mutex<Vec<Option<Played>>> = Mutex::new(vec![None; jobs.len()]);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(f) = jobs.get(k) else { break };
                    let mut game = match new_game(f.game_seed) {
                        Ok(g) => g,
                        Err(e) => {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            break;
                        }
                    };
                    let mut times = vec![(Duration::ZERO, 0u32); 2];
                    let (outcome, _) = play_out(
                        &mut game,
                        &seat_levels(names, f),
                        turn_limit,
                        timed_ai_decision::<G>(f.ai_seed, args.budget_ms, &mut times),
                    );
                    results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some((outcome, times));
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or(None) {
        anyhow::bail!("cannot create a {} game: {e}", args.game);
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let all_pairs = pairs(names.len());
    let mut time = vec![[(Duration::ZERO, 0u32); 2]; all_pairs.len()];
    let mut played = Vec::with_capacity(jobs.len());
    for (f, r) in jobs.iter().zip(&results) {
        let Some((outcome, tm)) = r else {
            anyhow::bail!("a tournament game did not finish");
        };
        for (seat, (d, c)) in tm.iter().enumerate() {
            let who = usize::from(seat != f.a_seat);
            time[f.pair][who].0 += *d;
            time[f.pair][who].1 += c;
        }
        played.push((f, outcome.as_ref()));
    }
    let ms = |(d, c): (Duration, u32)| d.as_secs_f64() * 1000.0 / f64::from(c.max(1));
    let lines = tally(names, played)
        .into_iter()
        .zip(&time)
        .map(|(result, t)| ReportLine {
            result,
            ms: [ms(t[0]), ms(t[1])],
        })
        .collect();
    Ok(Report {
        game: args.game.clone(),
        budget_ms: args.budget_ms,
        load: [load_start, load_average()],
        lines,
    })
}

/// The round robin on battles with the built-in roster and default options.
pub(super) fn run_battles(args: &ReportArgs) -> anyhow::Result<Report> {
    run_report(
        args,
        |seed| {
            games::battle::Battle::with_roster(
                games::battle::rules::data::Roster::builtin(),
                &games::battle::BattleOptions::default(),
                seed,
            )
            .map_err(|e| e.0)
        },
        u64::MAX,
    )
}

/// Runs `gamehost tournament` and prints its table.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let report = match args.game.as_str() {
        "battle" => run_battles(&args)?,
        "puzzle" => run_report(
            &args,
            |seed| {
                let options = games::puzzle::PuzzleOptions {
                    fair_start: true,
                    ..Default::default()
                };
                games::puzzle::PuzzleDuel::create(options, seed).map_err(|e| e.0)
            },
            // Every game ends by the rules; the limit only guards against an engine bug.
            1 << 20,
        )?,
        "cards" => run_report(
            &args,
            |seed| {
                <games::cards::Invisible as Game>::new_game(Default::default(), seed)
                    .map_err(|e| e.to_string())
            },
            u64::MAX,
        )?,
        other => anyhow::bail!(
            "unknown game `{other}` for a tournament: battle, puzzle or cards (Diplomacy has seven seats)"
        ),
    };
    print!("{}", report.table());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Levels kept out of the offered list (`duct`, `hedge`) and levels
    /// with a count (`search:N`) play; misspelt or malformed ones are
    /// refused with the offered list, before any game is played.
    #[test]
    fn every_level_the_engine_parses_plays_and_others_are_refused() {
        let args = |ai: &[&str]| ReportArgs {
            game: "battle".into(),
            ai: ai.iter().map(|s| s.to_string()).collect(),
            games: 2,
            seed: 3,
            budget_ms: None,
            threads: 1,
        };
        let report = run_battles(&args(&["duct:40", "search:40", "hedge:40"])).unwrap();
        assert_eq!(report.lines.len(), 3);
        for line in &report.lines {
            let r = &line.result;
            assert_eq!(r.a_wins + r.b_wins + r.draws, 2);
        }
        for bad in ["genius", "search:0", "hedge:many", "greedy:3"] {
            let err = run_battles(&args(&["random", bad]))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(&format!("unknown AI level `{bad}`")) && err.contains("mc:1000"),
                "{err}"
            );
        }
    }
}
