//! A Diplomacy game's history exported as `adjudicate` records: every phase
//! adjudicated again gives the next phase's position, through the library
//! and through the real `gamehost diplomacy export` / `render` commands.

#[path = "support/host_builder.rs"]
mod host_builder;

use gamehost::cli::diplomacy::export_game;
use games::diplomacy::geo::Map;
use games::diplomacy::record::{RecDislodged, RecUnit, Record, adjudicate_record};
use host::{GameId, ManualClock, Registry, TurnActions};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use store::GameStatus;

/// Plays a seeded game to its end (1904) on a SQLite file: Austria is a
/// person who holds, forfeits in the fifth phase and is replaced by the AI;
/// the other powers are AIs (default and random, for some dislodgements).
fn play_game(db: &Path) -> GameId {
    let host = host_builder::host_on(
        db,
        Registry::standard(),
        Arc::new(ManualClock::at(0)),
        host_builder::settings(1000, 0),
    );
    let id = host
        .create_game(host_builder::diplomacy_request(
            serde_json::json!({"end_year": 1904}),
            11,
            true,
        ))
        .unwrap();
    for s in 1..7 {
        let level = if s % 2 == 0 { "random" } else { "default" };
        host.add_ai(id, "u0", Some(level), Some(s)).unwrap();
    }
    host.start(id, "u0").unwrap();
    for step in 0..100 {
        host.run_ai_turns(Some(id), 50).unwrap();
        if host.game(id).unwrap().status != GameStatus::Running {
            break;
        }
        if step == 4 {
            host.forfeit(id, "u0").unwrap();
            host.add_ai(id, "u0", Some("random"), None).unwrap();
        } else {
            host.submit(Some(id), "u0", "done").unwrap();
        }
    }
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    assert_eq!(host.replay(id).unwrap().first_divergence, None);
    let log = host.game_log(id).unwrap();
    assert!(
        log.turns
            .iter()
            .any(|t| matches!(t.step, TurnActions::Takeover(_))),
        "the log has a takeover"
    );
    id
}

fn sorted_units(mut v: Vec<RecUnit>) -> Vec<RecUnit> {
    v.sort();
    v
}

fn sorted_dislodged(mut v: Vec<RecDislodged>) -> Vec<RecDislodged> {
    v.sort();
    v
}

/// Centre owners by province, as a record states them.
fn owners(rec: &Record) -> BTreeMap<String, String> {
    rec.supply_centers
        .iter()
        .flat_map(|(p, cs)| cs.iter().map(move |c| (c.clone(), p.clone())))
        .collect()
}

/// Centres change hands after Fall (its movement when nobody retreats, or
/// its retreats): each centre goes to the power whose unit stands on it.
fn owners_after(rec: &Record, dislodged: bool, units: &[RecUnit]) -> BTreeMap<String, String> {
    let mut o = owners(rec);
    let fall = rec.season.as_deref() == Some("fall");
    let ends_fall = fall && (rec.phase == "retreat" || (rec.phase == "movement" && !dislodged));
    if ends_fall {
        let m = Map::standard();
        for u in units {
            let prov = m.prov(m.prov_of(m.loc_by_abbr(&u.at).unwrap()));
            if prov.sc {
                o.insert(prov.abbr.clone(), u.power.clone());
            }
        }
    }
    o
}

/// Adjudicating each record gives the next record's units, dislodged units,
/// standoffs and centre owners.
fn check_round_trip(records: &[Record]) {
    let m = Map::standard();
    for (i, pair) in records.windows(2).enumerate() {
        let (rec, next) = (&pair[0], &pair[1]);
        let out = adjudicate_record(m, rec).unwrap_or_else(|e| panic!("phase {i}: {e}"));
        let what = format!("phase {i} ({:?} {})", rec.id, rec.phase);
        assert_eq!(
            out.final_units,
            sorted_units(next.units.clone()),
            "{what}: units"
        );
        assert!(
            out.results.iter().all(|r| r.canonical.is_some()),
            "{what}: every exported order parses"
        );
        assert_eq!(
            sorted_dislodged(out.dislodged.clone()),
            sorted_dislodged(next.dislodged.clone()),
            "{what}: dislodged"
        );
        if next.phase == "retreat" {
            assert_eq!(out.standoffs, next.standoffs, "{what}: standoffs");
        } else {
            assert!(next.standoffs.is_empty(), "{what}");
        }
        assert_eq!(
            owners_after(rec, !out.dislodged.is_empty(), &out.final_units),
            owners(next),
            "{what}: centre owners"
        );
    }
}

#[test]
fn the_export_reproduces_every_phase() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let id = play_game(&db);
    let host = host_builder::standard_host(&db);
    let records = export_game(&host, id).unwrap();
    // Phase 0 is the opening; the log's forfeit and takeover are no phases.
    assert_eq!(records[0].id.as_deref(), Some("Spring 1901"));
    assert_eq!(records[0].units.len(), 22);
    let phases: Vec<&str> = records.iter().map(|r| r.phase.as_str()).collect();
    for kind in ["movement", "retreat", "adjustment"] {
        assert!(phases.contains(&kind), "no {kind} phase in {phases:?}");
    }
    assert!(records.last().unwrap().orders.is_empty());
    check_round_trip(&records);
    // Only Diplomacy games export; unknown games are named.
    assert!(
        export_game(&host, 99)
            .unwrap_err()
            .to_string()
            .contains("#99")
    );
}

fn gamehost(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    c.current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG");
    c
}

fn run_ok(mut c: Command) -> Vec<u8> {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn the_cli_exports_a_game_and_renders_its_phases() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let id = play_game(&db);
    let expected = export_game(&host_builder::standard_host(&db), id).unwrap();

    let mut c = gamehost(dir.path());
    c.args(["diplomacy", "export", &id.to_string(), "--db"])
        .arg(&db);
    let text = String::from_utf8(run_ok(c)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len());
    let records: Vec<Record> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    check_round_trip(&records);
    assert_eq!(
        serde_json::to_string(&records).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );

    // The export feeds `adjudicate --jsonl` as it is.
    let mut c = gamehost(dir.path());
    c.args(["diplomacy", "adjudicate", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers = String::from_utf8(out.stdout).unwrap();
    assert_eq!(answers.lines().count(), lines.len());
    assert!(!answers.contains("\"error\""), "{answers}");

    // Phase 0 and the last phase render as different valid PNGs.
    let render = |phase: Option<usize>, orders: bool| {
        let mut c = gamehost(dir.path());
        c.args(["diplomacy", "render", "--game", &id.to_string(), "--db"])
            .arg(&db);
        if let Some(n) = phase {
            c.args(["--phase", &n.to_string()]);
        }
        if orders {
            c.arg("--orders");
        }
        run_ok(c)
    };
    let first = render(Some(0), false);
    let last = render(None, false);
    let last_numbered = render(Some(lines.len() - 1), false);
    for png in [&first, &last] {
        let p = resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
        assert_eq!((p.width(), p.height()), (1193, 1235));
    }
    assert_ne!(first, last);
    assert_eq!(last, last_numbered, "the default phase is the last");
    // `export --phase N | render` draws the same image as `render --game --phase N`.
    let mut c = gamehost(dir.path());
    c.args([
        "diplomacy",
        "export",
        &id.to_string(),
        "--phase",
        "1",
        "--db",
    ])
    .arg(&db);
    let one = run_ok(c);
    assert_eq!(String::from_utf8_lossy(&one).trim(), lines[1]);
    let mut c = gamehost(dir.path());
    c.args(["diplomacy", "render", "--orders"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&one).unwrap();
    }
    let piped = child.wait_with_output().unwrap();
    assert!(piped.status.success());
    assert_eq!(piped.stdout, render(Some(1), true));
    assert_ne!(piped.stdout, render(Some(1), false), "the orders are drawn");

    // A phase out of range, or a missing database, is one clear line.
    let mut c = gamehost(dir.path());
    c.args([
        "diplomacy",
        "export",
        &id.to_string(),
        "--phase",
        "999",
        "--db",
    ])
    .arg(&db);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("has phases 0 to {}", lines.len() - 1)),
        "{err}"
    );
    let mut c = gamehost(dir.path());
    c.args(["diplomacy", "export", "1", "--db", "missing.db"]);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.db"), "{err}");
}

/// Export and render only read: the database file is left byte for byte as
/// it was, with no `-wal` or `-shm` file created beside it, and a missing
/// database is named, never created.
#[test]
fn export_and_render_leave_the_database_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let id = play_game(&db);
    // The host above is gone: SQLite checkpointed and removed its WAL files.
    let before = std::fs::read(&db).unwrap();
    let beside = |suffix: &str| dir.path().join(format!("g.db{suffix}"));
    assert!(!beside("-wal").exists() && !beside("-shm").exists());
    for args in [
        vec!["diplomacy", "export", &id.to_string()],
        vec!["diplomacy", "render", "--game", &id.to_string()],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    {
        let mut c = gamehost(dir.path());
        c.args(&args).arg("--db").arg(&db);
        assert!(!run_ok(c).is_empty(), "{args:?}");
        assert_eq!(
            std::fs::read(&db).unwrap(),
            before,
            "{args:?} changed the file"
        );
        assert!(
            !beside("-wal").exists() && !beside("-shm").exists(),
            "{args:?}"
        );
    }
    let mut c = gamehost(dir.path());
    c.args(["diplomacy", "export", "1", "--db"])
        .arg(dir.path().join("missing.db"));
    let out = c.output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.db"), "{err}");
    assert!(!dir.path().join("missing.db").exists());
    // Without --db, the configured database (gamehost.db here) is read, and
    // where there is none, none is created.
    let empty = tempfile::tempdir().unwrap();
    let mut c = gamehost(empty.path());
    c.args(["diplomacy", "export", "1"]);
    let out = c.output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("gamehost.db"), "{err}");
    let left: Vec<_> = std::fs::read_dir(empty.path()).unwrap().collect();
    assert!(left.is_empty(), "export created {left:?}");
}
