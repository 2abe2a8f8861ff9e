//! Every engine resolving arbitrary sequences of actions: each awaited seat
//! acts by parsing fuzzed text, picking one of its offered choices, or taking
//! the default; every resolved state must round-trip through JSON.
#![no_main]

use arbitrary::Arbitrary;
use games::seam::Seat;
use host::Registry;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Arbitrary, Debug)]
enum Step {
    Text(String),
    Choice(u16),
    Default,
}

#[derive(Arbitrary, Debug)]
struct Input {
    kind: u8,
    seed: u64,
    steps: Vec<Step>,
}

fuzz_target!(|input: Input| {
    if input.steps.is_empty() {
        return;
    }
    let registry = Registry::standard();
    let kinds = registry.names();
    let kind = kinds[input.kind as usize % kinds.len()];
    let mut game = registry.create(kind, &Value::Null, input.seed).unwrap();
    let mut steps = input.steps.iter().cycle();
    for _ in 0..input.steps.len().min(60) {
        if game.outcome().is_some() {
            break;
        }
        let awaiting = game.awaiting();
        if awaiting.is_empty() {
            break;
        }
        let mut actions: BTreeMap<Seat, Value> = BTreeMap::new();
        for seat in awaiting {
            let parsed = match steps.next().unwrap() {
                Step::Text(t) => game.parse_action(seat, t).ok(),
                Step::Choice(i) => {
                    let choices = game.view(Some(seat)).choices;
                    (!choices.is_empty()).then(|| {
                        let text = &choices[*i as usize % choices.len()].text;
                        game.parse_action(seat, text)
                            .expect("an offered choice parses")
                    })
                }
                Step::Default => None,
            };
            let action = parsed.unwrap_or_else(|| game.default_action(seat));
            actions.insert(seat, action);
        }
        game.resolve(&actions)
            .expect("resolve accepts its own actions");
        let json = game.state_json();
        let back = registry.load(kind, &json).expect("state loads back");
        assert_eq!(back.state_json(), json);
    }
});
