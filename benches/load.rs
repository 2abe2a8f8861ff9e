//! Load: the host (no Discord) with simulated players in 1,000 concurrent
//! games of mixed kinds on a real SQLite file.
//!
//! `cargo bench --bench load` prints: resident memory with 1,000 idle games,
//! actions accepted per second, turns resolved per second, and p50/p99 of the
//! latency from the last action of a turn to its committed resolution (the
//! `submit` call that resolves the turn, commit included). Settings:
//! `LOAD_GAMES` (1000), `LOAD_THREADS` (4), `LOAD_SECS` (10).
//! `LOAD_PG_URL=postgres://user@host:port/db` runs the same load on
//! PostgreSQL instead, in a fresh database it creates on that server and
//! drops afterwards.
//!
//! `LOAD_PROCESSES=2` runs that many copies of this bench as separate OS
//! processes on the one database (each with its own `LOAD_GAMES` games and
//! `LOAD_THREADS` threads, as two bots would be), starts their timed phase
//! together once all have created their games, and prints the sum. Side by
//! side, as in docs/benchmarks.md (the test profile, which `cargo test`
//! keeps built; `-- --bench` gives the full settings):
//! `cargo test --bench load -- --bench` and
//! `LOAD_PROCESSES=2 cargo test --bench load -- --bench`, each again with
//! `LOAD_PG_URL=...`.
//!
//! `LOAD_SQLITE_SYNC=full` runs SQLite with `synchronous = FULL` (every
//! commit flushed to disk, as PostgreSQL's default `synchronous_commit =
//! on`) instead of the store's `NORMAL` (flushed at checkpoints only), to
//! compare the two back ends at the same durability.

use host::{Host, HostSettings, NewGame, Registry, SystemClock};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use store::{GameStatus, Store, TimeoutPolicy};

const KINDS: &[&str] = &["cards", "puzzle", "battle"];

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A figure of /proc/self/status in kB (VmRSS, VmHWM).
fn proc_status_kb(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The environment variable naming the database a child process plays on
/// (a SQLite path or a PostgreSQL URL); set only for the children.
const CHILD_STORE: &str = "LOAD_CHILD_STORE";

/// The line a child prints once its games exist; the parent answers each
/// child with a line on its stdin when every child is ready.
const READY: &str = "load-child: ready";

/// The line a child prints with its counts: accepted, resolved, seconds.
const COUNTS: &str = "load-child: counts";

/// Applies `LOAD_SQLITE_SYNC=full` to a SQLite store (see the header).
fn with_durability(store: Store) -> Store {
    let full = std::env::var("LOAD_SQLITE_SYNC").is_ok_and(|v| v.eq_ignore_ascii_case("full"));
    if full && !store.is_postgres() {
        store
            .sqlite_flush_every_commit()
            .expect("synchronous = FULL");
        println!("load: SQLite with synchronous = FULL");
    }
    store
}

/// Creates and starts a two-person game of `kind` in channel `channel`.
fn new_game(host: &Host, channel: &str, kind: &str, seed: u64) -> i64 {
    let id = host
        .create_game(NewGame {
            kind: kind.to_string(),
            guild_id: Some("load".into()),
            channel_id: channel.to_string(),
            creator_id: format!("{channel}-a"),
            creator_name: "A".into(),
            options: serde_json::Value::Null,
            seed: Some(seed),
            turn_seconds: Some(3600),
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .expect("create");
    host.join(id, &format!("{channel}-b"), "B", None)
        .expect("join");
    host.start(id, &format!("{channel}-a")).expect("start");
    id
}

/// A fresh database on the server of `base`: its URL and its name.
fn fresh_pg_database(base: &str) -> (String, String) {
    let name = format!("gh_load_{}", std::process::id());
    let mut admin = store::connect_postgres(base).expect("reach PostgreSQL");
    // Two statements: CREATE DATABASE cannot share an implicit transaction.
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
        .expect("drop an old load database");
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create the load database");
    let server = base.rsplit_once('/').map_or(base, |(s, _)| s);
    (format!("{server}/{name}"), name)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --all-targets`)
    // this is a quick smoke run.
    let full = std::env::args().any(|a| a == "--bench");
    let games = env_or("LOAD_GAMES", if full { 1000 } else { 30 }) as usize;
    let threads = env_or("LOAD_THREADS", 4) as usize;
    let secs = env_or("LOAD_SECS", if full { 10 } else { 1 });
    if let Ok(target) = std::env::var(CHILD_STORE) {
        let store = if target.starts_with("postgres") {
            Store::open_postgres(&target).expect("open PostgreSQL")
        } else {
            Store::open(std::path::Path::new(&target)).expect("open")
        };
        let prefix = format!("p{}-", std::process::id());
        play(
            with_durability(store),
            &prefix,
            None,
            games,
            threads,
            secs,
            true,
        );
        return;
    }
    let processes = env_or("LOAD_PROCESSES", 1).max(1) as usize;
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("load.db");
    let pg = std::env::var("LOAD_PG_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
        .map(|base| fresh_pg_database(&base));
    if pg.is_some() {
        println!("load: on PostgreSQL");
    }
    if processes > 1 {
        let target = match &pg {
            Some((url, _)) => url.clone(),
            None => {
                // Created (and migrated) once here, so the children do not
                // race to create the file.
                drop(Store::open(&db).expect("open"));
                db.display().to_string()
            }
        };
        run_processes(processes, &target);
    } else {
        let store = match &pg {
            Some((url, _)) => Store::open_postgres(url).expect("open PostgreSQL"),
            None => Store::open(&db).expect("open"),
        };
        play(
            with_durability(store),
            "",
            Some(&db),
            games,
            threads,
            secs,
            false,
        );
    }
    if let (Some((_, name)), Ok(base)) = (pg, std::env::var("LOAD_PG_URL"))
        && let Ok(mut admin) = store::connect_postgres(&base)
    {
        let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    }
}

/// Runs `processes` copies of this bench on the database `target`, starts
/// their timed phase together, and prints their output and the sum.
fn run_processes(processes: usize, target: &str) {
    use std::io::{BufRead, Write};
    let exe = std::env::current_exe().expect("this bench's path");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (lines_tx, lines) = std::sync::mpsc::channel::<(usize, String)>();
    let mut children = Vec::new();
    for i in 0..processes {
        let mut child = std::process::Command::new(&exe)
            .args(&args)
            .env(CHILD_STORE, target)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start a load process");
        let out = child.stdout.take().expect("piped stdout");
        let lines_tx = lines_tx.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if lines_tx.send((i, line)).is_err() {
                    break;
                }
            }
        });
        children.push(child);
    }
    drop(lines_tx);
    let (mut ready, mut counts) = (0, Vec::new());
    for (i, line) in lines {
        if line == READY {
            ready += 1;
            if ready == processes {
                // Every child has its games: start them all at once.
                for child in &mut children {
                    let stdin = child.stdin.as_mut().expect("piped stdin");
                    stdin.write_all(b"go\n").expect("start a load process");
                    stdin.flush().expect("start a load process");
                }
            }
        } else if let Some(rest) = line.strip_prefix(COUNTS) {
            let v: Vec<f64> = rest
                .split_whitespace()
                .map(|x| x.parse().expect("a count"))
                .collect();
            counts.push((v[0], v[1], v[2]));
        } else {
            println!("[process {}] {line}", i + 1);
        }
    }
    for mut child in children {
        assert!(
            child.wait().expect("a load process").success(),
            "a load process failed"
        );
    }
    assert_eq!(counts.len(), processes, "every load process reported");
    let accepted: f64 = counts.iter().map(|c| c.0).sum();
    let resolved: f64 = counts.iter().map(|c| c.1).sum();
    // The timed phases start together; the longest one is the window.
    let elapsed = counts.iter().map(|c| c.2).fold(0.0, f64::max);
    println!(
        "load: {processes} processes on one database for {elapsed:.1} s: {accepted} actions \
         accepted ({:.0}/s), {resolved} turns resolved ({:.0}/s)",
        accepted / elapsed,
        resolved / elapsed
    );
}

/// Creates `games` games (channels named from `prefix`) on `store`, then
/// plays them from `threads` threads for `secs` seconds and prints the
/// figures; a child process waits for the parent's word between the two.
fn play(
    store: Store,
    prefix: &str,
    db: Option<&std::path::Path>,
    games: usize,
    threads: usize,
    secs: u64,
    child: bool,
) {
    let host = Arc::new(Host::new(
        Arc::new(store),
        Registry::standard(),
        Arc::new(SystemClock),
        HostSettings::default(),
    ));
    let kinds: Vec<&str> = KINDS
        .iter()
        .copied()
        .filter(|k| host.registry().get(k).is_ok())
        .collect();
    let rss_start = proc_status_kb("VmRSS:");
    let t = Instant::now();
    let mut ids: Vec<(i64, String, &str)> = Vec::with_capacity(games);
    for i in 0..games {
        let channel = format!("{prefix}load-{i}");
        let kind = kinds[i % kinds.len()];
        ids.push((new_game(&host, &channel, kind, i as u64), channel, kind));
    }
    let setup = t.elapsed();
    let rss_idle = proc_status_kb("VmRSS:");
    let hwm_idle = proc_status_kb("VmHWM:");
    let db_kb = db
        .and_then(|db| std::fs::metadata(db).ok())
        .map_or(0, |m| m.len() / 1024);
    println!(
        "load: {games} games ({}) created and started in {:.2?}; database {db_kb} kB",
        kinds.join(", "),
        setup
    );
    println!(
        "load: idle with {games} games: VmRSS {:.1} MB (peak VmHWM {:.1} MB; {:.1} MB before creating them)",
        rss_idle as f64 / 1024.0,
        hwm_idle as f64 / 1024.0,
        rss_start as f64 / 1024.0
    );

    if child {
        use std::io::BufRead;
        println!("{READY}");
        let mut go = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut go)
            .expect("the parent's word to start");
    }
    let accepted = Arc::new(AtomicU64::new(0));
    let rejected = Arc::new(AtomicU64::new(0));
    let resolved = Arc::new(AtomicU64::new(0));
    let restarted = Arc::new(AtomicU64::new(0));
    let stop_at = Instant::now() + Duration::from_secs(secs);
    let started = Instant::now();
    let per_thread: Vec<Vec<(i64, String, &'static str)>> = (0..threads)
        .map(|t| {
            ids.iter()
                .enumerate()
                .filter(|(i, _)| i % threads == t)
                .map(|(_, (id, ch, k))| (*id, ch.clone(), kind_static(k)))
                .collect()
        })
        .collect();
    let handles: Vec<_> = per_thread
        .into_iter()
        .enumerate()
        .map(|(t, mut mine)| {
            let host = host.clone();
            let (accepted, rejected, resolved, restarted) = (
                accepted.clone(),
                rejected.clone(),
                resolved.clone(),
                restarted.clone(),
            );
            std::thread::spawn(move || {
                let mut all = Vec::new();
                let mut resolving = Vec::new();
                let mut n = t as u64;
                let mut round = 0u64;
                while Instant::now() < stop_at {
                    round += 1;
                    for (id, channel, kind) in mine.iter_mut() {
                        if Instant::now() >= stop_at {
                            break;
                        }
                        n = n
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        // The awaited player reads their view (choices), then moves.
                        let mut moved = false;
                        for who in ["a", "b"] {
                            let user = format!("{channel}-{who}");
                            let view = host.view(*id, Some(&user)).expect("view");
                            if view.status != GameStatus::Running {
                                // Finished: a new game in the same channel.
                                *id = new_game(&host, channel, kind, n ^ round);
                                restarted.fetch_add(1, Ordering::Relaxed);
                                moved = true;
                                break;
                            }
                            let Some(v) = view.view else { continue };
                            if v.choices.is_empty() {
                                continue;
                            }
                            let text = &v.choices[(n >> 33) as usize % v.choices.len()].text;
                            let t0 = Instant::now();
                            let r = host.submit(Some(*id), &user, text);
                            let dt = t0.elapsed();
                            match r {
                                Ok(receipt) => {
                                    accepted.fetch_add(1, Ordering::Relaxed);
                                    all.push(dt);
                                    if receipt.resolved {
                                        resolved.fetch_add(1, Ordering::Relaxed);
                                        resolving.push(dt);
                                    }
                                }
                                Err(_) => {
                                    rejected.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                            moved = true;
                            break;
                        }
                        if !moved {
                            rejected.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                (all, resolving)
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut resolving = Vec::new();
    for h in handles {
        let (a, r) = h.join().expect("player thread");
        all.extend(a);
        resolving.extend(r);
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    resolving.sort();
    let accepted = accepted.load(Ordering::Relaxed);
    let resolved = resolved.load(Ordering::Relaxed);
    println!(
        "load: {threads} player threads for {elapsed:.1} s: {accepted} actions accepted ({:.0}/s), \
         {resolved} turns resolved ({:.0}/s), {} refused, {} games finished and replaced",
        accepted as f64 / elapsed,
        resolved as f64 / elapsed,
        rejected.load(Ordering::Relaxed),
        restarted.load(Ordering::Relaxed)
    );
    println!(
        "load: last action -> committed resolution: p50 {:.2?}, p99 {:.2?}, max {:.2?}",
        percentile(&resolving, 0.5),
        percentile(&resolving, 0.99),
        resolving.last().copied().unwrap_or_default()
    );
    println!(
        "load: any accepted action: p50 {:.2?}, p99 {:.2?}",
        percentile(&all, 0.5),
        percentile(&all, 0.99)
    );
    println!(
        "load: peak VmHWM {:.1} MB",
        proc_status_kb("VmHWM:") as f64 / 1024.0
    );
    if child {
        println!("{COUNTS} {accepted} {resolved} {elapsed}");
    }
}

fn kind_static(k: &str) -> &'static str {
    KINDS.iter().copied().find(|x| *x == k).unwrap_or("cards")
}
