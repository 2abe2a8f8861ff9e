//! The order parser: forgiving about what players type, precise about errors.
//!
//! Words are matched case-insensitively. Provinces may be written as
//! abbreviations, full names (multi-word names matched greedily, longest
//! first) or aliases from other tools. Coasts may be written `stp/nc`,
//! `stp(nc)`, `stp nc` or `St Petersburg north coast`.

use super::{Order, OrderKind, UnitKind};
use crate::clip::clip_typed;
use crate::diplomacy::geo::{Coast, LocId, Map};

/// Why a line is not an order: the problem and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{problem} {expected}")]
pub struct ParseError {
    /// What was wrong, naming the offending word.
    pub problem: String,
    /// What would have been right (with a "did you mean" when close).
    pub expected: String,
}

fn perr(problem: impl Into<String>, expected: impl Into<String>) -> ParseError {
    ParseError {
        problem: problem.into(),
        expected: expected.into(),
    }
}

/// Splits a line into lower-case words; `-`, `->`, `=>` become a `-` word.
fn tokenize(text: &str) -> Vec<String> {
    let mut s = text.to_lowercase();
    for arrow in ["->", "=>", "→", "–", "—", ">"] {
        s = s.replace(arrow, " - ");
    }
    let mut out = Vec::new();
    for raw in s.split(|c: char| c.is_whitespace() || "(),;:/".contains(c)) {
        let raw: String = raw.chars().filter(|c| *c != '.' && *c != '\'').collect();
        let mut first = true;
        for part in raw.split('-') {
            if !first {
                out.push("-".to_string());
            }
            first = false;
            if !part.is_empty() {
                out.push(part.to_string());
            }
        }
    }
    out
}

struct Cursor<'a> {
    toks: Vec<String>,
    i: usize,
    map: &'a Map,
}

const MOVE_WORDS: &[&str] = &[
    "-", "to", "m", "move", "moves", "mv", "attacks", "attack", "into",
];
const HOLD_WORDS: &[&str] = &["h", "hold", "holds", "stand", "stands"];
const SUPPORT_WORDS: &[&str] = &["s", "support", "supports", "sup", "supp"];
const CONVOY_WORDS: &[&str] = &["c", "convoy", "convoys", "transport", "transports"];
const RETREAT_WORDS: &[&str] = &["r", "retreat", "retreats"];
const DISBAND_WORDS: &[&str] = &["d", "disband", "disbands", "remove", "removes", "destroy"];
const BUILD_WORDS: &[&str] = &["b", "build", "builds"];

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.i).map(|s| s.as_str())
    }
    fn peek_is(&self, words: &[&str]) -> bool {
        self.peek().is_some_and(|w| words.contains(&w))
    }
    fn eat(&mut self, words: &[&str]) -> bool {
        if self.peek_is(words) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn unit_kind(&mut self) -> Option<UnitKind> {
        match self.peek()? {
            "a" | "army" => {
                self.i += 1;
                Some(UnitKind::Army)
            }
            "f" | "fleet" => {
                self.i += 1;
                Some(UnitKind::Fleet)
            }
            _ => None,
        }
    }

    /// A province name (greedy, longest match) and an optional coast.
    fn location(&mut self, what: &str) -> Result<LocId, ParseError> {
        let Some(first) = self.peek() else {
            return Err(perr(
                format!("The order ends where {what} should be."),
                "Add a province, e.g. `Par` or `Paris`.",
            ));
        };
        if first == "-" {
            return Err(perr(
                format!("Found `-` where {what} should be."),
                "Write a province, e.g. `Par`.",
            ));
        }
        // Collect up to N name words starting here (skipping `-` between words).
        let max = self.map.longest_name_words();
        let mut words: Vec<(&str, usize)> = Vec::new(); // (word, index after it)
        let mut j = self.i;
        while j < self.toks.len() && words.len() < max {
            if self.toks[j] == "-" {
                // A hyphen inside a name only counts if a word follows it.
                if words.is_empty() {
                    break;
                }
                j += 1;
                continue;
            }
            words.push((&self.toks[j], j + 1));
            j += 1;
        }
        let mut found = None;
        for k in (1..=words.len()).rev() {
            let name = words[..k].iter().map(|w| w.0).collect::<Vec<_>>().join(" ");
            if let Some(l) = self.map.lookup(&name) {
                found = Some((l, words[k - 1].1));
                break;
            }
        }
        let Some((loc, next)) = found else {
            // A word longer than any name is close to none: cut it before
            // the edit distances, and before quoting it.
            let word = clip_typed(first);
            let hint = match suggest_province(self.map, &word) {
                Some(s) => format!("Did you mean {s}?"),
                None => {
                    format!("Expected {what}: an abbreviation like `Par` or a name like `Paris`.")
                }
            };
            return Err(perr(format!("`{word}` is not a province."), hint));
        };
        self.i = next;
        // Optional coast: `nc`, `north coast`, `north`, `coast north`.
        let prov = self.map.prov_of(loc);
        let save = self.i;
        self.eat(&["coast", "on"]);
        let coast = self.peek().and_then(Coast::parse_word);
        if let Some(c) = coast {
            self.i += 1;
            self.eat(&["coast"]);
            return match self.map.coast_loc(prov, c) {
                Some(l) => Ok(l),
                None => {
                    let p = self.map.prov(prov);
                    let expected = if p.coasts.is_empty() {
                        format!("{} has no separate coasts; leave the coast out.", p.name)
                    } else {
                        let cs: Vec<String> = p
                            .coasts
                            .iter()
                            .map(|&l| format!("`{}`", self.map.loc(l).abbr))
                            .collect();
                        format!("{} has these coasts: {}.", p.name, cs.join(", "))
                    };
                    Err(perr(format!("{} has no {}.", p.name, c.long()), expected))
                }
            };
        }
        self.i = save;
        Ok(loc)
    }
}

impl Coast {
    /// Parses a coast word as players type it after a province.
    fn parse_word(s: &str) -> Option<Coast> {
        match s {
            "nc" | "ncs" | "north" | "northern" => Some(Coast::North),
            "sc" | "scs" | "south" | "southern" => Some(Coast::South),
            "ec" | "ecs" | "east" | "eastern" => Some(Coast::East),
            "wc" | "wcs" | "west" | "western" => Some(Coast::West),
            _ => None,
        }
    }
}

/// Levenshtein distance between two short strings (bytes).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest province name to a mistyped word, as "`Paris` (par)", if one is close.
pub fn suggest_province(map: &Map, word: &str) -> Option<String> {
    let w = word.to_lowercase();
    let mut best: Option<(usize, &str, LocId)> = None;
    for (name, loc) in map.names() {
        // Compare against the whole name and its first word (so `burgandy` finds Burgundy).
        let d = edit_distance(&w, name)
            .min(edit_distance(&w, name.split(' ').next().unwrap_or(name)) + 1);
        if best.is_none_or(|b| d < b.0) {
            best = Some((d, name, *loc));
        }
    }
    let (d, _, loc) = best?;
    let limit = if w.len() <= 3 { 1 } else { 2 + w.len() / 6 };
    if d > limit {
        return None;
    }
    let p = map.prov(map.prov_of(loc));
    Some(format!("`{}` ({})", p.name, p.abbr))
}

/// Parses one order line. The unit type may be omitted (it is taken from the
/// board later); coasts are kept as written and checked by the adjudicator.
pub fn parse_order(map: &Map, text: &str) -> Result<Order, ParseError> {
    let toks = tokenize(text);
    if toks.is_empty() {
        return Err(perr(
            "The order is empty.",
            "Write e.g. `A Par - Bur` or `F Lon H`.",
        ));
    }
    let mut c = Cursor { toks, i: 0, map };
    // Optional "England:" style prefix is not supported; the power is the sender.
    if c.eat(&["waive", "w"]) {
        c.eat(&["build", "b"]);
        return finish(&c, Order::Waive);
    }
    if c.eat(BUILD_WORDS) {
        let unit = c.unit_kind().ok_or_else(|| {
            perr(
                format!(
                    "After `build` came `{}`.",
                    clip_typed(c.peek().unwrap_or("nothing"))
                ),
                "Expected `A` (army) or `F` (fleet), e.g. `Build A Par` or `Build F Stp/sc`.",
            )
        })?;
        let at = c.location("the province to build in")?;
        return finish(&c, Order::Build { unit, at });
    }
    if c.eat(DISBAND_WORDS) {
        let unit = c.unit_kind();
        let at = c.location("the unit to remove")?;
        return finish(
            &c,
            Order::Unit {
                unit,
                at,
                kind: OrderKind::Disband,
            },
        );
    }
    unit_order(&mut c)
}

/// An order of a unit on the board: the unit, then hold, move, support,
/// convoy, retreat or disband (or a build written after the place).
fn unit_order(c: &mut Cursor<'_>) -> Result<Order, ParseError> {
    let unit = c.unit_kind();
    let at = c.location("the unit's province")?;
    let kind = if c.peek().is_none() || c.eat(HOLD_WORDS) {
        OrderKind::Hold
    } else if c.eat(MOVE_WORDS) {
        c.eat(&["to", "-"]);
        let to = c.location("the destination")?;
        let via = c.eat(&["via", "by", "vc", "vía"]);
        if via {
            c.eat(&["convoy", "c", "sea"]);
        }
        OrderKind::Move {
            to,
            via_convoy: via,
        }
    } else if c.eat(SUPPORT_WORDS) {
        let su = c.unit_kind();
        let from = c.location("the supported unit's province")?;
        let to = if c.eat(MOVE_WORDS) {
            c.eat(&["to", "-"]);
            Some(c.location("where the supported unit moves")?)
        } else {
            c.eat(HOLD_WORDS);
            None
        };
        OrderKind::Support { unit: su, from, to }
    } else if c.eat(CONVOY_WORDS) {
        convoy_kind(c)?
    } else if c.eat(RETREAT_WORDS) {
        c.eat(&["to", "-"]);
        let to = c.location("the retreat destination")?;
        OrderKind::Retreat { to }
    } else if c.eat(DISBAND_WORDS) {
        OrderKind::Disband
    } else if c.eat(BUILD_WORDS) {
        let u =
            unit.ok_or_else(|| perr("A build needs a unit type.", "Write e.g. `Build A Par`."))?;
        return finish(c, Order::Build { unit: u, at });
    } else {
        let w = clip_typed(c.peek().unwrap_or(""));
        return Err(perr(
            format!("`{w}` is not an order word."),
            "Expected `H` (hold), `-` (move), `S` (support), `C` (convoy), `R` (retreat) or `D` (disband).",
        ));
    };
    finish(c, Order::Unit { unit, at, kind })
}

/// The rest of a convoy order after `C`: the army and its destination.
fn convoy_kind(c: &mut Cursor<'_>) -> Result<OrderKind, ParseError> {
    if let Some(UnitKind::Fleet) = c.unit_kind() {
        return Err(perr(
            "Only armies can be convoyed.",
            "Write e.g. `F Nth C A Lon - Nwy`.",
        ));
    }
    let from = c.location("the convoyed army's province")?;
    if !c.eat(MOVE_WORDS) {
        return Err(perr(
            format!(
                "After the army's province came `{}`.",
                c.peek().unwrap_or("nothing")
            ),
            "Expected `-` and the destination, e.g. `F Nth C A Lon - Nwy`.",
        ));
    }
    let to = c.location("the convoy's destination")?;
    Ok(OrderKind::Convoy { from, to })
}

fn finish(c: &Cursor<'_>, o: Order) -> Result<Order, ParseError> {
    match c.peek() {
        None => Ok(o),
        Some(w) => Err(perr(
            format!(
                "Unexpected `{w}` after the complete order `{}`.",
                o.canonical(c.map)
            ),
            "Put one order per line.",
        )),
    }
}
