//! Variants on the classic map: which powers play, where they start, and
//! which centres begin neutral. The map and the adjudicator are unchanged;
//! a variant is only this data.
//!
//! The two-player variants are the ones most played on vDiplomacy, with the
//! rules published in its source (github.com/diptobi1/vDiplomacy,
//! `variants/Classic*/`): the powers in `variant.php`, the starting units in
//! `classes/adjudicatorPreGame.php`, and the victory count from
//! `variants/variant.php`, `round(18 / 34 × supply centres)` = 18 on the
//! classic map's 34 centres:
//! - `fva`, France vs Austria (ClassicFvA 1.1.8): France F Brest, A Paris,
//!   A Marseilles; Austria F Trieste, A Vienna, A Budapest.
//! - `gvi`, Germany vs Italy (ClassicGvI 1.0.4): Germany F Kiel, A Munich,
//!   A Berlin; Italy F Naples, A Rome, A Venice.
//! - `etv`, England vs Turkey (ClassicEvT 1.0): to offset England's weak
//!   start, its fleets begin at sea: England F North Sea, A London,
//!   F English Channel; Turkey A Smyrna, A Constantinople, F Ankara.
//!
//! `fog` is the classic game under Fog of War (vDiplomacy's ClassicFog):
//! the same powers and units, with the game's `fog` option set; like
//! `classic` it takes a `powers=` list.
//!
//! In each two-player variant, every centre but the two powers' home centres starts neutral,
//! and the other five powers are not on the board. `powers=` plays the
//! classic game with any subset of at least two powers the same way: their
//! usual units and home centres, every other centre neutral.

use super::starting_units;
use crate::diplomacy::geo::{Map, Power};
use crate::diplomacy::order::{Unit, UnitKind};
use crate::seam::OptionsError;

/// A variant's name, title, powers and (where they differ from the classic
/// ones) its starting units.
struct Variant {
    name: &'static str,
    title: &'static str,
    powers: &'static [Power],
    /// `None`: the powers' classic starting units.
    units: Option<&'static [(Power, UnitKind, &'static str)]>,
}

/// Every variant, classic first.
const VARIANTS: &[Variant] = &[
    Variant {
        name: "classic",
        title: "the classic game",
        powers: &Power::ALL,
        units: None,
    },
    Variant {
        name: "fog",
        title: "Fog of War on the classic game",
        powers: &Power::ALL,
        units: None,
    },
    Variant {
        name: "fva",
        title: "France vs Austria",
        powers: &[Power::France, Power::Austria],
        units: None,
    },
    Variant {
        name: "gvi",
        title: "Germany vs Italy",
        powers: &[Power::Germany, Power::Italy],
        units: None,
    },
    Variant {
        name: "etv",
        title: "England vs Turkey",
        powers: &[Power::England, Power::Turkey],
        units: Some(&[
            (Power::England, UnitKind::Fleet, "nth"),
            (Power::England, UnitKind::Army, "lon"),
            (Power::England, UnitKind::Fleet, "eng"),
            (Power::Turkey, UnitKind::Army, "smy"),
            (Power::Turkey, UnitKind::Army, "con"),
            (Power::Turkey, UnitKind::Fleet, "ank"),
        ]),
    },
];

/// What `variant=` accepts, for messages.
fn variant_names() -> String {
    VARIANTS
        .iter()
        .map(|v| format!("`{}` ({})", v.name, v.title))
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
/// variant (empty = classic); `powers` lists powers by name or initial,
/// separated by commas or spaces (empty = the variant's). Giving both is
/// refused unless `variant` is classic (or `fog`, the classic game under
/// Fog of War): a named variant fixes its powers.
pub fn setup(map: &Map, variant: &str, powers: &str) -> Result<Setup, OptionsError> {
    let wanted = variant.trim().to_ascii_lowercase();
    let wanted = if wanted.is_empty() {
        "classic"
    } else {
        wanted.as_str()
    };
    let Some(v) = VARIANTS.iter().find(|v| v.name == wanted) else {
        return Err(OptionsError(format!(
            "`{}` is not a variant. Variants: {}.",
            crate::diplomacy::order::quoted(variant),
            variant_names()
        )));
    };
    // A named variant refuses any `powers` first: that is the mistake to
    // mend, whatever the list says.
    let listed = powers
        .split(|c: char| c == ',' || c.is_whitespace())
        .any(|w| !w.is_empty());
    if listed && !is_classic(v.name) {
        return Err(OptionsError(format!(
            "`powers` picks the powers of the classic game; the `{}` variant already fixes \
             them ({}). Give either `variant` or `powers`.",
            v.name,
            names(v.powers)
        )));
    }
    let chosen = parse_powers(powers)?;
    let powers: Vec<Power> = if chosen.is_empty() {
        v.powers.to_vec()
    } else {
        chosen
    };
    let units = match v.units {
        Some(list) => list
            .iter()
            .filter_map(|&(power, kind, at)| {
                Some(Unit {
                    power,
                    kind,
                    loc: map.loc_by_abbr(at)?,
                })
            })
            .collect(),
        None => starting_units(map)
            .into_iter()
            .filter(|u| powers.contains(&u.power))
            .collect(),
    };
    Ok(Setup { powers, units })
}

/// Whether a variant is the classic game (`fog` is, under Fog of War), so
/// that `powers=` may pick its powers.
fn is_classic(name: &str) -> bool {
    matches!(name, "classic" | "fog")
}

/// Whether `variant` names the Fog of War variant (`variant=fog`).
pub fn is_fog_variant(variant: &str) -> bool {
    variant.trim().eq_ignore_ascii_case("fog")
}

/// "France, Austria".
fn names(powers: &[Power]) -> String {
    powers
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The powers of a `powers=` list, in the order given; empty for none.
fn parse_powers(text: &str) -> Result<Vec<Power>, OptionsError> {
    let mut out: Vec<Power> = Vec::new();
    for word in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        let Some(p) = Power::parse(word) else {
            return Err(OptionsError(format!(
                "`{}` in `powers` is not a power. Name two or more of {} (or their initials), \
                 separated by commas.",
                crate::diplomacy::order::quoted(word),
                names(&Power::ALL)
            )));
        };
        if out.contains(&p) {
            return Err(OptionsError(format!(
                "`powers` names {p} twice; name each power once."
            )));
        }
        out.push(p);
    }
    if out.len() == 1 {
        return Err(OptionsError(format!(
            "`powers` names only {}; a game needs at least two powers.",
            out[0]
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(m: &Map, units: &[Unit]) -> Vec<String> {
        let mut v: Vec<String> = units
            .iter()
            .map(|u| format!("{} {:?} {}", u.power, u.kind, m.loc(u.loc).abbr))
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
        assert_eq!(fva.powers, [Power::France, Power::Austria]);
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
        assert_eq!(gvi.powers, [Power::Germany, Power::Italy]);
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
        assert_eq!(etv.powers, [Power::England, Power::Turkey]);
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
        assert_eq!(classic.powers, Power::ALL);
        assert_eq!(classic.units.len(), 22);
    }

    #[test]
    fn a_subset_of_powers_keeps_their_classic_units_in_the_order_given() {
        let m = Map::standard();
        let s = setup(m, "classic", "turkey, R,germany").unwrap();
        assert_eq!(s.powers, [Power::Turkey, Power::Russia, Power::Germany]);
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
