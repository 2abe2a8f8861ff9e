//! Under Fog of War every AI level plays from its power's view only: two
//! games that differ only in what that power cannot see get the same
//! answer from it for the same seed. (A unit test, not an integration
//! test: changing hidden units needs the game's own fields.)

use super::game::{Diplomacy, DiplomacyOptions};
use super::geo::{Power, Terrain};
use super::order::{Unit, UnitKind};
use crate::seam::{AiBudget, Game};

/// A Fog of War game after `phases` phases of `dumbbot` play.
fn fog_game(seed: u64, phases: u64) -> Diplomacy {
    let opts = DiplomacyOptions {
        fog: true,
        ..Default::default()
    };
    let mut g = Diplomacy::new_game(opts, seed).expect("valid options");
    for k in 0..phases {
        if g.outcome().is_some() {
            break;
        }
        let acts = g
            .awaiting()
            .into_iter()
            .map(|s| {
                (
                    s,
                    g.ai_action(s, "dumbbot", AiBudget::iterations(1), seed ^ k),
                )
            })
            .collect();
        g.resolve(acts);
    }
    g
}

/// `g` with everything `power` cannot see changed: hidden units removed,
/// an army of another power put on every hidden empty land province, and
/// hidden centres given to another power. `None` if it sees everything.
fn hidden_changed(g: &Diplomacy, power: Power) -> Option<Diplomacy> {
    let m = g.map();
    let seen = g.visible_provinces(power);
    let hidden = |p: u8| seen & 1u128 << p == 0;
    let other = m.powers().find(|&p| p != power)?;
    let mut h = g.clone();
    h.units.retain(|u| !hidden(m.prov_of(u.loc)));
    let mut changed = h.units.len() != g.units.len();
    for p in 0..m.province_count() as u8 {
        if !hidden(p) {
            continue;
        }
        if m.prov(p).sc && h.owners[p as usize] != Some(other) {
            h.owners[p as usize] = Some(other);
            changed = true;
        }
        if p.is_multiple_of(3) && matches!(m.prov(p).terrain, Terrain::Land | Terrain::Coast) {
            h.units.push(Unit {
                power: other,
                kind: UnitKind::Army,
                loc: p,
            });
            changed = true;
        }
    }
    changed.then_some(h)
}

#[test]
fn fogged_ais_answer_the_same_whatever_they_cannot_see() {
    let mut compared = 0;
    for seed in 0..6u64 {
        let g = fog_game(seed, 2 + seed * 3);
        for s in g.awaiting() {
            let Some(power) = g.power_of_seat(s) else {
                continue;
            };
            let Some(h) = hidden_changed(&g, power) else {
                continue;
            };
            for &level in Diplomacy::ai_levels() {
                let a = g.ai_action(s, level, AiBudget::iterations(120), seed);
                let b = h.ai_action(s, level, AiBudget::iterations(120), seed);
                assert_eq!(a, b, "seed {seed}, {level} at seat {s}");
            }
            compared += 1;
        }
    }
    // The test means something only if hidden things were changed.
    assert!(compared >= 10, "only {compared} positions compared");
}

#[test]
fn the_same_change_in_plain_sight_changes_what_default_plays() {
    // The check above could pass with an AI that ignores every other unit;
    // without fog, the same changes reach `default`'s eyes and change its
    // answer somewhere.
    let mut differs = 0;
    for seed in 0..6u64 {
        let g = fog_game(seed, 2 + seed * 3);
        let mut plain = g.clone();
        plain.options.fog = false;
        for s in g.awaiting() {
            let Some(power) = g.power_of_seat(s) else {
                continue;
            };
            let Some(mut h) = hidden_changed(&g, power) else {
                continue;
            };
            h.options.fog = false;
            let a = plain.ai_action(s, "default", AiBudget::iterations(120), seed);
            let b = h.ai_action(s, "default", AiBudget::iterations(120), seed);
            differs += usize::from(a != b);
        }
    }
    assert!(differs > 0, "hidden changes never mattered without fog");
}
