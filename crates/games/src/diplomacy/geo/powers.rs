//! The game a map file sets up: its name, first year, victory count,
//! powers and starting units, and the variants played on the same board
//! (`map`, `start`, `victory`, `power`, `start-unit`, `variant` and
//! `variant-unit` lines). Starting units are `start-unit` because `unit`
//! is the geometry's line for where a unit is drawn, and one file may hold
//! both.

use super::{LocId, Location, MapError, Province, Terrain, normalize, syntax_error};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A power: its place in its map's power table (the `power` lines, in
/// order). Names, colours and home centres live in the [`super::Map`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Power(u8);

impl Power {
    /// The power at this place of its map's table (see [`super::Map::powers`]).
    pub fn new(index: u8) -> Power {
        Power(index)
    }

    /// Its place in the map's power table, for arrays sized by
    /// [`super::Map::power_count`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Saved as its number. Games saved before maps were data wrote the
/// standard map's power names; those still load, through the standard
/// map's table, whose order is the one the old enum had.
impl Serialize for Power {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Power {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Power, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Saved {
            Number(u8),
            Name(String),
        }
        match Saved::deserialize(d)? {
            Saved::Number(n) => Ok(Power(n)),
            Saved::Name(name) => super::Map::standard()
                .power_table()
                .iter()
                .position(|p| p.name == name)
                .map(|i| Power(i as u8))
                .ok_or_else(|| {
                    serde::de::Error::custom(format!("unknown power {name:?} in a saved game"))
                }),
        }
    }
}

/// One power of a map: a `power <Name> <#unit> [<#tint> [<#text>]] [| aliases]` line.
#[derive(Debug, Clone)]
pub struct PowerInfo {
    /// Its name as players read it (`Austria`, `Rome`).
    pub name: String,
    /// The colour of its units on the map (`#d55e00`).
    pub colour: String,
    /// The lighter colour of its centres and home provinces.
    pub tint: String,
    /// The colour of text written on its units (black or white).
    pub text: String,
    /// Other names players type for it, normalised (`austria hungary`).
    pub aliases: Vec<String>,
}

/// A unit on the board when a game starts: a `start-unit <Power> <army|fleet> <loc>` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartingUnit {
    /// Whose unit it is.
    pub power: Power,
    /// A fleet (else an army).
    pub fleet: bool,
    /// Where it stands.
    pub loc: LocId,
}

/// Another game on the same board: a `variant <id> <Power>,<Power>... <title>`
/// line and its `variant-unit <id> ...` lines.
#[derive(Debug, Clone)]
pub struct MapVariant {
    /// What `variant=` names it by (`fva`).
    pub id: String,
    /// What players read (`France vs Austria`).
    pub title: String,
    /// The powers it seats, in seat order.
    pub powers: Vec<Power>,
    /// Its own starting units; empty: its powers' usual ones.
    pub units: Vec<StartingUnit>,
}

/// The `map`, `start`, `victory` and `power` lines of a map file.
#[derive(Debug, Clone)]
pub(super) struct Header {
    pub id: String,
    pub title: String,
    pub start_year: u16,
    /// `None`: more than half of the centres.
    pub victory_centres: Option<u32>,
    pub powers: Vec<PowerInfo>,
}

/// The most powers a map may have (a game seats one player per power).
pub const MAX_POWERS: usize = 16;

/// The most variants a map file may declare.
pub const MAX_VARIANTS: usize = 32;

/// The year a map starts in when it has no `start` line.
pub const DEFAULT_START_YEAR: u16 = 1901;

/// Reads the header lines. Every map needs a `map` line and two or more
/// `power` lines; `start` and `victory` are optional.
pub(super) fn parse_header(text: &str) -> Result<Header, MapError> {
    let mut id_title: Option<(String, String)> = None;
    let mut start_year = None;
    let mut victory_centres = None;
    let mut powers: Vec<PowerInfo> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let (kind, rest) = split_kind(raw);
        match kind {
            "map" => {
                if id_title.is_some() {
                    return Err(syntax_error(
                        line,
                        "a second `map` line: a file describes one map".into(),
                    ));
                }
                id_title = Some(parse_map_line(line, rest)?);
            }
            "start" => start_year = Some(parse_number(line, "start", rest, 1, 9999)? as u16),
            "victory" => victory_centres = Some(parse_number(line, "victory", rest, 1, 128)?),
            "power" => {
                // Counted as they come, so a file of a million power lines
                // stops at the 17th instead of comparing every pair.
                if powers.len() == MAX_POWERS {
                    return Err(syntax_error(
                        line,
                        format!("more than {MAX_POWERS} powers: a map has at most {MAX_POWERS}"),
                    ));
                }
                let info = parse_power_line(line, rest)?;
                if powers
                    .iter()
                    .any(|p| p.name.eq_ignore_ascii_case(&info.name))
                {
                    return Err(syntax_error(
                        line,
                        format!("the power {} is declared twice", info.name),
                    ));
                }
                powers.push(info);
            }
            _ => {}
        }
    }
    let Some((id, title)) = id_title else {
        return Err(syntax_error(
            0,
            "no `map` line: start the file with `map <id> <title>`, as `map ancient_med Ancient Mediterranean`".into(),
        ));
    };
    if powers.len() < 2 {
        return Err(syntax_error(
            0,
            format!(
                "{} `power` lines: a map has two or more, as `power France #56b4e9`",
                powers.len()
            ),
        ));
    }
    Ok(Header {
        id,
        title,
        start_year: start_year.unwrap_or(DEFAULT_START_YEAR),
        victory_centres,
        powers,
    })
}

/// The first word of a line and the rest (comments and blank lines give "").
fn split_kind(raw: &str) -> (&str, &str) {
    let line = raw.trim();
    if line.starts_with('#') {
        return ("", "");
    }
    match line.split_once(char::is_whitespace) {
        Some((kind, rest)) => (kind, rest.trim()),
        None => (line, ""),
    }
}

/// `map <id> <title>`: an id of lower-case letters, digits, `_` and `-`.
fn parse_map_line(line: usize, rest: &str) -> Result<(String, String), MapError> {
    let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let good_id = !id.is_empty()
        && id.len() <= 32
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !good_id {
        return Err(syntax_error(
            line,
            format!(
                "the map id {:?} should be 1 to 32 lower-case letters, digits, `_` or `-`, as `ancient_med`",
                crate::clip::clip_typed(id)
            ),
        ));
    }
    let title = title.trim();
    if title.is_empty() {
        return Err(syntax_error(
            line,
            "the `map` line needs a title after the id".into(),
        ));
    }
    Ok((id.to_string(), crate::clip::clip_typed(title)))
}

fn parse_number(line: usize, kind: &str, rest: &str, low: u32, high: u32) -> Result<u32, MapError> {
    rest.parse::<u32>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| {
            syntax_error(
                line,
                format!(
                    "`{kind}` takes a whole number from {low} to {high}, not {:?}",
                    crate::clip::clip_typed(rest)
                ),
            )
        })
}

/// `power <Name> <#unit> [<#tint> [<#text>]] [| alias, alias]`.
fn parse_power_line(line: usize, rest: &str) -> Result<PowerInfo, MapError> {
    let (main, alias_part) = rest.split_once('|').unwrap_or((rest, ""));
    let mut words = main.split_whitespace();
    let name = words.next().unwrap_or("");
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '-') || name.len() > 24
    {
        return Err(syntax_error(
            line,
            format!(
                "the power name {:?} should be one word of letters (up to 24), as `power France #56b4e9`",
                crate::clip::clip_typed(name)
            ),
        ));
    }
    let colours: Vec<&str> = words.collect();
    for c in &colours {
        if !is_colour(c) {
            return Err(syntax_error(
                line,
                format!(
                    "{:?} is not a colour: write it as #rrggbb, as #56b4e9",
                    crate::clip::clip_typed(c)
                ),
            ));
        }
    }
    let Some(colour) = colours.first() else {
        return Err(syntax_error(
            line,
            format!("the power {name} needs a colour for its units, as `power {name} #56b4e9`"),
        ));
    };
    if colours.len() > 3 {
        return Err(syntax_error(
            line,
            "a `power` line has at most three colours: units, centres, text on units".into(),
        ));
    }
    let rgb = parse_rgb(colour);
    let tint = colours
        .get(1)
        .map(|c| c.to_string())
        .unwrap_or_else(|| tint_of(rgb));
    let text = colours
        .get(2)
        .map(|c| c.to_string())
        .unwrap_or_else(|| text_colour_on(rgb));
    let aliases = alias_part
        .split(',')
        .map(normalize)
        .filter(|a| !a.is_empty())
        .collect();
    Ok(PowerInfo {
        name: name.to_string(),
        colour: colour.to_string(),
        tint,
        text,
        aliases,
    })
}

fn is_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn parse_rgb(s: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0);
    [byte(1), byte(3), byte(5)]
}

/// The colour two thirds of the way from `rgb` to white, for centres.
fn tint_of(rgb: [u8; 3]) -> String {
    let mix = |c: u8| c as u32 + (255 - c as u32) * 2 / 3;
    format!("#{:02x}{:02x}{:02x}", mix(rgb[0]), mix(rgb[1]), mix(rgb[2]))
}

/// Black on light colours, white on dark ones (by perceived brightness,
/// ITU-R BT.601 weights, as most colour pickers judge it).
fn text_colour_on(rgb: [u8; 3]) -> String {
    let brightness = 299 * rgb[0] as u32 + 587 * rgb[1] as u32 + 114 * rgb[2] as u32;
    if brightness > 150_000 {
        "#000000"
    } else {
        "#ffffff"
    }
    .to_string()
}

/// A power named on a line: by its name or an alias, in any case.
pub(super) fn find_power(powers: &[PowerInfo], word: &str) -> Option<Power> {
    let n = normalize(word);
    powers
        .iter()
        .position(|p| normalize(&p.name) == n || p.aliases.contains(&n))
        .map(|i| Power(i as u8))
}

/// "France, Austria or Italy", for messages.
pub(super) fn power_list(powers: &[PowerInfo]) -> String {
    powers
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `start-unit` lines (the full game's starting units).
pub(super) fn parse_units(
    text: &str,
    powers: &[PowerInfo],
    provs: &[Province],
    locs: &[Location],
) -> Result<Vec<StartingUnit>, MapError> {
    let mut units = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let (kind, rest) = split_kind(raw);
        if kind == "start-unit" {
            units.push(parse_unit(i + 1, rest, powers, provs, locs)?);
            if units.len() > provs.len() {
                return Err(syntax_error(
                    i + 1,
                    format!(
                        "more starting units than the map's {} provinces",
                        provs.len()
                    ),
                ));
            }
        }
    }
    check_one_per_province(&units, locs, 0)?;
    Ok(units)
}

/// `<Power> <army|fleet> <loc>`, standing where its kind may stand.
fn parse_unit(
    line: usize,
    rest: &str,
    powers: &[PowerInfo],
    provs: &[Province],
    locs: &[Location],
) -> Result<StartingUnit, MapError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [who, kind, at] = words[..] else {
        return Err(syntax_error(
            line,
            "a starting unit is written `<Power> <army|fleet> <place>`, as `start-unit France fleet bre`".into(),
        ));
    };
    let power = find_power(powers, who).ok_or_else(|| {
        syntax_error(
            line,
            format!(
                "unknown power {:?}: the powers are {}",
                crate::clip::clip_typed(who),
                power_list(powers)
            ),
        )
    })?;
    let fleet = match kind {
        "army" | "a" | "A" => false,
        "fleet" | "f" | "F" => true,
        _ => {
            return Err(syntax_error(
                line,
                format!(
                    "{:?} is not a unit type: write `army` or `fleet`",
                    crate::clip::clip_typed(kind)
                ),
            ));
        }
    };
    let loc = locs.iter().position(|l| l.abbr == at).ok_or_else(|| {
        syntax_error(
            line,
            format!("unknown place {:?}", crate::clip::clip_typed(at)),
        )
    })?;
    let prov = &provs[locs[loc].prov as usize];
    let fits = match (fleet, prov.terrain) {
        (_, Terrain::Impassable) => false,
        (false, t) => t != Terrain::Sea,
        (true, Terrain::Land) => false,
        (true, _) => prov.coasts.is_empty() || locs[loc].coast.is_some(),
    };
    if !fits {
        let why = if fleet && !prov.coasts.is_empty() {
            format!(
                "a fleet in {at} stands on one of its coasts, as {}",
                locs[prov.coasts[0] as usize].abbr
            )
        } else if fleet {
            format!("a fleet cannot stand in {at}, which is inland")
        } else {
            format!("an army cannot stand in {at}")
        };
        return Err(syntax_error(line, why));
    }
    Ok(StartingUnit {
        power,
        fleet,
        loc: loc as LocId,
    })
}

/// Two units may not start in one province.
fn check_one_per_province(
    units: &[StartingUnit],
    locs: &[Location],
    line: usize,
) -> Result<(), MapError> {
    for (i, a) in units.iter().enumerate() {
        if let Some(b) = units[..i]
            .iter()
            .find(|b| locs[b.loc as usize].prov == locs[a.loc as usize].prov)
        {
            return Err(syntax_error(
                line,
                format!(
                    "two starting units in one province: {} and {}",
                    locs[b.loc as usize].abbr, locs[a.loc as usize].abbr
                ),
            ));
        }
    }
    Ok(())
}

/// The `variant` and `variant-unit` lines.
pub(super) fn parse_variants(
    text: &str,
    powers: &[PowerInfo],
    provs: &[Province],
    locs: &[Location],
) -> Result<Vec<MapVariant>, MapError> {
    let mut variants: Vec<MapVariant> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let (kind, rest) = split_kind(raw);
        match kind {
            "variant" => {
                if variants.len() == MAX_VARIANTS {
                    return Err(syntax_error(
                        line,
                        format!(
                            "more than {MAX_VARIANTS} variants: a map has at most {MAX_VARIANTS}"
                        ),
                    ));
                }
                let v = parse_variant_line(line, rest, powers)?;
                if variants.iter().any(|o| o.id == v.id) {
                    return Err(syntax_error(
                        line,
                        format!("the variant {} is declared twice", v.id),
                    ));
                }
                variants.push(v);
            }
            "variant-unit" => {
                let (id, unit) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let unit = parse_unit(line, unit.trim(), powers, provs, locs)?;
                let Some(v) = variants.iter_mut().find(|v| v.id == id) else {
                    return Err(syntax_error(
                        line,
                        format!(
                            "`variant-unit {}` comes before (or without) its `variant {}` line",
                            crate::clip::clip_typed(id),
                            crate::clip::clip_typed(id)
                        ),
                    ));
                };
                if v.units.len() == provs.len() {
                    return Err(syntax_error(
                        line,
                        format!(
                            "more starting units in the variant {id} than the map's {} provinces",
                            provs.len()
                        ),
                    ));
                }
                if !v.powers.contains(&unit.power) {
                    return Err(syntax_error(
                        line,
                        format!(
                            "{} does not play in the variant {id}",
                            powers[unit.power.index()].name
                        ),
                    ));
                }
                v.units.push(unit);
            }
            _ => {}
        }
    }
    for v in &variants {
        check_one_per_province(&v.units, locs, 0)?;
    }
    Ok(variants)
}

/// `variant <id> <Power>,<Power>... <title>`.
fn parse_variant_line(
    line: usize,
    rest: &str,
    powers: &[PowerInfo],
) -> Result<MapVariant, MapError> {
    let mut words = rest.splitn(3, char::is_whitespace);
    let id = words.next().unwrap_or("");
    let list = words.next().unwrap_or("");
    let title = words.next().unwrap_or("").trim();
    if id.is_empty() || list.is_empty() || title.is_empty() {
        return Err(syntax_error(
            line,
            "a variant is written `variant <id> <Power>,<Power> <title>`, as `variant fva France,Austria France vs Austria`".into(),
        ));
    }
    let mut chosen = Vec::new();
    for word in list.split(',').filter(|w| !w.is_empty()) {
        let p = find_power(powers, word).ok_or_else(|| {
            syntax_error(
                line,
                format!(
                    "unknown power {:?} in the variant {id}: the powers are {}",
                    crate::clip::clip_typed(word),
                    power_list(powers)
                ),
            )
        })?;
        if chosen.contains(&p) {
            return Err(syntax_error(
                line,
                format!("the variant {id} names {word} twice"),
            ));
        }
        chosen.push(p);
    }
    if chosen.len() < 2 {
        return Err(syntax_error(
            line,
            format!("the variant {id} needs two or more powers"),
        ));
    }
    let good_id = id.len() <= 32
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !good_id || id == "classic" || id == "fog" {
        return Err(syntax_error(
            line,
            format!(
                "the variant id {:?} should be 1 to 32 lower-case letters, digits, `_` or `-`, \
                 and not `classic` or `fog` (every map has those), as `fva`",
                crate::clip::clip_typed(id)
            ),
        ));
    }
    Ok(MapVariant {
        id: id.to_string(),
        title: crate::clip::clip_typed(title),
        powers: chosen,
        units: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_default_to_a_tint_and_readable_text() {
        let p = parse_power_line(1, "Rome #b22222").unwrap();
        assert_eq!((p.colour.as_str(), p.text.as_str()), ("#b22222", "#ffffff"));
        assert_eq!(p.tint, "#e5b5b5");
        let p = parse_power_line(1, "Egypt #f0e442 | misr, kemet").unwrap();
        assert_eq!(p.text, "#000000");
        assert_eq!(p.aliases, ["misr", "kemet"]);
        let p = parse_power_line(1, "France #56b4e9 #cbe8f8 #000000").unwrap();
        assert_eq!(p.tint, "#cbe8f8");
    }

    #[test]
    fn bad_header_lines_say_what_would_be_right() {
        let e = |t: &str| parse_header(t).unwrap_err().to_string();
        assert!(e("power A #000000\npower B #ffffff").contains("no `map` line"));
        assert!(e("map Big Map\npower A #000000\npower B #ffffff").contains("lower-case"));
        assert!(e("map m M\npower A #000000").contains("1 `power` lines"));
        assert!(e("map m M\npower A red\npower B #ffffff").contains("not a colour"));
        assert!(e("map m M\npower A #000000\npower a #ffffff").contains("declared twice"));
        assert!(e("map m M\nstart 0\npower A #000000\npower B #ffffff").contains("from 1 to 9999"));
        let many: String = (0..1_000_000)
            .map(|i| format!("power P{i} #000000\n"))
            .collect();
        assert!(e(&format!("map m M\n{many}")).contains("more than 16 powers"));
        let long = "x".repeat(100_000);
        let msg = e(&format!("map m M\npower {long} #000000"));
        assert!(msg.len() < 200, "{}", msg.len());
    }

    #[test]
    fn old_saved_names_load_as_the_standard_table() {
        let p: Vec<Power> = serde_json::from_str(r#"["Austria", "Turkey", 2]"#).unwrap();
        assert_eq!(p, [Power(0), Power(6), Power(2)]);
        assert_eq!(serde_json::to_string(&p).unwrap(), "[0,6,2]");
        assert!(serde_json::from_str::<Power>(r#""Prussia""#).is_err());
    }
}
