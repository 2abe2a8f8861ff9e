//! A static evaluation of a position for the search: who wins the "damage
//! race" if both sides play the greedy policy with expected damage (no
//! dice), blended with the HP balance of the position itself.
//!
//! Why a race and not only HP: type matchups, speed (who strikes first) and
//! heals decide battles, and a race of expected damage captures all three
//! in a few hundred nanoseconds, with no random playout noise.

// Seats index several parallel arrays at once; a range loop reads best.
#![allow(clippy::needless_range_loop)]

use super::super::engine::{Ctx, Pos, Res};
use super::super::rules::data::{MonsterDef, MoveKind};
use super::greedy::{HEAL_BELOW, heal_move};

/// Weight of the race result against the HP balance.
pub const RACE_WEIGHT: f64 = 0.7;

/// The most race steps simulated before calling it by HP.
const RACE_STEPS: usize = 60;

/// The value of a terminal result for seat 0.
pub fn terminal(r: Res) -> f64 {
    match r {
        Res::Win(0) => 1.0,
        Res::Win(_) => -1.0,
        Res::Draw => 0.0,
    }
}

/// Seat `x`'s share of total team HP left, in [0, 1].
fn hp_share(ctx: &Ctx, hp: &[[f64; 6]; 2], x: usize) -> f64 {
    let team = &ctx.teams[x];
    let sum: f64 = team
        .iter()
        .enumerate()
        .map(|(i, m)| hp[x][i].max(0.0) / m.hp as f64)
        .sum();
    sum / team.len().max(1) as f64
}

/// Expected damage per use of the best attack of `a` on `d`, and whether
/// a heal would be chosen instead at `hp_a`.
fn plan(ctx: &Ctx, a: &MonsterDef, d: &MonsterDef, hp_a: f64, hp_d: f64) -> Plan {
    if let Some((_, r)) = heal_move(a)
        && hp_a < HEAL_BELOW * a.hp as f64
    {
        return Plan::Heal(r * a.hp as f64);
    }
    let mut best = 0.0f64;
    for m in &a.moves {
        if let MoveKind::Attack {
            power,
            accuracy,
            ty,
        } = m.kind
        {
            let v = accuracy * (ctx.damage(a, power, ty, d) as f64).min(hp_d.max(1.0));
            best = best.max(v);
        }
    }
    Plan::Hit(best)
}

enum Plan {
    Hit(f64),
    Heal(f64),
}

/// Picks the bench monster of `x` with the best expected damage on `d`.
fn replacement(
    ctx: &Ctx,
    hp: &[[f64; 6]; 2],
    x: usize,
    d: &MonsterDef,
    hp_d: f64,
) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (i, m) in ctx.teams[x].iter().enumerate() {
        if hp[x][i] <= 0.0 {
            continue;
        }
        let v = match plan(ctx, m, d, m.hp as f64, hp_d) {
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

/// The evaluation of `pos` for seat 0, in [-1, 1].
pub fn evaluate(ctx: &Ctx, pos: &Pos) -> f64 {
    if let Some(r) = pos.result {
        return terminal(r);
    }
    let mut hp = [[0.0f64; 6]; 2];
    for x in 0..2 {
        for i in 0..ctx.teams[x].len() {
            hp[x][i] = pos.hp[x][i] as f64;
        }
    }
    let material = hp_share(ctx, &hp, 0) - hp_share(ctx, &hp, 1);
    let mut active = [pos.active[0] as usize, pos.active[1] as usize];
    let race = 'race: {
        for step in 0..RACE_STEPS {
            // Replacements (greedy, like the live policy).
            for x in 0..2 {
                if hp[x][active[x]] <= 0.0 {
                    let y = 1 - x;
                    let d = &ctx.teams[y][active[y]];
                    match replacement(ctx, &hp, x, d, hp[y][active[y]]) {
                        Some(i) => active[x] = i,
                        None => {
                            let m = hp_share(ctx, &hp, y);
                            let s = if y == 0 { 1.0 } else { -1.0 };
                            break 'race s * (0.5 + 0.5 * m);
                        }
                    }
                }
            }
            if step + 1 == RACE_STEPS {
                break;
            }
            let m0 = &ctx.teams[0][active[0]];
            let m1 = &ctx.teams[1][active[1]];
            let plans = [
                plan(ctx, m0, m1, hp[0][active[0]], hp[1][active[1]]),
                plan(ctx, m1, m0, hp[1][active[1]], hp[0][active[0]]),
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
                let me = &ctx.teams[x][active[x]];
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
        hp_share(ctx, &hp, 0) - hp_share(ctx, &hp, 1)
    };
    (RACE_WEIGHT * race + (1.0 - RACE_WEIGHT) * material).clamp(-1.0, 1.0)
}
