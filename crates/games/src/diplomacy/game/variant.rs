//! Which powers play and where they start: the map's full game, a
//! variant on the same board from the map file (`variant` lines), or the
//! full game with some of its powers (`powers=`). The map and the
//! adjudicator are unchanged; a variant is only data.
//!
//! `fog` is the full game under Fog of War (vDiplomacy's ClassicFog on the
//! standard map): the same powers and units, with the game's `fog` option
//! set; like `classic` it takes a `powers=` list.
//!
//! In a variant and under `powers=`, every centre but the playing powers'
//! home centres starts neutral, and the other powers are not on the board.
//! A variant without units of its own starts its powers' usual units.

use super::starting_units;
use crate::diplomacy::geo::{Map, Power};
use crate::diplomacy::order::Unit;
use crate::seam::OptionsError;

/// The variants every map has besides its file's: its full game, and the
/// full game under Fog of War.
const BUILT_IN: [(&str, &str); 2] = [
    ("classic", "the full game"),
    ("fog", "Fog of War on the full game"),
];

/// What `variant=` accepts on this map, for messages.
fn variant_names(map: &Map) -> String {
    BUILT_IN
        .iter()
        .map(|(id, title)| format!("`{id}` ({title})"))
        .chain(
            map.variants()
                .iter()
                .map(|v| format!("`{}` ({})", v.id, v.title)),
        )
        .collect::<Vec<_>>()
        .join(", ")
}

/// The powers a game seats, in seat order, and their starting units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Seat `i` plays `powers[i]`.
    pub powers: Vec<Power>,
    /// The units on the board in Spring of the first year.
    pub units: Vec<Unit>,
}

/// The seats and starting units the options ask for. `variant` names a
/// variant (empty = classic, the map's full game); `powers` lists powers by
/// name or initial, separated by commas or spaces (empty = the variant's).
/// Giving both is refused unless `variant` is classic (or `fog`, the full
/// game under Fog of War): a named variant fixes its powers.
pub fn setup(map: &Map, variant: &str, powers: &str) -> Result<Setup, OptionsError> {
    let wanted = variant.trim().to_ascii_lowercase();
    let wanted = if wanted.is_empty() {
        "classic"
    } else {
        wanted.as_str()
    };
    let full_game = BUILT_IN.iter().any(|(id, _)| *id == wanted);
    let named = map.variants().iter().find(|v| v.id == wanted);
    if !full_game && named.is_none() {
        return Err(OptionsError(format!(
            "`{}` is not a variant of the {} map. Variants: {}.",
            crate::clip::clip_typed(variant),
            map.title(),
            variant_names(map)
        )));
    }
    // A named variant refuses any `powers` first: that is the mistake to
    // mend, whatever the list says.
    let listed = powers
        .split(|c: char| c == ',' || c.is_whitespace())
        .any(|w| !w.is_empty());
    if let (true, Some(v)) = (listed, named) {
        return Err(OptionsError(format!(
            "`powers` picks the powers of the full game; the `{}` variant already fixes \
             them ({}). Give either `variant` or `powers`.",
            v.id,
            names(map, &v.powers)
        )));
    }
    let chosen = parse_powers(map, powers)?;
    let powers: Vec<Power> = match (named, chosen.is_empty()) {
        (Some(v), _) => v.powers.clone(),
        (None, true) => map.powers().collect(),
        (None, false) => chosen,
    };
    let units = match named.filter(|v| !v.units.is_empty()) {
        Some(v) => starting_units(&v.units),
        None => starting_units(map.starting_units())
            .into_iter()
            .filter(|u| powers.contains(&u.power))
            .collect(),
    };
    Ok(Setup { powers, units })
}

/// Whether `variant` names the Fog of War variant (`variant=fog`).
pub fn is_fog_variant(variant: &str) -> bool {
    variant.trim().eq_ignore_ascii_case("fog")
}

/// "France, Austria".
fn names(map: &Map, powers: &[Power]) -> String {
    powers
        .iter()
        .map(|&p| map.power_name(p))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The powers of a `powers=` list, in the order given; empty for none.
fn parse_powers(map: &Map, text: &str) -> Result<Vec<Power>, OptionsError> {
    let mut out: Vec<Power> = Vec::new();
    for word in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        let Some(p) = map.parse_power(word) else {
            return Err(OptionsError(format!(
                "`{}` in `powers` is not a power. Name two or more of {} (or their initials), \
                 separated by commas.",
                crate::clip::clip_typed(word),
                map.power_names()
            )));
        };
        if out.contains(&p) {
            return Err(OptionsError(format!(
                "`powers` names {} twice; name each power once.",
                map.power_name(p)
            )));
        }
        out.push(p);
    }
    if out.len() == 1 {
        return Err(OptionsError(format!(
            "`powers` names only {}; a game needs at least two powers.",
            map.power_name(out[0])
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(m: &Map, names: &[&str]) -> Vec<Power> {
        names.iter().map(|n| m.parse_power(n).unwrap()).collect()
    }

    fn at(m: &Map, units: &[Unit]) -> Vec<String> {
        let mut v: Vec<String> = units
            .iter()
            .map(|u| {
                format!(
                    "{} {:?} {}",
                    m.power_name(u.power),
                    u.kind,
                    m.loc(u.loc).abbr
                )
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn powers_with_a_named_variant_is_refused_as_that_whatever_the_list() {
        let m = Map::standard();
        for list in ["england", "england, france", "zz"] {
            let Err(e) = setup(m, "fva", list) else {
                panic!("{list}: accepted")
            };
            assert!(
                e.0.contains("Give either `variant` or `powers`"),
                "{list}: {}",
                e.0
            );
        }
        // Under the classic game, the list itself is checked.
        let Err(e) = setup(m, "fog", "england") else {
            panic!("accepted")
        };
        assert!(e.0.contains("at least two powers"), "{}", e.0);
    }

    #[test]
    fn the_published_starting_positions() {
        let m = Map::standard();
        let fva = setup(m, "fva", "").unwrap();
        assert_eq!(fva.powers, named(m, &["France", "Austria"]));
        assert_eq!(
            at(m, &fva.units),
            [
                "Austria Army bud",
                "Austria Army vie",
                "Austria Fleet tri",
                "France Army mar",
                "France Army par",
                "France Fleet bre"
            ]
        );
        let gvi = setup(m, "GvI", "").unwrap();
        assert_eq!(gvi.powers, named(m, &["Germany", "Italy"]));
        assert_eq!(
            at(m, &gvi.units),
            [
                "Germany Army ber",
                "Germany Army mun",
                "Germany Fleet kie",
                "Italy Army rom",
                "Italy Army ven",
                "Italy Fleet nap"
            ]
        );
        let etv = setup(m, "etv", "").unwrap();
        assert_eq!(etv.powers, named(m, &["England", "Turkey"]));
        assert_eq!(
            at(m, &etv.units),
            [
                "England Army lon",
                "England Fleet eng",
                "England Fleet nth",
                "Turkey Army con",
                "Turkey Army smy",
                "Turkey Fleet ank"
            ]
        );
        let classic = setup(m, "", "").unwrap();
        assert_eq!(classic.powers, m.powers().collect::<Vec<_>>());
        assert_eq!(classic.units.len(), 22);
    }

    #[test]
    fn a_subset_of_powers_keeps_their_classic_units_in_the_order_given() {
        let m = Map::standard();
        let s = setup(m, "classic", "turkey, R,germany").unwrap();
        assert_eq!(s.powers, named(m, &["Turkey", "Russia", "Germany"]));
        assert_eq!(s.units.len(), 3 + 4 + 3);
        assert!(s.units.iter().all(|u| s.powers.contains(&u.power)));
    }

    #[test]
    fn bad_variants_and_power_lists_say_what_would_be_right() {
        let m = Map::standard();
        let e = setup(m, "youngstown", "").unwrap_err().0;
        assert!(
            e.contains("`youngstown` is not a variant") && e.contains("`fva`"),
            "{e}"
        );
        let e = setup(m, "", "france,prussia").unwrap_err().0;
        assert!(
            e.contains("`prussia` in `powers` is not a power") && e.contains("Austria"),
            "{e}"
        );
        let e = setup(m, "", "france,France").unwrap_err().0;
        assert!(e.contains("names France twice"), "{e}");
        let e = setup(m, "", "italy").unwrap_err().0;
        assert!(e.contains("at least two"), "{e}");
        let e = setup(m, "fva", "italy,germany").unwrap_err().0;
        assert!(e.contains("either `variant` or `powers`"), "{e}");
    }
}
