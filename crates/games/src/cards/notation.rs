//! What players type, and how cards and moves are written back.
//!
//! Moves: `play` (or `p`) and `pass` (or `s`, `skip`), case-insensitive,
//! surrounding spaces ignored. `p` means play because it is the move made
//! most often; pass gets `s` ("skip") to stay unambiguous.

use super::rules::{JAM, MAX_DECK, MAX_VALUE, Move};

/// Reads a move from what a player typed, or `None` if it is not a move word.
pub fn parse_move(text: &str) -> Option<Move> {
    match text.trim().to_ascii_lowercase().as_str() {
        "play" | "p" => Some(Move::Play),
        "pass" | "s" | "skip" => Some(Move::Pass),
        _ => None,
    }
}

/// The canonical text of a move, accepted by [`parse_move`].
pub fn move_text(mv: Move) -> &'static str {
    match mv {
        Move::Play => "play",
        Move::Pass => "pass",
    }
}

/// A move with its short form, for "what would be right" hints.
pub fn move_hint(mv: Move) -> &'static str {
    match mv {
        Move::Play => "`play` (p)",
        Move::Pass => "`pass` (s)",
    }
}

/// A card as shown on the board: its value, or `J` for a jamming card.
pub fn card_text(card: i64) -> String {
    if card == JAM {
        "J".to_string()
    } else {
        card.to_string()
    }
}

/// A card in a sentence: "100" or "a jam" (as in "Player 1 plays 100").
pub fn card_phrase(card: i64) -> String {
    if card == JAM {
        "a jam".to_string()
    } else {
        card.to_string()
    }
}

/// Writes cards separated by spaces, wrapped so no line exceeds `width`
/// characters; continuation lines start with `indent` spaces.
pub fn wrap_cards(first: &str, cards: &[String], indent: usize, width: usize) -> String {
    let mut out = String::from(first);
    let mut line_len = first.chars().count();
    for c in cards {
        let need = c.chars().count() + 1;
        if line_len + need > width && line_len > indent {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line_len = indent;
        } else {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(c);
        line_len += need - 1;
    }
    out
}

/// Why a reference-problem input was refused: the 1-based line and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ProblemError {
    /// The 1-based line number the problem is on.
    pub line: usize,
    /// What was wrong and what was expected there.
    pub message: String,
}

/// Reads the reference problem's input (`n m`, then player 1's deck, then
/// player 2's deck, one line each, top card first, `-1` = jam).
///
/// Trailing blank lines and spaces are ignored; anything else out of place is
/// an error naming its line. Limits are the spec's: 1 to 50 cards per deck,
/// cards -1 or 1 to 1,000,000.
pub fn parse_problem(input: &str) -> Result<[Vec<i64>; 2], ProblemError> {
    let lines: Vec<&str> = input.lines().map(str::trim).collect();
    let err = |line: usize, message: String| ProblemError { line, message };
    let first = lines.first().copied().unwrap_or("");
    let sizes: Vec<&str> = first.split_whitespace().collect();
    let size = |t: &str| {
        t.parse::<usize>()
            .ok()
            .filter(|s| (1..=MAX_DECK).contains(s))
    };
    let (n, m) = match sizes.as_slice() {
        [a, b] => match (size(a), size(b)) {
            (Some(n), Some(m)) => (n, m),
            _ => {
                return Err(err(
                    1,
                    format!(
                        "expected two deck sizes `n m`, each 1 to {MAX_DECK}, found `{}`",
                        crate::clip::clip_typed(first)
                    ),
                ));
            }
        },
        _ => {
            return Err(err(
                1,
                format!(
                    "expected two deck sizes `n m`, each 1 to {MAX_DECK}, found `{}`",
                    crate::clip::clip_typed(first)
                ),
            ));
        }
    };
    let mut decks = [Vec::new(), Vec::new()];
    for (d, want) in [n, m].into_iter().enumerate() {
        let line_no = d + 2;
        let what = format!(
            "expected {want} card{} for player {} (each -1 or 1 to {MAX_VALUE})",
            if want == 1 { "" } else { "s" },
            d + 1
        );
        let Some(line) = lines.get(d + 1) else {
            return Err(err(line_no, format!("missing; {what}")));
        };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != want {
            return Err(err(
                line_no,
                format!("{what}, found {} values", tokens.len()),
            ));
        }
        for (k, t) in tokens.iter().enumerate() {
            match t.parse::<i64>() {
                Ok(v) if v == JAM || (1..=MAX_VALUE).contains(&v) => decks[d].push(v),
                _ => {
                    return Err(err(
                        line_no,
                        format!("card {} is `{}`; {what}", k + 1, crate::clip::clip_typed(t)),
                    ));
                }
            }
        }
    }
    if let Some((k, extra)) = lines
        .iter()
        .enumerate()
        .skip(3)
        .find(|(_, l)| !l.is_empty())
    {
        return Err(err(
            k + 1,
            format!(
                "unexpected `{}`; expected the input to end after line 3",
                crate::clip::clip_typed(extra)
            ),
        ));
    }
    Ok(decks)
}

/// Writes two decks in the reference input format (three lines).
pub fn format_problem(decks: &[Vec<i64>; 2]) -> String {
    let line = |d: &Vec<i64>| {
        d.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{} {}\n{}\n{}\n",
        decks[0].len(),
        decks[1].len(),
        line(&decks[0]),
        line(&decks[1])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_short_forms() {
        assert_eq!(parse_move("  PLAY "), Some(Move::Play));
        assert_eq!(parse_move("p"), Some(Move::Play));
        assert_eq!(parse_move("Pass"), Some(Move::Pass));
        assert_eq!(parse_move("s"), Some(Move::Pass));
        assert_eq!(parse_move("pa"), None);
        assert_eq!(parse_move(""), None);
    }

    #[test]
    fn wrapping_keeps_lines_short() {
        let cards: Vec<String> = (0..50).map(|_| "1000000".to_string()).collect();
        let s = wrap_cards("P1 deck:", &cards, 4, 78);
        assert!(s.lines().all(|l| l.chars().count() <= 78));
        assert_eq!(s.split_whitespace().filter(|w| *w == "1000000").count(), 50);
    }

    #[test]
    fn problem_round_trip_and_errors() {
        let d = parse_problem("2 2\n100 -1\n200 300\n\n").unwrap();
        assert_eq!(d, [vec![100, -1], vec![200, 300]]);
        assert_eq!(parse_problem(&format_problem(&d)).unwrap(), d);
        assert_eq!(parse_problem("2 2\n100 -1\n").unwrap_err().line, 3);
        assert_eq!(parse_problem("2 2\n100 0\n1 1").unwrap_err().line, 2);
        assert_eq!(parse_problem("").unwrap_err().line, 1);
        assert_eq!(parse_problem("1 1\n1\n1\nx").unwrap_err().line, 4);
    }
}
