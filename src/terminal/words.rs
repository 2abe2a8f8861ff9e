//! The terminal's own wording: its `help` (the commands of this front-end,
//! which differ from Discord's) and the shared rules text made plain for a
//! terminal.

/// `help`: every command of the terminal for a game of `kind`.
pub(super) fn help(kind: &str) -> String {
    let mut s = String::from(
        "Type your move at the `>` prompt, or one of:\n\
         \x20 rules    the rules of the game (with the type chart, formulas, order syntax)\n\
         \x20 board    show the game\n\
         \x20 forfeit  give up\n\
         \x20 quit     save and leave (the same command resumes the game)\n",
    );
    if kind == <games::diplomacy::Diplomacy as games::seam::Game>::KIND {
        s.push_str(
            "Diplomacy: orders one per line, e.g. `A Par - Bur`, `F Lon S F Nth - Eng`.\n\
             \x20 orders   list the orders you gave this phase (also `list`)\n\
             \x20 clear    drop them\n\
             \x20 done     finish the phase (asked twice when it leaves orders to civil disorder)\n\
             \x20 draw     vote for a draw (asked twice: it ends the game at once)\n",
        );
    }
    s
}

/// The rules text as a terminal shows it: without Markdown's bold marks
/// and code fences (inline `code` marks stay; they show what to type).
pub(super) fn plain(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("```"))
        .map(|l| l.replace("**", ""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn plain_text_drops_bold_and_fences_but_keeps_code_marks() {
        assert_eq!(
            super::plain("**Damage**: `x`\n```\nrow\n```"),
            "Damage: `x`\nrow"
        );
    }
}
