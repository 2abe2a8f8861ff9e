//! Order notation: what players type, the errors they get, canonical printing.

use games::diplomacy::geo::Map;
use games::diplomacy::order::parse_order;

fn canon(s: &str) -> String {
    let m = Map::standard();
    match parse_order(m, s) {
        Ok(o) => o.canonical(m),
        Err(e) => panic!("`{s}` did not parse: {e}"),
    }
}

fn error(s: &str) -> String {
    let m = Map::standard();
    match parse_order(m, s) {
        Ok(o) => panic!("`{s}` parsed as {}", o.canonical(m)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn moves_in_many_spellings() {
    for s in [
        "A Par - Bur",
        "a par-bur",
        "Army Paris -> Burgundy",
        "A PAR TO BUR",
        "army paris moves to burgundy",
        "A Par → Bur",
    ] {
        assert_eq!(canon(s), "A Par - Bur", "{s}");
    }
    assert_eq!(canon("A Lon - Nwy via convoy"), "A Lon - Nwy via convoy");
    assert_eq!(
        canon("A London - Norway by convoy"),
        "A Lon - Nwy via convoy"
    );
    assert_eq!(
        canon("F Mid-Atlantic Ocean - English Channel"),
        "F Mao - Eng"
    );
}

#[test]
fn holds_supports_convoys() {
    assert_eq!(canon("A Par H"), "A Par H");
    assert_eq!(canon("A Paris Hold"), "A Par H");
    assert_eq!(canon("A Par"), "A Par H");
    assert_eq!(canon("F Lon S F Nth - Eng"), "F Lon S F Nth - Eng");
    assert_eq!(
        canon("F London Supports F North Sea - English Channel"),
        "F Lon S F Nth - Eng"
    );
    assert_eq!(canon("A Tyr S A Vie"), "A Tyr S A Vie");
    assert_eq!(canon("A Tyr S A Vie H"), "A Tyr S A Vie");
    assert_eq!(canon("F nth C A lon - nwy"), "F Nth C A Lon - Nwy");
    assert_eq!(
        canon("F North Sea Convoys A London - Norway"),
        "F Nth C A Lon - Nwy"
    );
}

#[test]
fn coasts() {
    for s in [
        "F Mao - Spa/nc",
        "F mao - spa(nc)",
        "F mao - spa nc",
        "F Mid-Atlantic Ocean - Spain(nc)",
        "F MAO - Spain north coast",
    ] {
        assert_eq!(canon(s), "F Mao - Spa/nc", "{s}");
    }
    assert_eq!(canon("F Bar - St Petersburg north coast"), "F Bar - Stp/nc");
    assert_eq!(
        canon("F Bot - St. Petersburg (south coast)"),
        "F Bot - Stp/sc"
    );
    assert_eq!(canon("F Bulgaria(ec) - Black Sea"), "F Bul/ec - Bla");
    let e = error("F Mao - Por/nc");
    assert!(e.contains("Portugal has no north coast"), "{e}");
}

#[test]
fn retreats_builds_disbands() {
    assert_eq!(canon("A Mun R Boh"), "A Mun R Boh");
    assert_eq!(canon("A Munich retreats to Bohemia"), "A Mun R Boh");
    assert_eq!(canon("A Mun D"), "A Mun D");
    assert_eq!(canon("Disband A Munich"), "A Mun D");
    assert_eq!(canon("Remove F Gulf of Lyon"), "F Lyo D");
    assert_eq!(canon("Build A Par"), "Build A Par");
    assert_eq!(canon("B F stp/sc"), "Build F Stp/sc");
    assert_eq!(
        canon("build fleet st petersburg south coast"),
        "Build F Stp/sc"
    );
    assert_eq!(canon("waive"), "Waive");
    assert_eq!(canon("Waive build"), "Waive");
}

#[test]
fn aliases_and_spellings() {
    for (s, want) in [
        ("F nat - nrg", "F Nao - Nwg"),
        ("F mid - gol", "F Mao - Lyo"),
        ("F nts - hel", "F Nth - Hel"),
        ("F Heligoland Bight H", "F Hel H"),
        ("F Helgoland Bight H", "F Hel H"),
        ("F Gulf of Lyons H", "F Lyo H"),
        ("A Romania H", "A Rum H"),
        ("A Rumania H", "A Rum H"),
        ("A Marseille H", "A Mar H"),
        ("A Tyrol H", "A Tyr H"),
        ("F Eastern Med H", "F Eas H"),
        ("F Norwegian Sea H", "F Nwg H"),
        ("A Rhur H", "A Ruh H"),
    ] {
        assert_eq!(canon(s), want, "{s}");
    }
}

#[test]
fn errors_name_the_word_and_suggest() {
    let e = error("A Pari - Bur");
    assert!(
        e.contains("`pari` is not a province") && e.contains("Paris"),
        "{e}"
    );
    let e = error("A Par - Burgandy");
    assert!(e.contains("burgandy") && e.contains("Burgundy"), "{e}");
    let e = error("A Par x Bur");
    assert!(
        e.contains("`x` is not an order word") && e.contains("move"),
        "{e}"
    );
    let e = error("A Par - Bur Mun");
    assert!(e.contains("Unexpected `mun`"), "{e}");
    let e = error("");
    assert!(e.contains("empty"), "{e}");
    let e = error("F Nth C F Lon - Nwy");
    assert!(e.contains("Only armies"), "{e}");
    let e = error("A Qqqqqq - Bur");
    assert!(
        e.contains("not a province") && e.contains("abbreviation"),
        "{e}"
    );
}

#[test]
fn canonical_round_trips() {
    let m = Map::standard();
    for s in [
        "A Par - Bur",
        "F Lon S F Nth - Eng",
        "F Nth C A Lon - Nwy",
        "A Lon - Nwy via convoy",
        "A Mun R Boh",
        "A Mun D",
        "Build F Stp/sc",
        "Waive",
        "F Spa/sc S A Mar",
        "A Tyr H",
    ] {
        let o = parse_order(m, s).unwrap();
        assert_eq!(o.canonical(m), s);
        assert_eq!(parse_order(m, &o.canonical(m)).unwrap(), o);
    }
}

/// The longest message a player may send (the host refuses longer ones) is
/// answered briefly: a few words quoted, a few lines listed, the rest counted.
#[test]
fn the_longest_message_gets_a_short_answer() {
    use games::diplomacy::{Diplomacy, DiplomacyOptions};
    use games::seam::Game;
    use host::limits::MAX_ORDERS_CHARS;
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    let one_word = "x".repeat(MAX_ORDERS_CHARS);
    let e = g.parse_action(0, &one_word).unwrap_err().to_string();
    assert!(e.len() < 300, "{} chars: {e}", e.len());
    let order_word = format!("A Vie {}", "x".repeat(MAX_ORDERS_CHARS - 6));
    let e = g.parse_action(0, &order_word).unwrap_err().to_string();
    assert!(e.len() < 300, "{} chars: {e}", e.len());
    // The same bad line repeated is quoted once, with its count.
    let many_lines = "x\n".repeat(MAX_ORDERS_CHARS / 2);
    let e = g.parse_action(0, &many_lines).unwrap_err().to_string();
    assert!(e.contains("(2000 times)"), "{e}");
    assert!(e.len() < 400, "{} chars: {e}", e.len());
    // Many different bad lines: a few listed, the rest counted.
    let distinct: String = (0..1000).map(|i| format!("x{i}\n")).collect();
    let e = g.parse_action(0, &distinct).unwrap_err().to_string();
    assert!(e.contains("995 more lines not understood"), "{e}");
    assert!(e.len() < 400, "{} chars: {e}", e.len());
    // One good order among them: accepted, the bad line reported once.
    let mixed = format!("A Vie - Gal\n{}", "x\n".repeat(1000));
    let a = g.parse_action(0, &mixed).unwrap();
    assert_eq!(a.orders.len(), 1);
    assert!(a.notes.is_empty(), "{:?}", a.notes);
    assert_eq!(a.refused.len(), 1, "{:?}", a.refused);
    assert_eq!(a.refused[0].times, 1000);
}
