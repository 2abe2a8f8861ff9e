//! The tournament command: pairs, sides swapped, JSON shape.

use gamehost::cli::battle::{TournamentArgs, tournament};

fn args(ai: &[&str], games: usize, json: bool) -> TournamentArgs {
    TournamentArgs {
        ai: ai.iter().map(|s| s.to_string()).collect(),
        games,
        seed: 5,
        budget_ms: None,
        json,
        team_size: 2,
        roster: None,
        threads: 2,
    }
}

#[test]
fn tournament_counts_and_json() {
    let r = tournament(&args(&["random", "greedy", "mc:20"], 6, true)).unwrap();
    assert_eq!(r.pairs.len(), 3);
    for p in &r.pairs {
        assert_eq!(p.games, 6);
        assert_eq!(p.a_wins + p.b_wins + p.draws, 6);
    }
    let v: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs[0]["a"], "random");
    assert_eq!(pairs[0]["b"], "greedy");
    for key in ["games", "a_wins", "b_wins", "draws"] {
        assert!(pairs[0][key].is_u64(), "{key}");
    }
    let table = r.table();
    assert!(table.contains("| random | greedy | 6 |"), "{table}");
    // Reproducible without a clock budget, whatever the thread interleaving.
    let again = tournament(&args(&["random", "greedy", "mc:20"], 6, true)).unwrap();
    assert_eq!(r.pairs, again.pairs);
}

#[test]
fn tournament_rejects_bad_levels() {
    assert!(tournament(&args(&["random", "genius"], 2, false)).is_err());
    assert!(tournament(&args(&["random"], 2, false)).is_err());
}
