//! The games are pure: no clock, no files, no network, no Discord, no
//! database, no environment, no sleeping. An engine that read any of them
//! would stop being replayable from its seed and its moves, so every source
//! file under `src/games` is scanned for the APIs that reach them.
//!
//! Until the crate is split into a workspace (where the games crate simply
//! will not depend on tokio, rusqlite or serenity), this scan is the check.

use std::path::{Path, PathBuf};

/// What a game may not name, with the reason given when it does.
const FORBIDDEN: &[(&str, &str)] = &[
    (
        "Instant::now",
        "reads the clock; take the host's `AiBudget` stopwatch",
    ),
    (
        "SystemTime",
        "reads the clock; take the host's `AiBudget` stopwatch",
    ),
    (
        "std::time::Instant",
        "is the clock; take the host's `AiBudget` stopwatch",
    ),
    (
        "std::fs",
        "reads files; the caller parses data and hands it in",
    ),
    (
        "File::",
        "reads files; the caller parses data and hands it in",
    ),
    ("std::net", "opens sockets"),
    (
        "tokio",
        "is the async runtime; engines are synchronous and pure",
    ),
    ("rusqlite", "is the database; only src/store speaks SQL"),
    ("serenity", "is Discord; only the front-end knows it"),
    ("poise", "is Discord; only the front-end knows it"),
    (
        "std::env",
        "reads the environment; options come from the host",
    ),
    ("thread::sleep", "waits on the clock"),
    ("std::process", "runs or ends processes"),
];

/// Every `.rs` file under `dir`, sorted, so a failure is reproducible.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The forbidden names in `text`, as "file:line: `name` reason" lines.
/// Comments are skipped (a doc may say why the clock is not read).
fn violations(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        for (name, why) in FORBIDDEN {
            if code.contains(name) {
                found.push(format!("{file}:{}: `{name}` {why}", i + 1));
            }
        }
    }
    found
}

#[test]
fn no_game_reads_the_clock_files_network_or_environment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = rust_files(&root.join("src/games"));
    assert!(files.len() > 20, "the games were found: {files:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let shown = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        found.extend(violations(&shown, &text));
    }
    assert!(
        found.is_empty(),
        "src/games must stay pure:\n{}",
        found.join("\n")
    );
}

/// The scan itself finds what it looks for, names the line, and ignores
/// comments: otherwise the test above could never fail.
#[test]
fn the_scan_names_the_file_and_line_of_a_forbidden_call() {
    let text = "fn a() {}\n// Instant::now is not read here\nlet t = std::time::Instant::now();\n\
                let s = std::fs::read_to_string(p); // std::env\n";
    let found = violations("src/games/x.rs", text);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        found[0].starts_with("src/games/x.rs:3: `Instant::now`"),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("src/games/x.rs:3: `std::time::Instant`"),
        "{found:?}"
    );
    assert!(
        found[2].starts_with("src/games/x.rs:4: `std::fs`"),
        "{found:?}"
    );
}
