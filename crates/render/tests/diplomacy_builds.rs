//! Winter builds on the map say who builds what: a faded token of the
//! power's colour and unit kind with its initial, inside the dashed ring.

use games::diplomacy::geo::Map;
use games::diplomacy::order::{Order, UnitKind};
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::Game;
use render::diplomacy::{MapPosition, diplomacy_svg, power_style};

#[test]
fn a_build_shows_the_powers_unit_kind_and_initial() {
    let m = Map::standard();
    let g = Diplomacy::new_game(DiplomacyOptions::default(), 1).unwrap();
    let mut pos = MapPosition::of_game(&g);
    // Warsaw and London are empty, as a home centre is when one builds there.
    let (war, lon) = (m.loc_by_abbr("war").unwrap(), m.loc_by_abbr("lon").unwrap());
    pos.units.retain(|u| u.loc != war && u.loc != lon);
    let plain = diplomacy_svg(&pos).unwrap();
    pos.orders = vec![
        (
            std_power("Russia"),
            Order::Build {
                unit: UnitKind::Army,
                at: war,
            },
            true,
        ),
        (
            std_power("England"),
            Order::Build {
                unit: UnitKind::Fleet,
                at: lon,
            },
            true,
        ),
    ];
    let svg = diplomacy_svg(&pos).unwrap();
    assert_eq!(
        svg.matches(r#"fill-opacity="0.45""#).count(),
        2,
        "one faded token per build"
    );
    let fleet = format!(
        r#"rx="4" fill="{}" fill-opacity="0.45""#,
        power_style(Map::standard(), std_power("England")).0
    );
    assert!(svg.contains(&fleet), "England's build is a fleet");
    let army = format!(
        r#"r="11" fill="{}" fill-opacity="0.45""#,
        power_style(Map::standard(), std_power("Russia")).0
    );
    assert!(svg.contains(&army), "Russia's build is an army");
    // Two more initials than without the builds.
    let initials = |s: &str, c: char| s.matches(&format!(">{c}</text>")).count();
    assert_eq!(initials(&svg, 'R'), initials(&plain, 'R') + 1);
    assert_eq!(initials(&svg, 'E'), initials(&plain, 'E') + 1);
    if std::env::var_os("BUILD_OUT").is_some() {
        let png = render::diplomacy::render_position_png(&pos).unwrap();
        std::fs::write("/tmp/diplomacy-builds.png", png).unwrap();
    }
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
