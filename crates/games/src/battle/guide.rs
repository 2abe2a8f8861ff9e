//! The monster battle's rules as a player reads them (`/rules battle` in
//! Discord, `rules` in the terminal): how a turn goes, the damage formula
//! with this rule set's alpha and beta, and its type chart. One text for
//! every front-end, built from the battle's own rule data.

use super::engine::Setup;
use std::fmt::Write;

/// The rules of a battle played on `setup`'s rule set.
pub fn rules_text(setup: &Setup) -> String {
    let mut s = String::from(
        "**Monster battle**: two players, each with a team of monsters; moves are hidden \
         until both have chosen.\n\
         **A turn:** both pick, without seeing the other's choice, a move of the active \
         monster or a switch to another monster with HP left. Switches happen first (a \
         move then hits the monster that came in); then the faster monster moves first \
         (equal speed: a coin decides), and a monster knocked out before its move does not \
         move. When your active monster faints you send in another; whoever knocks out \
         every opposing monster wins.\n",
    );
    let _ = writeln!(
        s,
        "**Damage** of an attack of power d, when it hits (its accuracy is the chance to \
         hit): `floor((α × d × A / B + β) × e)` with α = {}, β = {}, A the attacker's \
         attack, B the defender's defence and e the type effectiveness below. A heal \
         restores its share of max HP, never above it. After {} turns the battle is a draw.",
        setup.alpha, setup.beta, setup.turn_limit
    );
    s.push_str(&type_chart(setup));
    s
}

/// The type chart as a table in a code block: one row per move type, one
/// column per defender type (names cut to four letters to keep lines short).
pub fn type_chart(setup: &Setup) -> String {
    let mut s = String::from(
        "**Type chart** (e): the move's type (row) against the defender's type (column); \
         2 = super effective, .5 = not very effective, 0 = no effect, - = normal.\n```\n",
    );
    let short = |t: &str| t.chars().take(4).collect::<String>();
    let _ = write!(s, "{:<6}", "");
    for t in &setup.types {
        let _ = write!(s, " {:>4}", short(t));
    }
    s.push('\n');
    for (row, t) in setup.chart.iter().zip(&setup.types) {
        let _ = write!(s, "{:<6}", short(t));
        for e in row {
            let _ = write!(s, " {:>4}", effectiveness_text(*e));
        }
        s.push('\n');
    }
    s.push_str("```\n");
    s
}

/// A chart entry as the table shows it: `-` for the normal 1.
pub fn effectiveness_text(e: f64) -> String {
    if e == 1.0 {
        "-".into()
    } else if e == 0.5 {
        ".5".into()
    } else if e.fract() == 0.0 {
        format!("{}", e as i64)
    } else {
        format!("{e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::rules::data::Roster;

    #[test]
    fn the_rules_show_the_formula_and_every_type_of_the_chart() {
        let r = Roster::builtin();
        let setup = Setup::new(r, [Vec::new(), Vec::new()], 100);
        let text = rules_text(&setup);
        assert!(text.contains("α = 0.5, β = 2"), "{text}");
        for t in &r.types {
            assert!(text.contains(&t[..4]), "{t} missing: {text}");
        }
        // Flame against Leaf is super effective in the built-in chart:
        // the Flame row has a 2 in the Leaf column.
        let flame = text.lines().find(|l| l.starts_with("Flam")).unwrap();
        let cells: Vec<&str> = flame.split_whitespace().collect();
        let leaf = r.types.iter().position(|t| t == "Leaf").unwrap();
        assert_eq!(cells[leaf + 1], "2", "{flame}");
        assert!(text.chars().count() < 1900, "{}", text.len());
    }
}
