//! The battle's formal model: a compact position, the legal actions, and one
//! turn's resolution exactly as `specs/battle.md` orders it.
//!
//! The position ([`Pos`]) is `Copy` and small so the AIs can simulate
//! millions of turns; the fixed data of a battle ([`Setup`]: the two teams,
//! the type chart, alpha/beta, the turn limit) is kept apart and borrowed.
//! Every random draw goes through [`Chance`], which the live battle backs
//! with its seeded generator, the AIs with their own, and the exact solver
//! with a script that enumerates every outcome with its probability.

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use super::rules::data::{MonsterDef, MoveKind, Roster};
use serde::{Deserialize, Serialize};

/// The largest team (`n` is 1..=6).
pub const MAX_TEAM: usize = 6;

/// The fixed data of one battle: the rules and both teams.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// `alpha` of the damage formula.
    pub alpha: f64,
    /// `beta` of the damage formula.
    pub beta: f64,
    /// After this many turns without a winner the battle is a draw.
    pub turn_limit: u16,
    /// Type names (for display).
    pub types: Vec<String>,
    /// `chart[move type][defender type]`.
    pub chart: Vec<Vec<f64>>,
    /// Each seat's team, in order; index 0 starts active.
    pub teams: [Vec<MonsterDef>; 2],
}

impl Setup {
    /// A context with the rules of `roster` and the given teams.
    pub fn new(roster: &Roster, teams: [Vec<MonsterDef>; 2], turn_limit: u16) -> Setup {
        Setup {
            alpha: roster.alpha,
            beta: roster.beta,
            turn_limit,
            types: roster.types.clone(),
            chart: roster.chart.clone(),
            teams,
        }
    }

    /// The damage of an attack of `power` and type `ty` by `att` on `def`
    /// when it hits: `floor((alpha * d * A / B + beta) * e)`.
    pub fn damage(&self, att: &MonsterDef, power: u32, ty: u8, def: &MonsterDef) -> u16 {
        let e = self.chart[ty as usize][def.ty as usize];
        let raw = (self.alpha * power as f64 * att.atk as f64 / def.def as f64 + self.beta) * e;
        raw.floor().clamp(0.0, u16::MAX as f64) as u16
    }

    /// The monster seat `x` has active in `pos`.
    pub fn active<'a>(&'a self, pos: &Pos, x: usize) -> &'a MonsterDef {
        &self.teams[x][pos.active[x] as usize]
    }

    /// The starting position: first monsters active, every HP full.
    pub fn start(&self) -> Pos {
        let mut hp = [[0u16; MAX_TEAM]; 2];
        for (x, team) in self.teams.iter().enumerate() {
            for (i, m) in team.iter().enumerate() {
                hp[x][i] = m.hp;
            }
        }
        Pos {
            active: [0, 0],
            hp,
            turn: 0,
            need: [false, false],
            result: None,
        }
    }
}

/// How a battle ended, in the compact form the simulator uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Res {
    /// This seat won.
    Win(u8),
    /// The turn limit was reached (or both sides ran out together).
    Draw,
}

/// A position: active monsters, every HP, the turn count, who must send in
/// a replacement, and the result once the battle is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Index of each seat's active monster in its team.
    pub active: [u8; 2],
    /// Current HP of every monster (unused slots stay 0).
    pub hp: [[u16; MAX_TEAM]; 2],
    /// Turns completed (replacement steps do not count).
    pub turn: u16,
    /// Seats whose active monster fainted and who must choose a replacement.
    pub need: [bool; 2],
    /// Set once the battle is over.
    pub result: Option<Res>,
}

/// Which step of the battle a position is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Both seats choose a move or a switch.
    Choose,
    /// Only the seats in `need` choose a replacement.
    Replace,
    /// The battle is over.
    Over(Res),
}

impl Pos {
    /// The step this position is in.
    pub fn step(&self) -> Step {
        match self.result {
            Some(r) => Step::Over(r),
            None if self.need[0] || self.need[1] => Step::Replace,
            None => Step::Choose,
        }
    }

    /// Whether seat `x` must act now.
    pub fn awaits(&self, x: usize) -> bool {
        match self.step() {
            Step::Choose => true,
            Step::Replace => self.need[x],
            Step::Over(_) => false,
        }
    }

    /// The number of seat `x`'s monsters with HP > 0.
    pub fn alive(&self, setup: &Setup, x: usize) -> usize {
        (0..setup.teams[x].len())
            .filter(|&i| self.hp[x][i] > 0)
            .count()
    }
}

/// One seat's choice for a turn, in the simulator's compact form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Act {
    /// Use the active monster's move with this index.
    Move(u8),
    /// Send in the team member with this index.
    Switch(u8),
}

/// A short list of actions without allocating (at most 4 moves + 5 switches).
#[derive(Debug, Clone, Copy)]
pub struct Acts {
    n: u8,
    a: [Act; 10],
}

impl Acts {
    fn new() -> Acts {
        Acts {
            n: 0,
            a: [Act::Move(0); 10],
        }
    }
    fn push(&mut self, a: Act) {
        self.a[self.n as usize] = a;
        self.n += 1;
    }
    /// The actions as a slice.
    pub fn as_slice(&self) -> &[Act] {
        &self.a[..self.n as usize]
    }
    /// How many there are.
    pub fn len(&self) -> usize {
        self.n as usize
    }
    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// Keeps only the actions `keep` accepts, in order.
    pub fn retain(&mut self, keep: impl Fn(&Act) -> bool) {
        let mut n = 0;
        for i in 0..self.n as usize {
            if keep(&self.a[i]) {
                self.a[n] = self.a[i];
                n += 1;
            }
        }
        self.n = n as u8;
    }
}

/// The legal actions of seat `x` now (empty when it does not act).
pub fn legal(setup: &Setup, pos: &Pos, x: usize) -> Acts {
    let mut out = Acts::new();
    let switches = |out: &mut Acts| {
        for i in 0..setup.teams[x].len() {
            if i != pos.active[x] as usize && pos.hp[x][i] > 0 {
                out.push(Act::Switch(i as u8));
            }
        }
    };
    match pos.step() {
        Step::Over(_) => {}
        Step::Replace => {
            if pos.need[x] {
                switches(&mut out);
            }
        }
        Step::Choose => {
            for m in 0..setup.active(pos, x).moves.len() {
                out.push(Act::Move(m as u8));
            }
            switches(&mut out);
        }
    }
    out
}

/// Whether `a` is legal for seat `x` now.
pub fn is_legal(setup: &Setup, pos: &Pos, x: usize, a: Act) -> bool {
    legal(setup, pos, x).as_slice().contains(&a)
}

/// The source of every random draw of a turn.
pub trait Chance {
    /// A fair coin for a speed tie: true means seat 0 moves first.
    fn coin(&mut self) -> bool;
    /// An accuracy roll: draws `u` uniform in [0, 1) and hits iff `u <= p`.
    fn hit(&mut self, p: f64) -> bool;
}

impl<R: rand::RngCore> Chance for R {
    fn coin(&mut self) -> bool {
        rand::Rng::gen_bool(self, 0.5)
    }
    fn hit(&mut self, p: f64) -> bool {
        rand::Rng::r#gen::<f64>(self) <= p
    }
}

/// Something that happened during a turn, for the turn report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// Seat switched (or sent in a replacement) to team member `to`.
    Switched {
        /// The seat.
        seat: u8,
        /// The monster sent in.
        to: u8,
        /// True for a replacement after a faint, false for a turn's switch.
        replacement: bool,
    },
    /// A speed tie was decided by the coin.
    Coin {
        /// The seat that moves first.
        first: u8,
    },
    /// An attack hit for this much damage (HP left after it).
    Hit {
        /// Attacker's seat.
        seat: u8,
        /// Move index of the attacker's active monster.
        mv: u8,
        /// Damage dealt (before clamping at 0).
        damage: u16,
        /// Defender's HP after the hit.
        left: u16,
        /// Effectiveness multiplier.
        e: f64,
    },
    /// An attack missed.
    Miss {
        /// Attacker's seat.
        seat: u8,
        /// Move index.
        mv: u8,
    },
    /// A heal restored this much HP.
    Healed {
        /// The seat.
        seat: u8,
        /// Move index.
        mv: u8,
        /// HP restored (after the cap).
        amount: u16,
        /// HP after healing.
        now: u16,
    },
    /// A seat's active monster fainted.
    Fainted {
        /// The seat.
        seat: u8,
        /// Team index of the fainted monster.
        mon: u8,
    },
    /// A move was not performed because its user fainted first.
    Skipped {
        /// The seat.
        seat: u8,
        /// Move index.
        mv: u8,
    },
    /// The battle ended.
    Ended(Res),
}

/// Receives the events of a turn; `()` ignores them (for simulations).
pub trait Log {
    /// Records one event.
    fn on(&mut self, e: Event);
}

impl Log for () {
    #[inline]
    fn on(&mut self, _e: Event) {}
}

impl Log for Vec<Event> {
    fn on(&mut self, e: Event) {
        self.push(e);
    }
}

/// Applies the awaited seats' actions to `pos` (a turn, or the replacement
/// step). Actions of seats that do not act are ignored; an illegal action
/// is replaced by the seat's first legal one so simulations never panic
/// (the host only ever passes validated actions).
pub fn apply<C: Chance + ?Sized, L: Log>(
    setup: &Setup,
    pos: &mut Pos,
    acts: [Option<Act>; 2],
    ch: &mut C,
    log: &mut L,
) {
    let a = awaited_acts(setup, pos, acts, true);
    resolve(setup, pos, a, ch, log);
}

/// [`apply`] for actions the caller took from [`legal`] (the searches,
/// which apply millions of them): they are not checked again. A seat that
/// acts but is given `None` still gets its first legal action.
pub fn apply_legal<C: Chance + ?Sized, L: Log>(
    setup: &Setup,
    pos: &mut Pos,
    acts: [Option<Act>; 2],
    ch: &mut C,
    log: &mut L,
) {
    let a = awaited_acts(setup, pos, acts, false);
    resolve(setup, pos, a, ch, log);
}

/// The action of each awaited seat: the one given (checked against
/// [`legal`] when `check`), else its first legal action.
fn awaited_acts(setup: &Setup, pos: &Pos, acts: [Option<Act>; 2], check: bool) -> [Act; 2] {
    let mut a = [Act::Move(0); 2];
    for x in 0..2 {
        if !pos.awaits(x) {
            continue;
        }
        a[x] = match acts[x] {
            Some(act) if !check => act,
            Some(act) if legal(setup, pos, x).as_slice().contains(&act) => act,
            _ => legal(setup, pos, x).as_slice()[0],
        };
    }
    a
}

/// Carries out a step once every awaited seat has its (legal) action.
fn resolve<C: Chance + ?Sized, L: Log>(
    setup: &Setup,
    pos: &mut Pos,
    a: [Act; 2],
    ch: &mut C,
    log: &mut L,
) {
    match pos.step() {
        Step::Over(_) => {}
        Step::Replace => {
            for (x, act) in a.iter().enumerate() {
                if pos.need[x]
                    && let Act::Switch(i) = *act
                {
                    pos.active[x] = i;
                    pos.need[x] = false;
                    log.on(Event::Switched {
                        seat: x as u8,
                        to: i,
                        replacement: true,
                    });
                }
            }
        }
        Step::Choose => turn(setup, pos, a, ch, log),
    }
}

/// One simultaneous turn: switches first, then moves in speed order.
fn turn<C: Chance + ?Sized, L: Log>(
    setup: &Setup,
    pos: &mut Pos,
    a: [Act; 2],
    ch: &mut C,
    log: &mut L,
) {
    // 1. Every switch happens first; a move then hits whoever came in.
    for (x, act) in a.iter().enumerate() {
        if let Act::Switch(i) = *act {
            pos.active[x] = i;
            log.on(Event::Switched {
                seat: x as u8,
                to: i,
                replacement: false,
            });
        }
    }
    // 2. Moves in speed order.
    for x in move_order(setup, pos, a, ch, log) {
        let Act::Move(m) = a[x] else { continue };
        perform_move(setup, pos, x, m, ch, log);
    }
    // 3. End of turn: losses, the turn limit, replacements.
    end_turn(setup, pos, log);
}

/// The seats in the order their moves happen: faster first, a fair coin on
/// a tie (drawn only when both move).
#[inline]
fn move_order<C: Chance + ?Sized, L: Log>(
    setup: &Setup,
    pos: &Pos,
    a: [Act; 2],
    ch: &mut C,
    log: &mut L,
) -> [usize; 2] {
    match (a[0], a[1]) {
        (Act::Move(_), Act::Move(_)) => {
            let s0 = setup.active(pos, 0).spd;
            let s1 = setup.active(pos, 1).spd;
            if s0 > s1 {
                [0, 1]
            } else if s1 > s0 {
                [1, 0]
            } else if ch.coin() {
                log.on(Event::Coin { first: 0 });
                [0, 1]
            } else {
                log.on(Event::Coin { first: 1 });
                [1, 0]
            }
        }
        _ => [0, 1],
    }
}

/// Seat `x`'s active monster uses its move `m`: an attack (which may miss)
/// on the other seat's active monster, or a heal. A monster brought to 0
/// earlier in the turn does nothing.
#[inline]
fn perform_move<C: Chance + ?Sized, L: Log>(
    setup: &Setup,
    pos: &mut Pos,
    x: usize,
    m: u8,
    ch: &mut C,
    log: &mut L,
) {
    let y = 1 - x;
    let me = pos.active[x] as usize;
    if pos.hp[x][me] == 0 {
        // The first move brought this monster to 0: its move is not performed.
        log.on(Event::Skipped {
            seat: x as u8,
            mv: m,
        });
        return;
    }
    let user = &setup.teams[x][me];
    let Some(mv) = user.moves.get(m as usize) else {
        return;
    };
    match mv.kind {
        MoveKind::Attack {
            power,
            accuracy,
            ty,
        } => {
            if ch.hit(accuracy) {
                let them = pos.active[y] as usize;
                let target = &setup.teams[y][them];
                let damage = setup.damage(user, power, ty, target);
                let h = &mut pos.hp[y][them];
                *h = h.saturating_sub(damage);
                log.on(Event::Hit {
                    seat: x as u8,
                    mv: m,
                    damage,
                    left: *h,
                    e: setup.chart[ty as usize][target.ty as usize],
                });
                if *h == 0 {
                    log.on(Event::Fainted {
                        seat: y as u8,
                        mon: them as u8,
                    });
                }
            } else {
                log.on(Event::Miss {
                    seat: x as u8,
                    mv: m,
                });
            }
        }
        MoveKind::Heal { ratio } => {
            let cap = user.hp;
            let h = &mut pos.hp[x][me];
            let new = ((*h as f64 + ratio * cap as f64).floor() as u64).min(cap as u64) as u16;
            let amount = new.saturating_sub(*h);
            *h = new.max(*h);
            log.on(Event::Healed {
                seat: x as u8,
                mv: m,
                amount,
                now: *h,
            });
        }
    }
}

/// The end of a turn: a seat with no monster left loses, the turn limit
/// draws, and a fainted active monster is replaced (at once when only one
/// could come in).
#[inline]
fn end_turn<L: Log>(setup: &Setup, pos: &mut Pos, log: &mut L) {
    pos.turn = pos.turn.saturating_add(1);
    let mut out = [false; 2];
    for x in 0..2 {
        if pos.hp[x][pos.active[x] as usize] == 0 {
            if pos.alive(setup, x) == 0 {
                out[x] = true;
            } else {
                pos.need[x] = true;
            }
        }
    }
    let result = match out {
        [true, true] => Some(Res::Draw),
        [true, false] => Some(Res::Win(1)),
        [false, true] => Some(Res::Win(0)),
        [false, false] if pos.turn >= setup.turn_limit => Some(Res::Draw),
        _ => None,
    };
    if let Some(r) = result {
        pos.result = Some(r);
        pos.need = [false, false];
        log.on(Event::Ended(r));
        return;
    }
    // A replacement with exactly one candidate is not a choice: send it in
    // at once so nobody is asked to confirm the only option.
    for x in 0..2 {
        if pos.need[x] && pos.alive(setup, x) == 1 {
            let i = (0..setup.teams[x].len())
                .find(|&i| pos.hp[x][i] > 0)
                .unwrap_or(0);
            pos.active[x] = i as u8;
            pos.need[x] = false;
            log.on(Event::Switched {
                seat: x as u8,
                to: i as u8,
                replacement: true,
            });
        }
    }
}

/// A chance source that follows a script of outcomes and records the
/// probability of the path taken; used to enumerate a turn's outcomes.
struct Scripted<'a> {
    script: &'a [bool],
    next: usize,
    prob: f64,
    ran_out: bool,
}

impl Scripted<'_> {
    fn take(&mut self, p_true: f64) -> bool {
        match self.script.get(self.next) {
            Some(&b) => {
                self.next += 1;
                self.prob *= if b { p_true } else { 1.0 - p_true };
                b
            }
            None => {
                self.ran_out = true;
                false
            }
        }
    }
}

impl Chance for Scripted<'_> {
    fn coin(&mut self) -> bool {
        self.take(0.5)
    }
    fn hit(&mut self, p: f64) -> bool {
        self.take(p.clamp(0.0, 1.0))
    }
}

/// Every outcome of applying `acts` at `pos` with its probability (outcomes
/// with probability 0 are left out; equal positions are merged).
pub fn outcomes(setup: &Setup, pos: &Pos, acts: [Option<Act>; 2]) -> Vec<(f64, Pos)> {
    let mut out: Vec<(f64, Pos)> = Vec::new();
    let mut stack: Vec<Vec<bool>> = vec![Vec::new()];
    while let Some(script) = stack.pop() {
        let mut ch = Scripted {
            script: &script,
            next: 0,
            prob: 1.0,
            ran_out: false,
        };
        let mut p = *pos;
        apply(setup, &mut p, acts, &mut ch, &mut ());
        if ch.ran_out {
            for b in [false, true] {
                let mut s = script.clone();
                s.push(b);
                stack.push(s);
            }
            continue;
        }
        if ch.prob <= 0.0 {
            continue;
        }
        match out.iter_mut().find(|(_, q)| *q == p) {
            Some(e) => e.0 += ch.prob,
            None => out.push((ch.prob, p)),
        }
    }
    out
}
