//! The AI ladder: the committed file covers every level of every kind,
//! `gamehost ratings ai-ladder` regenerates it deterministically, and a
//! player asking for "an AI at about 1500" gets the nearest level.

mod support;

use host::{AiLadder, HostError, LadderKind, LadderLevel, LadderModel, ManualClock, Registry};
use serde_json::json;
use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Arc;
use store::{Occupant, TimeoutPolicy};
use support::rps::{host_at, new_rps};

const COMMITTED: &str = include_str!("../assets/ai-ratings.toml");

#[test]
fn the_committed_ladder_parses_and_rates_every_level_of_every_kind() {
    let ladder = AiLadder::parse(COMMITTED).unwrap();
    assert_eq!(AiLadder::builtin(), ladder);
    let registry = Registry::standard();
    for kind in ["battle", "puzzle", "cards", "diplomacy"] {
        let entry = registry.get(kind).unwrap();
        let k = ladder
            .kind(kind)
            .unwrap_or_else(|| panic!("no ladder for {kind}"));
        let mut expected: Vec<&str> = entry.ai_levels.to_vec();
        expected.sort_unstable();
        let listed: Vec<&str> = k.levels.keys().map(String::as_str).collect();
        assert_eq!(listed, expected, "{kind}: every level, no other");
        for (level, l) in &k.levels {
            assert!(l.games > 0, "{kind} {level} played no game");
            assert!(
                l.deviation > 0.0 && l.deviation < 350.0,
                "{kind} {level}: {l:?}"
            );
        }
        // The anchor, documented in the file.
        assert_eq!(k.levels[&ladder.anchor_level].rating, ladder.anchor_rating);
        let model = if kind == "diplomacy" {
            LadderModel::WengLin
        } else {
            LadderModel::Glicko2
        };
        assert_eq!(k.model, model, "{kind}: the host's model");
    }
    assert_eq!(
        (ladder.anchor_level.as_str(), ladder.anchor_rating),
        ("random", 1000.0)
    );
    // The header says how it was made: the command (with its counts), date, commit.
    assert!(
        ladder
            .command
            .starts_with("gamehost ratings ai-ladder --games ")
    );
    assert!(COMMITTED.starts_with("# The AI ladder"));
    assert!(COMMITTED.contains(&format!("# Written by `{}`", ladder.command)));
    assert!(
        ladder.date.len() == 10 && ladder.commit.len() >= 7,
        "{ladder:?}"
    );
    // The strongest level is above random in every kind.
    for (kind, k) in &ladder.kinds {
        let top = k.levels.values().map(|l| l.rating).fold(f64::MIN, f64::max);
        assert!(top > ladder.anchor_rating, "{kind}: {k:?}");
    }
}

/// `gamehost ratings ai-ladder` with `args`, writing to `out`.
fn ladder_run(dir: &std::path::Path, out: &str, args: &[&str]) -> AiLadder {
    let o = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .current_dir(dir)
        .env_remove("GAMEHOST_CONFIG")
        .args(["ratings", "ai-ladder", "--out", out])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    AiLadder::parse(&std::fs::read_to_string(dir.join(out)).unwrap()).unwrap()
}

#[test]
fn the_cli_regenerates_a_small_ladder_deterministically() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--games",
        "2",
        "--seed",
        "11",
        "--kinds",
        "cards,puzzle,diplomacy",
        "--end-year",
        "1901",
    ];
    let one = ladder_run(dir.path(), "a.toml", &args);
    // Two threads play the same games: the seeds make the schedule.
    let two = ladder_run(
        dir.path(),
        "b.toml",
        &[&args[..], &["--threads", "2"]].concat(),
    );
    assert_eq!(one.kinds, two.kinds);
    assert_eq!(
        one.kinds.keys().collect::<Vec<_>>(),
        ["cards", "diplomacy", "puzzle"]
    );
    // Two games per pair of levels; each level plays every other twice.
    let puzzle = &one.kinds["puzzle"];
    assert_eq!(puzzle.games, 3 * 2);
    assert!(puzzle.levels.values().all(|l| l.games == 4));
    assert_eq!(puzzle.levels["random"].rating, 1000.0);
    assert_eq!(one.kinds["diplomacy"].games, 2);
    assert!(
        one.command.contains("--games 2 --seed 11"),
        "{}",
        one.command
    );
    // Bad input: a clear message, nothing written.
    for (bad, says) in [
        (&["--kinds", "chess"][..], "there is no kind `chess`"),
        (&["--games", "0"][..], "--games must be 1 to"),
        (
            &["--per-kind", "cards"][..],
            "--per-kind takes KIND=N items",
        ),
        (
            &["--per-kind", "cards=lots"][..],
            "`lots` is not a number of games",
        ),
        (
            &["--end-year", "3000"][..],
            "--end-year must be 1901 to 1950",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_gamehost"))
            .current_dir(dir.path())
            .args(["ratings", "ai-ladder", "--out", "bad.toml"])
            .args(bad)
            .output()
            .unwrap();
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{err}");
        assert!(!dir.path().join("bad.toml").exists());
    }
}

/// A ladder of the test engine's three levels.
fn rps_ladder() -> AiLadder {
    let level = |rating| LadderLevel {
        rating,
        deviation: 40.0,
        games: 20,
    };
    let levels: BTreeMap<String, LadderLevel> = [
        ("random".to_string(), level(1000.0)),
        ("rock".to_string(), level(1350.0)),
        ("gated".to_string(), level(1900.0)),
    ]
    .into();
    AiLadder {
        kinds: [(
            "rps".to_string(),
            LadderKind {
                model: LadderModel::Glicko2,
                games: 30,
                schedule: "a test".into(),
                levels,
            },
        )]
        .into(),
        ..AiLadder::empty()
    }
}

#[test]
fn asking_for_an_ai_by_rating_seats_the_nearest_level() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), Arc::new(ManualClock::at(0)))
        .with_ai_ladder(rps_ladder());
    assert_eq!(host.check_ai_level("rps", "~1500").unwrap(), "rock");
    assert_eq!(host.check_ai_level("rps", " ~ 1700 ").unwrap(), "gated");
    assert_eq!(host.check_ai_level("rps", "~0").unwrap(), "random");
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    let seat = host.add_ai(id, "alice", Some("~1800"), None).unwrap();
    let seats = host.view(id, None).unwrap().seats;
    let seated = seats.iter().find(|s| s.seat == seat).unwrap();
    assert_eq!(seated.occupant, Occupant::Ai("gated".into()));
    for bad in ["~", "~fast", "~-3", "~99999"] {
        match host.add_ai(id, "alice", Some(bad), Some(1)) {
            Err(HostError::User(m)) => assert!(m.contains("is not a rating"), "{bad}: {m}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    // A kind the ladder does not cover says so and names its levels.
    let bare = host_at(&dir.path().join("h.db"), Arc::new(ManualClock::at(0)))
        .with_ai_ladder(AiLadder::empty());
    match bare.check_ai_level("rps", "~1500") {
        Err(HostError::User(m)) => {
            assert!(
                m.contains("no measured AI ladder") && m.contains("random, rock, gated"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    // Named levels still work, with or without a ladder.
    assert_eq!(bare.check_ai_level("rps", "rock").unwrap(), "rock");
}

#[test]
fn a_profile_shows_the_expected_score_against_each_level() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), Arc::new(ManualClock::at(0)))
        .with_ai_ladder(rps_ladder());
    let id = host
        .create_game(host::NewGame {
            options: json!({"wins": 1}),
            ..new_rps("c1", None, TimeoutPolicy::Default)
        })
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();
    host.submit(Some(id), "alice", "paper").unwrap();
    host.submit(Some(id), "bob", "rock").unwrap();
    let p = host.profile(Some("guild"), "alice").unwrap();
    let ladder = &p.kinds[0].ai_ladder;
    let levels: Vec<&str> = ladder.iter().map(|l| l.level.as_str()).collect();
    assert_eq!(levels, ["random", "rock", "gated"]);
    // Alice at 1662 ± 290: ahead of random and rock, behind gated; the
    // expectation falls as the level's rating rises.
    assert!(ladder[0].expected > ladder[1].expected);
    assert!(ladder[1].expected > 0.5 && ladder[2].expected < 0.5);
    let expected = host::expected_score(
        LadderModel::Glicko2,
        host::Skill {
            rating: p.kinds[0].rating.unwrap().0,
            deviation: p.kinds[0].rating.unwrap().1,
            volatility: 0.06,
        },
        host::Skill {
            rating: 1350.0,
            deviation: 40.0,
            volatility: 0.06,
        },
    );
    assert!((ladder[1].expected - expected).abs() < 1e-3);
}
