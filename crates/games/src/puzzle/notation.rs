//! Naming cells: `x,y` as in the spec (1-based, top-left origin) or the
//! chess-like `c7`.
//!
//! Choice: in `c7` the letter is the column (`a` = x 1 .. `i` = x 9) and the
//! number is the row counted from the top exactly like `y`, so `c7` and
//! `3,7` are the same cell (unlike chess ranks, which count from the
//! bottom); the image and the text board label rows the same way.

use super::field::{HEIGHT, WIDTH};

/// How to name a cell, shown when a cell could not be read.
pub const CELL_HELP: &str = "Name a cell as `x,y` (x 1..9 from the left, y 1..15 from the top) \
     or like `c7` (column a..i, row 1..15 from the top).";

/// The chess-like name of a 1-based cell, e.g. `(3, 7)` is `c7`.
pub fn format_cell(x: usize, y: usize) -> String {
    let col = (b'a' + (x.saturating_sub(1)).min(25) as u8) as char;
    format!("{col}{y}")
}

/// Reads a cell name into 1-based `(x, y)`, or says what is wrong.
pub fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    let t: String = text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .to_ascii_lowercase();
    let t = t.trim();
    if t.is_empty() {
        return Err("No cell was given.".into());
    }
    let first = t.chars().next().unwrap_or(' ');
    let (x, y) = if first.is_ascii_alphabetic() {
        let rest = t[first.len_utf8()..].trim();
        let y: usize = rest
            .parse()
            .map_err(|_| format!("`{}` is not a cell name.", text.trim()))?;
        let x = (first as u8 - b'a') as usize + 1;
        (x, y)
    } else {
        let parts: Vec<&str> = t.split([',', ' ', ';']).filter(|p| !p.is_empty()).collect();
        if parts.len() != 2 {
            return Err(format!("`{}` is not a cell name.", text.trim()));
        }
        let x: usize = parts[0]
            .parse()
            .map_err(|_| format!("`{}` is not a column number.", parts[0]))?;
        let y: usize = parts[1]
            .parse()
            .map_err(|_| format!("`{}` is not a row number.", parts[1]))?;
        (x, y)
    };
    if !(1..=WIDTH).contains(&x) {
        return Err(format!(
            "`{}` is off the field: columns are a..i (1..9).",
            text.trim()
        ));
    }
    if !(1..=HEIGHT).contains(&y) {
        return Err(format!(
            "`{}` is off the field: rows are 1..15 from the top.",
            text.trim()
        ));
    }
    Ok((x, y))
}
