//! Quoting what a person typed back to them: every refusal in every layer
//! quotes at most a short clip, so a megabyte typed is never repeated.

/// The most characters of typed text any refusal quotes back.
pub const MAX_TYPED_ECHO: usize = 40;

/// At most `max` characters of `text`, marked `…` when cut.
pub fn clip_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// What a person typed, as a refusal quotes it: at most
/// [`MAX_TYPED_ECHO`] characters, marked `…` when cut, on one line and
/// with backticks made plain quotes, so the clip cannot close the code
/// span a refusal puts it in.
pub fn clip_typed(text: &str) -> String {
    clip_chars(text, MAX_TYPED_ECHO)
        .chars()
        .map(|c| match c {
            '`' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_is_cut_on_a_character() {
        assert_eq!(clip_chars("abc", 3), "abc");
        assert_eq!(clip_chars("abcdef", 3), "abc…");
        assert_eq!(clip_chars("パリからブルゴーニュ", 3), "パリか…");
        let huge = "x".repeat(100_000);
        assert_eq!(clip_typed(&huge).chars().count(), MAX_TYPED_ECHO + 1);
        assert_eq!(clip_typed("a`b\nc"), "a'b c");
    }
}
