//! Game records: a golden replay, divergence detection, and the simulate /
//! tournament entry points.

use games::puzzle::PuzzleOptions;
use games::puzzle::record::{self, ReplayReport};
use games::seam::AiBudget;

const GOLDEN: &str = include_str!("data/puzzle_golden.jsonl");

fn golden_game() -> record::GameRecord {
    record::simulate(42, PuzzleOptions::default(), ["random", "greedy"], || {
        AiBudget::iterations(1)
    })
    .unwrap()
    .1
}

#[test]
fn golden_record_is_reproduced_exactly() {
    // Regenerate with: gamehost puzzle simulate --seed 42 --ai random --ai greedy --json
    let text = golden_game().to_json_lines();
    assert_eq!(
        text, GOLDEN,
        "the engine no longer reproduces the golden game"
    );
}

#[test]
fn golden_record_replays_ok() {
    match record::replay(GOLDEN).unwrap() {
        ReplayReport::Ok { actions, result } => {
            assert_eq!(actions, GOLDEN.lines().count() - 2);
            assert_ne!(result.outcome, "unfinished");
        }
        other => panic!("golden replay diverged: {other:?}"),
    }
}

#[test]
fn a_tampered_record_reports_the_first_divergence() {
    let mut lines: Vec<String> = GOLDEN.lines().map(String::from).collect();
    // Line 4 (the third action): claim one more coloured ball.
    let mut v: serde_json::Value = serde_json::from_str(&lines[3]).unwrap();
    let c = v["c"].as_u64().unwrap();
    v["c"] = serde_json::json!(c + 1);
    lines[3] = v.to_string();
    let text = lines.join("\n");
    match record::replay(&text).unwrap() {
        ReplayReport::Divergence { line, .. } => assert_eq!(line, 4),
        other => panic!("expected a divergence, got {other:?}"),
    }
    // A different seed diverges at once.
    let text = GOLDEN.replacen("\"seed\":42", "\"seed\":43", 1);
    match record::replay(&text).unwrap() {
        ReplayReport::Divergence { line, .. } => assert_eq!(line, 2),
        other => panic!("expected a divergence, got {other:?}"),
    }
    // A truncated record is an error, not OK.
    let short: String = GOLDEN.lines().take(5).collect::<Vec<_>>().join("\n");
    assert!(record::replay(&short).is_err());
}

#[test]
fn json_lines_have_the_documented_fields() {
    let rec = golden_game();
    let text = rec.to_json_lines();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for l in &lines[1..lines.len() - 1] {
        for f in [
            "turn",
            "player",
            "x",
            "y",
            "color",
            "c",
            "o",
            "w",
            "sent_kind",
            "sent_count",
        ] {
            assert!(l.get(f).is_some(), "missing {f} in {l}");
        }
        match l["sent_kind"].as_str() {
            None => assert_eq!(l["sent_count"], 0),
            Some(k) => assert!(k == "hard" || k == "soft"),
        }
    }
    assert!(lines.last().unwrap().get("result").is_some());
}

#[test]
fn tournament_counts_every_game() {
    let levels = vec!["random".to_string(), "greedy".to_string()];
    let r = record::tournament(&levels, 4, 9, || AiBudget::iterations(1));
    assert_eq!(r.len(), 1);
    let p = &r[0];
    assert_eq!(
        (p.a.as_str(), p.b.as_str(), p.games),
        ("random", "greedy", 4)
    );
    assert_eq!(p.a_wins + p.b_wins + p.draws, 4);
}
