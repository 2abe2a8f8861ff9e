//! The battle AIs behind one entry point, [`choose`]: `random`, `greedy`,
//! `mc:N` (the source material's pure Monte Carlo baseline), `default`
//! (issue 21; also `hedge`: positions with at most 3 monsters standing
//! solved exactly and cached, otherwise simultaneous-move tree search for
//! the whole time budget with the evaluation fitted to solved positions,
//! playing its most visited action unless a best response could exploit
//! it, then mixing from the root's equilibrium), `duct` (the default until
//! issue 21: the same search for 20,000 iterations with the hand-set
//! evaluation, its most visited action, exact only one a side), `mix`
//! (the search with its root solved as a matrix game, always sampling its
//! action from the equilibrium) and `exact` (the value-iteration solver,
//! for small positions; larger ones fall back to the search). The
//! exploitability measurement is in [`exploit`].
//!
//! Every AI draws its randomness from a generator seeded with the `seed`
//! the host passes, so with an iteration budget it is deterministic.

pub mod eval;
pub mod exploit;
pub mod fit;
pub mod greedy;
pub mod mc;
mod random;
pub mod search;

use super::BattleAction;
use super::Draft;
use super::engine::{self, Act, Pos, Setup};
use crate::seam::AiBudget;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The levels offered to players; the first is the default. `duct` (the
/// default before issue 21, kept by name for comparisons) and `hedge` (a
/// second name of the default) are not offered: they parse for the battle
/// tools (`gamehost tournament`, `gamehost battle exploit`), and a level
/// offered to players must first be rated on the AI ladder.
pub const LEVELS: &[&str] = &[
    "default", "greedy", "random", "mc:100", "mc:1000", "exact", "mix",
];

/// Playouts of `mc` when the level gives no number.
pub const MC_DEFAULT_PLAYOUTS: u64 = 1000;

/// A parsed AI level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// The default ([`search::choose_hedge`] with [`eval::FITTED`]): small
    /// positions solved exactly (cached), otherwise the search for the
    /// whole budget, mixing where its pure choice is exposed.
    #[default]
    Default,
    /// The default with this many iterations (`search:N`).
    Search(u64),
    /// The search's most visited action, at most 20,000 iterations, the
    /// hand-set evaluation, the solver only with one monster a side
    /// (`duct`, or `duct:N` for N iterations): the default before issue
    /// 21, addressable by name so comparisons survive the change.
    Duct(Option<u64>),
    /// The default by its issue-21 name (`hedge`, or `hedge:N` for N
    /// iterations, the same as `search:N`).
    Hedge(Option<u64>),
    /// The same search with its root solved as a matrix game and the
    /// action sampled from the equilibrium (`mix`, or `mix:N` for N iterations).
    Mix(Option<u64>),
    /// Best expected damage, heal when low.
    Greedy,
    /// Uniformly random legal actions.
    Random,
    /// Pure Monte Carlo with this many playouts in total.
    Mc(u64),
    /// The exact solver where the position is small enough, else `default`.
    Exact,
}

impl Level {
    /// Parses `default`, `search:N`, `mix`, `mix:N`, `duct`, `duct:N`, `hedge`, `hedge:N`, `greedy`, `random`, `mc`, `mc:N`, `exact`.
    pub fn parse(s: &str) -> Option<Level> {
        let s = s.trim().to_lowercase();
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n.trim().to_string(), Some(a.trim().to_string())),
            None => (s.clone(), None),
        };
        let num = |a: &Option<String>| -> Option<Option<u64>> {
            match a {
                None => Some(None),
                Some(t) => t.parse::<u64>().ok().filter(|&n| n > 0).map(Some),
            }
        };
        match name.as_str() {
            "default" | "search" => match num(&arg)? {
                None => Some(Level::Default),
                Some(n) => Some(Level::Search(n)),
            },
            "mix" => Some(Level::Mix(num(&arg)?)),
            "duct" => Some(Level::Duct(num(&arg)?)),
            "hedge" => Some(Level::Hedge(num(&arg)?)),
            "greedy" if arg.is_none() => Some(Level::Greedy),
            "random" if arg.is_none() => Some(Level::Random),
            "exact" if arg.is_none() => Some(Level::Exact),
            "mc" => Some(Level::Mc(num(&arg)?.unwrap_or(MC_DEFAULT_PLAYOUTS))),
            _ => None,
        }
    }
}

impl Level {
    /// [`Level::parse`] with the reason a level is refused: an unknown
    /// name, a number that is not a whole number above 0, or a number after
    /// a level that takes none.
    pub fn check(level: &str) -> Result<(), String> {
        if Level::parse(level).is_some() {
            return Ok(());
        }
        let level = level.trim().to_lowercase();
        let name = level.split(':').next().unwrap_or("").trim();
        match name {
            "default" | "search" | "mix" | "duct" | "hedge" | "mc" => Err(format!(
                "the number after `{name}:` must be a whole number above 0, as in `{name}:500`"
            )),
            "greedy" | "random" | "exact" => Err(format!("`{name}` takes no number")),
            _ => Err(format!("`{name}` is not a battle AI level")),
        }
    }
}

/// The action of `seat` at `pos` for `level` within `budget`. Always legal
/// when the seat has something to do (`Move(0)` otherwise).
pub fn choose(
    setup: &Setup,
    pos: &Pos,
    seat: usize,
    level: &Level,
    budget: AiBudget,
    seed: u64,
) -> Act {
    let legal = engine::legal(setup, pos, seat);
    match legal.len() {
        0 => return Act::Move(0),
        1 => return legal.as_slice()[0],
        _ => {}
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    match *level {
        Level::Random => random::choose(setup, pos, seat, &mut rng),
        Level::Greedy => greedy::choose(setup, pos, seat),
        Level::Mc(n) => mc::choose(setup, pos, seat, n, &budget, &mut rng),
        Level::Default | Level::Hedge(None) => {
            search::choose_hedge(setup, pos, seat, &budget, None, &eval::FITTED, &mut rng)
        }
        Level::Search(n) | Level::Hedge(Some(n)) => {
            search::choose_hedge(setup, pos, seat, &budget, Some(n), &eval::FITTED, &mut rng)
        }
        Level::Duct(n) => search::choose(setup, pos, seat, &budget, n, &mut rng),
        Level::Mix(n) => search::choose_mixed(setup, pos, seat, &budget, n, &mut rng),
        Level::Exact => {
            match super::solver::cached_solve(setup, pos, super::solver::EXACT_MAX_STATES, &budget)
            {
                Some(sol) => sol.sample(setup, pos, seat, &mut rng),
                None => search::search_and_choose(
                    setup,
                    pos,
                    seat,
                    &budget,
                    None,
                    &eval::FITTED,
                    &mut rng,
                ),
            }
        }
    }
}

/// A draft pick for an AI seat: the remaining slots from the pool, chosen
/// at random (seeded) among the monsters with the highest stat totals.
pub fn draft_pick(d: &Draft, seat: usize, seed: u64) -> BattleAction {
    use rand::seq::SliceRandom;
    let have = &d.picks[seat];
    let mut free: Vec<u16> = (0..d.pool.len() as u16)
        .filter(|i| !have.contains(i))
        .collect();
    let total = |i: &u16| {
        let m = &d.pool[*i as usize];
        m.hp as u32 + m.atk as u32 + m.def as u32 + m.spd as u32
    };
    free.sort_by_key(|i| std::cmp::Reverse(total(i)));
    let need = d.size.saturating_sub(have.len());
    free.truncate((need * 2).max(need).min(free.len()));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    free.shuffle(&mut rng);
    free.truncate(need);
    BattleAction::Pick(free)
}
