//! Fog of War maps (issue 36): a power's map draws only the units it sees
//! and greys the rest; the legend keeps every power's true centre count.

use games::diplomacy::geo::{Map, Power};
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::Game;
use render::diplomacy::{MapPosition, diplomacy_svg, render_position_png};

fn fog_game() -> Diplomacy {
    let options = DiplomacyOptions {
        variant: "fog".into(),
        ..Default::default()
    };
    Diplomacy::new_game(options, 1).unwrap()
}

/// How many tokens and legend cells carry `power`'s initial.
fn initials(svg: &str, power: Power) -> usize {
    svg.matches(&format!(
        ">{}</text>",
        render::diplomacy::power_initial(games::diplomacy::geo::Map::standard(), power)
    ))
    .count()
}

#[test]
fn a_power_map_draws_only_the_units_it_sees() {
    let g = fog_game();
    let m = Map::standard();
    let england = MapPosition::seen_by(&g, std_power("England"));
    let seen = g.visible_provinces(std_power("England"));
    assert_eq!(england.fog, Some(seen));
    assert!(
        england
            .units
            .iter()
            .all(|u| seen & 1u128 << m.prov_of(u.loc) != 0)
    );
    assert_eq!(england.units.len(), 3, "only England's own units are near");
    // The legend counts every power's centres, as everyone knows them.
    assert_eq!(england.owners, g.owners());
    let svg = diplomacy_svg(&england).unwrap();
    let empty = diplomacy_svg(&MapPosition {
        units: Vec::new(),
        ..england.clone()
    })
    .unwrap();
    for p in [
        std_power("Turkey"),
        std_power("Russia"),
        std_power("France"),
        std_power("Germany"),
    ] {
        assert_eq!(
            initials(&svg, p),
            initials(&empty, p),
            "{p:?}'s units drawn"
        );
    }
    assert_eq!(
        initials(&svg, std_power("England")),
        initials(&empty, std_power("England")) + 3
    );
    // Even a position that holds a hidden unit does not draw it.
    let leaky = MapPosition {
        units: g.units().to_vec(),
        ..england.clone()
    };
    assert_eq!(
        initials(&diplomacy_svg(&leaky).unwrap(), std_power("Turkey")),
        initials(&empty, std_power("Turkey"))
    );
    // Without fog the map is the whole position.
    let plain = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    let whole = MapPosition::seen_by(&plain, std_power("England"));
    assert!(whole.fog.is_none() && whole.units.len() == 22);
    if let Ok(dir) = std::env::var("FOG_MAP_DIR") {
        // For looking at the images by eye.
        std::fs::write(
            format!("{dir}/fog-england.png"),
            render_position_png(&england).unwrap(),
        )
        .unwrap();
        let turkey = MapPosition::seen_by(&g, std_power("Turkey"));
        std::fs::write(
            format!("{dir}/fog-turkey.png"),
            render_position_png(&turkey).unwrap(),
        )
        .unwrap();
    }
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
