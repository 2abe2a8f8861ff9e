//! `gamehost diplomacy ...`: command-line tools for the Diplomacy engine.

use crate::games::diplomacy::geo::Map;
use crate::games::diplomacy::record::{Record, adjudicate_record};
use anyhow::Context;
use std::io::{BufRead, Read, Write};

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
}

/// Runs a Diplomacy subcommand.
pub fn run(args: DiplomacyArgs) -> anyhow::Result<()> {
    let map = Map::standard();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    match args.command {
        DiplomacyCommand::Adjudicate { jsonl: false } => {
            let mut s = String::new();
            stdin.lock().read_to_string(&mut s)?;
            let rec: Record = serde_json::from_str(&s).context("reading the record")?;
            let res = adjudicate_record(map, &rec).map_err(anyhow::Error::msg)?;
            serde_json::to_writer_pretty(&mut out, &res)?;
            writeln!(out)?;
        }
        DiplomacyCommand::Adjudicate { jsonl: true } => {
            for (n, line) in stdin.lock().lines().enumerate() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                let rec: Record =
                    serde_json::from_str(&line).with_context(|| format!("line {}", n + 1))?;
                match adjudicate_record(map, &rec) {
                    Ok(res) => serde_json::to_writer(&mut out, &res)?,
                    Err(e) => serde_json::to_writer(
                        &mut out,
                        &serde_json::json!({"id": rec.id, "error": e}),
                    )?,
                }
                writeln!(out)?;
            }
        }
        DiplomacyCommand::Parse => {
            for line in stdin.lock().lines() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                match crate::games::diplomacy::order::parse_order(map, &line) {
                    Ok(o) => writeln!(out, "{}", o.canonical(map))?,
                    Err(e) => writeln!(out, "error: {e}")?,
                }
            }
        }
    }
    Ok(())
}
