//! The config file (TOML) and `GAMEHOST_*` environment overrides.
#![no_main]

use gamehost::config::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, Vec<(String, String)>)| {
    let (text, env) = input;
    let dir = std::env::temp_dir().join(format!("gamehost-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("gamehost.toml");
    std::fs::write(&file, text).unwrap();
    let env = env.into_iter().map(|(k, v)| (format!("GAMEHOST_{k}"), v));
    let _ = Config::load_from(&file, env);
});
