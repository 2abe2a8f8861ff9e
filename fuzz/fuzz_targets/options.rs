//! Engine options (JSON a game's creator types) for every kind.
#![no_main]

use host::Registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(options) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let registry = Registry::standard();
    for kind in registry.names() {
        let _ = registry.seat_count(kind, &options);
        if let Ok(game) = registry.create(kind, &options, 7) {
            let _ = game.awaiting();
            let _ = game.view(None);
        }
    }
});
