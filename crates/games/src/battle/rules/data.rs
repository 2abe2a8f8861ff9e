//! The rule set as data: types, the effectiveness table, alpha/beta, moves
//! and monsters, read from TOML and checked once at load time.
//!
//! The built-in roster (`roster.toml` next to this module's parent) is
//! compiled in; the operator can replace it with another file (the
//! `[battle] roster` config key), which the caller reads — this module never
//! touches the file system — and hands over as text. Every problem is
//! reported with the file, the entry and the reason (never the file's text),
//! so a bad edit fails at start-up rather than in the middle of a battle.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// The TOML text of the built-in rule set.
pub const BUILTIN_ROSTER: &str = include_str!("../roster.toml");

/// The label used in errors for the built-in rule set.
pub const BUILTIN_LABEL: &str = "<built-in roster.toml>";

/// Why a rule set could not be loaded: which file, which entry, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("roster file {file}, entry {entry}: {reason}")]
pub struct RosterError {
    /// The file (or `<built-in roster.toml>`).
    pub file: String,
    /// The entry at fault, e.g. `monster "Cindermaw"` or `rules.alpha`.
    pub entry: String,
    /// What is wrong with it and what is expected.
    pub reason: String,
}

/// What a move does.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MoveKind {
    /// Damage the opposing active monster: power `d`, accuracy `p`, type index.
    Attack {
        /// Power `d` (positive).
        power: u32,
        /// Accuracy `p` in [0, 1].
        accuracy: f64,
        /// Index into [`Roster::types`].
        ty: u8,
    },
    /// Recover `ratio` times the user's max HP.
    Heal {
        /// `r` in [0, 1].
        ratio: f64,
    },
}

/// One move of a monster, resolved from the roster's move list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveDef {
    /// The move's display name (unique in the roster).
    pub name: String,
    /// What it does.
    pub kind: MoveKind,
}

/// One monster of the roster with its moves resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MonsterDef {
    /// Display name (unique in the roster).
    pub name: String,
    /// Max HP `H`.
    pub hp: u16,
    /// Attack `A`.
    pub atk: u16,
    /// Defence `B`.
    pub def: u16,
    /// Speed `S`.
    pub spd: u16,
    /// Index into [`Roster::types`].
    pub ty: u8,
    /// Its 1..=4 moves.
    pub moves: Vec<MoveDef>,
}

/// A checked rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Roster {
    /// `alpha` of the damage formula.
    pub alpha: f64,
    /// `beta` of the damage formula.
    pub beta: f64,
    /// The turn limit after which a battle is a draw.
    pub turn_limit: u16,
    /// Type names; monsters and moves refer to them by index.
    pub types: Vec<String>,
    /// `chart[move type][defender type]` = `e(t, t_Y)`.
    pub chart: Vec<Vec<f64>>,
    /// Every monster.
    pub monsters: Vec<MonsterDef>,
}

// ---- the TOML shape -------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    rules: RawRules,
    types: Vec<String>,
    #[serde(default)]
    effectiveness: BTreeMap<String, BTreeMap<String, f64>>,
    #[serde(rename = "move", default)]
    moves: Vec<RawMove>,
    #[serde(rename = "monster", default)]
    monsters: Vec<RawMonster>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    alpha: f64,
    beta: f64,
    #[serde(default = "default_turn_limit")]
    turn_limit: i64,
}

fn default_turn_limit() -> i64 {
    100
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMove {
    name: String,
    #[serde(rename = "type")]
    ty: Option<String>,
    power: Option<i64>,
    accuracy: Option<f64>,
    heal: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMonster {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    hp: i64,
    attack: i64,
    defense: i64,
    speed: i64,
    moves: Vec<String>,
}

/// The most moves a monster may have in a rule file.
pub const MAX_MOVES: usize = 4;

/// The largest value a stat may take (HP is kept in a `u16`).
pub const MAX_STAT: i64 = 9999;

impl Roster {
    /// The built-in rule set (parsed once).
    pub fn builtin() -> &'static Roster {
        static CELL: OnceLock<Roster> = OnceLock::new();
        CELL.get_or_init(|| {
            // The built-in file is checked by a test; failing here is a build defect.
            Roster::from_toml(BUILTIN_ROSTER, BUILTIN_LABEL).expect("the built-in roster is valid")
        })
    }

    /// Parses and checks rule data; `file` names it in errors.
    pub fn from_toml(text: &str, file: &str) -> Result<Roster, RosterError> {
        let raw = parse_raw_file(text, file)?;
        check_rules(&raw.rules, file)?;
        let types = TypeIndex::new(&raw.types, file)?;
        let chart = effectiveness_chart(&raw.effectiveness, &types, file)?;
        let moves = parse_moves(&raw.moves, &types, file)?;
        let monsters = raw
            .monsters
            .iter()
            .enumerate()
            .map(|(i, m)| parse_monster(m, &raw.monsters[..i], &types, &moves, file))
            .collect::<Result<Vec<_>, _>>()?;
        if monsters.is_empty() {
            return Err(roster_error(
                file,
                "monster",
                "the roster needs at least one monster".into(),
            ));
        }
        let r = &raw.rules;
        Ok(Roster {
            alpha: r.alpha,
            beta: r.beta,
            turn_limit: r.turn_limit as u16,
            types: raw.types.clone(),
            chart,
            monsters,
        })
    }

    /// Finds a monster by name (case, spaces and punctuation ignored).
    pub fn find(&self, name: &str) -> Option<usize> {
        let k = fold(name);
        self.monsters.iter().position(|m| fold(&m.name) == k)
    }
}

fn roster_error(file: &str, entry: &str, reason: String) -> RosterError {
    RosterError {
        file: file.to_string(),
        entry: entry.to_string(),
        reason,
    }
}

/// The TOML read into its raw shape, or a syntax error that says where.
fn parse_raw_file(text: &str, file: &str) -> Result<RawFile, RosterError> {
    toml::from_str(text).map_err(|e| {
        // Say where, never quote the text: toml's own Display shows the
        // offending line, and a file that is not a roster at all (a
        // mistyped path) may hold secrets.
        let at = e
            .span()
            .map(|s| {
                let (line, column) = line_and_column(text, s.start);
                format!("line {line}, column {column}: ")
            })
            .unwrap_or_default();
        roster_error(
            file,
            "(syntax)",
            format!("{at}{}", e.message().trim().replace('\n', " ")),
        )
    })
}

/// `alpha` and `beta` are positive, the turn limit in 1..=10000.
fn check_rules(r: &RawRules, file: &str) -> Result<(), RosterError> {
    let err = |entry: &str, reason: String| roster_error(file, entry, reason);
    if !(r.alpha.is_finite() && r.alpha > 0.0) {
        return Err(err(
            "rules.alpha",
            format!("must be a positive number, got {}", r.alpha),
        ));
    }
    if !(r.beta.is_finite() && r.beta > 0.0) {
        return Err(err(
            "rules.beta",
            format!("must be a positive number, got {}", r.beta),
        ));
    }
    if !(1..=10_000).contains(&r.turn_limit) {
        return Err(err(
            "rules.turn_limit",
            format!("must be between 1 and 10000, got {}", r.turn_limit),
        ));
    }
    Ok(())
}

/// The type names by index, checked: 1 to 64 of them, none empty or twice.
struct TypeIndex {
    index: HashMap<String, u8>,
    /// The names joined, for errors that list them.
    known: String,
    count: usize,
}

impl TypeIndex {
    fn new(types: &[String], file: &str) -> Result<TypeIndex, RosterError> {
        let err = |entry: &str, reason: String| roster_error(file, entry, reason);
        if types.is_empty() {
            return Err(err("types", "needs at least one type".into()));
        }
        if types.len() > 64 {
            return Err(err(
                "types",
                format!("at most 64 types, got {}", types.len()),
            ));
        }
        let mut index: HashMap<String, u8> = HashMap::new();
        for (i, t) in types.iter().enumerate() {
            if t.trim().is_empty() {
                return Err(err(
                    &format!("types[{i}]"),
                    "a type name must not be empty".into(),
                ));
            }
            if index.insert(t.clone(), i as u8).is_some() {
                return Err(err(&format!("type \"{t}\""), "is listed twice".into()));
            }
        }
        Ok(TypeIndex {
            index,
            known: types.join(", "),
            count: types.len(),
        })
    }

    fn get(&self, name: &str) -> Option<u8> {
        self.index.get(name).copied()
    }
}

/// `chart[attacker][defender]`: 1 unless the file says otherwise.
fn effectiveness_chart(
    effectiveness: &BTreeMap<String, BTreeMap<String, f64>>,
    types: &TypeIndex,
    file: &str,
) -> Result<Vec<Vec<f64>>, RosterError> {
    let err = |entry: &str, reason: String| roster_error(file, entry, reason);
    let known_types = &types.known;
    let mut chart = vec![vec![1.0; types.count]; types.count];
    for (att, row) in effectiveness {
        let Some(a) = types.get(att) else {
            return Err(err(
                &format!("effectiveness.{att}"),
                format!("`{att}` is not a type; the types are {known_types}"),
            ));
        };
        for (def, &v) in row {
            let entry = format!("effectiveness.{att}.{def}");
            let Some(d) = types.get(def) else {
                return Err(err(
                    &entry,
                    format!("`{def}` is not a type; the types are {known_types}"),
                ));
            };
            if !(v.is_finite() && v >= 0.0) {
                return Err(err(&entry, format!("must be a number >= 0, got {v}")));
            }
            chart[a as usize][d as usize] = v;
        }
    }
    Ok(chart)
}

/// Every move, checked, by its folded name.
fn parse_moves(
    raw: &[RawMove],
    types: &TypeIndex,
    file: &str,
) -> Result<HashMap<String, MoveDef>, RosterError> {
    let mut moves: HashMap<String, MoveDef> = HashMap::new();
    for m in raw {
        let entry = format!("move \"{}\"", m.name);
        if m.name.trim().is_empty() {
            return Err(roster_error(
                file,
                "move",
                "a move needs a non-empty name".into(),
            ));
        }
        let kind = move_kind(m, &entry, types, file)?;
        let key = fold(&m.name);
        if moves.contains_key(&key) {
            return Err(roster_error(file, &entry, "is defined twice".into()));
        }
        moves.insert(
            key,
            MoveDef {
                name: m.name.clone(),
                kind,
            },
        );
    }
    Ok(moves)
}

/// A move is a heal (only `heal`) or an attack (`type`, `power`, `accuracy`).
fn move_kind(
    m: &RawMove,
    entry: &str,
    types: &TypeIndex,
    file: &str,
) -> Result<MoveKind, RosterError> {
    let err = |reason: String| roster_error(file, entry, reason);
    let known_types = &types.known;
    match (m.heal, m.power, m.accuracy, &m.ty) {
        (Some(r), None, None, None) => {
            if !(0.0..=1.0).contains(&r) {
                return Err(err(format!("heal must be in [0, 1], got {r}")));
            }
            Ok(MoveKind::Heal { ratio: r })
        }
        (None, Some(d), Some(p), Some(t)) => {
            if !(1..=MAX_STAT).contains(&d) {
                return Err(err(format!(
                    "power must be an integer in 1..={MAX_STAT}, got {d}"
                )));
            }
            if !(0.0..=1.0).contains(&p) {
                return Err(err(format!("accuracy must be in [0, 1], got {p}")));
            }
            let Some(ty) = types.get(t) else {
                return Err(err(format!(
                    "type `{t}` is unknown; the types are {known_types}"
                )));
            };
            Ok(MoveKind::Attack {
                power: d as u32,
                accuracy: p,
                ty,
            })
        }
        _ => Err(err(
            "an attack needs exactly `type`, `power` and `accuracy`; a heal needs only `heal`"
                .into(),
        )),
    }
}

/// One monster, checked, with its moves resolved; `earlier` are the
/// monsters listed before it (its name must differ from theirs).
fn parse_monster(
    m: &RawMonster,
    earlier: &[RawMonster],
    types: &TypeIndex,
    moves: &HashMap<String, MoveDef>,
    file: &str,
) -> Result<MonsterDef, RosterError> {
    let entry = format!("monster \"{}\"", m.name);
    let err = |reason: String| roster_error(file, &entry, reason);
    if m.name.trim().is_empty() {
        return Err(roster_error(
            file,
            "monster",
            "a monster needs a non-empty name".into(),
        ));
    }
    if earlier.iter().any(|e| fold(&e.name) == fold(&m.name)) {
        return Err(err("is defined twice".into()));
    }
    if m.name.to_lowercase().starts_with("switch") {
        return Err(err("a name must not start with `switch`".into()));
    }
    let Some(ty) = types.get(&m.ty) else {
        return Err(err(format!(
            "type `{}` is unknown; the types are {}",
            m.ty, types.known
        )));
    };
    let mut stats = [0u16; 4];
    for (i, (label, v)) in [
        ("hp", m.hp),
        ("attack", m.attack),
        ("defense", m.defense),
        ("speed", m.speed),
    ]
    .into_iter()
    .enumerate()
    {
        if !(1..=MAX_STAT).contains(&v) {
            return Err(err(format!(
                "{label} must be an integer in 1..={MAX_STAT}, got {v}"
            )));
        }
        stats[i] = v as u16;
    }
    if m.moves.is_empty() || m.moves.len() > MAX_MOVES {
        return Err(err(format!(
            "needs 1..={MAX_MOVES} moves, got {}",
            m.moves.len()
        )));
    }
    let mut mv = Vec::new();
    for name in &m.moves {
        let Some(def) = moves.get(&fold(name)) else {
            return Err(err(format!("move `{name}` is not defined in the file")));
        };
        if mv.iter().any(|d: &MoveDef| d.name == def.name) {
            return Err(err(format!("has move `{name}` twice")));
        }
        mv.push(def.clone());
    }
    Ok(MonsterDef {
        name: m.name.clone(),
        hp: stats[0],
        atk: stats[1],
        def: stats[2],
        spd: stats[3],
        ty,
        moves: mv,
    })
}

/// The 1-based line and column of a byte offset in `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Folds a name for matching: lowercase letters and digits only.
pub fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}
