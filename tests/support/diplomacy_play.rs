//! Seeded Diplomacy games between AIs, for the tests that play a setup to
//! its end (variants, other maps).

use games::diplomacy::Diplomacy;
use games::seam::{AiBudget, Game};
use std::collections::BTreeMap;

/// Plays every awaited seat with the AI at `level` until the game ends or
/// `limit` phases pass, checking each action is valid and calling
/// `after_phase` on the position after each phase; the phases played.
pub fn play_out(
    g: &mut Diplomacy,
    level: &str,
    seed: u64,
    limit: usize,
    mut after_phase: impl FnMut(&Diplomacy),
) -> usize {
    let mut phases = 0;
    while g.outcome().is_none() && phases < limit {
        let mut actions = BTreeMap::new();
        for seat in g.awaiting() {
            let a = g.ai_action(
                seat,
                level,
                AiBudget::iterations(1),
                seed ^ (phases as u64) << 8 ^ seat as u64,
            );
            assert!(g.validate(seat, &a).is_ok(), "seat {seat}: {a:?}");
            actions.insert(seat, a);
        }
        g.resolve(actions);
        after_phase(g);
        phases += 1;
    }
    phases
}
