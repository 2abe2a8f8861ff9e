//! Crash safety: the real `gamehost` binary plays games (`gamehost soak`)
//! and is killed with SIGKILL at random points many times, then restarted
//! on the same database. Afterwards every acknowledged action is in the turn
//! log or still pending, every game's turn log is contiguous and replays to
//! its stored state, and no announcement was delivered twice or lost.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{HostSettings, Registry, SystemClock};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const KILLS: usize = 30;

fn soak(db: &Path, log: &Path, seed: u64, steps: u64) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    cmd.arg("soak")
        .arg("--db")
        .arg(db)
        .arg("--log")
        .arg(log)
        .args(["--games", "6", "--seed", &seed.to_string()])
        .args(["--steps", &steps.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

#[test]
fn sigkill_loses_nothing_and_resolves_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let db_file = dir.path().join("soak.db");
    // On the PostgreSQL pass the soak runs on the database made for that path.
    let db = if host_builder::on_postgres() {
        std::path::PathBuf::from(host_builder::pg_database_for(&db_file))
    } else {
        db_file.clone()
    };
    let log = dir.path().join("ack.log");
    let mut rng = ChaCha8Rng::seed_from_u64(0x50a4);
    let started = Instant::now();
    let mut killed = 0;
    for round in 0..KILLS {
        let mut child = soak(&db, &log, round as u64 + 1, 0).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(rng.gen_range(30..250)));
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "soak exited early ({status}): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        killed += 1;
    }
    // A last, clean run: it must start on whatever the kills left and drain the outbox.
    let out = soak(&db, &log, 999, 150).output().unwrap();
    assert!(
        out.status.success(),
        "clean run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(killed, KILLS);

    let text = std::fs::read_to_string(&log).unwrap();
    let mut acks: Vec<(i64, u32, usize)> = Vec::new();
    let mut sent: Vec<i64> = Vec::new();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for line in lines {
        // A kill mid-write can leave one unfinished last line of a run;
        // it was never acknowledged to anyone, so it is skipped.
        let Some(line) = line.strip_suffix('\n') else {
            continue;
        };
        let f: Vec<&str> = line.splitn(5, ' ').collect();
        match f[0] {
            "A" if f.len() == 5 => acks.push((
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )),
            "S" if f.len() == 2 => sent.push(f[1].parse().unwrap()),
            _ => {} // a torn line glued to the next run's first one
        }
    }
    assert!(
        acks.len() > 50,
        "too few acknowledged actions: {}",
        acks.len()
    );

    let host = host_builder::host_on(
        &db_file,
        Registry::standard(),
        Arc::new(SystemClock),
        HostSettings::default(),
    );
    let ids = host.store().read(|tx| tx.all_game_ids()).unwrap();
    let mut resolved = 0;
    let mut logs = BTreeMap::new();
    for &id in &ids {
        let game = host.game(id).unwrap();
        let turn_log = host
            .store()
            .read(|tx| tx.turn_log(id, 0, u32::MAX))
            .unwrap();
        let turns: Vec<u32> = turn_log.iter().map(|t| t.turn).collect();
        let expected: Vec<u32> = (1..=game.turn).collect();
        assert_eq!(turns, expected, "game {id}: turns skipped or repeated");
        resolved += turns.len();
        let report = host.replay(id).unwrap();
        assert_eq!(
            report.first_divergence, None,
            "game {id} diverges on replay"
        );
        let pending = host.store().read(|tx| tx.pending(id)).unwrap();
        logs.insert(id, (game.turn, turn_log, pending));
    }
    assert!(resolved > 20, "too few turns resolved: {resolved}");

    for (id, turn, seat) in &acks {
        let (game_turn, turn_log, pending) = &logs[id];
        let in_log = turn_log.iter().any(|t| {
            t.turn == turn + 1 && {
                let acts: serde_json::Value = serde_json::from_str(&t.actions).unwrap();
                acts.get(seat.to_string()).is_some()
            }
        });
        let still_pending =
            *game_turn == *turn && pending.iter().any(|p| p.turn == *turn && p.seat == *seat);
        assert!(
            in_log || still_pending,
            "acknowledged action lost: game {id}, turn {turn}, seat {seat}"
        );
    }

    let unique: BTreeSet<i64> = sent.iter().copied().collect();
    assert_eq!(
        unique.len(),
        sent.len(),
        "an announcement was delivered twice"
    );
    assert!(
        host.unsent(10).unwrap().is_empty(),
        "announcements left undelivered"
    );
    // Every row is delivered (none is unsent, above): count them all.
    let total: i64 = host
        .store()
        .read(|tx| -> Result<i64, store::StoreError> {
            let mut n = 0;
            for id in tx.all_game_ids()? {
                tx.each_outbox_row_of_game(id, |_| n += 1)?;
            }
            Ok(n)
        })
        .unwrap();
    // Every row is delivered; the only ones missing from the log are those
    // whose process was killed between the commit of `mark_sent` and the
    // log write (at most one per kill).
    assert!(
        total - unique.len() as i64 <= KILLS as i64,
        "{total} announcements, {} logged as delivered",
        unique.len()
    );
    eprintln!(
        "{KILLS} kills; {} acknowledged actions, {} games, {resolved} turns resolved, \
         {total} announcements delivered in {:?}",
        acks.len(),
        ids.len(),
        started.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(120));
}
