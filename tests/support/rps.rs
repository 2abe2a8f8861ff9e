//! Rock-paper-scissors to two wins: the smallest game with simultaneous
//! hidden moves, used to test the host independently of the real engines.

use games::seam::*;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Throw {
    Rock,
    Paper,
    Scissors,
}

impl Throw {
    fn beats(self, other: Throw) -> bool {
        matches!(
            (self, other),
            (Throw::Rock, Throw::Scissors)
                | (Throw::Paper, Throw::Rock)
                | (Throw::Scissors, Throw::Paper)
        )
    }
    fn name(self) -> &'static str {
        match self {
            Throw::Rock => "rock",
            Throw::Paper => "paper",
            Throw::Scissors => "scissors",
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RpsOptions {
    /// Wins needed.
    pub wins: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rps {
    pub wins_needed: u32,
    pub score: [u32; 2],
    pub round: u32,
    pub winner: Option<Seat>,
    pub drawn: bool,
}

impl Game for Rps {
    type Action = Throw;
    type Options = RpsOptions;
    const KIND: &'static str = "rps";

    fn seat_count(_: &RpsOptions) -> usize {
        2
    }
    fn new_game(o: RpsOptions, _seed: u64) -> Result<Self, OptionsError> {
        let wins_needed = o.wins.unwrap_or(2);
        if wins_needed == 0 || wins_needed > 50 {
            return Err(OptionsError("wins must be from 1 to 50".into()));
        }
        Ok(Rps {
            wins_needed,
            score: [0, 0],
            round: 0,
            winner: None,
            drawn: false,
        })
    }
    fn seat_name(&self, seat: Seat) -> String {
        format!("Player {}", seat + 1)
    }
    fn awaiting(&self) -> Vec<Seat> {
        if self.winner.is_some() || self.drawn {
            vec![]
        } else {
            vec![0, 1]
        }
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<Throw, ActionError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "rock" | "r" => Ok(Throw::Rock),
            "paper" | "p" => Ok(Throw::Paper),
            "scissors" | "s" => Ok(Throw::Scissors),
            other => Err(ActionError::new(
                format!("`{other}` is not a throw."),
                "Play rock, paper or scissors.",
            )),
        }
    }
    fn validate(&self, _seat: Seat, _a: &Throw) -> Result<(), ActionError> {
        Ok(())
    }
    fn describe_action(&self, _seat: Seat, a: &Throw) -> String {
        a.name().into()
    }
    fn resolve(&mut self, actions: BTreeMap<Seat, Throw>) -> TurnReport {
        let (a, b) = (actions[&0], actions[&1]);
        self.round += 1;
        if a.beats(b) {
            self.score[0] += 1;
        } else if b.beats(a) {
            self.score[1] += 1;
        }
        if self.score[0] >= self.wins_needed {
            self.winner = Some(0);
        } else if self.score[1] >= self.wins_needed {
            self.winner = Some(1);
        } else if self.round >= 20 {
            self.drawn = true;
        }
        let mut private = BTreeMap::new();
        private.insert(0, format!("You threw {}.", a.name()));
        TurnReport {
            public: format!(
                "Round {}: {} vs {}. Score {}-{}.",
                self.round,
                a.name(),
                b.name(),
                self.score[0],
                self.score[1]
            ),
            private,
            detail: None,
        }
    }
    fn default_action(&self, _seat: Seat) -> Throw {
        Throw::Rock
    }
    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        self.winner = Some(1 - seat);
        TurnReport {
            public: format!("Player {} forfeits.", seat + 1),
            private: BTreeMap::new(),
            detail: None,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        match (self.winner, self.drawn) {
            (Some(w), _) => Some(Outcome::Win(w)),
            (None, true) => Some(Outcome::Draw(vec![0, 1])),
            _ => None,
        }
    }
    fn view(&self, viewer: Option<Seat>) -> View {
        View {
            board: format!(
                "Score {}-{} after {} rounds",
                self.score[0], self.score[1], self.round
            ),
            status: match self.outcome() {
                Some(o) => format!("Over: {o:?}"),
                None => "Both players throw.".into(),
            },
            choices: match viewer {
                Some(_) if self.outcome().is_none() => ["rock", "paper", "scissors"]
                    .iter()
                    .map(|t| ActionChoice {
                        label: t.to_string(),
                        text: t.to_string(),
                        style: ChoiceStyle::Button,
                    })
                    .collect(),
                _ => vec![],
            },
        }
    }
    fn ai_levels() -> &'static [&'static str] {
        &["random", "rock", "gated"]
    }
    fn ai_action(&self, _seat: Seat, level: &str, _b: AiBudget, seed: u64) -> Throw {
        if level == "rock" {
            return Throw::Rock;
        }
        if level == "gated" {
            gate::pass();
            return Throw::Rock;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        [Throw::Rock, Throw::Paper, Throw::Scissors][rng.gen_range(0..3)]
    }
}

/// The gate the `gated` AI level waits at until a test opens it, so a test
/// can hold AI decisions in the middle of thinking and count how many think
/// at once. Test support only: real engines never wait.
pub mod gate {
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    #[derive(Default)]
    struct Gate {
        open: bool,
        thinking: usize,
        most_at_once: usize,
    }

    static GATE: Mutex<Gate> = Mutex::new(Gate {
        open: false,
        thinking: 0,
        most_at_once: 0,
    });
    static CHANGED: Condvar = Condvar::new();

    /// The longest an AI waits at a closed gate (a test that forgot to open
    /// it fails on its own assertions instead of hanging).
    const LONGEST_WAIT: Duration = Duration::from_secs(60);

    /// Waits until the gate is open, counted as thinking meanwhile.
    pub fn pass() {
        let mut g = GATE.lock().unwrap_or_else(|p| p.into_inner());
        g.thinking += 1;
        g.most_at_once = g.most_at_once.max(g.thinking);
        CHANGED.notify_all();
        let (mut g, _) = CHANGED
            .wait_timeout_while(g, LONGEST_WAIT, |g| !g.open)
            .unwrap_or_else(|p| p.into_inner());
        g.thinking -= 1;
        CHANGED.notify_all();
    }

    /// Opens the gate: every waiting AI and every later one passes.
    pub fn open() {
        GATE.lock().unwrap_or_else(|p| p.into_inner()).open = true;
        CHANGED.notify_all();
    }

    /// How many AIs wait at the gate now.
    pub fn thinking() -> usize {
        GATE.lock().unwrap_or_else(|p| p.into_inner()).thinking
    }

    /// Waits (up to `limit`) until `n` AIs wait at the gate at once; returns
    /// how many do.
    pub fn wait_for_thinking(n: usize, limit: Duration) -> usize {
        let g = GATE.lock().unwrap_or_else(|p| p.into_inner());
        let (g, _) = CHANGED
            .wait_timeout_while(g, limit, |g| g.thinking < n)
            .unwrap_or_else(|p| p.into_inner());
        g.thinking
    }
}

/// A host on a real SQLite file with this engine and a hand-moved clock.
pub fn host_at(path: &std::path::Path, clock: std::sync::Arc<host::ManualClock>) -> host::Host {
    super::host_builder::host_with(path, host::Registry::default().with::<Rps>(), clock, 50)
}

/// A request for a rock-paper-scissors game in `channel` created by `alice`.
pub fn new_rps(
    channel: &str,
    turn_seconds: Option<u64>,
    policy: host::TimeoutPolicy,
) -> host::NewGame {
    host::NewGame {
        kind: "rps".into(),
        guild_id: Some("guild".into()),
        channel_id: channel.into(),
        creator_id: "alice".into(),
        creator_name: "Alice".into(),
        options: serde_json::Value::Null,
        seed: Some(7),
        turn_seconds,
        timeout_policy: policy,
        creator_plays: true,
    }
}
