//! The spec as a table of hand-computed cases, plus the rule-data loader,
//! notation and host-facing behaviour of the battle.

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use games::battle::engine::{self, Act, Event, Res, Step};
use games::battle::rules::data::Roster;
use games::battle::{Battle, BattleAction, BattleOptions};
use games::seam::{ChoiceStyle, Game, Outcome};
use std::collections::BTreeMap;

/// A tiny rule set whose numbers are easy to compute by hand.
const TEST_ROSTER: &str = r#"
types = ["Fire", "Water", "Rock"]

[rules]
alpha = 0.5
beta = 2.0
turn_limit = 100

[effectiveness]
Fire = { Water = 0.5, Rock = 0.0 }
Water = { Fire = 2.0, Rock = 2.0 }

[[move]]
name = "Burn"
type = "Fire"
power = 30
accuracy = 1.0

[[move]]
name = "Splash"
type = "Water"
power = 40
accuracy = 1.0

[[move]]
name = "Never"
type = "Fire"
power = 10
accuracy = 0.0

[[move]]
name = "Coinflip"
type = "Water"
power = 20
accuracy = 0.5

[[move]]
name = "Heal"
heal = 0.5

[[monster]]
name = "Ash"
type = "Fire"
hp = 100
attack = 30
defense = 20
speed = 50
moves = ["Burn", "Heal", "Never"]

[[monster]]
name = "Brook"
type = "Water"
hp = 81
attack = 25
defense = 40
speed = 40
moves = ["Splash", "Heal", "Coinflip"]

[[monster]]
name = "Crag"
type = "Rock"
hp = 60
attack = 20
defense = 25
speed = 10
moves = ["Splash", "Never"]

[[monster]]
name = "Dune"
type = "Rock"
hp = 70
attack = 20
defense = 30
speed = 50
moves = ["Splash", "Never"]
"#;

fn roster() -> Roster {
    Roster::from_toml(TEST_ROSTER, "test.toml").expect("test roster loads")
}

fn battle(a: &[&str], b: &[&str], seed: u64) -> Battle {
    let options = BattleOptions {
        teams: Some([
            a.iter().map(|s| s.to_string()).collect(),
            b.iter().map(|s| s.to_string()).collect(),
        ]),
        ..Default::default()
    };
    Battle::with_roster(&roster(), &options, seed).expect("battle")
}

fn act(b: &Battle, seat: usize, text: &str) -> BattleAction {
    b.parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn resolve(b: &mut Battle, a0: &str, a1: &str) -> String {
    let mut m = BTreeMap::new();
    if b.awaiting().contains(&0) {
        m.insert(0, act(b, 0, a0));
    }
    if b.awaiting().contains(&1) {
        m.insert(1, act(b, 1, a1));
    }
    b.resolve(m).public
}

#[test]
fn damage_formula_table() {
    let r = roster();
    let b = battle(&["Ash", "Crag"], &["Brook", "Dune"], 1);
    let setup = b.setup();
    let m = |name: &str| r.monsters[r.find(name).unwrap()].clone();
    // (attacker, power, move type, defender, expected): hand-computed
    // floor((0.5 * d * A / B + 2) * e).
    let cases = [
        // 0.5*30*30/40 + 2 = 13.25; * 0.5 = 6.625 -> 6 (floor)
        ("Ash", 30, 0u8, "Brook", 6u16),
        // 0.5*40*25/20 + 2 = 27; * 2 = 54
        ("Brook", 40, 1, "Ash", 54),
        // e = 0: immune even though beta > 0
        ("Ash", 30, 0, "Crag", 0),
        // 0.5*40*20/30 + 2 = 15.333..; * 2 = 30.67 -> 30
        ("Crag", 40, 1, "Dune", 30),
        // neutral (Fire on Fire is 1 here): 0.5*30*30/20 + 2 = 24.5 -> 24
        ("Ash", 30, 0, "Ash", 24),
        // 0.5*20*25/25 + 2 = 12; * 2 = 24
        ("Brook", 20, 1, "Crag", 24),
    ];
    for (a, d, t, def, want) in cases {
        assert_eq!(setup.damage(&m(a), d, t, &m(def)), want, "{a} {d} on {def}");
    }
}

#[test]
fn attack_in_battle_and_immunity() {
    // Ash (speed 50) vs Brook: Burn deals 6; Brook's Splash deals 54.
    let mut b = battle(&["Ash"], &["Brook"], 3);
    resolve(&mut b, "Burn", "Splash");
    assert_eq!(b.pos().hp[0][0], 100 - 54);
    assert_eq!(b.pos().hp[1][0], 81 - 6);
    assert_eq!(b.pos().turn, 1);
    // Against a Rock monster Burn does nothing (e = 0).
    let mut b = battle(&["Ash"], &["Crag"], 3);
    let report = resolve(&mut b, "Burn", "Never");
    assert_eq!(b.pos().hp[1][0], 60);
    assert!(report.contains("no effect"), "{report}");
}

#[test]
fn heal_is_floored_and_capped() {
    let mut b = battle(&["Ash"], &["Brook"], 5);
    // Brook at 10/81 heals 50%: floor(10 + 40.5) = 50.
    let mut pos = *b.pos();
    pos.hp[1][0] = 10;
    b = Battle::from_parts(b.setup().clone(), pos, 5);
    resolve(&mut b, "Never", "Heal");
    assert_eq!(b.pos().hp[1][0], 50);
    // Brook at 78/81 heals: capped at 81, never above max HP.
    let mut pos = *b.pos();
    pos.hp[1][0] = 78;
    b = Battle::from_parts(b.setup().clone(), pos, 5);
    let ev = b.apply_acts([Some(Act::Move(2)), Some(Act::Move(1))]);
    assert_eq!(b.pos().hp[1][0], 81);
    assert!(
        ev.contains(&Event::Healed {
            seat: 1,
            mv: 1,
            amount: 3,
            now: 81
        }),
        "{ev:?}"
    );
}

#[test]
fn switch_happens_before_moves_and_takes_the_hit() {
    // Seat 0 switches Ash -> Crag; Brook's Splash hits Crag (Water on Rock x2):
    // 0.5*40*25/25 + 2 = 22; * 2 = 44.
    let mut b = battle(&["Ash", "Crag"], &["Brook"], 9);
    let report = resolve(&mut b, "switch Crag", "Splash");
    assert_eq!(b.pos().active[0], 1);
    assert_eq!(b.pos().hp[0][1], 60 - 44);
    assert_eq!(b.pos().hp[0][0], 100, "Ash left before the hit");
    assert!(report.starts_with("Player 1 switches to Crag."), "{report}");
}

#[test]
fn a_knocked_out_monster_does_not_move() {
    // Ash is faster; Brook at 5 HP faints from Burn (6) and its Splash is skipped.
    let b0 = battle(&["Ash"], &["Brook", "Crag", "Dune"], 11);
    let mut pos = *b0.pos();
    pos.hp[1][0] = 5;
    let mut b = Battle::from_parts(b0.setup().clone(), pos, 11);
    let ev = b.apply_acts([Some(Act::Move(0)), Some(Act::Move(0))]);
    assert_eq!(b.pos().hp[1][0], 0);
    assert_eq!(
        b.pos().hp[0][0],
        100,
        "the fainted monster's move is not performed"
    );
    assert!(ev.contains(&Event::Skipped { seat: 1, mv: 0 }), "{ev:?}");
    // Replacement step: only seat 1 (two monsters left) is awaited.
    assert_eq!(b.pos().step(), Step::Replace);
    assert_eq!(b.awaiting(), vec![1]);
    let err = b.parse_action(0, "Burn").unwrap_err();
    assert!(err.problem.contains("not your turn"), "{err}");
    // Choices of the replacement step are select entries of the living bench.
    let v = b.view(Some(1));
    let texts: Vec<&str> = v.choices.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["switch Crag", "switch Dune"]);
    assert!(v.choices.iter().all(|c| c.style == ChoiceStyle::Select));
    // A fainted monster cannot come back.
    let err = b.parse_action(1, "switch Brook").unwrap_err();
    assert!(err.problem.contains("fainted"), "{err}");
    assert!(err.expected.contains("switch Crag"), "{err}");
    let mut m = BTreeMap::new();
    m.insert(1, b.parse_action(1, "dune").unwrap());
    b.resolve(m);
    assert_eq!(b.pos().active[1], 2);
    assert_eq!(b.pos().turn, 1, "the replacement step is not a turn");
    assert_eq!(b.awaiting(), vec![0, 1]);
}

#[test]
fn the_only_replacement_is_sent_in_automatically() {
    let b0 = battle(&["Ash"], &["Brook", "Crag"], 2);
    let mut pos = *b0.pos();
    pos.hp[1][0] = 6;
    let mut b = Battle::from_parts(b0.setup().clone(), pos, 2);
    b.apply_acts([Some(Act::Move(0)), Some(Act::Move(0))]);
    assert_eq!(b.pos().step(), Step::Choose);
    assert_eq!(b.pos().active[1], 1);
}

#[test]
fn losing_the_last_monster_loses_the_battle() {
    let b0 = battle(&["Ash"], &["Brook"], 4);
    let mut pos = *b0.pos();
    pos.hp[1][0] = 6;
    let mut b = Battle::from_parts(b0.setup().clone(), pos, 4);
    let report = resolve(&mut b, "Burn", "Splash");
    assert_eq!(b.outcome(), Some(Outcome::Win(0)));
    assert!(b.awaiting().is_empty());
    assert!(report.contains("Player 1 wins"), "{report}");
    assert!(b.parse_action(0, "Burn").is_err());
}

#[test]
fn turn_limit_is_a_draw() {
    let options = BattleOptions {
        teams: Some([vec!["Ash".into()], vec!["Crag".into()]]),
        turn_limit: Some(2),
        ..Default::default()
    };
    let mut b = Battle::with_roster(&roster(), &options, 1).unwrap();
    resolve(&mut b, "Never", "Never");
    assert_eq!(b.outcome(), None);
    resolve(&mut b, "Never", "Never");
    assert_eq!(b.outcome(), Some(Outcome::Draw(vec![0, 1])));
    assert!(b.view(None).status.contains("turn limit"));
}

#[test]
fn speed_tie_coin_is_fair() {
    // Ash and Dune both have speed 50; count who moves first over seeded battles.
    let mut first0 = 0u32;
    let n = 2000u32;
    for seed in 0..n as u64 {
        let mut b = battle(&["Ash"], &["Dune"], seed);
        let ev = b.apply_acts([Some(Act::Move(2)), Some(Act::Move(1))]);
        match ev.iter().find_map(|e| {
            if let Event::Coin { first } = e {
                Some(*first)
            } else {
                None
            }
        }) {
            Some(0) => first0 += 1,
            Some(_) => {}
            None => panic!("no coin on a speed tie: {ev:?}"),
        }
    }
    let e = n as f64 / 2.0;
    let chi2 = ((first0 as f64 - e).powi(2) + ((n - first0) as f64 - e).powi(2)) / e;
    // 1 degree of freedom, p = 0.001.
    assert!(chi2 < 10.83, "chi-square {chi2} ({first0} of {n})");
    // No coin when speeds differ.
    let mut b = battle(&["Ash"], &["Brook"], 1);
    let ev = b.apply_acts([Some(Act::Move(2)), Some(Act::Move(2))]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Coin { .. })));
}

#[test]
fn accuracy_roll_hits_about_p() {
    // Coinflip has accuracy 0.5: count hits over seeded turns.
    let mut hits = 0;
    let n = 2000;
    for seed in 0..n {
        let mut b = battle(&["Ash"], &["Brook"], seed);
        let ev = b.apply_acts([Some(Act::Move(2)), Some(Act::Move(2))]);
        if ev.iter().any(|e| matches!(e, Event::Hit { seat: 1, .. })) {
            hits += 1;
        }
    }
    let e = n as f64 / 2.0;
    let chi2 = ((hits as f64 - e).powi(2) + ((n - hits) as f64 - e).powi(2)) / e;
    assert!(chi2 < 10.83, "{hits} hits of {n}");
}

#[test]
fn notation_accepts_names_numbers_and_switches() {
    let b = battle(&["Ash", "Crag"], &["Brook", "Dune"], 1);
    assert_eq!(act(&b, 0, "Burn"), BattleAction::Move(0));
    assert_eq!(act(&b, 0, "  burn "), BattleAction::Move(0));
    assert_eq!(act(&b, 0, "2"), BattleAction::Move(1));
    assert_eq!(act(&b, 0, "switch crag"), BattleAction::Switch(1));
    assert_eq!(act(&b, 0, "Switch Crag"), BattleAction::Switch(1));
    assert_eq!(act(&b, 0, "crag"), BattleAction::Switch(1));
    // Errors say what was wrong and list the legal actions.
    let e = b.parse_action(0, "Splash").unwrap_err();
    assert!(e.problem.contains("Ash does not know"), "{e}");
    assert!(
        e.expected.contains("`Burn`") && e.expected.contains("`switch Crag`"),
        "{e}"
    );
    let e = b.parse_action(0, "switch Ash").unwrap_err();
    assert!(e.problem.contains("already in battle"), "{e}");
    let e = b.parse_action(0, "switch Brook").unwrap_err();
    assert!(e.problem.contains("not a monster of your team"), "{e}");
    let e = b.parse_action(0, "7").unwrap_err();
    assert!(e.problem.contains("no move number 7"), "{e}");
    assert!(b.parse_action(0, "").is_err());
    assert!(b.parse_action(2, "Burn").is_err());
    // Every offered choice parses to a valid action; moves are buttons, switches selects.
    for seat in 0..2 {
        let v = b.view(Some(seat));
        assert!(!v.choices.is_empty());
        for c in &v.choices {
            let a = b.parse_action(seat, &c.text).unwrap();
            b.validate(seat, &a).unwrap();
            let is_move = matches!(a, BattleAction::Move(_));
            assert_eq!(c.style == ChoiceStyle::Button, is_move, "{c:?}");
            assert_eq!(b.describe_action(seat, &a), c.text);
        }
    }
    assert!(b.view(None).choices.is_empty());
}

#[test]
fn forfeit_ends_the_battle() {
    let mut b = battle(&["Ash"], &["Brook"], 1);
    b.forfeit(1);
    assert_eq!(b.outcome(), Some(Outcome::Win(0)));
    assert!(b.awaiting().is_empty());
}

#[test]
fn options_from_empty_json_and_bad_options() {
    let o: BattleOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(o.team_size, 3);
    let b = Battle::new_game(o, 42).unwrap();
    assert_eq!(b.setup().teams[0].len(), 3);
    assert_eq!(b.awaiting(), vec![0, 1]);
    let same = Battle::new_game(BattleOptions::default(), 42).unwrap();
    assert_eq!(b, same, "teams come from the seed");
    for n in [0usize, 7] {
        let o = BattleOptions {
            team_size: n,
            ..Default::default()
        };
        assert!(Battle::new_game(o, 1).is_err());
    }
    // State round-trips through JSON.
    let json = serde_json::to_string(&b).unwrap();
    let back: Battle = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
    assert!(json.len() < 8000, "state is {} bytes", json.len());
}

/// The operator's roster file (read by the CLI, bounded) replaces the
/// built-in one; a broken copy fails with the file, the entry and the reason.
#[test]
fn roster_file_loads_another_rule_set() {
    use gamehost::operator_file::load_roster;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.toml");
    std::fs::write(&path, TEST_ROSTER).unwrap();
    let o = BattleOptions {
        team_size: 2,
        ..Default::default()
    };
    let b = Battle::with_roster(&load_roster(&path).unwrap(), &o, 3).unwrap();
    let names = ["Ash", "Brook", "Crag", "Dune"];
    for m in b.setup().teams.iter().flatten() {
        assert!(names.contains(&m.name.as_str()));
    }
    std::fs::write(
        &path,
        TEST_ROSTER.replace("accuracy = 0.5", "accuracy = 1.5"),
    )
    .unwrap();
    let e = load_roster(&path).unwrap_err().to_string();
    assert!(
        e.contains("r.toml") && e.contains("move \"Coinflip\"") && e.contains("accuracy"),
        "{e}"
    );
}

#[test]
fn malformed_rule_data_names_file_entry_and_reason() {
    let cases: Vec<(String, &str, &str)> = vec![
        (
            TEST_ROSTER.replace("type = \"Rock\"\nhp = 60", "type = \"Lava\"\nhp = 60"),
            "monster \"Crag\"",
            "Lava",
        ),
        (
            TEST_ROSTER.replace("alpha = 0.5", "alpha = -1.0"),
            "rules.alpha",
            "positive",
        ),
        (
            TEST_ROSTER.replace(
                "moves = [\"Splash\", \"Never\"]\n\n[[monster]]\nname = \"Dune\"",
                "moves = [\"Splash\", \"Fly\"]\n\n[[monster]]\nname = \"Dune\"",
            ),
            "monster \"Crag\"",
            "Fly",
        ),
        (
            TEST_ROSTER.replace("Fire = { Water = 0.5", "Fire = { Air = 0.5"),
            "effectiveness.Fire.Air",
            "not a type",
        ),
        (
            TEST_ROSTER.replace("hp = 100", "hp = 0"),
            "monster \"Ash\"",
            "hp",
        ),
        (
            TEST_ROSTER.replace("heal = 0.5", "heal = 0.5\npower = 3"),
            "move \"Heal\"",
            "heal",
        ),
        (
            TEST_ROSTER.replace("[rules]", "[rulez]"),
            "(syntax)",
            "rulez",
        ),
        (
            TEST_ROSTER.replace("moves = [\"Burn\", \"Heal\", \"Never\"]", "moves = []"),
            "monster \"Ash\"",
            "1..=4 moves",
        ),
    ];
    for (text, entry, reason) in cases {
        let e = Roster::from_toml(&text, "bad.toml").unwrap_err();
        assert_eq!(e.file, "bad.toml");
        assert_eq!(e.entry, entry, "{e}");
        assert!(e.reason.contains(reason), "{e}");
        assert!(e.to_string().contains("bad.toml"));
    }
}

#[test]
fn builtin_roster_meets_the_issue() {
    let r = Roster::builtin();
    assert!(r.types.len() >= 8);
    assert!(r.monsters.len() >= 24);
    for m in &r.monsters {
        assert!((2..=4).contains(&m.moves.len()), "{}", m.name);
    }
    assert_eq!(r.turn_limit, 100);
    // Some immunity exists (e = 0).
    assert!(r.chart.iter().flatten().any(|&e| e == 0.0));
}

#[test]
fn builtin_roster_is_balanced() {
    // Every monster against every other, 1-v-1, greedy against greedy with
    // sides swapped: no monster wins most of its matches by a wide margin,
    // and none loses nearly all.
    use games::battle::ai::greedy;
    let r = Roster::builtin();
    let n = r.monsters.len();
    let mut wins = vec![0u32; n];
    let mut games = vec![0u32; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            for seed in 0..3u64 {
                let o = BattleOptions {
                    teams: Some([
                        vec![r.monsters[i].name.clone()],
                        vec![r.monsters[j].name.clone()],
                    ]),
                    ..Default::default()
                };
                let mut b = Battle::with_roster(r, &o, seed * 1000 + (i * n + j) as u64).unwrap();
                while b.pos().result.is_none() {
                    let a = [0, 1].map(|x| Some(greedy::choose(b.setup(), b.pos(), x)));
                    b.apply_acts(a);
                }
                games[i] += 1;
                games[j] += 1;
                match b.pos().result {
                    Some(Res::Win(0)) => wins[i] += 1,
                    Some(Res::Win(_)) => wins[j] += 1,
                    _ => {}
                }
            }
        }
    }
    for k in 0..n {
        let rate = wins[k] as f64 / games[k] as f64;
        assert!(
            (0.2..=0.8).contains(&rate),
            "{} wins {:.0}%",
            r.monsters[k].name,
            rate * 100.0
        );
    }
}

#[test]
fn draft_lets_players_pick_teams() {
    let o = BattleOptions {
        pick_teams: true,
        team_size: 2,
        ..Default::default()
    };
    let mut b = Battle::with_roster(&roster(), &o, 1).unwrap();
    assert_eq!(b.awaiting(), vec![0, 1]);
    let v = b.view(Some(0));
    assert_eq!(v.choices.len(), 4);
    let e = b.parse_action(0, "pick Ash, Ash").unwrap_err();
    assert!(e.problem.contains("already"), "{e}");
    let e = b.parse_action(0, "Ash, Brook, Crag").unwrap_err();
    assert!(e.problem.contains("only 2 left"), "{e}");
    let mut m = BTreeMap::new();
    m.insert(0, b.parse_action(0, "pick Ash, Crag").unwrap());
    m.insert(1, b.parse_action(1, "Dune").unwrap());
    b.resolve(m);
    assert_eq!(b.awaiting(), vec![1]);
    let e = b.parse_action(0, "Brook").unwrap_err();
    assert!(e.problem.contains("complete"), "{e}");
    let mut m = BTreeMap::new();
    m.insert(1, b.parse_action(1, "Ash").unwrap());
    b.resolve(m);
    assert!(b.draft().is_none());
    let names = |x: usize| {
        b.setup().teams[x]
            .iter()
            .map(|m| m.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(0), ["Ash", "Crag"]);
    assert_eq!(names(1), ["Dune", "Ash"]);
    assert_eq!(b.awaiting(), vec![0, 1]);
    assert_eq!(engine::legal(b.setup(), b.pos(), 0).len(), 4);
}

#[test]
fn default_action_and_ai_actions_are_legal() {
    let b = Battle::new_game(BattleOptions::default(), 5).unwrap();
    for seat in 0..2 {
        b.validate(seat, &b.default_action(seat)).unwrap();
        for level in ["greedy", "random", "mc:20", "search:200"] {
            let a = b.ai_action(seat, level, games::seam::AiBudget::iterations(200), 9);
            b.validate(seat, &a).unwrap();
        }
    }
    let o = BattleOptions {
        pick_teams: true,
        ..Default::default()
    };
    let d = Battle::new_game(o, 5).unwrap();
    d.validate(0, &d.default_action(0)).unwrap();
    d.validate(
        1,
        &d.ai_action(1, "default", games::seam::AiBudget::iterations(10), 3),
    )
    .unwrap();
}
