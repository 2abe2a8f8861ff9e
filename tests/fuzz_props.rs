//! Fuzz properties in the normal suite (the `fuzz/` crate runs the same
//! drivers under cargo-fuzz): every text parser a player can reach and every
//! engine's resolve, fed arbitrary input, answers without panicking, and a
//! resolved state always survives a store round trip.

use gamehost::config::Config;
use games::seam::Seat;
use host::Registry;
use host::parse_game_options;
use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// Text a player might send: anything at all, or something close to notation.
fn player_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9 ,:/\\-\\n>#]{0,40}",
        prop::collection::vec(
            prop::sample::select(vec![
                "A", "F", "Par", "Bur", "-", "S", "C", "H", "R", "D", "via", "convoy", "Build",
                "Waive", "stp/sc", "done", "clear", "draw", "play", "pass", "p", "s", "switch",
                "move", "1", "3,7", "c7", "i15", "0,0", "#1", "\n", " ", "→", "é",
            ]),
            0..12,
        )
        .prop_map(|w| w.join(" ")),
    ]
}

/// Arbitrary (small) JSON, for engine options.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-5i64..60).prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z_]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "n",
                    "m",
                    "max_value",
                    "jam_percent",
                    "decks",
                    "fair_start",
                    "random_first",
                    "max_turns",
                    "victory_centres",
                    "end_year",
                    "roster",
                    "team_size",
                    "turn_limit",
                    "pick_teams",
                    "teams",
                    "x",
                ]),
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

/// Options text a game's creator might type: JSON of any shape (arrays,
/// nested, mistyped values), `key=value` pairs with any values, or anything.
fn options_text() -> impl Strategy<Value = String> {
    prop_oneof![
        json().prop_map(|v| v.to_string()),
        json().prop_map(|v| format!("  {v:#}  ")),
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    "team_size",
                    "turn_limit",
                    "pick_teams",
                    "teams",
                    "roster",
                    "n",
                    "decks",
                    "max_turns",
                    "victory_centres",
                    "",
                ]),
                json()
            ),
            0..4
        )
        .prop_map(|kv| kv
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")),
        "[\\[\\]{}\",:=a-z0-9 ]{0,30}",
        any::<String>(),
    ]
}

/// One step of a seat: parse the text, pick one of its choices, or take the default.
#[derive(Debug, Clone)]
enum Step {
    Text(String),
    Choice(usize),
    Default,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        player_text().prop_map(Step::Text),
        any::<usize>().prop_map(Step::Choice),
        Just(Step::Default),
    ]
}

/// Plays `kind` from `seed`, each awaited seat acting by the next step;
/// checks nothing panics and each resolved state round-trips.
fn drive(kind: &str, seed: u64, steps: &[Step]) {
    let registry = Registry::standard();
    let mut game = registry.create(kind, &Value::Null, seed).unwrap();
    let mut it = steps.iter().cycle();
    for _turn in 0..steps.len().min(30) {
        if game.outcome().is_some() {
            break;
        }
        let awaiting = game.awaiting();
        if awaiting.is_empty() {
            break;
        }
        let mut actions: BTreeMap<Seat, Value> = BTreeMap::new();
        for seat in awaiting {
            let action = match it.next().unwrap() {
                Step::Text(t) => game.parse_action(seat, t).ok(),
                Step::Choice(i) => {
                    let choices = game.view(Some(seat)).choices;
                    if choices.is_empty() {
                        None
                    } else {
                        let text = &choices[i % choices.len()].text;
                        let a = game.parse_action(seat, text);
                        assert!(a.is_ok(), "{kind}: offered choice `{text}` refused: {a:?}");
                        a.ok()
                    }
                }
                Step::Default => None,
            };
            let action = match action {
                Some(a) => {
                    assert!(
                        game.validate(seat, &a).is_ok(),
                        "{kind}: parsed action invalid"
                    );
                    let _ = game.describe_action(seat, &a);
                    let _ = game.is_final(seat, &a);
                    let _ = game.combine(seat, &a, &a);
                    a
                }
                None => game.default_action(seat),
            };
            actions.insert(seat, action);
        }
        game.resolve(&actions)
            .unwrap_or_else(|e| panic!("{kind}: resolve refused its own actions: {e:?}"));
        let json = game.state_json();
        let back = registry.load(kind, &json).unwrap();
        assert_eq!(back.state_json(), json, "{kind}: state does not round-trip");
        let _ = game.view(None);
    }
}

fn kinds() -> Vec<&'static str> {
    Registry::standard().names()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_parser_answers_any_text(text in player_text(), seed in any::<u64>()) {
        let registry = Registry::standard();
        for kind in kinds() {
            let game = registry.create(kind, &Value::Null, seed).unwrap();
            let seats = registry.seat_count(kind, &Value::Null).unwrap();
            for seat in 0..seats + 1 {
                if let Ok(a) = game.parse_action(seat, &text) {
                    // Whatever parses is a legal, describable action.
                    prop_assert!(game.validate(seat, &a).is_ok());
                    prop_assert!(game.describe_action(seat, &a).is_ok());
                }
            }
        }
    }

    #[test]
    fn stored_actions_of_any_shape_are_refused_not_panicked_on(v in json(), seed in any::<u64>()) {
        let registry = Registry::standard();
        for kind in kinds() {
            let game = registry.create(kind, &Value::Null, seed).unwrap();
            for seat in game.awaiting() {
                let _ = game.validate(seat, &v);
                let _ = game.describe_action(seat, &v);
                let _ = game.is_final(seat, &v);
            }
        }
    }

    #[test]
    fn any_options_create_a_game_or_a_clear_error(options in json(), seed in any::<u64>()) {
        let registry = Registry::standard();
        for kind in kinds() {
            let _ = registry.seat_count(kind, &options);
            if let Ok(game) = registry.create(kind, &options, seed) {
                let _ = game.awaiting();
                let _ = game.view(None);
            }
        }
    }

    #[test]
    fn any_options_text_gives_an_object_or_a_clear_error(
        text in options_text(),
        seed in any::<u64>(),
    ) {
        let registry = Registry::standard();
        match parse_game_options(&text) {
            Err(e) => prop_assert!(!e.is_empty() && !e.contains('\n'), "{e:?}"),
            Ok(options) => {
                prop_assert!(options.is_null() || options.is_object(), "{options}");
                for kind in kinds() {
                    let made = registry
                        .check_option_keys(kind, &options)
                        .and_then(|()| registry.create(kind, &options, seed));
                    match made {
                        Ok(game) => {
                            let _ = game.awaiting();
                            let _ = game.view(None);
                        }
                        Err(e) => prop_assert!(!e.to_string().is_empty()),
                    }
                }
            }
        }
    }

    #[test]
    fn options_that_are_not_an_object_are_always_refused(options in json(), seed in any::<u64>()) {
        let registry = Registry::standard();
        if !(options.is_null() || options.is_object()) {
            for kind in kinds() {
                let err = registry.create(kind, &options, seed).err().map(|e| e.to_string());
                prop_assert!(
                    err.as_deref().is_some_and(|e| e.contains("JSON object")),
                    "{kind}: {options} gave {err:?}"
                );
                prop_assert!(registry.check_option_keys(kind, &options).is_err());
                prop_assert!(registry.seat_count(kind, &options).is_err());
            }
        }
    }

    #[test]
    fn any_config_file_loads_or_fails_cleanly(
        text in prop_oneof![
            any::<String>(),
            "(\\[[a-z]{2,10}\\]\n)?([a-z_]{1,12} = (\"[a-z./]{0,8}\"|[0-9]{1,6}|true|\\[\\])\n){0,4}",
        ],
        env in prop::collection::vec(("GAMEHOST_[A-Z_]{1,20}", "[a-z0-9]{0,6}"), 0..3),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gamehost.toml");
        std::fs::write(&file, &text).unwrap();
        if let Err(e) = Config::load_from(&file, env) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn config_errors_never_show_the_token(
        token in "[A-Za-z0-9._-]{20,40}",
        before in "[a-z_\\[\\]=\" 0-9\n]{0,20}",
        quote in prop::sample::select(vec!["", "\"", "'", "\"\"\"", "[\"", "{ a = \""]),
        after in "[a-z_\\[\\]=\" 0-9\n]{0,20}",
        env_var in prop::sample::select(vec!["", "DISCORD_TOKEN", "GAMEHOST_DISCORD_TOKEN"]),
        env_shape in prop::sample::select(vec!["", "\"", "[", "x"]),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gamehost.toml");
        std::fs::write(
            &file,
            format!("{before}\n[discord]\ntoken = {quote}{token}{after}\n"),
        )
        .unwrap();
        let mut env = vec![("GAMEHOST_AI_BUDGET_MS".to_string(), "fast".to_string())];
        if !env_var.is_empty() {
            env.push((env_var.to_string(), format!("{env_shape}{token}")));
        }
        let err = Config::load_from(&file, env).unwrap_err().to_string();
        prop_assert!(!err.contains(&token), "{err}");
    }

    #[test]
    fn engines_resolve_arbitrary_action_sequences(
        seed in any::<u64>(),
        steps in prop::collection::vec(step(), 1..40),
    ) {
        for kind in kinds() {
            drive(kind, seed, &steps);
        }
    }
}

/// Options that reach every phase of `kind`: the battle's team draft too.
fn phase_options(kind: &str, draft: bool) -> Value {
    match kind {
        "battle" if draft => serde_json::json!({"pick_teams": true, "team_size": 3}),
        _ => Value::Null,
    }
}

/// Plays `kind` for `turns` turns by random AI moves (which reach drafts,
/// replacements, retreats and adjustments), then has `seat` forfeit, and
/// checks the engine stays whole: no panic, every view drawn, the state
/// round-trips, the seat is out, and what goes on can still be resolved.
fn forfeit_after(kind: &str, draft: bool, seed: u64, turns: usize, seat: Seat) {
    let registry = Registry::standard();
    let mut game = registry
        .create(kind, &phase_options(kind, draft), seed)
        .unwrap();
    let seats = registry
        .seat_count(kind, &phase_options(kind, draft))
        .unwrap();
    let seat = seat % seats;
    // Random play reaches every phase but Diplomacy's retreats, which need
    // supported attacks: its default AI makes those.
    let level = if kind == "diplomacy" || !game.ai_levels().contains(&"random") {
        game.ai_levels()[0]
    } else {
        "random"
    };
    for turn in 0..turns {
        if game.outcome().is_some() || game.awaiting().is_empty() {
            break;
        }
        let actions: BTreeMap<Seat, Value> = game
            .awaiting()
            .into_iter()
            .map(|s| {
                let budget = games::seam::AiBudget::iterations(10);
                (s, game.ai_action(s, level, budget, seed ^ turn as u64))
            })
            .collect();
        game.resolve(&actions).unwrap();
    }
    let in_play = game.outcome().is_none() && game.seat_in_play(seat);
    let _ = game.forfeit(seat);
    for viewer in (0..seats).map(Some).chain([None]) {
        let _ = game.view(viewer);
    }
    let json = game.state_json();
    assert_eq!(registry.load(kind, &json).unwrap().state_json(), json);
    if game.outcome().is_none() {
        assert!(!game.seat_in_play(seat), "{kind}: seat {seat} still plays");
        assert!(
            !game.awaiting().contains(&seat),
            "{kind}: seat {seat} still awaited"
        );
        // The others play on: one more turn resolves.
        let actions: BTreeMap<Seat, Value> = game
            .awaiting()
            .into_iter()
            .map(|s| (s, game.default_action(s)))
            .collect();
        game.resolve(&actions).unwrap();
    } else if in_play {
        // A duel: the other seat won.
        assert!(
            !matches!(game.outcome(), Some(games::seam::Outcome::Win(w)) if w == seat),
            "{kind}: the seat that forfeited won"
        );
    }
    // A second forfeit of the same seat changes nothing that could panic.
    let _ = game.forfeit(seat);
    let _ = game.view(None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn engines_take_a_forfeit_in_any_phase(
        seed in any::<u64>(),
        turns in 0usize..14,
        seat in 0usize..7,
        draft in any::<bool>(),
    ) {
        for kind in kinds() {
            forfeit_after(kind, draft, seed, turns, seat);
        }
    }
}
