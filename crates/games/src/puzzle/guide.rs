//! The puzzle duel's rules as a player reads them (`/rules puzzle`, the
//! terminal's `rules`): what a move is, clearing, garbage and the formula
//! of what is sent, how the game ends, and what the board's symbols mean.

use super::garbage::HARD_THRESHOLD;
use super::notation::CELL_HELP;

/// The rules of a puzzle duel of `max_turns` turns.
pub fn rules_text(max_turns: u32) -> String {
    format!(
        "**Puzzle duel**: two players, each with a 9 × 15 field of coloured balls (R, G, B).\n\
         **Your move:** name any cell of a group of 5 or more balls of one colour joined \
         side by side; the whole group is removed. {CELL_HELP}\n\
         **Clearing:** balls above fall down; empty cells fill from the top, first with \
         garbage waiting in that column's queue, then with new balls. A soft garbage ball \
         (`o`) next to the removed group goes with it; a hard one (`#`) goes when two of \
         its neighbours were in the group, and turns soft when one was.\n\
         **Garbage sent** to the opponent, with c coloured balls removed, o garbage balls \
         removed and w hard garbage balls weakened or removed: \
         `floor(0.015·c² + 0.15·(o+w)²)` soft balls when c < {HARD_THRESHOLD}; when c ≥ \
         {HARD_THRESHOLD}, 60% of that (rounded down) as hard balls. Each goes to the queue \
         of a random column of the opponent's field.\n\
         **A turn:** the first player removes, then the second; garbage sent by the first \
         can already fall into the second's field in the same turn.\n\
         **The end:** a player with no group of 5 on their move loses (both in the same \
         turn: a draw). After {max_turns} turns the lower garbage score wins (hard counts \
         2, soft 1, on the field or queued).\n\
         **The board:** `R G B` balls, `o` soft and `#` hard garbage; the `q` row counts \
         the garbage queued above each column (`+` is 10 or more); `*` after a name marks \
         whose move it is.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_explain_the_formula_the_star_and_the_turn_limit() {
        let text = rules_text(200);
        assert!(text.contains("0.015·c²"), "{text}");
        assert!(text.contains("`*`"), "{text}");
        assert!(text.contains("After 200 turns"), "{text}");
        assert!(text.chars().count() < 1900, "{}", text.chars().count());
    }
}
