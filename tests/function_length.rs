//! No function longer than 100 lines outside tests.
//!
//! A reader should be able to hold a function in their head; a long one is
//! split into named steps (the Diplomacy adjudicator's stage pipeline is the
//! model). This test reads every `.rs` file under `crates/*/src` and `src/`,
//! finds each `fn` with a body, and fails listing every one longer than
//! [`MAX_LINES`] (file, name, length).
//!
//! It is also the counting tool. This command prints how many functions are
//! over 100 lines and over 60, and the longest ones:
//!
//! ```text
//! cargo test --test function_length -- --nocapture
//! ```
//!
//! The rule, exactly:
//! - A function's length is the lines from the line of its `fn` keyword to
//!   the line of the brace closing its body, both included (doc comments and
//!   attributes above it are not counted). A nested function counts on its
//!   own and inside the function holding it.
//! - Braces are matched on the source with comments, string, char, byte and
//!   raw string literals and lifetimes skipped, so a `{` in a string or a
//!   comment never opens a body.
//! - Skipped: modules marked `#[cfg(test)]` and functions marked `#[test]`
//!   (or any `..::test`, like `#[tokio::test]`) or `#[cfg(test)]`.
//! - `fn` declarations without a body (trait methods, `extern` items) and
//!   `fn(..)` pointer types are not functions here.

#[path = "support/rust_tokens.rs"]
mod rust_tokens;

#[path = "support/source_files.rs"]
mod source_files;

use rust_tokens::{Token, TokenKind, ident, punct, tokenize};
use std::path::{Path, PathBuf};

/// The longest a function may be, in lines.
const MAX_LINES: usize = 100;

/// The second threshold the count reports (not enforced): functions past it
/// are the next candidates for splitting.
const WATCH_LINES: usize = 60;

/// Functions allowed past [`MAX_LINES`], by file and name, with why: none
/// today (the last one, the order desk's `act`, became one function per
/// step in `crates/discord/src/diplomacy/desk/steps.rs`).
const ALLOWED: &[(&str, &str, &str)] = &[];

/// Every function allowed past [`MAX_LINES`], with why.
fn allowed_exceptions() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    ALLOWED.iter().copied()
}

/// One function found in a file.
#[derive(Clone, Debug, PartialEq)]
struct Function {
    name: String,
    /// The line of the `fn` keyword, from 1.
    first_line: usize,
    /// The line of the brace closing the body.
    last_line: usize,
}

impl Function {
    fn lines(&self) -> usize {
        self.last_line - self.first_line + 1
    }
}

/// The index of the bracket closing the one at `open` (`{`, `(` or `[`),
/// or the last token when it is never closed.
fn matching_close(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token.kind {
            TokenKind::Punct('{' | '(' | '[') => depth += 1,
            TokenKind::Punct('}' | ')' | ']') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    tokens.len().saturating_sub(1)
}

/// Whether the attribute whose `[` is at `open` marks test-only code:
/// `#[test]`, `#[tokio::test]`, `#[cfg(test)]`, `#[cfg(all(test, ..))]`
/// (but not `#[cfg(not(test))]`).
fn is_test_attribute(tokens: &[Token], open: usize, close: usize) -> bool {
    let words: Vec<&str> = (open + 1..close).filter_map(|i| ident(tokens, i)).collect();
    // The attribute's path: the words before its arguments, if any.
    let path_end = (open + 1..close)
        .find(|&i| punct(tokens, i) == Some('('))
        .unwrap_or(close);
    let path: Vec<&str> = (open + 1..path_end)
        .filter_map(|i| ident(tokens, i))
        .collect();
    match path.as_slice() {
        ["cfg"] => words.contains(&"test") && !words.contains(&"not"),
        [.., "test"] => true,
        _ => false,
    }
}

/// The `{` opening the body of the `fn` whose name is at `name`, or `None`
/// when a `;` ends the declaration first (a trait method, an extern item).
fn body_start(tokens: &[Token], name: usize) -> Option<usize> {
    let mut i = name + 1;
    while i < tokens.len() {
        match punct(tokens, i) {
            Some('{') => return Some(i),
            Some(';') => return None,
            // Parameters and array types may hold `;` (`[u8; 4]`).
            Some('(' | '[') => i = matching_close(tokens, i) + 1,
            _ => i += 1,
        }
    }
    None
}

/// Every non-test function of one file's source, in order.
fn functions_in(source: &str) -> Vec<Function> {
    let tokens = tokenize(source);
    let mut functions = Vec::new();
    let mut test_only = false;
    let mut i = 0;
    while i < tokens.len() {
        match (&tokens[i].kind, punct(&tokens, i + 1)) {
            (TokenKind::Punct('#'), Some('[')) => {
                let close = matching_close(&tokens, i + 1);
                test_only |= is_test_attribute(&tokens, i + 1, close);
                i = close + 1;
            }
            (TokenKind::Punct('#'), Some('!')) if punct(&tokens, i + 2) == Some('[') => {
                i = matching_close(&tokens, i + 2) + 1;
            }
            (TokenKind::Punct('{'), _) if test_only => {
                // A test module (or test-only impl): skip its body whole.
                i = matching_close(&tokens, i) + 1;
                test_only = false;
            }
            (TokenKind::Ident(word), _) if word == "fn" && ident(&tokens, i + 1).is_some() => {
                let Some(open) = body_start(&tokens, i + 1) else {
                    i += 2;
                    test_only = false;
                    continue;
                };
                let close = matching_close(&tokens, open);
                if test_only {
                    i = close + 1;
                } else {
                    functions.push(Function {
                        name: ident(&tokens, i + 1).unwrap_or_default().to_string(),
                        first_line: tokens[i].line,
                        last_line: tokens[close].line,
                    });
                    // Into the body, so nested functions are found too.
                    i = open + 1;
                }
                test_only = false;
            }
            // An item without a body ends an attribute's reach.
            (TokenKind::Punct(';' | '{' | '}'), _) => {
                test_only = false;
                i += 1;
            }
            _ => i += 1,
        }
    }
    functions
}

/// The source files checked: `src/` and every `crates/*/src`, relative to
/// the workspace.
fn checked_files(workspace: &Path) -> Vec<PathBuf> {
    source_files::workspace_sources(workspace)
        .into_iter()
        .map(|file| file.strip_prefix(workspace).unwrap_or(&file).to_path_buf())
        .collect()
}

/// A function found in the workspace, with its file.
struct Found {
    file: String,
    function: Function,
}

fn all_functions(workspace: &Path) -> Vec<Found> {
    let mut found = Vec::new();
    for file in checked_files(workspace) {
        let source = std::fs::read_to_string(workspace.join(&file))
            .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        let name = file.to_string_lossy().replace('\\', "/");
        for function in functions_in(&source) {
            found.push(Found {
                file: name.clone(),
                function,
            });
        }
    }
    found
}

fn describe(found: &Found) -> String {
    format!(
        "{}:{} fn {} ({} lines)",
        found.file,
        found.function.first_line,
        found.function.name,
        found.function.lines()
    )
}

/// The workspace's functions, checked from disk; prints the count.
#[test]
fn no_function_is_over_100_lines() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = all_functions(workspace);
    assert!(
        found.len() > 100,
        "too few functions found: {}",
        found.len()
    );
    found.sort_by_key(|f| std::cmp::Reverse(f.function.lines()));
    let over = |limit: usize| found.iter().filter(move |f| f.function.lines() > limit);
    println!(
        "function_length: {} functions; {} over {MAX_LINES} lines, {} over {WATCH_LINES}",
        found.len(),
        over(MAX_LINES).count(),
        over(WATCH_LINES).count()
    );
    for long in over(WATCH_LINES) {
        println!("  {}", describe(long));
    }
    let why_allowed = |f: &Found| {
        allowed_exceptions()
            .find(|(file, name, _)| f.file == *file && f.function.name == *name)
            .map(|(_, _, why)| why)
    };
    for long in over(MAX_LINES) {
        if let Some(why) = why_allowed(long) {
            eprintln!(
                "function_length: allowed for now ({why}): {}",
                describe(long)
            );
        }
    }
    let failures: Vec<String> = over(MAX_LINES)
        .filter(|f| why_allowed(f).is_none())
        .map(describe)
        .collect();
    assert!(
        failures.is_empty(),
        "functions over {MAX_LINES} lines (split each into named steps, as the \
         Diplomacy adjudicator's stages are):\n  {}",
        failures.join("\n  ")
    );
}

/// The allowed exceptions still exist, so the list cannot go stale.
#[test]
fn every_allowed_exception_is_still_long() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = all_functions(workspace);
    for (file, name, why) in allowed_exceptions() {
        assert!(
            found.iter().any(|f| f.file == *file
                && f.function.name == *name
                && f.function.lines() > MAX_LINES),
            "{file} fn {name} is split or gone; drop it from the exceptions ({why})"
        );
    }
}

fn names_and_lengths(source: &str) -> Vec<(String, usize)> {
    functions_in(source)
        .into_iter()
        .map(|f| {
            let lines = f.lines();
            (f.name, lines)
        })
        .collect()
}

#[test]
fn a_function_is_counted_from_its_fn_line_to_its_closing_brace() {
    let source = "/// Doc.\n#[inline]\npub fn short() {}\n\nfn three(\n    a: u8,\n) -> u8 { a }\n";
    assert_eq!(
        names_and_lengths(source),
        [("short".to_string(), 1), ("three".to_string(), 3)]
    );
}

#[test]
fn braces_in_strings_chars_comments_and_raw_strings_are_not_code() {
    let source = concat!(
        "fn tricky<'a>(x: &'a str) -> char {\n",
        "    let _ = \"{{ \\\" {\";\n",
        "    let _ = r#\"}\" {\"#;\n",
        "    let _ = b'{';\n",
        "    // }\n",
        "    /* } /* } */ } */\n",
        "    '}'\n",
        "}\n",
        "fn after() {}\n",
    );
    assert_eq!(
        names_and_lengths(source),
        [("tricky".to_string(), 8), ("after".to_string(), 1)]
    );
}

#[test]
fn tests_declarations_and_pointer_types_are_not_counted() {
    let source = concat!(
        "trait T { fn declared(&self); fn given(&self) {} }\n",
        "fn pointer(f: fn(u8) -> u8, a: [u8; 2]) -> u8 { f(a[0]) }\n",
        "#[test]\nfn a_test() {}\n",
        "#[tokio::test]\nasync fn an_async_test() {}\n",
        "#[cfg(test)]\nmod tests { fn helper() {} }\n",
        "#[cfg(test)]\nimpl T for u8 { fn given(&self) {} }\n",
        "#[tokio::test(flavor = \"multi_thread\")]\nasync fn a_tokio_test() {}\n",
        "#[cfg(not(test))]\nfn kept() {}\n",
        "fn outer() {\n    fn inner() {}\n}\n",
    );
    assert_eq!(
        names_and_lengths(source),
        [
            ("given".to_string(), 1),
            ("pointer".to_string(), 1),
            ("kept".to_string(), 1),
            ("outer".to_string(), 3),
            ("inner".to_string(), 1),
        ]
    );
}
