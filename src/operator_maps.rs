//! Diplomacy maps an operator installs (`[diplomacy] maps` in the config):
//! each file holds a map's rules (the lines `gamehost diplomacy check-map`
//! calls rules) and the geometry its image is drawn from. They are read
//! once at start-up, like the battle roster; a game's creator can only
//! name a map by the id the operator installed (`map=`), never a file.

use crate::operator_file::read_bounded;
use games::diplomacy::geo::{InstallError, Map, RULE_LINE_KINDS, check_map_rules, install_map};
use std::path::Path;

/// The largest map file read (the standard board's rules and geometry
/// together are about 200 kB).
pub const MAX_MAP_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The line kinds of a map's geometry (see `assets/diplomacy/standard-map.txt`).
pub const BOARD_LINE_KINDS: [&str; 8] = [
    "canvas",
    "region",
    "hole",
    "unit",
    "label",
    "sc",
    "dislodged",
    "strait",
];

/// A line's first word, before any `#` comment ("" for a blank line).
pub fn line_kind(line: &str) -> &str {
    line.split('#')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("")
}

/// The lines of `lines` whose kind is in `kinds`, the others left empty so
/// that line numbers stay those of the whole text.
pub fn lines_of_kinds<'a>(lines: impl Iterator<Item = &'a str>, kinds: &[&str]) -> String {
    lines
        .map(|l| if kinds.contains(&line_kind(l)) { l } else { "" })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Installs one operator map file: its rules for new games (`map=<id>`)
/// and its geometry for their images. Installing the same file twice in
/// one process (`gamehost run` reads its config's maps for the deadline
/// check and again for the host) finds the first.
pub fn install_map_file(path: &Path) -> anyhow::Result<&'static Map> {
    let shown = path.display();
    let text = read_bounded(path, MAX_MAP_FILE_BYTES, "map file")?;
    let rules = lines_of_kinds(text.lines(), &RULE_LINE_KINDS);
    let geometry = lines_of_kinds(text.lines(), &BOARD_LINE_KINDS);
    if let (problems, None) = check_map_rules(&rules) {
        let first = problems
            .first()
            .map(|p| format!("line {}: {}", p.line, p.problem))
            .unwrap_or_default();
        anyhow::bail!(
            "map file {shown}: {} problem{} ({first}); run `gamehost diplomacy check-map {shown}` for all of them",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        );
    }
    if geometry.trim().is_empty() {
        anyhow::bail!(
            "map file {shown}: no geometry, so its games would have no map image; add the `canvas`, `region`, `unit`, `label`, `sc` and `dislodged` lines (see docs/games/diplomacy.md)"
        );
    }
    let map = install_map(&rules).map_err(|e| match e {
        InstallError::Taken(id) => anyhow::anyhow!(
            "map file {shown}: the id `{id}` is taken by another map; give this one another id on its `map` line"
        ),
        e => anyhow::anyhow!("map file {shown}: {e}"),
    })?;
    render::diplomacy::install_board(map, &geometry)
        .map_err(|e| anyhow::anyhow!("map file {shown}: {e}"))?;
    Ok(map)
}
