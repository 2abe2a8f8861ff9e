//! `gamehost soak` (hidden): plays games through the host without end, for
//! the crash-safety test that kills it with SIGKILL at random points.
//!
//! Every action the host acknowledged (`submit` returned `Ok`) is appended to
//! the ack log as `A <game> <turn> <seat> <text>`, and every outbox row this
//! process marked delivered as `S <id>`, each line written only after the
//! host call returned, so the log never claims more than the database holds.

use anyhow::Context;
use host::{Host, HostSettings, NewGame, Registry, SystemClock};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use store::{GameStatus, Store, TimeoutPolicy};

/// Options of `gamehost soak`.
#[derive(clap::Args, Debug)]
pub struct SoakArgs {
    /// The database file (created if missing), or a `postgres://` URL.
    #[arg(long)]
    pub db: PathBuf,
    /// The ack log (appended to).
    #[arg(long)]
    pub log: PathBuf,
    /// Games played side by side, one per channel.
    #[arg(long, default_value_t = 6)]
    pub games: usize,
    /// Seed of this run's choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Steps before a clean exit (0 = run until killed).
    #[arg(long, default_value_t = 0)]
    pub steps: u64,
}

/// Runs the soak loop; with `--steps`, finishes by delivering the whole outbox.
pub fn run(args: SoakArgs) -> anyhow::Result<()> {
    // A `postgres://` URL runs the soak on PostgreSQL (the crash-safety
    // test's PostgreSQL pass).
    let db = args.db.to_string_lossy();
    let location = if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        store::Location::Postgres(db.into_owned())
    } else {
        // A keyword-form connection string would become a file named
        // after it, password and all.
        anyhow::ensure!(
            !store::is_keyword_connection_string(&db),
            "--db `{}` is a PostgreSQL connection string in keyword form; give a \
             postgres://user:password@host:port/db URL or a database file",
            store::redact_url(&db)
        );
        store::Location::Sqlite(args.db.clone())
    };
    let store = Store::open_at(&location)
        .with_context(|| format!("cannot open the database {location}"))?;
    let host = Host::new(
        Arc::new(store),
        Registry::standard(),
        Arc::new(SystemClock),
        HostSettings {
            ai_budget_ms: 20,
            reminder_percent: 0,
        },
    );
    let kinds = soak_kinds(host.registry());
    anyhow::ensure!(!kinds.is_empty(), "no soak kind is registered");
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.log)
        .with_context(|| format!("cannot open {}", args.log.display()))?;
    let mut ack = |line: String| -> anyhow::Result<()> {
        // One write per line: a kill leaves whole lines (or a last partial one).
        log.write_all(format!("{line}\n").as_bytes())?;
        Ok(())
    };
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut step = 0u64;
    loop {
        if args.steps > 0 && step >= args.steps {
            break;
        }
        step += 1;
        let i = rng.gen_range(0..args.games);
        let id = ensure_game(&host, i, kinds[i % kinds.len()], rng.r#gen())?;
        host.run_ai_turns(Some(id), 8)?;
        let user = format!("u{i}");
        let view = host.view(id, Some(&user))?;
        if view.status == GameStatus::Running
            && let (Some(seat), Some(v)) = (view.viewer_seat, &view.view)
            && !v.choices.is_empty()
        {
            let text = v.choices[rng.gen_range(0..v.choices.len())].text.clone();
            match host.submit(Some(id), &user, &text) {
                Ok(_) => ack(format!("A {id} {} {seat} {text}", view.turn))?,
                Err(e) if e.is_user_error() => {}
                Err(e) => return Err(e.into()),
            }
            host.run_ai_turns(Some(id), 8)?;
        }
        if rng.gen_range(0..3) == 0 {
            deliver(&host, &mut ack)?;
        }
    }
    loop {
        if deliver(&host, &mut ack)? == 0 {
            break;
        }
    }
    Ok(())
}

/// Delivers (marks sent) up to 20 announcements; returns how many were unsent.
fn deliver(
    host: &Host,
    ack: &mut impl FnMut(String) -> anyhow::Result<()>,
) -> anyhow::Result<usize> {
    let items = host.unsent(20)?;
    for item in &items {
        if host.mark_sent(item.id)? {
            ack(format!("S {}", item.id))?;
        }
    }
    Ok(items.len())
}

/// The kinds the soak plays: every registered duel (two seats with default
/// options), which finishes in a few dozen turns; bigger tables such as
/// Diplomacy's seven would keep a channel busy for the whole run.
fn soak_kinds(registry: &Registry) -> Vec<&'static str> {
    registry
        .names()
        .into_iter()
        .filter(|k| registry.seat_count(k, &serde_json::Value::Null) == Ok(2))
        .collect()
}

/// The running game of soak channel `i`, created, filled and started as needed
/// (each step is its own transaction, so a kill may leave a lobby to finish).
fn ensure_game(host: &Host, i: usize, kind: &str, seed: u64) -> anyhow::Result<i64> {
    let channel = format!("soak-{i}");
    let user = format!("u{i}");
    let row = match host.game_in_channel(&channel)? {
        Some(row) => row,
        None => {
            let id = host.create_game(NewGame {
                kind: kind.to_string(),
                guild_id: None,
                channel_id: channel.clone(),
                creator_id: user.clone(),
                creator_name: user.clone(),
                options: serde_json::Value::Null,
                seed: Some(seed),
                turn_seconds: None,
                timeout_policy: TimeoutPolicy::Default,
                creator_plays: true,
            })?;
            host.game(id)?
        }
    };
    if row.status == GameStatus::Lobby {
        let seats = host.seats(row.id)?;
        let total = host
            .registry()
            .seat_count(&row.kind, &serde_json::from_str(&row.options)?)
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        for _ in seats.len()..total {
            host.add_ai(row.id, &user, Some("random"), None)?;
        }
        host.start(row.id, &user)?;
    }
    Ok(row.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The soak picks its kinds from the registry by a property, not by name.
    #[test]
    fn the_soak_plays_every_registered_duel() {
        let mut kinds = soak_kinds(&Registry::standard());
        kinds.sort_unstable();
        assert_eq!(kinds, ["battle", "cards", "puzzle"]);
    }
}
