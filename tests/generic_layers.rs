//! The generic layers name no game.
//!
//! What differs by game is asked of the engine through the seam (`Game`,
//! the registry's `KindEntry`) or lives in a folder named for its game, so
//! a new game is its folder plus one registration line. This test reads
//! every source file of `crates/host/src` and `crates/discord/src` and fails
//! listing each place where code (not a comment, not a `#[cfg(test)]`
//! module) names a game: its kind as a string (`"diplomacy"`), its module
//! (`games::diplomacy`), or its engine type (`Diplomacy`).
//!
//! Allowed: a file or folder named for its game (`diplomacy/`, a path
//! segment equal to the kind); a parent wiring such a folder (`mod
//! diplomacy;` and `use diplomacy::{desk, press};` in the file declaring
//! it, so the generic parts call `crate::desk` by what it does); and the
//! registration of every engine (`crates/host/src/registry.rs`).

#[path = "support/rust_tokens.rs"]
mod rust_tokens;

#[path = "support/source_files.rs"]
mod source_files;

use rust_tokens::{Token, TokenKind, ident, punct, tokenize};
use std::path::{Path, PathBuf};

/// Each game: its kind, its module in the games crate, its engine type.
const GAMES: &[(&str, &str)] = &[
    ("diplomacy", "Diplomacy"),
    ("battle", "Battle"),
    ("cards", "Invisible"),
    ("puzzle", "PuzzleDuel"),
];

/// The generic layers checked.
const GENERIC_ROOTS: &[&str] = &["crates/host/src", "crates/discord/src"];

/// Files allowed to name games, with why.
const ALLOWED_FILES: &[(&str, &str)] = &[(
    "crates/host/src/registry.rs",
    "Registry::standard: the one registration line of each game",
)];

/// One place a generic file names a game.
#[derive(Debug)]
struct Mention {
    file: PathBuf,
    line: usize,
    what: String,
}

/// Whether a path lies in a file or folder named for a game.
fn named_for_a_game(relative: &Path) -> bool {
    relative.components().any(|c| {
        let name = c.as_os_str().to_string_lossy();
        let stem = name.trim_end_matches(".rs");
        GAMES.iter().any(|(kind, _)| stem == *kind)
    })
}

/// The index just past a `#[cfg(test)] mod x { .. }` starting at `i`, if one does.
fn skip_test_module(tokens: &[Token], i: usize) -> Option<usize> {
    let is_cfg_test = punct(tokens, i) == Some('#')
        && punct(tokens, i + 1) == Some('[')
        && ident(tokens, i + 2) == Some("cfg")
        && ident(tokens, i + 4) == Some("test")
        && punct(tokens, i + 6) == Some(']');
    if !is_cfg_test || ident(tokens, i + 7) != Some("mod") {
        return None;
    }
    let mut j = i + 9;
    if punct(tokens, j) != Some('{') {
        return None;
    }
    let mut depth = 0usize;
    while j < tokens.len() {
        match punct(tokens, j) {
            Some('{') => depth += 1,
            Some('}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    Some(j)
}

/// Where `source` names a game in code.
fn mentions(file: &Path, source: &str) -> Vec<Mention> {
    let tokens = tokenize(source);
    // Game folders this file declares: naming them is wiring, not a use.
    let children: Vec<&str> = (0..tokens.len())
        .filter(|&i| ident(&tokens, i) == Some("mod"))
        .filter_map(|i| ident(&tokens, i + 1))
        .collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if let Some(next) = skip_test_module(&tokens, i) {
            i = next;
            continue;
        }
        let what = match &tokens[i].kind {
            TokenKind::Str(text) => GAMES
                .iter()
                .find(|(kind, _)| text == kind)
                .map(|(kind, _)| format!("\"{kind}\"")),
            TokenKind::Ident(name) if !children.contains(&name.as_str()) => GAMES
                .iter()
                .find(|(kind, engine)| name == kind || name == engine)
                .map(|_| name.clone()),
            _ => None,
        };
        if let Some(what) = what {
            found.push(Mention {
                file: file.to_path_buf(),
                line: tokens[i].line,
                what,
            });
        }
        i += 1;
    }
    found
}

/// Every mention of a game in the generic layers, outside allowed places.
fn generic_mentions(workspace: &Path) -> Vec<Mention> {
    let mut files = Vec::new();
    for root in GENERIC_ROOTS {
        source_files::rust_files(&workspace.join(root), &mut files);
    }
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(workspace).unwrap_or(&file).to_path_buf();
        let allowed = ALLOWED_FILES
            .iter()
            .any(|(path, _)| relative == Path::new(path));
        if allowed || named_for_a_game(relative.strip_prefix("crates").unwrap_or(&relative)) {
            continue;
        }
        let source = std::fs::read_to_string(&file).expect("a source file");
        for mut mention in mentions(&relative, &source) {
            mention.file = relative.clone();
            found.push(mention);
        }
    }
    found
}

#[test]
fn no_generic_file_of_host_or_discord_names_a_game() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = generic_mentions(workspace);
    let listed: Vec<String> = found
        .iter()
        .map(|m| format!("{}:{}: {}", m.file.display(), m.line, m.what))
        .collect();
    assert!(
        found.is_empty(),
        "generic files name a game (ask the engine through the seam, or move the code into a folder named for its game):\n{}",
        listed.join("\n")
    );
}

#[test]
fn the_check_sees_kinds_types_and_modules_but_not_comments_or_tests() {
    let source = "// diplomacy in a comment\nuse games::diplomacy::Diplomacy;\nfn f(k: &str) -> bool { k == \"battle\" }\n#[cfg(test)]\nmod tests { const K: &str = \"cards\"; }\nconst D: &str = \"a diplomacy game\";";
    let found: Vec<String> = mentions(Path::new("x.rs"), source)
        .into_iter()
        .map(|m| format!("{}:{}", m.line, m.what))
        .collect();
    assert_eq!(found, ["2:diplomacy", "2:Diplomacy", "3:\"battle\""]);
}

#[test]
fn a_parent_wiring_its_game_folder_is_not_a_mention() {
    let source = "mod diplomacy;\nuse diplomacy::{desk, press};\nfn f() { crate::desk::open(); }";
    assert!(mentions(Path::new("lib.rs"), source).is_empty());
    let elsewhere = "fn f() { crate::diplomacy::desk::open(); }";
    assert_eq!(mentions(Path::new("x.rs"), elsewhere).len(), 1);
}

#[test]
fn files_and_folders_named_for_a_game_may_name_it() {
    assert!(named_for_a_game(Path::new(
        "discord/src/diplomacy/desk/mod.rs"
    )));
    assert!(named_for_a_game(Path::new("host/src/diplomacy.rs")));
    assert!(!named_for_a_game(Path::new("host/src/press.rs")));
}
