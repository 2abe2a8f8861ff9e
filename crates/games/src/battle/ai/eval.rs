//! A static evaluation of a position for the search: who wins the "damage
//! race" if both sides play the greedy policy with expected damage (no
//! dice), blended with the HP balance of the position itself.
//!
//! Why a race and not only HP: type matchups, speed (who strikes first) and
//! heals decide battles, and a race of expected damage captures all three
//! in a few hundred nanoseconds, with no random playout noise.

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use super::super::engine::{MAX_TEAM, Pos, Res, Setup};
use super::super::rules::data::{MAX_MOVES, MoveKind};
use super::greedy::{HEAL_BELOW, heal_move};

/// Weight of the race result against the HP balance.
pub const RACE_WEIGHT: f64 = 0.7;

/// The weights the default AI's search uses: fitted by least squares to
/// the exact values of positions from solved 2-a-side battles, with
/// `gamehost battle fit-eval --roots 300 --per-root 200 --seed 1` (96
/// battles solved, 16,771 positions; fitted on the first half of the
/// battles, the mean squared error on the second half is 0.362 against
/// the hand-set weights' 0.386). See [`super::fit`].
pub const FITTED: Weights = Weights {
    race: 1.094,
    material: 0.895,
    alive: 0.594,
    squash: true,
};

/// The most race steps simulated before calling it by HP.
pub const RACE_STEPS: usize = 60;

/// The value of a terminal result for seat 0.
pub fn terminal(r: Res) -> f64 {
    match r {
        Res::Win(0) => 1.0,
        Res::Win(_) => -1.0,
        Res::Draw => 0.0,
    }
}

/// Seat `x`'s share of total team HP left, in [0, 1].
fn hp_share(setup: &Setup, hp: &[[f64; 6]; 2], x: usize) -> f64 {
    let team = &setup.teams[x];
    let sum: f64 = team
        .iter()
        .enumerate()
        .map(|(i, m)| hp[x][i].max(0.0) / m.hp as f64)
        .sum();
    sum / team.len().max(1) as f64
}

/// `(accuracy, damage)` of each attack one monster has on one defender.
type Attacks = [(f64, f64); MAX_MOVES];

/// What [`features`] needs of every attack in one battle, computed once
/// per search instead of at every leaf (the damage formula was about a
/// third of the search's time): for each attacker and defender, each
/// attack's accuracy and damage, and each monster's best heal ratio.
pub struct HitTable {
    /// `[seat][attacker][defender]`: `(accuracy, damage)` of each attack.
    hits: [[[Attacks; MAX_TEAM]; MAX_TEAM]; 2],
    /// `[seat][attacker]`: how many entries of `hits` are used.
    attacks: [[u8; MAX_TEAM]; 2],
    /// `[seat][monster]`: the ratio of its best heal, if it has one.
    heal: [[Option<f64>; MAX_TEAM]; 2],
}

impl HitTable {
    /// The table of `setup`'s two teams.
    pub fn new(setup: &Setup) -> HitTable {
        let mut t = HitTable {
            hits: [[[[(0.0, 0.0); MAX_MOVES]; MAX_TEAM]; MAX_TEAM]; 2],
            attacks: [[0; MAX_TEAM]; 2],
            heal: [[None; MAX_TEAM]; 2],
        };
        for x in 0..2 {
            for (i, a) in setup.teams[x].iter().enumerate().take(MAX_TEAM) {
                t.heal[x][i] = heal_move(a).map(|(_, r)| r);
                for (j, d) in setup.teams[1 - x].iter().enumerate().take(MAX_TEAM) {
                    let mut n = 0;
                    for m in a.moves.iter().take(MAX_MOVES) {
                        if let MoveKind::Attack {
                            power,
                            accuracy,
                            ty,
                        } = m.kind
                        {
                            t.hits[x][i][j][n] = (accuracy, setup.damage(a, power, ty, d) as f64);
                            n += 1;
                        }
                    }
                    t.attacks[x][i] = n as u8;
                }
            }
        }
        t
    }
}

/// What seat `x`'s monster `i` does to the opposing monster `j` in the
/// race: its heal when below [`HEAL_BELOW`] of its HP, else the attack
/// with the best expected damage (capped at the defender's HP).
fn plan(t: &HitTable, setup: &Setup, x: usize, i: usize, j: usize, hp_a: f64, hp_d: f64) -> Plan {
    if let Some(r) = t.heal[x][i]
        && hp_a < HEAL_BELOW * setup.teams[x][i].hp as f64
    {
        return Plan::Heal(r * setup.teams[x][i].hp as f64);
    }
    let cap = hp_d.max(1.0);
    let mut best = 0.0f64;
    for &(accuracy, damage) in &t.hits[x][i][j][..usize::from(t.attacks[x][i])] {
        best = best.max(accuracy * damage.min(cap));
    }
    Plan::Hit(best)
}

enum Plan {
    Hit(f64),
    Heal(f64),
}

/// Picks the bench monster of `x` with the best expected damage on the
/// opposing monster `j`.
fn replacement(
    t: &HitTable,
    setup: &Setup,
    hp: &[[f64; 6]; 2],
    x: usize,
    j: usize,
    hp_d: f64,
) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (i, m) in setup.teams[x].iter().enumerate() {
        if hp[x][i] <= 0.0 {
            continue;
        }
        let v = match plan(t, setup, x, i, j, m.hp as f64, hp_d) {
            Plan::Hit(v) => v,
            Plan::Heal(_) => 0.0,
        };
        // Prefer hitting hard, then being fast.
        let v = v + m.spd as f64 * 1e-4;
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, i));
        }
    }
    best.map(|b| b.1)
}

/// What the evaluation reads off a position, each for seat 0 and in
/// [-1, 1] (positive: seat 0 is ahead).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features {
    /// The damage race's result: the winner's share of team HP left when
    /// the loser runs out (signed), or the HP balance when neither does
    /// within [`RACE_STEPS`] turns.
    pub race: f64,
    /// The HP balance now: seat 0's share of its team's HP minus seat 1's.
    pub material: f64,
    /// Monsters standing, seat 0's minus seat 1's, over the team size.
    pub alive: f64,
    /// The race needs more turns than the battle has left, so at this pace
    /// the turn limit ends it in a draw.
    pub past_limit: bool,
}

/// The weights that turn [`Features`] into a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Weight of [`Features::race`].
    pub race: f64,
    /// Weight of [`Features::material`].
    pub material: f64,
    /// Weight of [`Features::alive`].
    pub alive: f64,
    /// `tanh` of the weighted sum (a win probability's shape) instead of
    /// the sum clamped to [-1, 1].
    pub squash: bool,
}

impl Weights {
    /// The hand-set evaluation the search used until issue 21: 0.7 of the
    /// race and 0.3 of the HP balance, clamped, the turn limit ignored.
    pub const HAND: Weights = Weights {
        race: RACE_WEIGHT,
        material: 1.0 - RACE_WEIGHT,
        alive: 0.0,
        squash: false,
    };

    /// The value of `f` for seat 0, in [-1, 1]. A race the turn limit cuts
    /// short is a draw (0) when the weights squash (the fitted form).
    pub fn value(&self, f: &Features) -> f64 {
        let sum = self.race * f.race + self.material * f.material + self.alive * f.alive;
        if self.squash {
            if f.past_limit { 0.0 } else { sum.tanh() }
        } else {
            sum.clamp(-1.0, 1.0)
        }
    }
}

/// The features of `pos` (not over).
pub fn features(setup: &Setup, pos: &Pos) -> Features {
    features_with(setup, &HitTable::new(setup), pos)
}

/// [`features`] with the battle's [`HitTable`] already built.
pub fn features_with(setup: &Setup, table: &HitTable, pos: &Pos) -> Features {
    let mut hp = [[0.0f64; 6]; 2];
    for x in 0..2 {
        for i in 0..setup.teams[x].len() {
            hp[x][i] = pos.hp[x][i] as f64;
        }
    }
    let material = hp_share(setup, &hp, 0) - hp_share(setup, &hp, 1);
    let size = setup.teams[0].len().max(setup.teams[1].len()).max(1) as f64;
    let alive = (pos.alive(setup, 0) as f64 - pos.alive(setup, 1) as f64) / size;
    let turns_left = usize::from(setup.turn_limit.saturating_sub(pos.turn));
    let mut active = [pos.active[0] as usize, pos.active[1] as usize];
    let mut past_limit = false;
    let race = 'race: {
        for step in 0..RACE_STEPS {
            // Replacements (greedy, like the live policy).
            for x in 0..2 {
                if hp[x][active[x]] <= 0.0 {
                    let y = 1 - x;
                    match replacement(table, setup, &hp, x, active[y], hp[y][active[y]]) {
                        Some(i) => active[x] = i,
                        None => {
                            let m = hp_share(setup, &hp, y);
                            let s = if y == 0 { 1.0 } else { -1.0 };
                            break 'race s * (0.5 + 0.5 * m);
                        }
                    }
                }
            }
            if step == turns_left {
                past_limit = true;
            }
            if step + 1 == RACE_STEPS {
                break;
            }
            let m0 = &setup.teams[0][active[0]];
            let m1 = &setup.teams[1][active[1]];
            let plans = [
                plan(
                    table,
                    setup,
                    0,
                    active[0],
                    active[1],
                    hp[0][active[0]],
                    hp[1][active[1]],
                ),
                plan(
                    table,
                    setup,
                    1,
                    active[1],
                    active[0],
                    hp[1][active[1]],
                    hp[0][active[0]],
                ),
            ];
            // Speed order; on a tie both act "at once" (the coin averages out).
            let order: &[usize] = if m0.spd > m1.spd {
                &[0, 1]
            } else if m1.spd > m0.spd {
                &[1, 0]
            } else {
                &[2]
            };
            let act = |x: usize, hp: &mut [[f64; 6]; 2]| {
                let me = &setup.teams[x][active[x]];
                match plans[x] {
                    Plan::Hit(v) => hp[1 - x][active[1 - x]] -= v,
                    Plan::Heal(h) => {
                        hp[x][active[x]] = (hp[x][active[x]] + h).min(me.hp as f64);
                    }
                }
            };
            if order == [2] {
                act(0, &mut hp);
                act(1, &mut hp);
            } else {
                for &x in order {
                    if hp[x][active[x]] > 0.0 {
                        act(x, &mut hp);
                    }
                }
            }
        }
        hp_share(setup, &hp, 0) - hp_share(setup, &hp, 1)
    };
    Features {
        race,
        material,
        alive,
        past_limit,
    }
}

/// The evaluation of `pos` for seat 0, in [-1, 1].
pub fn evaluate(setup: &Setup, pos: &Pos) -> f64 {
    if let Some(r) = pos.result {
        return terminal(r);
    }
    Weights::HAND.value(&features(setup, pos))
}
