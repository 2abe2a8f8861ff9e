//! Which methods a Rust file defines and which it calls, from its tokens.
//!
//! Shared by the module-cycle test: a method call is a use of the file that
//! defines the method, so `self.announce(..)` in `turns.rs` is an edge to
//! the file whose `impl Host` holds `fn announce`. The reading is lexical
//! (no type checking), so it keeps to what tokens can tell:
//! - A definition is a `fn` directly inside an `impl` block; the block's
//!   type is the last path segment before its generics (`impl<'a> Tx<'a>`
//!   defines on `Tx`, `impl fmt::Display for HostError` on `HostError`).
//!   Methods of trait impls are marked, since a call to one may go to any
//!   type that implements the trait.
//! - A call is `.name(` or `.name::<`. Its receiver's type is taken from
//!   the token before the `.`: `self` is the enclosing impl's type, and a
//!   variable or field named after a type is that type (`host.m()` and
//!   `self.host.m()` call `Host`, `tx.m()` calls `Tx`, `game_row.m()`
//!   calls `GameRow`); any other receiver (a call's result, a name not
//!   shaped like a type) is unknown and the call is not counted, since a
//!   name like `load` or `join` is as likely a method of `std` or another
//!   crate. `Self::name(` and `Type::name(` are calls on a known type.
//! - Calls inside a `#[cfg(test)] mod` are not read: a unit test may drive
//!   its module through the crate's top API (`Diplomacy::new_game` in the
//!   fog's tests) without the module itself depending on it.
//! - An `impl` is an item only where an item can start (after `}`, `;`,
//!   `]`, `{`, `unsafe` or at the top), so `-> impl Iterator {` and
//!   `x: impl Fn()` are not impl blocks.

use crate::rust_tokens::{Token, TokenKind, ident, is, punct};

/// A method defined in an `impl` block.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodDefinition {
    /// The type the block is for.
    pub on_type: String,
    pub name: String,
    /// Whether the block implements a trait.
    pub in_trait_impl: bool,
}

/// A method or associated function called.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodCall {
    /// The receiver's type as the tokens tell it (`self`, `host`, `Self::`,
    /// `Type::`); `None` when they do not.
    pub on_type: Option<String>,
    pub name: String,
    pub line: usize,
}

/// What one file defines and calls.
#[derive(Debug, Default)]
pub struct FileMethods {
    pub definitions: Vec<MethodDefinition>,
    pub calls: Vec<MethodCall>,
}

/// One open brace: whether it opened an impl block, and for which type.
enum Brace {
    Plain,
    Impl {
        on_type: String,
        is_trait: bool,
    },
    /// A `#[cfg(test)] mod .. {`.
    Tests,
}

/// Reads the methods `tokens` define and call.
pub fn read_methods(tokens: &[Token]) -> FileMethods {
    let mut found = FileMethods::default();
    let mut braces: Vec<Brace> = Vec::new();
    // The impl block a `{` about to open belongs to, once its header is read.
    let mut pending_impl: Option<(String, bool)> = None;
    // Whether the last attribute read was `#[cfg(test)]`.
    let mut after_cfg_test = false;
    let mut i = 0;
    while i < tokens.len() {
        if is_cfg_test(tokens, i) {
            after_cfg_test = true;
            i += 7;
            continue;
        }
        let in_tests = braces.iter().any(|brace| matches!(brace, Brace::Tests));
        match &tokens[i].kind {
            TokenKind::Punct('{') => {
                let opens_tests = after_cfg_test && i >= 2 && ident(tokens, i - 2) == Some("mod");
                braces.push(match pending_impl.take() {
                    _ if opens_tests => Brace::Tests,
                    Some((on_type, is_trait)) => Brace::Impl { on_type, is_trait },
                    None => Brace::Plain,
                });
                after_cfg_test = false;
                i += 1;
            }
            TokenKind::Punct(';') => {
                after_cfg_test = false;
                i += 1;
            }
            _ if in_tests => i += 1,
            TokenKind::Punct('}') => {
                braces.pop();
                i += 1;
            }
            TokenKind::Ident(word) if word == "impl" && starts_item(tokens, i) => {
                let (header, next) = read_impl_header(tokens, i + 1);
                pending_impl = header;
                i = next;
            }
            TokenKind::Ident(word) if word == "fn" => {
                if let (Some(Brace::Impl { on_type, is_trait }), Some(name)) =
                    (braces.last(), ident(tokens, i + 1))
                {
                    found.definitions.push(MethodDefinition {
                        on_type: on_type.clone(),
                        name: name.to_string(),
                        in_trait_impl: *is_trait,
                    });
                }
                i += 1;
            }
            TokenKind::Punct('.') => {
                if let Some(call) = method_call_at(tokens, i, enclosing_type(&braces)) {
                    found.calls.push(call);
                }
                i += 1;
            }
            TokenKind::Ident(first) if is(tokens, i + 1, &TokenKind::PathSep) => {
                if let Some(call) = associated_call_at(tokens, i, first, enclosing_type(&braces)) {
                    found.calls.push(call);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// Whether `#[cfg(test)]` starts at `i`.
fn is_cfg_test(tokens: &[Token], i: usize) -> bool {
    punct(tokens, i) == Some('#')
        && punct(tokens, i + 1) == Some('[')
        && ident(tokens, i + 2) == Some("cfg")
        && punct(tokens, i + 3) == Some('(')
        && ident(tokens, i + 4) == Some("test")
        && punct(tokens, i + 5) == Some(')')
        && punct(tokens, i + 6) == Some(']')
}

/// The type of the innermost impl block around the current token.
fn enclosing_type(braces: &[Brace]) -> Option<&str> {
    braces.iter().rev().find_map(|brace| match brace {
        Brace::Impl { on_type, .. } => Some(on_type.as_str()),
        Brace::Plain | Brace::Tests => None,
    })
}

/// Whether the token at `i` stands where an item may start.
fn starts_item(tokens: &[Token], i: usize) -> bool {
    if i == 0 {
        return true;
    }
    matches!(punct(tokens, i - 1), Some('}' | ';' | ']' | '{'))
        || ident(tokens, i - 1) == Some("unsafe")
}

/// Reads an impl header from just after `impl` up to its `{`: the type and
/// whether it is a trait impl, and the index of the `{`.
fn read_impl_header(tokens: &[Token], mut i: usize) -> (Option<(String, bool)>, usize) {
    let mut angle_depth = 0usize;
    let mut is_trait = false;
    let mut last_segment: Option<String> = None;
    let mut in_where = false;
    while i < tokens.len() {
        match &tokens[i].kind {
            TokenKind::Punct('{') | TokenKind::Punct(';') if angle_depth == 0 => break,
            TokenKind::Punct('<') => angle_depth += 1,
            // `->` inside `Fn() -> T` closes nothing.
            TokenKind::Punct('>') if punct(tokens, i - 1) != Some('-') => {
                angle_depth = angle_depth.saturating_sub(1)
            }
            TokenKind::Ident(word) if angle_depth == 0 && word == "for" => {
                is_trait = true;
                last_segment = None;
            }
            TokenKind::Ident(word) if angle_depth == 0 && word == "where" => in_where = true,
            TokenKind::Ident(word) if angle_depth == 0 && !in_where && word != "dyn" => {
                last_segment = Some(word.clone())
            }
            _ => {}
        }
        i += 1;
    }
    (last_segment.map(|on_type| (on_type, is_trait)), i)
}

/// A call `.name(` or `.name::<` whose `.` is at `i`.
fn method_call_at(tokens: &[Token], i: usize, enclosing: Option<&str>) -> Option<MethodCall> {
    // `..name(` is a range, not a call.
    if i > 0 && punct(tokens, i - 1) == Some('.') {
        return None;
    }
    let name = ident(tokens, i + 1)?;
    let calls = is(tokens, i + 2, &TokenKind::Punct('('))
        || (is(tokens, i + 2, &TokenKind::PathSep) && is(tokens, i + 3, &TokenKind::Punct('<')));
    if !calls {
        return None;
    }
    let on_type = match i.checked_sub(1).and_then(|r| ident(tokens, r)) {
        Some("self") => enclosing.map(str::to_string),
        Some(receiver) => type_named_by(receiver),
        None => None,
    };
    Some(MethodCall {
        on_type,
        name: name.to_string(),
        line: tokens[i].line,
    })
}

/// The type a snake_case variable's name names: `game_row` -> `GameRow`.
fn type_named_by(variable: &str) -> Option<String> {
    if !variable.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let words = variable.split('_').filter(|word| !word.is_empty());
    let camel: String = words
        .map(|word| {
            let mut chars = word.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(chars).collect::<String>()
        })
        .collect();
    (!camel.is_empty()).then_some(camel)
}

/// A call `Type::name(` (or `Self::name(`) whose first segment is at `i`.
fn associated_call_at(
    tokens: &[Token],
    i: usize,
    first: &str,
    enclosing: Option<&str>,
) -> Option<MethodCall> {
    if i > 0 && is(tokens, i - 1, &TokenKind::PathSep) {
        return None;
    }
    let starts_upper = first.chars().next().is_some_and(char::is_uppercase);
    let name = ident(tokens, i + 2)?;
    if !starts_upper || !is(tokens, i + 3, &TokenKind::Punct('(')) {
        return None;
    }
    let on_type = if first == "Self" {
        enclosing?.to_string()
    } else {
        first.to_string()
    };
    Some(MethodCall {
        on_type: Some(on_type),
        name: name.to_string(),
        line: tokens[i].line,
    })
}
