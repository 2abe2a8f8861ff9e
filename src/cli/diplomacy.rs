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
    /// `--ai` players. Prints a summary, or one JSON object per game with `--json`.
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
        /// The last year played; then the game is a draw of the survivors.
        #[arg(long, default_value_t = 1920)]
        end_year: u16,
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
            json,
        } => {
            let run = TournamentRun {
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
    /// The measured AI's centres per game.
    focus_centres: Vec<f64>,
    /// The other powers' centres, summed over every game.
    other_centres: usize,
    /// Time the measured AI thought, and its decisions.
    think: (std::time::Duration, u32),
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
    let mut tally = TournamentTally::default();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    for i in 0..run.games {
        let focus = (!run.all_ai).then(|| games::diplomacy::tournament::focus_seat(i));
        let r = play_tournament_game(run, i, focus, &mut tally.think);
        tally.top += u32::from(r.ai_top == Some(true));
        tally.stalls += u32::from(r.result == "stall");
        tally.solos += u32::from(r.result.starts_with("solo"));
        if let Some(f) = focus {
            tally.focus_centres.push(r.powers[f].centres as f64);
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
    }
    Ok(())
}

/// Plays game `i` of a tournament, timing the decisions of the `focus`
/// power (of every power when all are the measured AI) into `think`.
fn play_tournament_game(
    run: &TournamentRun,
    i: u32,
    focus: Option<usize>,
    think: &mut (std::time::Duration, u32),
) -> games::diplomacy::tournament::GameResult {
    let levels: [&str; 7] = std::array::from_fn(|s| {
        if run.all_ai || Some(s) == focus {
            run.ai.as_str()
        } else {
            run.others.as_str()
        }
    });
    let r = games::diplomacy::tournament::play_with(
        run.seed.wrapping_add(i as u64),
        levels,
        focus,
        run.end_year,
        |g, s, l, decision_seed| {
            let t0 = std::time::Instant::now();
            let budget = games::seam::AiBudget {
                iterations: run.iterations,
                ..super::tournament::ai_budget(run.budget_ms)
            };
            let a = g.ai_action(s, l, budget, decision_seed);
            if focus.is_none_or(|f| f == s) {
                think.0 += t0.elapsed();
                think.1 += 1;
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
        focus_centres,
        other_centres,
        think,
    } = tally;
    let (top, stalls, solos, other_centres) = (*top, *stalls, *solos, *other_centres);
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
        format!(
            "{ai} vs six {others}, {games} games: {ai} ends with {mean:.2} ± {half:.2} centres (others {:.2} each); most centres in {top}/{games} ({:.1}%, 95% {:.1}–{:.1}%); {solos} solos; {stalls} stalls; mean decision {mean_ms:.2} ms; budget {budget}; load {}.",
            other_centres as f64 / (6.0 * n),
            100.0 * f64::from(top) / n,
            100.0 * lo,
            100.0 * hi,
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
