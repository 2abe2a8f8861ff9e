//! The card duel's rules as a player reads them (`/rules cards`, the
//! terminal's `rules`): the decks, a move, what a pass scores, the end.

/// The rules of Invisible.
pub fn rules_text() -> String {
    "**Invisible**, the card duel: two players, each with a deck whose every card both \
     can see (top first). A card is a score card (its value) or a jamming card (`J`).\n\
     **Your move** (Player 1 starts, then turns alternate): `play` (or `p`) puts the top \
     card of your deck on the shared stack; `pass` (or `s`) ends the round.\n\
     **A pass scores:** each player scores their own score cards on the stack that lie \
     above every jamming card the *opponent* put there (all of them if the opponent put \
     no jam). Then the stack is cleared. The board shows what a pass would score now.\n\
     **The end:** when both pass one after the other on an empty stack. The higher score \
     wins; play to lead by as much as you can.\n\
     **The board:** each deck top first, the stack bottom to top with each card's owner \
     before it (`Alice:J` is Alice's jack), and the last move.\n"
        .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rules_say_what_a_pass_scores() {
        let text = super::rules_text();
        assert!(text.contains("above every jamming card"), "{text}");
        assert!(text.contains("`play`") && text.contains("`pass`"), "{text}");
    }
}
