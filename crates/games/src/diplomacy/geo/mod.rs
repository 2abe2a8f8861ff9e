//! The map: provinces, coasts and adjacency, loaded from a data file.
//!
//! Ids are dense: province `p` is `0..provinces`, and location ids start with
//! one "main" location per province (same number as the province) followed
//! by the split coasts. Adjacency is stored as 128-bit sets so that the
//! adjudicator's neighbour tests are a single AND.

mod check;
mod powers;
mod registry;

pub use check::{MapProblem, RULE_LINE_KINDS, check_map_rules};
pub use powers::{DEFAULT_START_YEAR, MAX_POWERS, MapVariant, Power, PowerInfo, StartingUnit};
pub use registry::{
    InstallError, MapCache, MapRef, bundled_maps, find_map, install_map, installed_maps,
};
use serde::{Deserialize, Serialize};

/// A province id (dense, `0..Map::province_count()`).
pub type ProvId = u8;
/// A location id: a province's main location (same number) or a split coast.
pub type LocId = u8;
/// A set of provinces or locations, one bit per id.
pub type Bits = u128;

/// The largest number of provinces plus coasts a map may have (bitset width).
pub const MAX_LOCS: usize = 128;

/// What kind of terrain a province is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    /// Open sea: fleets only.
    Sea,
    /// Inland: armies only.
    Land,
    /// Coastal land: armies and fleets.
    Coast,
    /// No unit may enter (Switzerland).
    Impassable,
}

/// A split coast of a province.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Coast {
    /// North coast.
    North,
    /// South coast.
    South,
    /// East coast.
    East,
    /// West coast.
    West,
}

impl Coast {
    /// The two-letter abbreviation (`nc`, `sc`, `ec`, `wc`).
    pub fn abbr(self) -> &'static str {
        match self {
            Coast::North => "nc",
            Coast::South => "sc",
            Coast::East => "ec",
            Coast::West => "wc",
        }
    }

    /// The long name ("north coast").
    pub fn long(self) -> &'static str {
        match self {
            Coast::North => "north coast",
            Coast::South => "south coast",
            Coast::East => "east coast",
            Coast::West => "west coast",
        }
    }

    /// Parses a coast abbreviation or word (`nc`, `north`, `n`, ...).
    pub fn parse(s: &str) -> Option<Coast> {
        Some(match s {
            "nc" | "ncs" | "north" | "n" | "nth" => Coast::North,
            "sc" | "scs" | "south" | "s" | "sth" => Coast::South,
            "ec" | "ecs" | "east" | "e" => Coast::East,
            "wc" | "wcs" | "west" | "w" => Coast::West,
            _ => return None,
        })
    }
}

/// One province of the map.
#[derive(Debug, Clone)]
pub struct Province {
    /// Three-letter abbreviation (`par`).
    pub abbr: String,
    /// Full English name (`Paris`).
    pub name: String,
    /// Sea, inland, coastal or impassable.
    pub terrain: Terrain,
    /// Whether it is a supply centre.
    pub sc: bool,
    /// The power whose home centre it is.
    pub home: Option<Power>,
    /// Split-coast locations (empty for most provinces).
    pub coasts: Vec<LocId>,
}

/// One place a unit can stand: a province or one coast of it.
#[derive(Debug, Clone)]
pub struct Location {
    /// The province it belongs to.
    pub prov: ProvId,
    /// The coast, for split-coast locations.
    pub coast: Option<Coast>,
    /// Canonical short text (`par`, `spa/nc`).
    pub abbr: String,
}

/// Why the map data file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// A line did not have the expected shape.
    #[error("map line {line}: {msg}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        msg: String,
    },
}

/// The map: its powers and the game it starts, provinces, locations,
/// adjacency and the name index used by the parser.
#[derive(Debug, Clone)]
pub struct Map {
    id: String,
    title: String,
    start_year: u16,
    victory_centres: u32,
    powers: Vec<PowerInfo>,
    starting_units: Vec<StartingUnit>,
    variants: Vec<MapVariant>,
    provs: Vec<Province>,
    locs: Vec<Location>,
    army_adj: Vec<Bits>,
    fleet_adj: Vec<Bits>,
    fleet_prov_adj: Vec<Bits>,
    prov_fleet_adj: Vec<Bits>,
    /// (normalised name, location) sorted by name, for parsing.
    names: Vec<(String, LocId)>,
    longest_name_words: usize,
}

/// Normalises a name for lookup: lower case, `-` `.` `'` become spaces/removed,
/// runs of spaces collapse.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = c.to_ascii_lowercase();
        match c {
            '.' | '\'' => {}
            '-' | '_' | ' ' | '\t' => {
                if !out.ends_with(' ') && !out.is_empty() {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

impl Map {
    /// The standard map, parsed once from `geo/standard.txt`.
    pub fn standard() -> &'static Map {
        registry::standard()
    }

    /// Parses a map in the `standard.txt` format.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        // Passes over the text (powers, provinces, coasts, edges, units),
        // because a line may name a place declared further down.
        let header = powers::parse_header(text)?;
        let (mut provs, aliases) = parse_provinces(text, &header.powers)?;
        let locs = add_coasts(text, &mut provs)?;
        if locs.len() > MAX_LOCS {
            return Err(syntax_error(
                0,
                format!("too many locations ({})", locs.len()),
            ));
        }
        let (army_adj, fleet_adj) = parse_edges(text, &provs, &locs)?;
        let mut problems = army_edge_problems(&provs, &army_adj);
        problems.extend(fleet_edge_problems(&provs, &locs, &fleet_adj));
        if let Some(first) = problems.into_iter().next() {
            return Err(syntax_error(0, first));
        }
        let (fleet_prov_adj, prov_fleet_adj) = fleet_province_adjacency(&provs, &locs, &fleet_adj);
        let starting_units = powers::parse_units(text, &header.powers, &provs, &locs)?;
        let variants = powers::parse_variants(text, &header.powers, &provs, &locs)?;
        let names = name_index(&provs, aliases);
        let longest_name_words = names
            .iter()
            .map(|(n, _)| n.split(' ').count())
            .max()
            .unwrap_or(1);
        let centres = provs.iter().filter(|p| p.sc).count() as u32;
        let victory_centres = header.victory_centres.unwrap_or(centres / 2 + 1);
        if victory_centres > centres {
            return Err(syntax_error(
                0,
                format!(
                    "`victory {victory_centres}` asks for more centres than the map's {centres}"
                ),
            ));
        }
        Ok(Map {
            id: header.id,
            title: header.title,
            start_year: header.start_year,
            victory_centres,
            powers: header.powers,
            starting_units,
            variants,
            provs,
            locs,
            army_adj,
            fleet_adj,
            fleet_prov_adj,
            prov_fleet_adj,
            names,
            longest_name_words,
        })
    }

    /// The id `map=` names it by (`standard`, `ancient_med`).
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The title players read (`Ancient Mediterranean`).
    pub fn title(&self) -> &str {
        &self.title
    }
    /// The year of the first Spring.
    pub fn start_year(&self) -> u16 {
        self.start_year
    }
    /// Centres a power needs for a solo win.
    pub fn victory_centres(&self) -> u32 {
        self.victory_centres
    }
    /// The number of powers in the map's table.
    pub fn power_count(&self) -> usize {
        self.powers.len()
    }
    /// Every power, in the table's order (the full game's seat order).
    pub fn powers(&self) -> impl Iterator<Item = Power> + '_ {
        (0..self.powers.len()).map(|i| Power::new(i as u8))
    }
    /// The power table itself.
    pub fn power_table(&self) -> &[PowerInfo] {
        &self.powers
    }
    /// A power's name, colours and aliases.
    pub fn power(&self, p: Power) -> &PowerInfo {
        &self.powers[p.index()]
    }
    /// A power's name (`France`); `?` for a power the map does not have.
    pub fn power_name(&self, p: Power) -> &str {
        self.powers.get(p.index()).map_or("?", |i| i.name.as_str())
    }
    /// The power a player means, in any case: its name, an alias, its
    /// first three letters, or its initial when no other power shares it.
    pub fn parse_power(&self, s: &str) -> Option<Power> {
        let n = normalize(s);
        if n.is_empty() {
            return None;
        }
        if let Some(p) = powers::find_power(&self.powers, &n) {
            return Some(p);
        }
        let starts = |len: usize| {
            let matching: Vec<usize> = (0..self.powers.len())
                .filter(|&i| {
                    let name = normalize(&self.powers[i].name);
                    n.len() == len && name.starts_with(&n)
                })
                .collect();
            match matching[..] {
                [only] => Some(Power::new(only as u8)),
                _ => None,
            }
        };
        starts(3).or_else(|| starts(1))
    }
    /// "Austria, England, ...": every power's name, for messages.
    pub fn power_names(&self) -> String {
        powers::power_list(&self.powers)
    }
    /// The full game's units in its first Spring.
    pub fn starting_units(&self) -> &[StartingUnit] {
        &self.starting_units
    }
    /// The other games on this board (`fva`, ...).
    pub fn variants(&self) -> &[MapVariant] {
        &self.variants
    }
    /// Number of provinces (including impassable ones).
    pub fn province_count(&self) -> usize {
        self.provs.len()
    }
    /// Number of locations (provinces plus split coasts).
    pub fn location_count(&self) -> usize {
        self.locs.len()
    }
    /// A province by id.
    pub fn prov(&self, p: ProvId) -> &Province {
        &self.provs[p as usize]
    }
    /// All provinces.
    pub fn provinces(&self) -> &[Province] {
        &self.provs
    }
    /// A location by id.
    pub fn loc(&self, l: LocId) -> &Location {
        &self.locs[l as usize]
    }
    /// The province of a location.
    pub fn prov_of(&self, l: LocId) -> ProvId {
        self.locs[l as usize].prov
    }
    /// The province whose abbreviation is `abbr`.
    pub fn prov_by_abbr(&self, abbr: &str) -> Option<ProvId> {
        self.provs
            .iter()
            .position(|p| p.abbr == abbr)
            .map(|i| i as ProvId)
    }
    /// The location written `abbr` or `abbr/coast` (as in `spa/nc`).
    pub fn loc_by_abbr(&self, s: &str) -> Option<LocId> {
        let s = s.trim().to_ascii_lowercase();
        self.locs
            .iter()
            .position(|l| l.abbr == s)
            .map(|i| i as LocId)
    }
    /// The coast location of a province, if it has that coast.
    pub fn coast_loc(&self, p: ProvId, c: Coast) -> Option<LocId> {
        self.provs[p as usize]
            .coasts
            .iter()
            .copied()
            .find(|&l| self.locs[l as usize].coast == Some(c))
    }
    /// Provinces an army at `p` can move to.
    pub fn army_adj(&self, p: ProvId) -> Bits {
        self.army_adj[p as usize]
    }
    /// Locations a fleet at `l` can move to.
    pub fn fleet_adj(&self, l: LocId) -> Bits {
        self.fleet_adj[l as usize]
    }
    /// Provinces a fleet at location `l` can reach.
    pub fn fleet_prov_adj(&self, l: LocId) -> Bits {
        self.fleet_prov_adj[l as usize]
    }
    /// Provinces a fleet could reach from any coast of province `p` (convoy routes).
    pub fn prov_fleet_adj(&self, p: ProvId) -> Bits {
        self.prov_fleet_adj[p as usize]
    }
    /// Whether a province is open sea.
    pub fn is_sea(&self, p: ProvId) -> bool {
        self.provs[p as usize].terrain == Terrain::Sea
    }
    /// The sorted name index (normalised name → location).
    pub fn names(&self) -> &[(String, LocId)] {
        &self.names
    }
    /// The most words any name has (bounds the parser's greedy match).
    pub fn longest_name_words(&self) -> usize {
        self.longest_name_words
    }
    /// Looks up a normalised name.
    pub fn lookup(&self, normalized: &str) -> Option<LocId> {
        self.names
            .binary_search_by(|(n, _)| n.as_str().cmp(normalized))
            .ok()
            .map(|i| self.names[i].1)
    }
    /// The supply centres.
    pub fn supply_centres(&self) -> impl Iterator<Item = ProvId> + '_ {
        self.provs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.sc)
            .map(|(i, _)| i as ProvId)
    }
    /// The home centres of a power.
    pub fn home_centres(&self, power: Power) -> impl Iterator<Item = ProvId> + '_ {
        self.provs
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.home == Some(power))
            .map(|(i, _)| i as ProvId)
    }
    /// Number of undirected army edges.
    pub fn army_edge_count(&self) -> usize {
        self.army_adj
            .iter()
            .map(|b| b.count_ones() as usize)
            .sum::<usize>()
            / 2
    }
    /// Number of undirected fleet edges (each coast a separate endpoint).
    pub fn fleet_edge_count(&self) -> usize {
        self.fleet_adj
            .iter()
            .map(|b| b.count_ones() as usize)
            .sum::<usize>()
            / 2
    }
    /// Shortest distances (in moves over any adjacency, army or fleet) from
    /// every province to the nearest province of `targets`; `u8::MAX` if unreachable.
    pub fn distances_to(&self, targets: Bits) -> Vec<u8> {
        let n = self.provs.len();
        let mut dist = vec![u8::MAX; n];
        let mut frontier = targets;
        let mut seen = targets;
        let mut d = 0u8;
        while frontier != 0 {
            let mut next = 0u128;
            let mut b = frontier;
            while b != 0 {
                let p = b.trailing_zeros() as usize;
                b &= b - 1;
                dist[p] = d;
                next |= self.army_adj[p] | self.prov_fleet_adj[p];
            }
            next &= !seen;
            seen |= next;
            frontier = next;
            d = d.saturating_add(1);
        }
        dist
    }
}

/// A power of the standard map by name, for tests.
#[cfg(test)]
pub(crate) fn std_power(name: &str) -> Power {
    Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}

/// Iterates the set bits of a bitset, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter(pub Bits);

impl Iterator for BitIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

fn syntax_error(line: usize, msg: String) -> MapError {
    MapError::Syntax { line, msg }
}

fn find_prov(provs: &[Province], s: &str) -> Option<usize> {
    provs.iter().position(|p| p.abbr == s)
}

/// An alternative name (normalised) and the index of the province it names.
type Alias = (String, usize);

/// First pass: the `prov` lines, as provinces and their aliases (normalised,
/// with the index of the province each names).
fn parse_provinces(
    text: &str,
    powers: &[PowerInfo],
) -> Result<(Vec<Province>, Vec<Alias>), MapError> {
    let err = syntax_error;
    let mut provs: Vec<Province> = Vec::new();
    let mut aliases: Vec<Alias> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let Some(rest) = line.strip_prefix("prov ") else {
            continue;
        };
        let (main, alias_part) = match rest.split_once('|') {
            Some((a, b)) => (a, Some(b)),
            None => (rest, None),
        };
        let mut it = main.split_whitespace();
        let abbr = it
            .next()
            .ok_or_else(|| err(i + 1, "missing abbreviation".into()))?;
        let terrain = match it.next() {
            Some("sea") => Terrain::Sea,
            Some("land") => Terrain::Land,
            Some("coast") => Terrain::Coast,
            Some("impassable") => Terrain::Impassable,
            other => return Err(err(i + 1, format!("bad terrain {other:?}"))),
        };
        let (sc, home) = match it.next() {
            Some("-") => (false, None),
            Some("neutral") => (true, None),
            Some(p) => (
                true,
                Some(powers::find_power(powers, p).ok_or_else(|| {
                    err(
                        i + 1,
                        format!(
                            "unknown power {:?} in the centre field: expected `-`, \
                             `neutral` or one of {}",
                            p.chars().take(40).collect::<String>(),
                            powers::power_list(powers)
                        ),
                    )
                })?),
            ),
            None => return Err(err(i + 1, "missing centre field".into())),
        };
        let name: Vec<&str> = it.collect();
        if name.is_empty() {
            return Err(err(i + 1, "missing full name".into()));
        }
        let idx = provs.len();
        if let Some(a) = alias_part {
            for al in a.split(',') {
                let al = al.trim();
                if !al.is_empty() {
                    aliases.push((normalize(al), idx));
                }
            }
        }
        provs.push(Province {
            abbr: abbr.to_string(),
            name: name.join(" "),
            terrain,
            sc,
            home,
            coasts: Vec::new(),
        });
    }
    Ok((provs, aliases))
}

/// Second pass: the locations, one per province and then one per split
/// coast of a `coasts` line (recorded in its province too).
fn add_coasts(text: &str, provs: &mut [Province]) -> Result<Vec<Location>, MapError> {
    let err = syntax_error;
    let mut locs: Vec<Location> = provs
        .iter()
        .enumerate()
        .map(|(i, p)| Location {
            prov: i as ProvId,
            coast: None,
            abbr: p.abbr.clone(),
        })
        .collect();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let Some(rest) = line.strip_prefix("coasts ") else {
            continue;
        };
        let mut it = rest.split_whitespace();
        let abbr = it.next().unwrap_or("");
        let p = find_prov(provs, abbr).ok_or_else(|| {
            err(
                i + 1,
                format!("coasts of unknown province {abbr:?}: declare it with a `prov` line"),
            )
        })?;
        for c in it {
            let coast = Coast::parse(c).ok_or_else(|| err(i + 1, format!("bad coast {c}")))?;
            let id = locs.len() as LocId;
            locs.push(Location {
                prov: p as ProvId,
                coast: Some(coast),
                abbr: format!("{abbr}/{}", coast.abbr()),
            });
            provs[p].coasts.push(id);
        }
    }
    Ok(locs)
}

/// Third pass: the `army` (province to province) and `fleet` (location to
/// location) edges, as one bit set per place.
fn parse_edges(
    text: &str,
    provs: &[Province],
    locs: &[Location],
) -> Result<(Vec<Bits>, Vec<Bits>), MapError> {
    let err = syntax_error;
    let find_loc = |s: &str| locs.iter().position(|l| l.abbr == s);
    // Why a place is unknown: a coast its province does not declare, or no
    // province at all.
    let unknown = |s: &str| match s.split_once('/') {
        Some((p, c)) if find_prov(provs, p).is_some() => {
            format!("unknown place {s}: {p} has no coast {c:?} (declare it on a `coasts {p}` line)")
        }
        _ => format!("unknown place {s}"),
    };
    let mut army_adj = vec![0u128; provs.len()];
    let mut fleet_adj = vec![0u128; locs.len()];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let (is_army, rest) = if let Some(r) = line.strip_prefix("army ") {
            (true, r)
        } else if let Some(r) = line.strip_prefix("fleet ") {
            (false, r)
        } else {
            continue;
        };
        let (from, tos) = rest
            .split_once(':')
            .ok_or_else(|| err(i + 1, "missing ':'".into()))?;
        let from = from.trim();
        let f = if is_army {
            find_prov(provs, from)
        } else {
            find_loc(from)
        }
        .ok_or_else(|| err(i + 1, unknown(from)))?;
        for to in tos.split_whitespace() {
            let t = if is_army {
                find_prov(provs, to)
            } else {
                find_loc(to)
            }
            .ok_or_else(|| err(i + 1, unknown(to)))?;
            if is_army {
                army_adj[f] |= 1u128 << t;
            } else {
                fleet_adj[f] |= 1u128 << t;
            }
        }
    }
    Ok((army_adj, fleet_adj))
}

/// Every army edge is listed both ways and leaves land: one sentence per
/// edge that is not (empty when all are).
fn army_edge_problems(provs: &[Province], army_adj: &[Bits]) -> Vec<String> {
    let mut problems = Vec::new();
    for a in 0..provs.len() {
        for b in 0..provs.len() {
            let ab = army_adj[a] >> b & 1 == 1;
            let ba = army_adj[b] >> a & 1 == 1;
            if ab && !ba {
                problems.push(format!(
                    "army edge {}-{} listed one way only: `army {}:` names {}, `army {}:` does not name {}",
                    provs[a].abbr, provs[b].abbr, provs[a].abbr, provs[b].abbr, provs[b].abbr, provs[a].abbr
                ));
            }
            if ab && (provs[a].terrain == Terrain::Sea || provs[a].terrain == Terrain::Impassable) {
                problems.push(format!(
                    "army edge {}-{} leaves {}, which is not land an army may stand on",
                    provs[a].abbr, provs[b].abbr, provs[a].abbr
                ));
            }
        }
    }
    problems
}

/// Every fleet edge is listed both ways, leaves water or a coast, and names
/// the coast of a province that has several: one sentence per edge that
/// does not (empty when all do).
fn fleet_edge_problems(provs: &[Province], locs: &[Location], fleet_adj: &[Bits]) -> Vec<String> {
    let mut problems = Vec::new();
    for a in 0..locs.len() {
        for b in 0..locs.len() {
            let ab = fleet_adj[a] >> b & 1 == 1;
            let ba = fleet_adj[b] >> a & 1 == 1;
            if ab && !ba {
                problems.push(format!(
                    "fleet edge {}-{} listed one way only: `fleet {}:` names {}, `fleet {}:` does not name {}",
                    locs[a].abbr, locs[b].abbr, locs[a].abbr, locs[b].abbr, locs[b].abbr, locs[a].abbr
                ));
            }
            let t = provs[locs[a].prov as usize].terrain;
            if ab && (t == Terrain::Land || t == Terrain::Impassable) {
                problems.push(format!(
                    "fleet edge {}-{} leaves {}, which is inland",
                    locs[a].abbr, locs[b].abbr, locs[a].abbr
                ));
            }
            if ab && !provs[locs[a].prov as usize].coasts.is_empty() && locs[a].coast.is_none() {
                problems.push(format!(
                    "fleet edge {}-{} must name a coast of {} (it has split coasts), as `{}`",
                    locs[a].abbr,
                    locs[b].abbr,
                    locs[a].abbr,
                    locs[provs[locs[a].prov as usize].coasts[0] as usize].abbr
                ));
            }
        }
    }
    problems
}

/// The fleet edges by province: per location, the provinces its fleet
/// reaches; per province, the provinces a fleet on any of its coasts reaches.
fn fleet_province_adjacency(
    provs: &[Province],
    locs: &[Location],
    fleet_adj: &[Bits],
) -> (Vec<Bits>, Vec<Bits>) {
    let loc_prov: Vec<ProvId> = locs.iter().map(|l| l.prov).collect();
    let to_provs = |bits: Bits| {
        let mut out = 0u128;
        let mut b = bits;
        while b != 0 {
            let l = b.trailing_zeros() as usize;
            b &= b - 1;
            out |= 1u128 << loc_prov[l];
        }
        out
    };
    let fleet_prov_adj: Vec<Bits> = fleet_adj.iter().map(|&b| to_provs(b)).collect();
    let mut prov_fleet_adj = vec![0u128; provs.len()];
    for (l, loc) in locs.iter().enumerate() {
        prov_fleet_adj[loc.prov as usize] |= fleet_prov_adj[l];
    }
    (fleet_prov_adj, prov_fleet_adj)
}

/// The name index, sorted: abbreviations, full names and aliases.
fn name_index(provs: &[Province], aliases: Vec<Alias>) -> Vec<(String, LocId)> {
    let mut names: Vec<(String, LocId)> = Vec::new();
    for (i, p) in provs.iter().enumerate() {
        names.push((p.abbr.clone(), i as LocId));
        names.push((normalize(&p.name), i as LocId));
    }
    for (a, i) in aliases {
        names.push((a, i as LocId));
    }
    names.sort();
    names.dedup();
    names
}
