//! The `greedy` AI: the move with the best expected damage (capped at the
//! target's HP, so a sure KO beats a wasteful big hit), a heal when its
//! monster is low, a switch only when its active monster cannot hurt the
//! opponent at all, and the replacement that hits the opponent hardest.

use super::super::engine::{self, Act, Pos, Setup, Step};
use super::super::rules::data::{MonsterDef, MoveKind};

/// Heal when HP is below this share of max HP.
pub const HEAL_BELOW: f64 = 0.35;

/// The best expected damage of `att` on `def` (with `def_hp` left) and the
/// move index giving it; heals count as 0.
pub fn best_attack(setup: &Setup, att: &MonsterDef, def: &MonsterDef, def_hp: u16) -> (f64, u8) {
    let mut best = (-1.0, 0u8);
    for (i, m) in att.moves.iter().enumerate() {
        let v = match m.kind {
            MoveKind::Attack {
                power,
                accuracy,
                ty,
            } => accuracy * setup.damage(att, power, ty, def).min(def_hp) as f64,
            MoveKind::Heal { .. } => 0.0,
        };
        if v > best.0 {
            best = (v, i as u8);
        }
    }
    (best.0.max(0.0), best.1)
}

/// The index of `m`'s heal move with the largest ratio, if any.
pub fn heal_move(m: &MonsterDef) -> Option<(u8, f64)> {
    m.moves
        .iter()
        .enumerate()
        .filter_map(|(i, mv)| match mv.kind {
            MoveKind::Heal { ratio } if ratio > 0.0 => Some((i as u8, ratio)),
            _ => None,
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The bench monster of `seat` with the best expected damage on the
/// opponent's active monster (first on ties).
pub fn best_replacement(setup: &Setup, pos: &Pos, seat: usize) -> Option<u8> {
    let y = 1 - seat;
    let them = setup.active(pos, y);
    let their_hp = pos.hp[y][pos.active[y] as usize];
    let mut best: Option<(f64, u8)> = None;
    for (i, m) in setup.teams[seat].iter().enumerate() {
        if i == pos.active[seat] as usize || pos.hp[seat][i] == 0 {
            continue;
        }
        let (v, _) = best_attack(setup, m, them, their_hp.max(1));
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, i as u8));
        }
    }
    best.map(|b| b.1)
}

/// The greedy action of `seat` (`Move(0)` if it has nothing to do).
pub fn choose(setup: &Setup, pos: &Pos, seat: usize) -> Act {
    let legal = engine::legal(setup, pos, seat);
    if legal.is_empty() {
        return Act::Move(0);
    }
    match pos.step() {
        Step::Replace => match best_replacement(setup, pos, seat) {
            Some(i) => Act::Switch(i),
            None => legal.as_slice()[0],
        },
        _ => {
            let y = 1 - seat;
            let me = setup.active(pos, seat);
            let my_hp = pos.hp[seat][pos.active[seat] as usize];
            if let Some((h, _)) = heal_move(me)
                && (my_hp as f64) < HEAL_BELOW * me.hp as f64
            {
                return Act::Move(h);
            }
            let them = setup.active(pos, y);
            let (v, m) = best_attack(setup, me, them, pos.hp[y][pos.active[y] as usize]);
            if v <= 0.0
                && let Some(i) = best_replacement(setup, pos, seat)
            {
                return Act::Switch(i);
            }
            Act::Move(m)
        }
    }
}
