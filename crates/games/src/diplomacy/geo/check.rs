//! Every problem of a map's rules at once, for an organiser bringing a map
//! of their own (`gamehost diplomacy check-map`): the loader stops at the
//! first problem, which is right for the bundled map and slow for someone
//! fixing a file of their own.

use super::{
    Alias, Bits, Location, MAX_LOCS, Map, MapError, Province, Terrain, add_coasts,
    army_edge_problems, fleet_edge_problems, fleet_province_adjacency, normalize, parse_edges,
    parse_provinces,
};

/// One problem found in a map's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapProblem {
    /// 1-based line of the text (0: the map as a whole).
    pub line: usize,
    /// What is wrong, naming the places involved and what would be right.
    pub problem: String,
}

/// The line kinds of a map's rules (the other lines of a map file are its
/// geometry, read by the renderer).
pub const RULE_LINE_KINDS: [&str; 11] = [
    "map",
    "start",
    "victory",
    "power",
    "start-unit",
    "variant",
    "variant-unit",
    "prov",
    "coasts",
    "army",
    "fleet",
];

/// The map's rules and their problems: everything that could be checked
/// (a line that cannot be read stops the checks that need it), and the
/// map itself when there are none.
pub fn check_map_rules(text: &str) -> (Vec<MapProblem>, Option<Map>) {
    let whole = |problem: String| MapProblem { line: 0, problem };
    let from_error = |e: MapError| match e {
        MapError::Syntax { line, msg } => MapProblem { line, problem: msg },
    };
    let header = match super::powers::parse_header(text) {
        Ok(header) => header,
        Err(e) => return (vec![from_error(e)], None),
    };
    let (mut provs, aliases) = match parse_provinces(text, &header.powers) {
        Ok(found) => found,
        Err(e) => return (vec![from_error(e)], None),
    };
    if provs.is_empty() {
        return (
            vec![whole(
                "no provinces: a map declares each with a `prov` line".into(),
            )],
            None,
        );
    }
    let mut problems = name_problems(text, &provs, &aliases);
    let locs = match add_coasts(text, &mut provs) {
        Ok(locs) => locs,
        Err(e) => {
            problems.push(from_error(e));
            return (problems, None);
        }
    };
    problems.extend(coast_problems(&provs, &locs).into_iter().map(whole));
    if locs.len() > MAX_LOCS {
        problems.push(whole(format!(
            "{} provinces and coasts: a map has at most {MAX_LOCS}",
            locs.len()
        )));
        return (problems, None);
    }
    let (army_adj, fleet_adj) = match parse_edges(text, &provs, &locs) {
        Ok(edges) => edges,
        Err(e) => {
            problems.push(from_error(e));
            return (problems, None);
        }
    };
    let edge_problems = army_edge_problems(&provs, &army_adj)
        .into_iter()
        .chain(fleet_edge_problems(&provs, &locs, &fleet_adj))
        .chain(isolation_problems(&provs, &locs, &army_adj, &fleet_adj))
        .chain(reach_problems(&provs, &locs, &army_adj, &fleet_adj));
    problems.extend(edge_problems.map(whole));
    if !problems.is_empty() {
        return (problems, None);
    }
    match Map::parse(text) {
        Ok(map) => (problems, Some(map)),
        Err(e) => (vec![from_error(e)], None),
    }
}

/// Abbreviations declared twice, and names (full names, abbreviations,
/// aliases) that would mean two provinces to the order parser.
fn name_problems(text: &str, provs: &[Province], aliases: &[Alias]) -> Vec<MapProblem> {
    // The `prov` lines, in the order `parse_provinces` read them.
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim().starts_with("prov "))
        .map(|(i, _)| i + 1)
        .collect();
    let mut problems = Vec::new();
    let mut names: Vec<(String, usize)> = Vec::new();
    for (i, p) in provs.iter().enumerate() {
        names.push((p.abbr.clone(), i));
        names.push((normalize(&p.name), i));
    }
    names.extend(aliases.iter().cloned());
    names.sort();
    names.dedup();
    for pair in names.windows(2) {
        let ((name, a), (other, b)) = (&pair[0], &pair[1]);
        if name == other {
            problems.push(MapProblem {
                line: lines.get(*b).copied().unwrap_or(0),
                problem: format!(
                    "the name {name:?} means both {} and {}: each name, abbreviation and alias may name one province",
                    provs[*a].abbr, provs[*b].abbr
                ),
            });
        }
    }
    problems
}

/// Split coasts on a province that is not coastal land, and a coast
/// declared twice.
fn coast_problems(provs: &[Province], locs: &[Location]) -> Vec<String> {
    let mut problems = Vec::new();
    for p in provs {
        if !p.coasts.is_empty() && p.terrain != Terrain::Coast {
            problems.push(format!(
                "{} has split coasts but is not `coast` terrain: only coastal land has coasts",
                p.abbr
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        for &l in &p.coasts {
            let abbr = locs[l as usize].abbr.as_str();
            if seen.contains(&abbr) {
                problems.push(format!("{abbr} is declared twice"));
            }
            seen.push(abbr);
        }
    }
    problems
}

/// Provinces no unit could enter or leave, and split coasts no fleet
/// could.
fn isolation_problems(
    provs: &[Province],
    locs: &[Location],
    army_adj: &[Bits],
    fleet_adj: &[Bits],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, p) in provs.iter().enumerate() {
        if p.terrain == Terrain::Impassable {
            continue;
        }
        let fleet_edges = locs
            .iter()
            .enumerate()
            .any(|(l, loc)| loc.prov as usize == i && fleet_adj[l] != 0);
        if army_adj[i] == 0 && !fleet_edges {
            problems.push(format!(
                "{} has no neighbour: give it `army` or `fleet` edges",
                p.abbr
            ));
        }
    }
    for (l, loc) in locs.iter().enumerate() {
        if loc.coast.is_some() && fleet_adj[l] == 0 {
            problems.push(format!(
                "{} has no fleet neighbour: a fleet there could never move (list it on `fleet` lines)",
                loc.abbr
            ));
        }
    }
    problems
}

/// Supply centres no unit could ever reach. A centre is reachable when a
/// path of army or fleet edges leads to it from some home centre: the
/// check follows both kinds of edge at every step, since convoys let an
/// army cross water; it does not ask whether some unit type can make the
/// whole trip alone.
fn reach_problems(
    provs: &[Province],
    locs: &[Location],
    army_adj: &[Bits],
    fleet_adj: &[Bits],
) -> Vec<String> {
    let homes: Bits = provs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.home.is_some())
        .fold(0, |bits, (i, _)| bits | 1u128 << i);
    if homes == 0 {
        return vec![
            "no home centres: mark each power's with its name in the centre field of its `prov` line (`prov par coast France Paris`)".into(),
        ];
    }
    let (_, prov_fleet_adj) = fleet_province_adjacency(provs, locs, fleet_adj);
    let mut reached = homes;
    let mut frontier = homes;
    while frontier != 0 {
        let mut next: Bits = 0;
        let mut b = frontier;
        while b != 0 {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            next |= army_adj[p] | prov_fleet_adj[p];
        }
        frontier = next & !reached;
        reached |= next;
    }
    provs
        .iter()
        .enumerate()
        .filter(|(i, p)| p.sc && reached >> i & 1 == 0)
        .map(|(_, p)| {
            format!(
                "the supply centre {} cannot be reached from any home centre: connect it with `army` or `fleet` edges",
                p.abbr
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: &str = include_str!("standard.txt");

    fn problems(text: &str) -> Vec<String> {
        check_map_rules(text)
            .0
            .into_iter()
            .map(|p| format!("{}: {}", p.line, p.problem))
            .collect()
    }

    #[test]
    fn the_standard_map_has_no_problem() {
        let (found, map) = check_map_rules(STANDARD);
        assert_eq!(found, vec![]);
        assert_eq!(map.unwrap().province_count(), 76, "75 and Switzerland");
    }

    #[test]
    fn an_edge_listed_one_way_is_named_with_both_lines() {
        let text = STANDARD.replace("army boh: gal mun", "army boh: mun");
        assert_ne!(text, STANDARD, "the edit applies");
        let found = problems(&text);
        assert_eq!(
            found,
            vec![
                "0: army edge gal-boh listed one way only: `army gal:` names boh, `army boh:` does not name gal"
            ],
            "{found:?}"
        );
    }

    #[test]
    fn a_coast_of_an_undeclared_province_names_its_line() {
        let text = format!("{STANDARD}\ncoasts xyz nc sc\n");
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("coasts of unknown province \"xyz\""),
            "{found:?}"
        );
        assert!(found[0].starts_with(&format!("{}:", text.lines().count())));
    }

    #[test]
    fn an_island_centre_is_unreachable() {
        let text = format!("{STANDARD}\nprov isl coast neutral Island\n");
        let found = problems(&text);
        assert_eq!(
            found,
            vec![
                "0: isl has no neighbour: give it `army` or `fleet` edges",
                "0: the supply centre isl cannot be reached from any home centre: connect it with `army` or `fleet` edges",
            ],
            "{found:?}"
        );
    }

    #[test]
    fn a_name_for_two_provinces_is_refused() {
        let text = STANDARD.replace(
            "prov eng sea - English Channel | ech, channel",
            "prov eng sea - English Channel | ech, channel, bre",
        );
        assert_ne!(text, STANDARD, "the edit applies");
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("\"bre\" means both bre and eng"),
            "{found:?}"
        );
    }
}
