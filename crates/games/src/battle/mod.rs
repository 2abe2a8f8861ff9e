//! The monster battle: two players, hidden simultaneous actions, a
//! data-driven roster (`roster.toml`), and AIs from random to an exact
//! solver. Rules: `specs/battle.md`.
//!
//! Choices the spec leaves open, made here (each is tested):
//! - A turn is counted when both players chose; the replacement step is not
//!   a turn. After the turn that reaches the turn limit, a battle nobody has
//!   won is a draw, even if a replacement was pending.
//! - A replacement with a single candidate is sent in automatically (there
//!   is nothing to choose); otherwise only the side(s) with a fainted active
//!   monster are awaited.
//! - Teams are drawn independently for each side (a monster may appear on
//!   both sides, never twice in one team), or drafted: both players pick
//!   simultaneously, one or more names at a time, until each has `n`.
//! - Forfeit makes the other seat win at once, in any phase.

pub mod ai;
pub mod engine;
pub mod guide;
mod notation;
pub mod rules;
pub mod solver;

use crate::seam::{ActionError, AiBudget, Game, OptionsError, Outcome, Seat, TurnReport, View};
use engine::{Act, Event, Pos, Res, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules::data::{MonsterDef, Roster};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Options of a battle; `{}` gives a random 3-v-3 on the operator's roster.
///
/// No option names a file: the rule set is data the operator configures
/// (`[battle] roster`), loaded at start-up and handed to
/// [`Battle::with_roster`]. Unknown keys are ignored here, like every
/// kind's options, so stored games whose options hold a key no longer known
/// (such as the former `roster` path) still load; the host refuses unknown
/// keys when a game is created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BattleOptions {
    /// Monsters per player, 1..=6 (ignored when `teams` is given).
    pub team_size: usize,
    /// Turns before a draw; `None` takes the rule file's `turn_limit`.
    pub turn_limit: Option<u16>,
    /// Let the players draft their teams before the first turn instead of
    /// drawing them at random.
    pub pick_teams: bool,
    /// Fixed teams by monster name (seat 0's, then seat 1's), for tests,
    /// rematches and handicap games (the two sizes may differ).
    pub teams: Option<[Vec<String>; 2]>,
}

impl Default for BattleOptions {
    fn default() -> Self {
        BattleOptions {
            team_size: 3,
            turn_limit: None,
            pick_teams: false,
            teams: None,
        }
    }
}

/// One seat's action: a move or a switch in battle, or picks in the draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BattleAction {
    /// Use the active monster's move with this index (0-based).
    Move(u8),
    /// Switch to (or send in as replacement) the team member with this index.
    Switch(u8),
    /// Draft: add these pool monsters (indices into the pool) to the team.
    Pick(Vec<u16>),
}

impl BattleAction {
    /// The simulator's form of a battle action (`None` for draft picks).
    pub fn act(&self) -> Option<Act> {
        match *self {
            BattleAction::Move(m) => Some(Act::Move(m)),
            BattleAction::Switch(i) => Some(Act::Switch(i)),
            BattleAction::Pick(_) => None,
        }
    }
}

impl From<Act> for BattleAction {
    fn from(a: Act) -> Self {
        match a {
            Act::Move(m) => BattleAction::Move(m),
            Act::Switch(i) => BattleAction::Switch(i),
        }
    }
}

/// The team draft before the first turn (only with `pick_teams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    /// The monsters to pick from (the whole roster).
    pub pool: Vec<MonsterDef>,
    /// Each seat's picks so far (pool indices).
    pub picks: [Vec<u16>; 2],
    /// How many each seat picks.
    pub size: usize,
}

/// A monster battle in progress (the state the host stores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    /// Stored under its old name `ctx`, so games saved before the rename
    /// still load.
    #[serde(rename = "ctx")]
    setup: Setup,
    pos: Pos,
    rng: ChaCha8Rng,
    draft: Option<Draft>,
}

impl Battle {
    /// Creates a battle on an already loaded rule set.
    pub fn with_roster(
        roster: &Roster,
        options: &BattleOptions,
        seed: u64,
    ) -> Result<Battle, OptionsError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let turn_limit = options.turn_limit.unwrap_or(roster.turn_limit);
        if turn_limit == 0 {
            return Err(OptionsError("turn_limit must be at least 1.".into()));
        }
        let n_roster = roster.monsters.len();
        let mut draft = None;
        let teams: [Vec<MonsterDef>; 2] = if let Some(names) = &options.teams {
            let mut teams: [Vec<MonsterDef>; 2] = [Vec::new(), Vec::new()];
            for (x, list) in names.iter().enumerate() {
                if list.is_empty() || list.len() > engine::MAX_TEAM {
                    return Err(OptionsError(format!(
                        "teams: each team needs 1..={} monsters, team {} has {}.",
                        engine::MAX_TEAM,
                        x + 1,
                        list.len()
                    )));
                }
                for name in list {
                    let Some(i) = roster.find(name) else {
                        return Err(OptionsError(format!(
                            "teams: `{name}` is not in the roster; it has {}.",
                            roster_names(roster)
                        )));
                    };
                    let m = roster.monsters[i].clone();
                    if teams[x].iter().any(|t| t.name == m.name) {
                        return Err(OptionsError(format!(
                            "teams: `{}` appears twice in team {}.",
                            m.name,
                            x + 1
                        )));
                    }
                    teams[x].push(m);
                }
            }
            teams
        } else {
            let n = options.team_size;
            if !(1..=engine::MAX_TEAM).contains(&n) {
                return Err(OptionsError(format!(
                    "team_size must be between 1 and {}, got {n}.",
                    engine::MAX_TEAM
                )));
            }
            if n > n_roster {
                return Err(OptionsError(format!(
                    "team_size {n} is larger than the roster ({n_roster} monsters)."
                )));
            }
            if options.pick_teams {
                draft = Some(Draft {
                    pool: roster.monsters.clone(),
                    picks: [Vec::new(), Vec::new()],
                    size: n,
                });
                [Vec::new(), Vec::new()]
            } else {
                let mut draw = || {
                    rand::seq::index::sample(&mut rng, n_roster, n)
                        .into_iter()
                        .map(|i| roster.monsters[i].clone())
                        .collect::<Vec<_>>()
                };
                let a = draw();
                let b = draw();
                [a, b]
            }
        };
        let setup = Setup::new(roster, teams, turn_limit);
        let pos = setup.start();
        Ok(Battle {
            setup,
            pos,
            rng,
            draft,
        })
    }

    /// A battle at a given position (tests, solvers, the tournament).
    pub fn from_parts(setup: Setup, pos: Pos, seed: u64) -> Battle {
        Battle {
            setup,
            pos,
            rng: ChaCha8Rng::seed_from_u64(seed),
            draft: None,
        }
    }

    /// The fixed data of this battle (teams and rules).
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The current position.
    pub fn pos(&self) -> &Pos {
        &self.pos
    }

    /// The draft, while teams are being picked.
    pub fn draft(&self) -> Option<&Draft> {
        self.draft.as_ref()
    }

    /// Applies simulator actions directly (the tournament and tests), with
    /// the battle's own generator; returns the turn's events.
    pub fn apply_acts(&mut self, acts: [Option<Act>; 2]) -> Vec<Event> {
        let mut log = Vec::new();
        engine::apply(&self.setup, &mut self.pos, acts, &mut self.rng, &mut log);
        log
    }

    fn finish_draft(&mut self) {
        let Some(d) = &self.draft else { return };
        if d.picks.iter().any(|p| p.len() < d.size) {
            return;
        }
        let teams = [0, 1].map(|x| {
            d.picks[x]
                .iter()
                .map(|&i| d.pool[i as usize].clone())
                .collect::<Vec<_>>()
        });
        self.setup.teams = teams;
        self.pos = self.setup.start();
        self.draft = None;
    }
}

fn roster_names(roster: &Roster) -> String {
    roster
        .monsters
        .iter()
        .map(|m| m.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Game for Battle {
    type Action = BattleAction;
    type Options = BattleOptions;

    const KIND: &'static str = "battle";
    const RULES_IMAGE: Option<&'static str> = Some("battle-type-chart");
    // Hidden simultaneous moves (by DM), and a short turn: a move is one pick.
    const DEFAULT_TURN_SECONDS: u64 = 300;

    fn seat_count(_options: &Self::Options) -> usize {
        2
    }

    /// A battle on the built-in roster; a host configured with another
    /// builds battles through [`Battle::with_roster`] instead.
    fn new_game(options: Self::Options, seed: u64) -> Result<Self, OptionsError> {
        Battle::with_roster(Roster::builtin(), &options, seed)
    }

    fn seat_name(&self, seat: Seat) -> String {
        format!("Player {}", seat + 1)
    }

    fn awaiting(&self) -> Vec<Seat> {
        if self.pos.result.is_some() {
            return Vec::new();
        }
        if let Some(d) = &self.draft {
            return (0..2).filter(|&x| d.picks[x].len() < d.size).collect();
        }
        (0..2).filter(|&x| self.pos.awaits(x)).collect()
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, ActionError> {
        notation::parse(self, seat, text)
    }

    fn validate(&self, seat: Seat, action: &Self::Action) -> Result<(), ActionError> {
        notation::validate(self, seat, action)
    }

    fn describe_action(&self, seat: Seat, action: &Self::Action) -> String {
        notation::describe(self, seat, action)
    }

    fn resolve(&mut self, actions: BTreeMap<Seat, Self::Action>) -> TurnReport {
        if self.pos.result.is_some() {
            return TurnReport {
                public: "The battle is already over.".into(),
                ..Default::default()
            };
        }
        if let Some(d) = &mut self.draft {
            let mut lines = Vec::new();
            for (&x, a) in &actions {
                if x > 1 || d.picks[x].len() >= d.size {
                    continue;
                }
                if let BattleAction::Pick(p) = a {
                    for &i in p {
                        if (i as usize) < d.pool.len()
                            && !d.picks[x].contains(&i)
                            && d.picks[x].len() < d.size
                        {
                            d.picks[x].push(i);
                        }
                    }
                    let names: Vec<&str> = p
                        .iter()
                        .filter_map(|&i| d.pool.get(i as usize))
                        .map(|m| m.name.as_str())
                        .collect();
                    lines.push(format!("Player {} picked {}.", x + 1, names.join(", ")));
                }
            }
            self.finish_draft();
            if self.draft.is_none() {
                lines.push("Teams are complete: the battle begins.".into());
            }
            return TurnReport {
                public: lines.join("\n"),
                ..Default::default()
            };
        }
        let acts = [0, 1].map(|x| actions.get(&x).and_then(|a| a.act()));
        let before = self.pos;
        let events = self.apply_acts(acts);
        let public = notation::report(&self.setup, &before, acts, &events);
        TurnReport {
            public,
            ..Default::default()
        }
    }

    fn default_action(&self, seat: Seat) -> Self::Action {
        if let Some(d) = &self.draft {
            let have = &d.picks[seat.min(1)];
            let rest: Vec<u16> = (0..d.pool.len() as u16)
                .filter(|i| !have.contains(i))
                .take(d.size.saturating_sub(have.len()))
                .collect();
            return BattleAction::Pick(rest);
        }
        // The greedy choice: a sensible, deterministic move for an absent player.
        ai::greedy::choose(&self.setup, &self.pos, seat.min(1)).into()
    }

    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        if self.pos.result.is_some() || seat > 1 {
            return TurnReport::default();
        }
        let r = Res::Win(1 - seat as u8);
        self.pos.result = Some(r);
        self.pos.need = [false, false];
        // The draft stays: with teams not yet complete there is no battle
        // to show, only the picks made before the forfeit.
        TurnReport {
            public: format!("Player {} forfeits. Player {} wins.", seat + 1, 2 - seat),
            ..Default::default()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.pos.result? {
            Res::Win(x) => Some(Outcome::Win(x as Seat)),
            Res::Draw => Some(Outcome::Draw(vec![0, 1])),
        }
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        notation::view(self, viewer)
    }

    fn rules(&self, _viewer: Option<Seat>) -> String {
        guide::rules_text(&self.setup)
    }

    fn ai_levels() -> &'static [&'static str] {
        ai::LEVELS
    }

    fn check_ai_level(level: &str) -> Result<(), String> {
        ai::Level::check(level)
    }

    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> Self::Action {
        let seat = seat.min(1);
        if let Some(d) = &self.draft {
            return ai::draft_pick(d, seat, seed);
        }
        if self.pos.awaits(seat) {
            let lvl = ai::Level::parse(level).unwrap_or_default();
            return ai::choose(&self.setup, &self.pos, seat, &lvl, budget, seed).into();
        }
        // Not this seat's turn: any action is ignored; answer the default.
        self.default_action(seat)
    }
}
