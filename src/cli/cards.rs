//! `gamehost cards ...`: the Invisible solver on the command line.

use std::io::{Read, Write};

use anyhow::Context;

use games::cards::{Invisible, InvisibleOptions};
use games::seam::{AiBudget, Game};
use games::tournament::{ai_decision, fixtures, play_out, seat_levels};

use games::cards::deal::deal;
use games::cards::notation::{format_problem, move_text, parse_problem};
use games::cards::rules::{MAX_DECK, MAX_VALUE, Position};
use games::cards::solver::Solver;

/// Commands of the Invisible card duel.
#[derive(clap::Args, Debug)]
pub struct CardsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CardsCommand,
}

/// The `cards` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum CardsCommand {
    /// Read a problem (AOJ 2741 format: `n m`, deck 1, deck 2; -1 = jam) from
    /// stdin and print player 1's score minus player 2's under best play.
    Solve,
    /// Like `solve`, then the value of each of player 1's first moves.
    Value,
    /// Print a seeded random deal in the `solve` input format.
    Deal {
        /// Seed of the deal (ChaCha8).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Player 1's deck size (1 to 50).
        #[arg(long, default_value_t = 10)]
        n: usize,
        /// Player 2's deck size (1 to 50).
        #[arg(long, default_value_t = 10)]
        m: usize,
        /// Largest score card (1 to 1000000).
        #[arg(long, default_value_t = 100)]
        max_value: i64,
        /// Chance in percent that a card is a jam (0 to 100).
        #[arg(long, default_value_t = 25)]
        jam_percent: u8,
    },
    /// Play AI level A against AI level B on seeded deals through the game
    /// engine, each deal twice (A as player 1, then as player 2), and print
    /// a table of wins, draws, losses and the mean score difference for A.
    Tournament {
        /// AI level of contender A (`exact` or `random`).
        #[arg(long, default_value = "exact")]
        a: String,
        /// AI level of contender B.
        #[arg(long, default_value = "random")]
        b: String,
        /// Number of deals (each played twice).
        #[arg(long, default_value_t = 100)]
        deals: u64,
        /// Deck size of both players (1 to 50).
        #[arg(long, default_value_t = 10)]
        size: usize,
        /// Seed of the first deal; deal k uses seed + k.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

/// Runs a `cards` subcommand on the process's stdin and stdout.
pub fn run(args: CardsArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    run_io(args, &mut stdin.lock(), &mut stdout.lock())
}

/// Runs a `cards` subcommand on the given input and output (for tests).
pub fn run_io(args: CardsArgs, input: &mut dyn Read, out: &mut dyn Write) -> anyhow::Result<()> {
    match args.command {
        CardsCommand::Solve => {
            let decks = read_problem(input)?;
            writeln!(out, "{}", Solver::new(&decks[0], &decks[1]).root_value())?;
        }
        CardsCommand::Value => {
            let decks = read_problem(input)?;
            let solver = Solver::new(&decks[0], &decks[1]);
            let pos = Position::new(decks);
            writeln!(out, "value {}", solver.value(&pos))?;
            for (mv, v) in solver.action_values(&pos) {
                writeln!(out, "{} {v}", move_text(mv))?;
            }
        }
        CardsCommand::Deal {
            seed,
            n,
            m,
            max_value,
            jam_percent,
        } => {
            anyhow::ensure!(
                (1..=MAX_DECK).contains(&n) && (1..=MAX_DECK).contains(&m),
                "--n and --m must be 1 to {MAX_DECK} (got {n} and {m})"
            );
            anyhow::ensure!(
                (1..=MAX_VALUE).contains(&max_value),
                "--max-value must be 1 to {MAX_VALUE} (got {max_value})"
            );
            anyhow::ensure!(
                jam_percent <= 100,
                "--jam-percent must be 0 to 100 (got {jam_percent})"
            );
            write!(
                out,
                "{}",
                format_problem(&deal(n, m, max_value, jam_percent, seed))
            )?;
        }
        CardsCommand::Tournament {
            a,
            b,
            deals,
            size,
            seed,
        } => tournament(out, [&a, &b], deals, size, seed)?,
    }
    Ok(())
}

/// Plays the tournament described on [`CardsCommand::Tournament`].
fn tournament(
    out: &mut dyn Write,
    levels: [&str; 2],
    deals: u64,
    size: usize,
    seed: u64,
) -> anyhow::Result<()> {
    for level in levels {
        anyhow::ensure!(
            Invisible::ai_levels().contains(&level),
            "unknown AI level `{level}`; expected one of: {}",
            Invisible::ai_levels().join(", ")
        );
    }
    anyhow::ensure!(
        (1..=MAX_DECK).contains(&size),
        "--size must be 1 to {MAX_DECK} (got {size})"
    );
    // Per seat of A: [wins, draws, losses], and the summed (A − B) score difference.
    let mut table = [[0u64; 3]; 2];
    let mut diff_sum = [0i64; 2];
    let options = InvisibleOptions {
        n: size,
        m: size,
        ..Default::default()
    };
    let names = [levels[0].to_string(), levels[1].to_string()];
    // The runner's schedule for one pair, two games per deal (A as player 1,
    // then as player 2); deal k keeps the documented seed `seed + k`, so
    // `cards deal --seed` shows it.
    let deals_u32 = u32::try_from(deals)
        .ok()
        .and_then(|d| d.checked_mul(2))
        .with_context(|| format!("--deals is at most {}, got {deals}", u32::MAX / 2))?;
    for f in fixtures(2, deals_u32, seed) {
        let deal_seed = seed.wrapping_add(u64::from(f.round / 2));
        let mut game =
            Invisible::new_game(options.clone(), deal_seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        // The exact solver needs no iterations; one keeps `random` cheap.
        play_out(
            &mut game,
            &seat_levels(&names, &f),
            u64::MAX,
            ai_decision::<Invisible>(f.ai_seed, || AiBudget::iterations(1)),
        );
        let d = game.position().score_diff();
        let a_diff = if f.a_seat == 0 { d } else { -d };
        diff_sum[f.a_seat] += a_diff;
        table[f.a_seat][(1 - a_diff.signum()) as usize] += 1;
    }
    writeln!(
        out,
        "| A = {} as | vs B = {} | A wins | draws | A losses | mean A − B |",
        levels[0], levels[1]
    )?;
    writeln!(out, "|---|---|---|---|---|---|")?;
    for (a_seat, row) in table.iter().enumerate() {
        let mean = if deals == 0 {
            0.0
        } else {
            diff_sum[a_seat] as f64 / deals as f64
        };
        writeln!(
            out,
            "| player {} | player {} | {} | {} | {} | {:+.1} |",
            a_seat + 1,
            2 - a_seat,
            row[0],
            row[1],
            row[2],
            mean
        )?;
    }
    Ok(())
}

/// The largest problem `solve` and `value` read, in bytes: two decks of
/// 50 cards of up to 8 characters each fit in under 1 KiB; the rest is
/// room for stray spaces and blank lines.
pub const MAX_PROBLEM_BYTES: usize = 64 * 1024;

/// Reads and checks the whole problem from `input`, reading no more than
/// [`MAX_PROBLEM_BYTES`] (+1 to notice a longer input).
fn read_problem(input: &mut dyn Read) -> anyhow::Result<[Vec<i64>; 2]> {
    let Some(bytes) = host::limits::read_all_capped(input, MAX_PROBLEM_BYTES)
        .context("could not read the problem from stdin")?
    else {
        anyhow::bail!(
            "the input is larger than {MAX_PROBLEM_BYTES} bytes; expected `n m` and two lines of at most {MAX_DECK} cards"
        );
    };
    let text = String::from_utf8(bytes).map_err(|_| {
        anyhow::anyhow!("the input is not UTF-8 text; expected `n m` and two lines of integers")
    })?;
    Ok(parse_problem(&text)?)
}
