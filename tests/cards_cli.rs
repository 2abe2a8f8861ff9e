//! `gamehost cards ...` on given input.

use clap::Parser;
use gamehost::cli::cards::{CardsArgs, run_io};

#[derive(Parser, Debug)]
struct Top {
    #[command(flatten)]
    args: CardsArgs,
}

fn run(cmd: &[&str], input: &str) -> Result<String, String> {
    let mut argv = vec!["cards"];
    argv.extend_from_slice(cmd);
    let top = Top::try_parse_from(argv).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    run_io(top.args, &mut input.as_bytes(), &mut out).map_err(|e| format!("{e:#}"))?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn solve_prints_spec_example() {
    assert_eq!(run(&["solve"], "2 2\n100 -1\n200 300\n").unwrap(), "-100\n");
    assert_eq!(
        run(&["solve"], "2 2\r\n100 -1\r\n200 300").unwrap(),
        "-100\n"
    );
}

#[test]
fn value_prints_each_first_move() {
    let out = run(&["value"], "2 2\n100 -1\n200 300\n").unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "value -100");
    assert_eq!(lines.len(), 3);
    assert!(lines.contains(&"play -100"));
    assert!(lines.iter().any(|l| l.starts_with("pass ")));
}

#[test]
fn deal_output_solves() {
    let deal = run(&["deal", "--seed", "3", "--n", "50", "--m", "40"], "").unwrap();
    let out = run(&["solve"], &deal).unwrap();
    assert!(out.trim().parse::<i64>().is_ok());
    assert!(run(&["deal", "--n", "0"], "").is_err());
}

#[test]
fn malformed_input_names_line_and_expectation() {
    let cases = [
        ("", "line 1:"),
        ("2\n1 1\n1 1\n", "line 1:"),
        ("51 1\n", "line 1:"),
        ("2 2\n100\n200 300\n", "line 2:"),
        ("2 2\n100 x\n200 300\n", "line 2:"),
        ("2 2\n100 0\n200 300\n", "line 2:"),
        ("2 2\n100 -1\n", "line 3:"),
        ("2 2\n100 -1\n200 1000001\n", "line 3:"),
        ("1 1\n1\n1\n5\n", "line 4:"),
    ];
    for (input, want) in cases {
        let err = run(&["solve"], input).unwrap_err();
        assert!(err.starts_with(want), "{input:?} gave {err:?}");
        assert!(err.contains("expected"), "{err:?}");
        assert_eq!(err.lines().count(), 1, "{err:?}");
    }
    let err = {
        let top = Top::try_parse_from(["cards", "solve"]).unwrap();
        let mut out = Vec::new();
        run_io(top.args, &mut &[0xffu8, 0xfe][..], &mut out)
            .unwrap_err()
            .to_string()
    };
    assert!(err.contains("UTF-8"));
}

/// Per deal, exact as player 1 scores at least the game value v and exact as
/// player 2 at least -v, so the two mean differences of exact sum to >= 0.
#[test]
fn tournament_table_counts_games_and_exact_is_not_behind() {
    let out = run(&["tournament", "--deals", "10", "--size", "8"], "").unwrap();
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 2);
    let mut mean_sum = 0.0;
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let games: u64 = cells[3..6].iter().map(|c| c.parse::<u64>().unwrap()).sum();
        assert_eq!(games, 10);
        mean_sum += cells[6].parse::<f64>().unwrap();
    }
    assert!(mean_sum >= -1e-9, "{out}");
    let err = run(&["tournament", "--a", "genius"], "").unwrap_err();
    assert!(err.contains("unknown AI level"));
}
