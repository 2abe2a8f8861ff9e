//! The terminal teaches a player who never read a manual (issue 34): the
//! rules of every game, a Diplomacy guide at each phase like the DM desk's
//! (units, centres, examples, what a Winter owes, the map's path), coasts
//! named in refusals and never changed, seats by power name, a second
//! `draw` or civil-disorder `done` asked for, and a resumed game that says
//! which arguments it did not use. All through the real binary's stdin.

#[path = "support/terminal.rs"]
mod terminal;

use terminal::{Terminal, ok, stderr};

/// Russia's seat against AIs that hold every unit, on `input`.
fn as_russia(t: &Terminal, input: &str) -> String {
    ok(&t.play(
        &[
            "diplomacy",
            "--vs",
            "hold",
            "--seed",
            "1",
            "--seat",
            "russia",
        ],
        input.as_bytes(),
    ))
}

#[test]
fn each_diplomacy_phase_opens_with_a_guide_and_the_path_of_its_map() {
    let t = Terminal::new();
    let text = as_russia(&t, "list\nA Mos - Ukr\norders\nquit\n");
    assert!(
        text.contains("Spring 1901 movement: you are Russia."),
        "{text}"
    );
    assert!(text.contains("Your centres (4)"), "{text}");
    // Examples of Russia's own units, and how to finish.
    assert!(text.contains("`F Stp/sc - Bot`"), "{text}");
    assert!(text.contains("Send `done` when finished"), "{text}");
    // `list` and `orders` are commands, not provinces.
    assert!(!text.contains("is not a province"), "{text}");
    assert!(text.contains("No orders yet this phase"), "{text}");
    assert!(
        text.contains("Your orders (Spring 1901 movement):\n  A Mos - Ukr"),
        "{text}"
    );
    let path = text
        .lines()
        .find_map(|l| l.strip_prefix("Map of this phase: "))
        .unwrap_or_else(|| panic!("no map path: {text}"));
    let png = std::fs::read(path).unwrap();
    assert_eq!(&png[..4], b"\x89PNG", "{path} is not a PNG");
    // In a folder of the process's own: a random name, this user only
    // (a fixed name in the shared temporary directory could be a planted
    // link, and a fogged power's map readable by others).
    let folder = std::path::Path::new(path).parent().unwrap();
    let name = folder.file_name().unwrap().to_string_lossy().to_string();
    assert!(
        name.starts_with("gamehost-maps-") && name.len() > "gamehost-maps-".len(),
        "{path}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::symlink_metadata(folder)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o077,
        0,
        "{path}: the folder is open to others ({mode:o})"
    );
    // Full stops are never doubled ("when ready..").
    assert!(!text.contains(".."), "{text}");
}

#[test]
fn a_fleet_ordered_from_the_wrong_coast_is_refused_naming_both_coasts() {
    let t = Terminal::new();
    let text = as_russia(&t, "F Stp/nc - Bot\norders\nF Stp/nc - Bar\nquit\n");
    assert!(
        text.contains("`F Stp/nc - Bot`: the fleet in St Petersburg is on the south coast (`F Stp/sc`), not the north coast."),
        "{text}"
    );
    assert!(
        text.contains("`F Stp/nc - Bar`: the fleet in St Petersburg is on the south coast"),
        "{text}"
    );
    // Nothing was recorded on the other coast.
    assert!(!text.contains("Recorded: F Stp/sc"), "{text}");
    assert!(text.contains("No orders yet this phase"), "{text}");
}

#[test]
fn orders_pasted_on_one_line_with_slashes_are_taken_one_by_one() {
    let t = Terminal::new();
    let text = as_russia(&t, "A Mos - Ukr / A War - Gal\norders\nquit\n");
    assert!(text.contains("  A Mos - Ukr\n  A War - Gal"), "{text}");
}

#[test]
fn a_draw_vote_is_asked_for_twice_because_it_ends_the_game() {
    let t = Terminal::new();
    let text = as_russia(&t, "draw\nquit\n");
    assert!(text.contains("Type `draw` again"), "{text}");
    assert!(
        !text.contains("Draw between"),
        "one `draw` ended the game: {text}"
    );
    // Something else in between takes the question back.
    let text = as_russia(&t, "draw\nboard\ndraw\nquit\n");
    assert_eq!(text.matches("Type `draw` again").count(), 2, "{text}");
    let text = as_russia(&t, "draw\ndraw\ndone\n");
    assert!(text.contains("is over"), "{text}");
}

#[test]
fn a_winter_says_what_is_owed_and_done_asks_again_before_waiving_builds() {
    let t = Terminal::new();
    let text = as_russia(
        &t,
        "F Sev - Rum\nF Stp/sc - Bot\ndone\nF Bot - Swe\ndone\ndone\ndone\nquit\n",
    );
    let winter = text
        .find("Winter 1901 adjustment: you are Russia.")
        .unwrap_or_else(|| panic!("no Winter guide: {text}"));
    let rest = &text[winter..];
    assert!(rest.contains("Your centres (6)"), "{rest}");
    assert!(rest.contains("You may build 2"), "{rest}");
    let warned = rest
        .find("Type `done` again to finish anyway")
        .unwrap_or_else(|| panic!("no warning: {rest}"));
    assert!(
        rest[warned..].contains("Spring 1902 movement: you are Russia."),
        "{rest}"
    );
    // The Fall's orders come before the board they lead to.
    let fall_report = text.find("Next: Winter 1901").unwrap_or(usize::MAX);
    assert!(fall_report < winter, "{text}");
}

#[test]
fn seats_are_taken_by_name_and_a_wrong_one_lists_them() {
    let t = Terminal::new();
    let text = as_russia(&t, "quit\n");
    assert!(text.contains("tester (Russia)"), "{text}");
    let o = t.play(&["diplomacy", "--seat", "narnia", "--new"], b"quit\n");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("--seat narnia does not exist"), "{err}");
    assert!(err.contains("6 Russia"), "{err}");
}

#[test]
fn a_resumed_game_names_the_arguments_it_did_not_use() {
    let t = Terminal::new();
    ok(&t.play(&["cards", "--seed", "5"], b"quit\n"));
    let text = ok(&t.play(&["cards", "--vs", "random", "--seed", "3"], b"quit\n"));
    assert!(text.contains("Resuming game #1"), "{text}");
    assert!(
        text.contains(
            "Not used: --vs random, --seed 3 (they apply to a new game; add --new to start one)."
        ),
        "{text}"
    );
    let plain = ok(&t.play(&["cards"], b"quit\n"));
    assert!(!plain.contains("Not used"), "{plain}");
}

#[test]
fn the_end_of_a_game_is_printed_once() {
    let t = Terminal::new();
    let moves = "p\n".repeat(8) + &"s\n".repeat(8);
    let text = ok(&t.play(
        &[
            "cards",
            "--vs",
            "random",
            "--seed",
            "3",
            "--options",
            r#"{"n":3,"m":3}"#,
        ],
        moves.as_bytes(),
    ));
    assert_eq!(text.matches("cards #1 is over").count(), 1, "{text}");
}

#[test]
fn rules_show_the_type_chart_the_puzzle_symbols_and_the_cards_scoring() {
    let t = Terminal::new();
    let battle = ok(&t.play(
        &["battle", "--vs", "random", "--seed", "2"],
        b"rules\nhelp\nquit\n",
    ));
    assert!(battle.contains("Type chart"), "{battle}");
    assert!(battle.contains("α = 0.5, β = 2"), "{battle}");
    assert!(battle.contains("Flam     .5   .5    2"), "{battle}");
    assert!(
        !battle.contains("**"),
        "Markdown left in the terminal: {battle}"
    );
    assert!(
        battle.contains("rules    the rules of the game"),
        "{battle}"
    );
    let puzzle = ok(&t.play(
        &["puzzle", "--vs", "random", "--seed", "2"],
        b"rules\nquit\n",
    ));
    assert!(
        puzzle.contains("`*` after a name marks whose move it is"),
        "{puzzle}"
    );
    assert!(puzzle.contains("floor(0.015·c² + 0.15·(o+w)²)"), "{puzzle}");
    let cards = ok(&t.play(
        &["cards", "--vs", "random", "--seed", "2"],
        b"rules\nquit\n",
    ));
    assert!(cards.contains("above every jamming card"), "{cards}");
}

#[test]
fn the_ai_powers_are_never_listed_as_awaited() {
    let t = Terminal::new();
    let text = as_russia(&t, "quit\n");
    // Six AIs hold: the phase waits for Russia, the only person.
    assert!(
        text.contains("Spring 1901 movement: waiting for Russia."),
        "{text}"
    );
    assert!(!text.contains("waiting for Austria"), "{text}");
}
