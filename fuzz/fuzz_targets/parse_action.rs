//! Every engine's action parser (battle, puzzle, cards, Diplomacy) on any
//! text, from any seat: an answer, never a panic; what parses validates.
#![no_main]

use host::Registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, u8, u64, &str)| {
    let (kind, seat, seed, text) = input;
    let registry = Registry::standard();
    let kinds = registry.names();
    let kind = kinds[kind as usize % kinds.len()];
    let game = registry
        .create(kind, &serde_json::Value::Null, seed)
        .unwrap();
    let seat = seat as usize % 8;
    if let Ok(a) = game.parse_action(seat, text) {
        assert!(game.validate(seat, &a).is_ok());
        game.describe_action(seat, &a).unwrap();
    }
});
