//! `gamehost diplomacy ...`: command-line tools for the Diplomacy engine.

use anyhow::Context;
use games::diplomacy::Diplomacy;
use games::diplomacy::geo::Map;
use games::diplomacy::record::{
    MAX_ID_CHARS, MAX_ORDER_CHARS, MAX_RECORD_BYTES, Record, adjudicate_record, check_record,
    game_records,
};
use games::seam::Game;
use host::limits::{CappedLine, read_all_capped, read_line_capped};
use host::{Host, TurnActions};
use std::io::{Read, Write};
use std::path::PathBuf;

/// Diplomacy tools.
#[derive(clap::Args, Debug)]
pub struct DiplomacyArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: DiplomacyCommand,
}

/// The Diplomacy subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum DiplomacyCommand {
    /// Adjudicate a phase given as a `datc.jsonl`-shaped JSON object on stdin;
    /// prints `results`, `final_units`, `dislodged`, `standoffs` (and
    /// `disbanded` / `built` / `removed` for retreats and adjustments).
    Adjudicate {
        /// Read one record per line and write one answer per line.
        #[arg(long)]
        jsonl: bool,
    },
    /// Parse order lines from stdin and print each in canonical form (or the error).
    Parse,
    /// Render a position as a PNG map (stdout): an `adjudicate`-shaped
    /// record read from stdin, or with `--game` a phase of a stored game.
    Render {
        /// Also draw the record's orders (failed ones crossed out).
        #[arg(long)]
        orders: bool,
        /// Render a phase of this stored game instead of reading stdin.
        #[arg(long, value_name = "ID")]
        game: Option<i64>,
        /// The phase to render, numbered from 0 as `export` writes them
        /// (default: the current one, i.e. the last).
        #[arg(long, value_name = "N", requires = "game")]
        phase: Option<usize>,
        /// The database to read (default: the configured one).
        #[arg(long, value_name = "FILE", requires = "game")]
        db: Option<PathBuf>,
    },
    /// Write a stored game's replay (stdout) as an animated GIF: per phase
    /// the position with its orders, then the current position; frames are
    /// scaled down until the file fits a Discord upload.
    Replay {
        /// The game's id (`/game list`, `/game status`).
        #[arg(long, value_name = "ID")]
        game: i64,
        /// The database to read (default: the configured one).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Write a stored game as JSON lines, one `adjudicate` record per phase
    /// (phase 0 first; the last line is the current position, without
    /// orders). Adjudicating a line gives the position of the next one.
    Export {
        /// The game's id (`/game list`, `/game status`).
        game: i64,
        /// Only this phase (from 0), e.g. to pipe into `render`.
        #[arg(long, value_name = "N")]
        phase: Option<usize>,
        /// The database to read (default: the configured one).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Check a Diplomacy map before installing it: its rules (`prov`,
    /// `coasts`, `army`, `fleet` lines) and the geometry its image is
    /// drawn from, given in one or more files read as one map. Prints
    /// every problem with its file and line (adjacencies listed one way,
    /// coasts of undeclared provinces, centres no unit can reach, places
    /// the geometry leaves out), or a summary of the valid map.
    CheckMap {
        /// The map's files (for the standard map: the rules, then the board).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Play AI games to measure an AI level: by default one `default` AI
    /// (rotating over the powers) against six random-legal players
    /// (`--ai` and `--others` choose the levels); `--all-ai` seats seven
    /// `--ai` players. Prints a summary (with the measured AI's centres per
    /// power and its decisions' thread CPU time), or one JSON object per
    /// game with `--json`.
    Tournament {
        /// Number of games.
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seven `--ai` players instead of one against six `--others`.
        #[arg(long)]
        all_ai: bool,
        /// The AI level measured (`default`, `dumbbot`, `random`, `hold`).
        #[arg(long, default_value = "default")]
        ai: String,
        /// The level of the six other powers.
        #[arg(long, default_value = "random")]
        others: String,
        /// Each decision's wall-clock budget in milliseconds (default: the
        /// AIs' own iteration counts, which makes a run reproducible).
        #[arg(long, value_name = "MS")]
        budget_ms: Option<u64>,
        /// Each decision's iteration limit (`default`: candidate evaluations).
        #[arg(long, value_name = "N")]
        iterations: Option<u64>,
        /// The last year played; then the game is a draw of the survivors
        /// (default: the map's 20th year, 1920 on the standard map).
        #[arg(long)]
        end_year: Option<u16>,
        /// The map (`ancient_med`, ...; default: the standard map); the
        /// measured AI rotates over its powers.
        #[arg(long, default_value = "")]
        map: String,
        /// One JSON object per game (one per line).
        #[arg(long)]
        json: bool,
    },
}

/// Runs a Diplomacy subcommand; `config` is the global `--config` (read
/// only by the subcommands that open the database).
pub fn run(args: DiplomacyArgs, config: &Option<PathBuf>) -> anyhow::Result<()> {
    let map = Map::standard();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    match args.command {
        DiplomacyCommand::Adjudicate { jsonl: false } => {
            let rec = read_record(&mut stdin.lock())?;
            let res = adjudicate_record(map, &rec).map_err(anyhow::Error::msg)?;
            serde_json::to_writer_pretty(&mut out, &res)?;
            writeln!(out)?;
        }
        DiplomacyCommand::Adjudicate { jsonl: true } => {
            adjudicate_lines(map, &mut stdin.lock(), &mut out)?;
        }
        DiplomacyCommand::Tournament {
            games,
            seed,
            all_ai,
            ai,
            others,
            budget_ms,
            iterations,
            end_year,
            map,
            json,
        } => {
            let powers = games::diplomacy::tournament::power_count(&map)
                .with_context(|| format!("unknown map {map:?}"))?;
            let end_year = end_year.unwrap_or_else(|| {
                games::diplomacy::tournament::start_year(&map).saturating_add(19)
            });
            let run = TournamentRun {
                map,
                powers,
                games,
                seed,
                all_ai,
                ai,
                others,
                budget_ms,
                iterations,
                end_year,
                json,
            };
            tournament(&run, &mut out)?;
        }
        DiplomacyCommand::Export { game, phase, db } => {
            let host = open_db(config, db)?;
            let records = export_game(&host, game)?;
            let chosen = match phase {
                Some(n) => std::slice::from_ref(pick_phase(&records, game, n)?),
                None => records.as_slice(),
            };
            for rec in chosen {
                serde_json::to_writer(&mut out, rec)?;
                writeln!(out)?;
            }
        }
        DiplomacyCommand::Render {
            orders,
            game,
            phase,
            db,
        } => {
            let rec: Record = match game {
                Some(id) => {
                    let host = open_db(config, db)?;
                    let records = export_game(&host, id)?;
                    let n = phase.unwrap_or(records.len() - 1);
                    pick_phase(&records, id, n)?.clone()
                }
                None => read_record(&mut stdin.lock())?,
            };
            let pos = record_position(map, &rec, orders).map_err(anyhow::Error::msg)?;
            let png = render::diplomacy::render_position_png(&pos)?;
            out.write_all(&png)?;
        }
        DiplomacyCommand::Replay { game, db } => {
            let host = open_db(config, db)?;
            let (gif, frames, scale) = render::replay::replay_gif(&host, game)?;
            eprintln!(
                "game #{game}: {frames} frames at {:.0}% size, {} bytes",
                scale * 100.0,
                gif.len()
            );
            out.write_all(&gif)?;
        }
        DiplomacyCommand::Parse => parse_lines(map, &mut stdin.lock(), &mut out)?,
        DiplomacyCommand::CheckMap { files } => super::map_check::run(&files, &mut out)?,
    }
    Ok(())
}

/// `adjudicate --jsonl`: one answer line per record line. Every line that
/// cannot be answered (too long, not UTF-8, not JSON, not a record, a
/// record that cannot be adjudicated) gets an error object naming its line
/// (`{"line": 3, "error": ...}`, with the record's id when it has one),
/// and the run goes on with the next line.
fn adjudicate_lines(
    map: &Map,
    input: &mut impl std::io::BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    for n in 1u64.. {
        let answer = match read_line_capped(input, MAX_RECORD_BYTES)? {
            CappedLine::End => break,
            CappedLine::TooLong => line_error(
                n,
                None,
                format!("a record is at most {MAX_RECORD_BYTES} bytes; this line is longer"),
            ),
            CappedLine::NotUtf8 => line_error(n, None, "not UTF-8 text; records are JSON".into()),
            CappedLine::Text(line) if line.trim().is_empty() => continue,
            CappedLine::Text(line) => match serde_json::from_str::<Record>(&line) {
                // serde quotes a wrong value whole: clip it.
                Err(e) => line_error(
                    n,
                    None,
                    format!(
                        "not a record: {}",
                        games::clip::clip_chars(&e.to_string(), 200)
                    ),
                ),
                Ok(rec) => match adjudicate_record(map, &rec) {
                    Ok(res) => serde_json::to_value(&res)?,
                    Err(e) => line_error(n, rec.id.as_deref(), e),
                },
            },
        };
        serde_json::to_writer(&mut *out, &answer)?;
        writeln!(out)?;
    }
    Ok(())
}

/// The answer to a line of `adjudicate --jsonl` that has no result: its
/// number, the record's id when it has one (echoed only as long as it may
/// be), and what is wrong.
fn line_error(line: u64, id: Option<&str>, error: String) -> serde_json::Value {
    let mut answer = serde_json::json!({"line": line, "error": error});
    if let Some(id) = id {
        answer["id"] = id.chars().take(MAX_ID_CHARS).collect::<String>().into();
    }
    answer
}

/// `parse`: each order line in canonical form, or its error.
fn parse_lines(
    map: &Map,
    input: &mut impl std::io::BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    for n in 1.. {
        let line = match read_line_capped(input, MAX_ORDER_LINE_BYTES)? {
            CappedLine::Text(line) => line,
            CappedLine::End => break,
            CappedLine::TooLong => {
                writeln!(
                    out,
                    "error: line {n} is longer than {MAX_ORDER_CHARS} characters; an order is one line like `A Par - Bur`"
                )?;
                continue;
            }
            CappedLine::NotUtf8 => {
                writeln!(out, "error: line {n} is not UTF-8 text")?;
                continue;
            }
        };
        let line = line.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        match games::diplomacy::order::parse_order(map, line) {
            Ok(o) => writeln!(out, "{}", o.canonical(map))?,
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
    Ok(())
}

/// The settings of a `tournament` run.
struct TournamentRun {
    /// The map's id (`""`: standard) and its number of powers.
    map: String,
    powers: usize,
    games: u32,
    seed: u64,
    all_ai: bool,
    ai: String,
    others: String,
    budget_ms: Option<u64>,
    iterations: Option<u64>,
    end_year: u16,
    json: bool,
}

/// What a tournament counts over its games.
#[derive(Default)]
struct TournamentTally {
    /// Games the measured AI ended with strictly the most centres.
    top: u32,
    stalls: u32,
    solos: u32,
    /// Solos won by the measured AI.
    ai_solos: u32,
    /// The measured AI's centres per game.
    focus_centres: Vec<f64>,
    /// The measured AI's centres summed per power, and its games there.
    by_power: Vec<(f64, u32)>,
    /// The other powers' centres, summed over every game.
    other_centres: usize,
    /// Wall time the measured AI thought, and its decisions.
    think: (std::time::Duration, u32),
    /// Thread CPU time of each of the measured AI's movement decisions, in ms.
    movement_cpu_ms: Vec<f64>,
}

/// `tournament`: plays the games, a line (or JSON object) per game, then
/// the summary.
fn tournament(run: &TournamentRun, out: &mut impl Write) -> anyhow::Result<()> {
    for level in [&run.ai, &run.others] {
        anyhow::ensure!(
            Diplomacy::ai_levels().contains(&level.as_str()),
            "unknown AI level {level:?}; expected one of {}",
            Diplomacy::ai_levels().join(", ")
        );
    }
    let mut tally = TournamentTally {
        by_power: vec![(0.0, 0); run.powers],
        ..Default::default()
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    for i in 0..run.games {
        let focus = (!run.all_ai).then_some(i as usize % run.powers);
        let r = play_tournament_game(run, i, focus, &mut tally);
        tally.top += u32::from(r.ai_top == Some(true));
        tally.stalls += u32::from(r.result == "stall");
        tally.solos += u32::from(r.result.starts_with("solo"));
        if let Some(f) = focus {
            let name = &r.powers[f].power;
            tally.ai_solos += u32::from(r.result == format!("solo {name}"));
            let centres = r.powers[f].centres as f64;
            tally.focus_centres.push(centres);
            tally.by_power[f].0 += centres;
            tally.by_power[f].1 += 1;
            tally.other_centres += r
                .powers
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != f)
                .map(|(_, p)| p.centres)
                .sum::<usize>();
        }
        if run.json {
            serde_json::to_writer(&mut *out, &r)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", game_line(i, &r, focus))?;
        }
    }
    if !run.json {
        writeln!(out, "{}", tournament_summary(run, &tally, &load))?;
        if !run.all_ai {
            let names = power_names(&run.map);
            writeln!(out, "{}", by_power_line(&names, &tally.by_power))?;
        }
        writeln!(out, "{}", cpu_line(&mut tally.movement_cpu_ms))?;
    }
    Ok(())
}

/// The first three letters of each power's name on the map `map` names.
fn power_names(map: &str) -> Vec<String> {
    let opts = games::diplomacy::DiplomacyOptions {
        map: map.to_string(),
        ..Default::default()
    };
    match Diplomacy::new_game(opts, 0) {
        Ok(g) => g
            .map()
            .powers()
            .map(|p| g.power_name(p).chars().take(3).collect())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The measured AI's mean centres at each power it played.
fn by_power_line(names: &[String], by_power: &[(f64, u32)]) -> String {
    let parts: Vec<String> = by_power
        .iter()
        .enumerate()
        .map(|(k, &(sum, n))| {
            let name = names.get(k).map_or("?", String::as_str);
            format!("{name} {:.2} ({n})", sum / f64::from(n.max(1)))
        })
        .collect();
    format!("its centres by power (games): {}", parts.join(", "))
}

/// Mean, 95th percentile and maximum of the movement decisions' thread CPU.
fn cpu_line(ms: &mut [f64]) -> String {
    if ms.is_empty() {
        return "no movement decisions timed".to_string();
    }
    ms.sort_by(f64::total_cmp);
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    let p95 = ms[((ms.len() as f64 * 0.95).ceil() as usize).clamp(1, ms.len()) - 1];
    let max = ms[ms.len() - 1];
    format!(
        "thread CPU per movement decision of the measured AI ({} decisions): mean {mean:.2} ms, p95 {p95:.2} ms, max {max:.2} ms",
        ms.len()
    )
}

/// CPU time the calling thread has used: a decision's cost without the
/// other processes sharing the machine.
#[cfg(unix)]
fn thread_cpu() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and the clock id is a
    // constant every Unix kernel we run on knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return std::time::Duration::ZERO;
    }
    std::time::Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}

/// Without a thread CPU clock, no time is counted.
#[cfg(not(unix))]
fn thread_cpu() -> std::time::Duration {
    std::time::Duration::ZERO
}

/// Plays game `i` of a tournament, timing the decisions of the `focus`
/// power (of every power when all are the measured AI) into `tally`.
fn play_tournament_game(
    run: &TournamentRun,
    i: u32,
    focus: Option<usize>,
    tally: &mut TournamentTally,
) -> games::diplomacy::tournament::GameResult {
    let levels: Vec<&str> = (0..run.powers)
        .map(|s| {
            if run.all_ai || Some(s) == focus {
                run.ai.as_str()
            } else {
                run.others.as_str()
            }
        })
        .collect();
    let r = games::diplomacy::tournament::play_on_map(
        &run.map,
        run.seed.wrapping_add(i as u64),
        &levels,
        focus,
        run.end_year,
        |g, s, l, decision_seed| {
            let budget = games::seam::AiBudget {
                iterations: run.iterations,
                ..super::tournament::ai_budget(run.budget_ms)
            };
            let movement = g.phase() == games::diplomacy::judge::PhaseKind::Movement;
            let (t0, c0) = (std::time::Instant::now(), thread_cpu());
            let a = g.ai_action(s, l, budget, decision_seed);
            if focus.is_none_or(|f| f == s) {
                tally.think.0 += t0.elapsed();
                tally.think.1 += 1;
                if movement {
                    let cpu = thread_cpu().saturating_sub(c0);
                    tally.movement_cpu_ms.push(cpu.as_secs_f64() * 1000.0);
                }
            }
            a
        },
    );
    games::diplomacy::tournament::GameResult { game: i, ..r }
}

/// One game's line: each power's centres (the measured one starred), the
/// year and the result.
fn game_line(i: u32, r: &games::diplomacy::tournament::GameResult, focus: Option<usize>) -> String {
    let cs: Vec<String> = r
        .powers
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let mark = if Some(k) == focus { "*" } else { "" };
            format!("{}{mark} {}", &p.power[..3], p.centres)
        })
        .collect();
    format!("game {i:>3}: {} ({}) {}", cs.join(", "), r.year, r.result)
}

/// The summary line: results, the measured AI's centres with a 95%
/// interval, its share of top finishes, decision time, budget and load.
fn tournament_summary(run: &TournamentRun, tally: &TournamentTally, load: &str) -> String {
    let TournamentRun {
        games,
        all_ai,
        ai,
        others,
        budget_ms,
        iterations,
        ..
    } = run;
    let (games, all_ai, budget_ms, iterations) = (*games, *all_ai, *budget_ms, *iterations);
    let TournamentTally {
        top,
        stalls,
        solos,
        ai_solos,
        focus_centres,
        other_centres,
        think,
        ..
    } = tally;
    let (top, stalls, solos, other_centres) = (*top, *stalls, *solos, *other_centres);
    let others_count = run.powers.saturating_sub(1).max(1) as f64;
    let n = f64::from(games.max(1));
    let budget = match (budget_ms, iterations) {
        (Some(ms), Some(n)) => format!("{ms} ms or {n} iterations"),
        (Some(ms), None) => format!("{ms} ms"),
        (None, Some(n)) => format!("{n} iterations"),
        (None, None) => "the AIs' own iterations".to_string(),
    };
    let mean_ms = think.0.as_secs_f64() * 1000.0 / f64::from(think.1.max(1));
    if all_ai {
        format!(
            "{games} games of seven {ai}: {solos} solos, {} draws, {stalls} stalls; mean decision {mean_ms:.2} ms; budget {budget}; load {}.",
            games - solos - stalls,
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        )
    } else {
        let mean = focus_centres.iter().sum::<f64>() / n;
        let var = focus_centres
            .iter()
            .map(|c| (c - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        let (lo, hi) = games::tournament::wilson_interval(f64::from(top), n);
        let (slo, shi) = games::tournament::wilson_interval(f64::from(*ai_solos), n);
        format!(
            "{ai} vs {} {others}, {games} games: {ai} ends with {mean:.2} ± {half:.2} centres (others {:.2} each); most centres in {top}/{games} ({:.1}%, 95% {:.1}–{:.1}%); its solos {ai_solos}/{games} ({:.1}%, 95% {:.1}–{:.1}%); {solos} solos in all; {stalls} stalls; mean decision {mean_ms:.2} ms (wall); budget {budget}; load {}.",
            others_count,
            other_centres as f64 / (others_count * n),
            100.0 * f64::from(top) / n,
            100.0 * lo,
            100.0 * hi,
            100.0 * f64::from(*ai_solos) / n,
            100.0 * slo,
            100.0 * shi,
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        )
    }
}

/// The longest line `parse` reads: an order of [`MAX_ORDER_CHARS`]
/// characters at four bytes each, with its line ending.
const MAX_ORDER_LINE_BYTES: usize = MAX_ORDER_CHARS * 4 + 2;

/// Reads one record (JSON) from `input`, refusing more than
/// [`MAX_RECORD_BYTES`] without reading further.
fn read_record(input: &mut impl Read) -> anyhow::Result<Record> {
    let Some(bytes) = read_all_capped(input, MAX_RECORD_BYTES)? else {
        anyhow::bail!(
            "the record is larger than {MAX_RECORD_BYTES} bytes; a real one (a full board with its orders) is a few kilobytes"
        );
    };
    serde_json::from_slice(&bytes).context("reading the record")
}

/// Opens the host read-only on the configured database, or on `db` if
/// given: export and render only read, so they neither create a missing
/// database nor change an existing one.
fn open_db(config: &Option<PathBuf>, db: Option<PathBuf>) -> anyhow::Result<Host> {
    let mut config = super::load_config(config)?;
    if let Some(db) = db {
        config.database.path = db;
    }
    super::open_host_read_only(&config)
}

/// Every phase of a stored Diplomacy game as an `adjudicate` record, built
/// from the host's turn log (see [`game_records`]): phase 0 is the opening
/// position, the last is the current position (without orders).
pub fn export_game(host: &Host, game_id: i64) -> anyhow::Result<Vec<Record>> {
    let log = host.game_log(game_id)?;
    if log.row.kind != Diplomacy::KIND {
        anyhow::bail!(
            "game #{game_id} is a {} game; only Diplomacy games export as phase records",
            log.row.kind
        );
    }
    let phases = log.turns.iter().filter_map(|t| match &t.step {
        TurnActions::Moves(actions) => Some((t.state_before.as_str(), actions)),
        // Forfeits and takeovers change who plays, not the board.
        TurnActions::Forfeit(_) | TurnActions::Takeover(_) => None,
    });
    let current = log.row.state.as_deref().unwrap_or_default();
    game_records(phases, current)
        .map_err(|e| anyhow::anyhow!("game #{game_id} cannot be exported: {e}"))
}

fn pick_phase(records: &[Record], game_id: i64, n: usize) -> anyhow::Result<&Record> {
    records.get(n).ok_or_else(|| {
        anyhow::anyhow!(
            "game #{game_id} has phases 0 to {}; there is no phase {n}",
            records.len() - 1
        )
    })
}

/// The position an `adjudicate` record describes (with its orders and their results if asked).
pub fn record_position(
    map: &'static Map,
    rec: &Record,
    with_orders: bool,
) -> Result<render::diplomacy::MapPosition, String> {
    use games::diplomacy::record::{RecUnit, unit_from, units_from};
    // A record of a game on another map names it (`gamehost diplomacy export`).
    let map: &'static Map = match rec.map.as_deref() {
        None => map,
        Some(id) => games::diplomacy::geo::find_map(id)
            .ok_or_else(|| format!("unknown map {}", games::clip::clip_typed(id)))?,
    };
    check_record(map, rec)?;
    let units = units_from(map, &rec.units)?;
    let dislodged = rec
        .dislodged
        .iter()
        .map(|d| {
            unit_from(
                map,
                &RecUnit {
                    power: d.power.clone(),
                    kind: d.kind.clone(),
                    at: d.at.clone(),
                },
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut owners = vec![None; map.province_count()];
    for (p, cs) in &rec.supply_centers {
        let power = map
            .parse_power(p)
            .ok_or_else(|| format!("unknown power {}", games::clip::clip_typed(p)))?;
        for c in cs {
            let l = map
                .loc_by_abbr(c)
                .ok_or_else(|| format!("unknown province {}", games::clip::clip_typed(c)))?;
            owners[map.prov_of(l) as usize] = Some(power);
        }
    }
    let mut orders = Vec::new();
    if with_orders {
        let res = adjudicate_record(map, rec).ok();
        for (i, o) in rec.orders.iter().enumerate() {
            let (Some(power), Ok(order)) = (
                map.parse_power(&o.power),
                games::diplomacy::order::parse_order(map, &o.text),
            ) else {
                continue;
            };
            let ok = res
                .as_ref()
                .and_then(|r| r.results.get(i))
                .is_some_and(|r| r.result == "succeeds");
            orders.push((power, order, ok));
        }
    }
    let title = match &rec.id {
        Some(id) => format!("{id} ({})", rec.phase),
        None => rec.phase.clone(),
    };
    Ok(render::diplomacy::MapPosition {
        map: games::diplomacy::geo::MapRef::new(map),
        title,
        units,
        dislodged,
        owners,
        orders,
        ..Default::default()
    })
}
