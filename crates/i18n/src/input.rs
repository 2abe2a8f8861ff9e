//! What a person typed, made comparable: NFKC folds full-width letters and
//! digits (`Ａ Ｐａｒ － Ｂｕｒ`), half-width katakana and compatibility
//! forms into their plain forms, so a parser reads them as the same text.

use unicode_normalization::UnicodeNormalization;

/// `typed` in NFKC, with the ideographic space (U+3000, which NFKC turns
/// into a plain space) and other spaces as one kind of space.
pub fn normalize_typed(typed: &str) -> String {
    typed.nfkc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_and_half_width_forms_fold() {
        assert_eq!(normalize_typed("Ａ　Ｐａｒ－Ｂｕｒ"), "A Par-Bur");
        assert_eq!(normalize_typed("ｱｶ"), "アカ");
        assert_eq!(normalize_typed("１２３"), "123");
    }
}
