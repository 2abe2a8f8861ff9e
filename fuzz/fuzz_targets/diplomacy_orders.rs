//! Diplomacy order messages (many lines, any notation) from every power.
#![no_main]

use host::Registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let registry = Registry::standard();
    let game = registry
        .create("diplomacy", &serde_json::Value::Null, 1)
        .unwrap();
    for seat in 0..7 {
        if let Ok(a) = game.parse_action(seat, text) {
            assert!(game.validate(seat, &a).is_ok());
            let merged = game.combine(seat, &a, &a).unwrap();
            game.describe_action(seat, &merged).unwrap();
        }
    }
});
