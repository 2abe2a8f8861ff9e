//! Every reader of untrusted input refuses input beyond its limit with one
//! line, without reading (or keeping) the rest, and accepts input just
//! under it; impossible Diplomacy positions are refused, not dropped.
//! The real binary is fed inputs generated in memory.

use gamehost::cli::cards::MAX_PROBLEM_BYTES;
use games::diplomacy::geo::Map;
use games::diplomacy::record::{MAX_ID_CHARS, MAX_ORDER_CHARS, MAX_ORDERS, MAX_RECORD_BYTES};
use games::puzzle::record as puzzle_record;
use host::limits::{MAX_LINE_BYTES, MAX_OPTIONS_CHARS};
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn gamehost(dir: &std::path::Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    c.current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env("USER", "tester");
    c
}

/// Runs the binary with `args` on `input`; a reader that stops early may
/// close the pipe, so a failed write of the rest is fine.
fn run(args: &[&str], input: &[u8]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut child = gamehost(dir.path())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}

/// Asserts a refusal: failure, one line on stderr containing `needle`.
fn refused(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "accepted; stderr: {err}");
    assert!(err.contains(needle), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

fn accepted(o: &Output) {
    assert!(o.status.success(), "refused: {}", stderr(o));
}

fn unit(power: &str, kind: &str, at: &str) -> Value {
    json!({"power": power, "type": kind, "at": at})
}

/// A movement record of the given units and orders.
fn movement(units: Vec<Value>, orders: Vec<Value>) -> Value {
    json!({"phase": "movement", "units": units, "orders": orders})
}

fn adjudicate(rec: &Value) -> Output {
    run(
        &["diplomacy", "adjudicate"],
        serde_json::to_string(rec).unwrap().as_bytes(),
    )
}

#[test]
fn render_refuses_a_record_id_over_its_limit_and_draws_one_at_it() {
    let mut rec = movement(vec![unit("Austria", "A", "vie")], vec![]);
    rec["id"] = json!("x".repeat(MAX_ID_CHARS + 1));
    refused(
        &run(
            &["diplomacy", "render"],
            serde_json::to_string(&rec).unwrap().as_bytes(),
        ),
        &format!("longer than {MAX_ID_CHARS} characters"),
    );
    rec["id"] = json!("x".repeat(MAX_ID_CHARS));
    let o = run(
        &["diplomacy", "render"],
        serde_json::to_string(&rec).unwrap().as_bytes(),
    );
    accepted(&o);
    assert!(o.stdout.starts_with(b"\x89PNG"));
}

#[test]
fn a_record_over_the_size_limit_is_refused_without_reading_it_all() {
    // The 10 MB id of the report: refused by size, whatever the field.
    let mut rec = movement(vec![], vec![]);
    rec["id"] = json!("x".repeat(10 * 1024 * 1024));
    let text = serde_json::to_string(&rec).unwrap();
    for cmd in ["render", "adjudicate"] {
        refused(
            &run(&["diplomacy", cmd], text.as_bytes()),
            &format!("larger than {MAX_RECORD_BYTES} bytes"),
        );
    }
    // Just under the size limit (padding is whitespace) is read.
    let small =
        serde_json::to_string(&movement(vec![unit("Austria", "A", "vie")], vec![])).unwrap();
    let padded = format!("{small}{}", " ".repeat(MAX_RECORD_BYTES - small.len()));
    accepted(&run(&["diplomacy", "adjudicate"], padded.as_bytes()));
    let over = format!("{padded} ");
    refused(
        &run(&["diplomacy", "adjudicate"], over.as_bytes()),
        "larger than",
    );
}

#[test]
fn adjudicate_jsonl_refuses_an_overlong_line_and_reads_one_at_the_limit() {
    let small =
        serde_json::to_string(&movement(vec![unit("Austria", "A", "vie")], vec![])).unwrap();
    // The line ending counts in the limit.
    let at = format!(
        "{small}{}\n",
        " ".repeat(MAX_RECORD_BYTES - small.len() - 1)
    );
    let o = run(&["diplomacy", "adjudicate", "--jsonl"], at.as_bytes());
    accepted(&o);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    // An overlong line is answered with its error, and the run goes on.
    let over = format!(
        "{small}\n{small}{}\n{small}\n",
        " ".repeat(MAX_RECORD_BYTES)
    );
    let o = run(&["diplomacy", "adjudicate", "--jsonl"], over.as_bytes());
    accepted(&o);
    let answers = jsonl_answers(&o);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[1]["line"], 2);
    assert!(
        answers[1]["error"].as_str().unwrap().contains("at most"),
        "{answers:?}"
    );
    assert!(answers[0].get("error").is_none() && answers[2].get("error").is_none());
}

/// Issue 46: `adjudicate --jsonl` answers every bad line with an error
/// object naming the line (not JSON, not a record, not UTF-8, a record
/// that cannot be adjudicated) and goes on; a wrong value is not echoed
/// whole.
#[test]
fn adjudicate_jsonl_answers_every_bad_line_and_goes_on() {
    let good = serde_json::to_string(&movement(vec![unit("Austria", "A", "vie")], vec![])).unwrap();
    let bad_position = serde_json::to_string(&movement(
        vec![unit("Austria", "A", "vie"), unit("Italy", "A", "vie")],
        vec![],
    ))
    .unwrap();
    let wrong_type = serde_json::to_string(&json!({
        "phase": "movement", "units": "x".repeat(10_000), "orders": []
    }))
    .unwrap();
    let mut input = Vec::new();
    for line in [&good, "not json at all", &wrong_type, &bad_position, &good] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(good.as_bytes());
    input.push(b'\n');
    let o = run(&["diplomacy", "adjudicate", "--jsonl"], &input);
    accepted(&o);
    let answers = jsonl_answers(&o);
    assert_eq!(answers.len(), 7, "{answers:?}");
    for (i, bad) in [
        (1, "not a record"),
        (2, "not a record"),
        (3, "Vienna"),
        (5, "UTF-8"),
    ] {
        assert_eq!(answers[i]["line"], i as u64 + 1, "{answers:?}");
        let error = answers[i]["error"].as_str().unwrap();
        assert!(error.contains(bad), "line {}: {error}", i + 1);
        assert!(error.len() < 400, "line {}: {} bytes", i + 1, error.len());
    }
    for i in [0, 4, 6] {
        assert!(answers[i].get("error").is_none(), "{answers:?}");
    }
}

/// Each line `adjudicate --jsonl` printed, as JSON.
fn jsonl_answers(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn more_units_than_provinces_are_refused_before_any_work() {
    let provinces = Map::standard().province_count();
    let many: Vec<Value> = (0..100_000).map(|_| unit("Austria", "A", "vie")).collect();
    // Over the byte limit already: refused by size.
    refused(&adjudicate(&movement(many, vec![])), "larger than");
    let over: Vec<Value> = (0..=provinces)
        .map(|_| unit("Austria", "A", "vie"))
        .collect();
    refused(
        &adjudicate(&movement(over, vec![])),
        &format!("{} units; at most {provinces}", provinces + 1),
    );
    // At the limit the count passes; these units then fail as a position.
    let at: Vec<Value> = (0..provinces)
        .map(|_| unit("Austria", "A", "vie"))
        .collect();
    refused(&adjudicate(&movement(at, vec![])), "two units in Vienna");
}

#[test]
fn orders_over_their_count_or_length_are_refused() {
    let units = vec![unit("Austria", "A", "vie")];
    let order = |text: &str| json!({"power": "Austria", "text": text});
    let at: Vec<Value> = (0..MAX_ORDERS).map(|_| order("A Vie H")).collect();
    accepted(&adjudicate(&movement(units.clone(), at.clone())));
    let mut over = at;
    over.push(order("A Vie H"));
    refused(
        &adjudicate(&movement(units.clone(), over)),
        &format!("at most {MAX_ORDERS}"),
    );
    let long = format!("A Vie H{}", " ".repeat(MAX_ORDER_CHARS - 7));
    accepted(&adjudicate(&movement(units.clone(), vec![order(&long)])));
    let longer = format!("{long} ");
    refused(
        &adjudicate(&movement(units, vec![order(&longer)])),
        &format!("longer than {MAX_ORDER_CHARS} characters"),
    );
}

#[test]
fn positions_that_cannot_exist_are_refused_with_the_reason() {
    let cases = [
        (vec![unit("Austria", "F", "vie")], "Vienna has no coast"),
        (
            vec![unit("England", "A", "nth")],
            "an army cannot be at sea",
        ),
        (
            vec![unit("Austria", "A", "vie"), unit("Russia", "A", "vie")],
            "two units in Vienna",
        ),
        (
            vec![
                unit("Austria", "A", "gal"),
                unit("Russia", "F", "stp/sc"),
                unit("Russia", "A", "stp"),
            ],
            "two units in St",
        ),
        (vec![unit("France", "A", "spa/nc")], "not on a coast"),
        (vec![unit("France", "F", "spa")], "must name its coast"),
        (vec![unit("France", "F", "par/nc")], "unknown location"),
        (vec![unit("Swiss", "A", "swi")], "unknown power"),
        (vec![unit("France", "A", "swi")], "cannot exist"),
    ];
    for (units, needle) in cases {
        for cmd in ["adjudicate", "render"] {
            let rec = serde_json::to_string(&movement(units.clone(), vec![])).unwrap();
            refused(&run(&["diplomacy", cmd], rec.as_bytes()), needle);
        }
    }
    // The same units where they can stand are accepted.
    accepted(&adjudicate(&movement(
        vec![
            unit("Austria", "A", "vie"),
            unit("England", "F", "nth"),
            unit("France", "F", "spa/nc"),
            unit("Russia", "F", "stp/sc"),
        ],
        vec![],
    )));
}

#[test]
fn an_error_never_quotes_a_huge_field_back() {
    let rec = movement(vec![unit(&"P".repeat(100_000), "A", "vie")], vec![]);
    let o = adjudicate(&rec);
    refused(&o, "unknown power");
    assert!(stderr(&o).len() < 200, "{}", stderr(&o));
}

#[test]
fn parse_answers_an_overlong_line_with_one_error_and_goes_on() {
    let input = format!("A Par - Bur\n{}\nF Lon - Nth\n", "x".repeat(5_000_000));
    let o = run(&["diplomacy", "parse"], input.as_bytes());
    accepted(&o);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].contains("longer than"), "{text}");
    assert!(lines[2].to_lowercase().contains("lon"), "{text}");
}

#[test]
fn cards_solve_refuses_input_over_its_limit() {
    let problem = "2 2\n100 -1\n200 300\n";
    let at = format!(
        "{problem}{}",
        "\n".repeat(MAX_PROBLEM_BYTES - problem.len())
    );
    let o = run(&["cards", "solve"], at.as_bytes());
    accepted(&o);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "-100");
    let over = format!("{at}\n");
    refused(
        &run(&["cards", "solve"], over.as_bytes()),
        &format!("larger than {MAX_PROBLEM_BYTES} bytes"),
    );
}

#[test]
fn puzzle_replay_refuses_a_record_or_a_line_over_its_limit() {
    let golden = std::fs::read_to_string("tests/data/puzzle_golden.jsonl").unwrap();
    let o = run(&["puzzle", "replay", "-"], golden.as_bytes());
    accepted(&o);
    let big = format!(
        "{golden}{}",
        "\n".repeat(puzzle_record::MAX_RECORD_BYTES + 1 - golden.len())
    );
    refused(
        &run(&["puzzle", "replay", "-"], big.as_bytes()),
        &format!("larger than {} bytes", puzzle_record::MAX_RECORD_BYTES),
    );
    let mut lines: Vec<String> = golden.lines().map(String::from).collect();
    // Whitespace inside the header keeps it valid JSON.
    let pad = puzzle_record::MAX_LINE_BYTES - lines[0].len();
    lines[0] = format!("{}{}", lines[0], " ".repeat(pad));
    accepted(&run(
        &["puzzle", "replay", "-"],
        lines.join("\n").as_bytes(),
    ));
    lines[0].push(' ');
    refused(
        &run(&["puzzle", "replay", "-"], lines.join("\n").as_bytes()),
        &format!(
            "line 1 is longer than {} bytes",
            puzzle_record::MAX_LINE_BYTES
        ),
    );
}

#[test]
fn play_refuses_options_over_their_limit() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    // A valid object padded with spaces to the limit exactly.
    let base = r#"{"n": 3, "m": 3}"#;
    let at = format!("{}{base}", " ".repeat(MAX_OPTIONS_CHARS - base.len()));
    let o = gamehost(dir.path())
        .args(["play", "cards", "--vs", "random", "--options", &at, "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    accepted(&o);
    let over = format!(" {at}");
    let o = gamehost(dir.path())
        .args(["play", "cards", "--new", "--options", &over, "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    refused(&o, &format!("longer than {MAX_OPTIONS_CHARS} characters"));
}

#[test]
fn the_terminal_skips_an_overlong_line_and_asks_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut input = "x".repeat(MAX_LINE_BYTES * 10).into_bytes();
    input.extend_from_slice(b"\nquit\n");
    let mut child = gamehost(dir.path())
        .args(["play", "cards", "--vs", "random", "--seed", "1", "--db"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    accepted(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("That line is too long"), "{text}");
    assert!(text.contains("is saved"), "{text}");
}
