//! Text in code blocks aligned by display width: a Japanese character
//! takes two columns in a monospaced font, so counting chars would push
//! every column after a Japanese name out of line.

use unicode_width::UnicodeWidthStr;

/// The columns `text` takes in a monospaced font.
pub fn display_width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` padded with spaces on the right to `width` columns (unchanged
/// when it is as wide already).
pub fn pad_right(text: &str, width: usize) -> String {
    let missing = width.saturating_sub(display_width(text));
    format!("{text}{}", " ".repeat(missing))
}

/// `text` padded with spaces on the left to `width` columns.
pub fn pad_left(text: &str, width: usize) -> String {
    let missing = width.saturating_sub(display_width(text));
    format!("{}{text}", " ".repeat(missing))
}

/// `text` cut to at most `width` columns, with `…` when cut.
pub fn truncate_to_width(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_takes_two_columns_and_pads_to_line_up() {
        assert_eq!(display_width("ドイツ"), 6);
        assert_eq!(display_width("Germany"), 7);
        let rows = [pad_right("ドイツ", 8), pad_right("Germany", 8)];
        assert!(rows.iter().all(|r| display_width(r) == 8));
        assert_eq!(pad_left("12", 4), "  12");
        assert_eq!(truncate_to_width("あいうえお", 5), "あい…");
    }
}
