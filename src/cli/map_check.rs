//! `gamehost diplomacy check-map FILE...`: checks a Diplomacy map an
//! organiser brings (its rules and the geometry its image is drawn from)
//! and prints every problem found, each with its file and line.

use crate::operator_maps::{BOARD_LINE_KINDS, line_kind, lines_of_kinds};
use games::diplomacy::geo::{Map, MapProblem, RULE_LINE_KINDS, check_map_rules};
use render::diplomacy_board::Board;
use std::io::Write;
use std::path::PathBuf;

/// The largest map file read, as for installed maps.
pub const MAX_MAP_FILE_BYTES: usize = crate::operator_maps::MAX_MAP_FILE_BYTES as usize;

/// The files of one map, read whole: where each file's lines start in the
/// lines of all of them together.
struct MapFiles {
    /// (file, the global number of its first line).
    starts: Vec<(PathBuf, usize)>,
    /// Every line of every file, in order.
    lines: Vec<String>,
}

impl MapFiles {
    /// Reads every file, refusing a missing, unreadable, huge or non-UTF-8 one.
    fn read(files: &[PathBuf]) -> anyhow::Result<MapFiles> {
        let mut starts = Vec::new();
        let mut lines = Vec::new();
        for path in files {
            let shown = path.display();
            let mut file = std::fs::File::open(path)
                .map_err(|e| anyhow::anyhow!("cannot open the map file {shown}: {e}"))?;
            let bytes = host::limits::read_all_capped(&mut file, MAX_MAP_FILE_BYTES)
                .map_err(|e| anyhow::anyhow!("cannot read the map file {shown}: {e}"))?
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "the map file {shown} is larger than {MAX_MAP_FILE_BYTES} bytes; a map's rules and geometry are text of a few hundred kB"
                    )
                })?;
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("the map file {shown} is not UTF-8 text"))?;
            starts.push((path.clone(), lines.len() + 1));
            lines.extend(text.lines().map(str::to_string));
        }
        Ok(MapFiles { starts, lines })
    }

    /// `file:line` of a global line number (`map` for the map as a whole).
    fn place(&self, line: usize) -> String {
        match self.starts.iter().rev().find(|(_, start)| *start <= line) {
            Some((path, start)) if line > 0 => format!("{}:{}", path.display(), line - start + 1),
            _ => "map".to_string(),
        }
    }

    /// The text of the lines whose kind is in `kinds`, the others left
    /// empty so that line numbers stay those of all files together.
    fn lines_of_kinds(&self, kinds: &[&str]) -> String {
        lines_of_kinds(self.lines.iter().map(String::as_str), kinds)
    }

    /// Lines that are neither rules, nor geometry, nor a comment.
    fn unknown_lines(&self) -> Vec<MapProblem> {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                let kind = line_kind(l);
                !kind.is_empty() && !RULE_LINE_KINDS.contains(&kind) && !BOARD_LINE_KINDS.contains(&kind)
            })
            .map(|(i, l)| MapProblem {
                line: i + 1,
                problem: format!(
                    "unknown line kind {:?}: expected one of {} (rules) or {} (geometry), or a `#` comment",
                    line_kind(l),
                    RULE_LINE_KINDS.join(", "),
                    BOARD_LINE_KINDS.join(", ")
                ),
            })
            .collect()
    }
}

/// Checks the map made of `files` together; prints every problem, or a
/// summary of the valid map. Fails when a problem was found.
pub fn run(files: &[PathBuf], out: &mut impl Write) -> anyhow::Result<()> {
    let map_files = MapFiles::read(files)?;
    let mut problems = map_files.unknown_lines();
    let (rule_problems, map) = check_map_rules(&map_files.lines_of_kinds(&RULE_LINE_KINDS));
    problems.extend(rule_problems);
    // The board keeps a `&'static` map, as the bot's do; this command
    // checks one map and exits, so keeping it for the process costs nothing.
    let map: Option<&'static Map> = map.map(|m| &*Box::leak(Box::new(m)));
    let board = map
        .as_ref()
        .and_then(|map| check_board(&map_files, map, &mut problems));
    if !problems.is_empty() {
        for p in &problems {
            writeln!(out, "{}: {}", map_files.place(p.line), p.problem)?;
        }
        anyhow::bail!(
            "{} problem{} in the map",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        );
    }
    if let (Some(map), Some(board)) = (map, board) {
        writeln!(out, "{}", summary(map, &board))?;
    }
    Ok(())
}

/// The geometry's problems (added to `problems`), and the board when it
/// has none.
fn check_board(
    map_files: &MapFiles,
    map: &'static Map,
    problems: &mut Vec<MapProblem>,
) -> Option<Board> {
    let text = map_files.lines_of_kinds(&BOARD_LINE_KINDS);
    if text.trim().is_empty() {
        problems.push(MapProblem {
            line: 0,
            problem: "no geometry: the map image needs `canvas`, `region`, `unit`, `label`, `sc` and `dislodged` lines (give the file that holds them too)".into(),
        });
        return None;
    }
    match Board::parse(&text, map) {
        Ok(board) => {
            let stray = board.stray_unit_points(map);
            problems.extend(
                stray
                    .into_iter()
                    .map(|problem| MapProblem { line: 0, problem }),
            );
            Some(board)
        }
        Err(e) => {
            problems.push(MapProblem {
                line: e.line,
                problem: format!("{} (expected {})", e.problem, e.expected),
            });
            None
        }
    }
}

/// What a valid map holds, in one sentence.
fn summary(map: &Map, board: &Board) -> String {
    let centres = map.supply_centres().count();
    let homes = map.provinces().iter().filter(|p| p.home.is_some()).count();
    let variants: Vec<&str> = map.variants().iter().map(|v| v.id.as_str()).collect();
    let variants = if variants.is_empty() {
        String::new()
    } else {
        format!(", variants {}", variants.join(", "))
    };
    format!(
        "The map `{}` ({}) is valid: {} powers ({}), {} starting units, first year {}, {} centres to win{variants}; {} provinces ({centres} supply centres, {homes} of them home centres), {} places a unit can stand, {} army and {} fleet edges; a {}×{} board of {} regions.",
        map.id(),
        map.title(),
        map.power_count(),
        map.power_names(),
        map.starting_units().len(),
        map.start_year(),
        map.victory_centres(),
        map.province_count(),
        map.location_count(),
        map.army_edge_count(),
        map.fleet_edge_count(),
        board.size.0,
        board.size.1,
        board.regions.len()
    )
}
