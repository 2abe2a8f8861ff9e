//! The games are pure: no clock, no files, no network, no Discord, no
//! database, no environment, no sleeping. An engine that read any of them
//! would stop being replayable from its seed and its moves, so every source
//! file of the games crate is scanned for the APIs that reach them, and the
//! workspace's crate graph is checked against the layers of the design:
//! the games crate's dependency tree has no runtime, database or Discord,
//! and each layer depends only on the layers below it.

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
    (
        "rusqlite",
        "is the database; only the store crate speaks SQL",
    ),
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
    let files = rust_files(&root.join("crates/games/src"));
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
        "crates/games must stay pure:\n{}",
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

/// Runs cargo (the one running this test) with `args` in the workspace root.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_string());
    let out = std::process::Command::new(cargo)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("cargo prints UTF-8")
}

/// The package names in `cargo tree` output printed with `--prefix none`.
fn tree_packages(tree: &str) -> Vec<String> {
    let mut names: Vec<String> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_games_crate_depends_on_no_runtime_database_or_discord() {
    let tree = cargo(&[
        "tree", "-p", "games", "-e", "normal", "--prefix", "none", "--locked",
    ]);
    let packages = tree_packages(&tree);
    // The listing is real: the engines' own dependencies are in it.
    for needed in ["games", "rand", "serde"] {
        assert!(
            packages.iter().any(|p| p == needed),
            "{needed} missing from {packages:?}"
        );
    }
    for forbidden in [
        "tokio",
        "serenity",
        "poise",
        "rusqlite",
        "libsqlite3-sys",
        "resvg",
        "hyper",
        "mio",
        "store",
        "host",
        "render",
        "discord",
    ] {
        assert!(
            !packages.iter().any(|p| p == forbidden),
            "the games crate must stay pure, but its dependency tree has {forbidden}:\n{tree}"
        );
    }
}

#[test]
fn each_layer_depends_only_on_the_layers_below_it() {
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--locked",
    ]))
    .expect("cargo metadata prints JSON");
    let layers = [
        "i18n", "games", "store", "host", "render", "discord", "gamehost",
    ];
    // What each crate of the workspace may use (normal dependencies):
    // the design's layers, with front-ends reaching the store only
    // through the host's re-exports.
    let allowed: &[(&str, &[&str])] = &[
        ("i18n", &[]),
        ("games", &["i18n"]),
        ("store", &[]),
        ("host", &["i18n", "games", "store"]),
        ("render", &["i18n", "games", "host"]),
        ("discord", &["i18n", "games", "host", "render"]),
        (
            "gamehost",
            &["i18n", "games", "store", "host", "render", "discord"],
        ),
    ];
    let packages = metadata["packages"].as_array().expect("packages");
    let mut seen = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap_or_default();
        let Some((_, may_use)) = allowed.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        seen.push(name.to_string());
        let used: Vec<&str> = package["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .filter_map(|d| d["name"].as_str())
            .filter(|d| layers.contains(d))
            .collect();
        for dep in &used {
            assert!(
                may_use.contains(dep),
                "{name} depends on {dep}, which the layers of DESIGN.md forbid (allowed: {may_use:?})"
            );
        }
    }
    seen.sort();
    let mut expected: Vec<String> = layers.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(seen, expected, "every layer is a crate of the workspace");
}
