//! Rust source split into tokens, for the tests that read the workspace's
//! code as text (`module_cycles`, `function_length`): identifiers, `::`,
//! string literals and single punctuation, with comments, whitespace,
//! numbers, chars and lifetimes dropped, so that a path or a brace in a
//! comment or a string is never read as code. Each test includes this file
//! with `#[path]` and uses part of it.
#![allow(dead_code)]

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    Ident(String),
    /// `::`
    PathSep,
    /// A string literal's contents (only `#[path = ".."]` reads them).
    Str(String),
    Punct(char),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub line: usize,
}

/// Splits Rust source into identifiers, `::`, string literals and single
/// punctuation, dropping comments, whitespace, numbers, chars and lifetimes,
/// so that paths in comments and strings are never read as uses.
pub fn tokenize(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            let start_line = line;
            let mut text = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                text.push(at(i));
                i += 1;
            }
            i += 1;
            tokens.push(Token {
                kind: TokenKind::Str(text),
                line: start_line,
            });
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                // Past the backslash and the escaped char, so '\'' ends right.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let raw_string = matches!(word.as_str(), "r" | "br" | "cr")
                && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '#' | '"')));
            if raw_string {
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                let closing: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                while i < chars.len() && !chars[i..].starts_with(&closing) {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += closing.len();
            } else {
                tokens.push(Token {
                    kind: TokenKind::Ident(word),
                    line,
                });
            }
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push(Token {
                kind: TokenKind::PathSep,
                line,
            });
            i += 2;
        } else {
            tokens.push(Token {
                kind: TokenKind::Punct(c),
                line,
            });
            i += 1;
        }
    }
    tokens
}

/// The identifier at `i`, if that token is one.
pub fn ident(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i).map(|t| &t.kind) {
        Some(TokenKind::Ident(name)) => Some(name),
        _ => None,
    }
}

/// Whether the token at `i` is `kind`.
pub fn is(tokens: &[Token], i: usize, kind: &TokenKind) -> bool {
    tokens.get(i).is_some_and(|t| &t.kind == kind)
}

/// The punctuation at `i`, if that token is one.
pub fn punct(tokens: &[Token], i: usize) -> Option<char> {
    match tokens.get(i).map(|t| &t.kind) {
        Some(TokenKind::Punct(c)) => Some(*c),
        _ => None,
    }
}
