//! Runs every DATC v3.0 case of `datc.jsonl` through the adjudicator and
//! checks every stated result, the final units and the dislodgements (and,
//! for retreat cases, the preceding movement phase first).

use gamehost::games::diplomacy::geo::Map;
use gamehost::games::diplomacy::record::{
    RecDislodged, RecOutput, RecUnit, Record, adjudicate_record,
};
use serde_json::Value;
use std::path::PathBuf;

fn datc_path() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var("DATC_JSONL")
            .map(PathBuf::from)
            .unwrap_or_default(),
        dir.join("../shared/datc/datc.jsonl"),
        dir.join("../../shared/datc/datc.jsonl"),
        PathBuf::from("/work/shared/datc/datc.jsonl"),
    ];
    candidates.into_iter().find(|p| p.is_file()).expect(
        "datc.jsonl not found: set DATC_JSONL or keep ../shared/datc/datc.jsonl next to the crate",
    )
}

fn units(v: &Value) -> Vec<RecUnit> {
    let mut u: Vec<RecUnit> = serde_json::from_value(v.clone()).expect("units");
    u.sort();
    u
}

fn dislodged(v: &Value) -> Vec<RecDislodged> {
    let mut d: Vec<RecDislodged> = serde_json::from_value(v.clone()).expect("dislodged");
    d.sort();
    d
}

/// The adjudicator's dislodgements sorted, without `by_convoy` (the DATC
/// records do not state whether the attacker came by convoy).
fn plain(d: &[RecDislodged]) -> Vec<RecDislodged> {
    let mut d: Vec<RecDislodged> = d
        .iter()
        .cloned()
        .map(|mut x| {
            x.by_convoy = false;
            x
        })
        .collect();
    d.sort();
    d
}

/// Compares stated results; returns the differences.
fn check_results(expected: &Value, got: &RecOutput, what: &str, diffs: &mut Vec<String>) {
    let Some(exp) = expected.as_array() else {
        return;
    };
    if exp.len() != got.results.len() {
        diffs.push(format!(
            "{what}: {} results expected, {} given",
            exp.len(),
            got.results.len()
        ));
        return;
    }
    for (e, g) in exp.iter().zip(&got.results) {
        if let Some(r) = e["result"].as_str()
            && r != g.result
        {
            diffs.push(format!(
                "{what}: `{}` expected {r}, got {} ({})",
                g.text,
                g.result,
                g.reason.clone().unwrap_or_default()
            ));
        }
    }
}

fn check_case(map: &Map, line: &str) -> (String, Vec<String>) {
    let v: Value = serde_json::from_str(line).expect("json");
    let id = v["id"].as_str().unwrap_or("?").to_string();
    let rec: Record = serde_json::from_value(v.clone()).expect("record");
    let out = match adjudicate_record(map, &rec) {
        Ok(o) => o,
        Err(e) => return (id, vec![format!("error: {e}")]),
    };
    let mut diffs = Vec::new();
    let exp = &v["expected"];
    check_results(&exp["results"], &out, "results", &mut diffs);
    if !exp["final_units"].is_null() {
        let want = units(&exp["final_units"]);
        if want != out.final_units {
            diffs.push(format!(
                "final units: expected {want:?}, got {:?}",
                out.final_units
            ));
        }
    }
    match rec.phase.as_str() {
        "movement" => {
            let want = dislodged(&exp["dislodged"]);
            let got = plain(&out.dislodged);
            if want != got {
                diffs.push(format!("dislodged: expected {want:?}, got {got:?}"));
            }
        }
        "retreat" => {
            if let Some(pre) = &out.preceding_movement {
                check_results(
                    &v["preceding_movement"]["expected"]["results"],
                    pre,
                    "preceding movement",
                    &mut diffs,
                );
                let want = dislodged(&v["dislodged"]);
                let got = plain(&pre.dislodged);
                if want != got {
                    diffs.push(format!(
                        "preceding dislodged: expected {want:?}, got {got:?}"
                    ));
                }
            }
            if !exp["disbanded"].is_null() {
                let want = units(&exp["disbanded"]);
                if want != out.disbanded {
                    diffs.push(format!(
                        "disbanded: expected {want:?}, got {:?}",
                        out.disbanded
                    ));
                }
            }
        }
        "adjustment" => {
            // The DATC list of civil-disorder removals may be partial: each listed unit must be removed.
            for u in units(&exp["civil_disorder_disbands"]) {
                if !out.civil_disorder_disbands.contains(&u) {
                    diffs.push(format!(
                        "civil disorder: expected {u:?} removed, got {:?}",
                        out.civil_disorder_disbands
                    ));
                }
            }
        }
        _ => diffs.push("unknown phase".into()),
    }
    (id, diffs)
}

#[test]
fn datc_v3_all_cases() {
    let map = Map::standard();
    let text = std::fs::read_to_string(datc_path()).expect("read datc.jsonl");
    let mut pass = 0;
    let mut total = 0;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        total += 1;
        let (id, diffs) = check_case(map, line);
        if diffs.is_empty() {
            pass += 1;
        } else {
            failures.push(format!("{id}:\n    {}", diffs.join("\n    ")));
        }
    }
    println!("DATC v3.0: {pass}/{total} cases pass");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert_eq!(total, 164, "datc.jsonl should hold 164 cases");
    assert!(
        failures.is_empty(),
        "{} DATC cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
