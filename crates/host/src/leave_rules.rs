//! A game's rules for pauses and absences (who may pause, what an absence
//! does at a deadline, how many days away), and the options that set them.
//! The rules sit below both the pauses they govern (`pause.rs`) and the
//! deadlines that read them (`turns.rs`).

use serde_json::Value;
use store::LeaveRulesRow;

/// Days of absence a player may declare in any 365 days, unless the game says.
pub const DEFAULT_AWAY_DAYS: u32 = 14;
/// The most `away_days` a game may allow.
pub const MAX_AWAY_DAYS: u32 = 90;
/// The option keys the host reads itself and never passes to the engine.
pub const LEAVE_OPTION_KEYS: [&str; 3] = ["pause", "away", "away_days"];

/// What an absence does when a deadline falls during it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AwayMode {
    /// The deadline waits until the player is back.
    Extend,
    /// The AI moves for the player at the deadline.
    Ai,
    /// Absences cannot be declared.
    Off,
}

impl AwayMode {
    fn as_str(self) -> &'static str {
        match self {
            AwayMode::Extend => "extend",
            AwayMode::Ai => "ai",
            AwayMode::Off => "off",
        }
    }

    pub(super) fn parse(text: &str) -> Option<AwayMode> {
        match text {
            "extend" => Some(AwayMode::Extend),
            "ai" => Some(AwayMode::Ai),
            "off" => Some(AwayMode::Off),
            _ => None,
        }
    }
}

/// A game's rules for pauses and absences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaveRules {
    /// The creator alone may pause and resume.
    pub creator_pauses: bool,
    /// What an absence does at a deadline.
    pub away: AwayMode,
    /// Days each player may be away in any 365 days.
    pub away_days: u32,
}

impl Default for LeaveRules {
    fn default() -> Self {
        LeaveRules {
            creator_pauses: false,
            away: AwayMode::Extend,
            away_days: DEFAULT_AWAY_DAYS,
        }
    }
}

impl LeaveRules {
    pub(super) fn from_row(row: Option<LeaveRulesRow>) -> LeaveRules {
        row.map(|r| LeaveRules {
            creator_pauses: r.creator_pauses,
            away: AwayMode::parse(&r.away).unwrap_or(AwayMode::Extend),
            away_days: r.away_days.min(MAX_AWAY_DAYS),
        })
        .unwrap_or_default()
    }

    pub(super) fn to_row(self) -> LeaveRulesRow {
        LeaveRulesRow {
            creator_pauses: self.creator_pauses,
            away: self.away.as_str().to_string(),
            away_days: self.away_days,
        }
    }
}

/// Takes the host's own keys (`pause`, `away`, `away_days`) out of a game's
/// options, leaving the engine's, and says what was wrong with them.
pub fn take_leave_rules(options: &mut Value) -> Result<LeaveRules, String> {
    let mut rules = LeaveRules::default();
    let Value::Object(map) = options else {
        return Ok(rules);
    };
    if let Some(v) = map.remove("pause") {
        rules.creator_pauses = match v.as_str() {
            Some("players") => false,
            Some("creator") => true,
            _ => {
                return Err(format!(
                    "`pause={v}` is not a choice; write `pause=players` (a pause needs every \
                     player, the default) or `pause=creator` (the creator may pause alone)."
                ));
            }
        };
    }
    if let Some(v) = map.remove("away") {
        rules.away = v.as_str().and_then(AwayMode::parse).ok_or_else(|| {
            format!(
                "`away={v}` is not a choice; write `away=extend` (deadlines wait for an absent \
                 player, the default), `away=ai` (the AI moves for them) or `away=off`."
            )
        })?;
    }
    if let Some(v) = map.remove("away_days") {
        rules.away_days = v
            .as_u64()
            .filter(|d| *d <= u64::from(MAX_AWAY_DAYS))
            .map(|d| d as u32)
            .ok_or_else(|| {
                format!(
                    "`away_days={v}` is not a number of days from 0 to {MAX_AWAY_DAYS}; \
                     e.g. `away_days=14`."
                )
            })?;
    }
    if map.is_empty() {
        *options = Value::Null;
    }
    Ok(rules)
}
