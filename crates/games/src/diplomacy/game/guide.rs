//! Diplomacy's rules as a player reads them (`/rules diplomacy`, the
//! terminal's `rules`), with examples for the reader's own units when they
//! play, and the phase guide the terminal prints before each phase (what a
//! power has, what it owes, how to finish), so both front-ends teach from
//! one text.

use super::Diplomacy;
use crate::diplomacy::geo::{Power, bundled_maps, installed_maps};
use crate::diplomacy::judge::PhaseKind;
use crate::diplomacy::order::Order;
use crate::seam::Seat;

/// The general rules: orders of every phase with examples, finishing, draws.
const RULES: &str = "Every phase each power writes its orders in secret; all are \
resolved together.\n\
**Orders**, one per line (provinces by name or abbreviation, fleets' coasts as `Stp/nc`):\n\
`A Par H` hold · `A Par - Bur` move · `A Mar S A Par - Bur` support a move · \
`A Mun S A Ber` support a hold · `F Nth C A Lon - Nwy` convoy, with `A Lon - Nwy via convoy` \
for the army.\n\
Retreats: `A Mun R Boh` or `A Mun D` (disband). Winter: `Build A Par`, `Build F Stp/nc`, \
`Remove F Nth`, `Waive`.\n\
**Resolution:** a move with more support than every rival succeeds; equal strength \
bounces and everyone stays. An attack on a supporting unit cuts its support (except one \
from the province the support is aimed at). A dislodged unit retreats to an empty \
neighbour or disbands. After each Fall a centre belongs to whoever stands on it; in Winter \
you build in your empty home centres up to your centre count, or remove units above it.\n\
**Finishing:** units without an order hold. You may change orders until you send `done`; \
`clear` drops them. `draw` votes for a draw shared by every survivor (it passes when all \
surviving powers vote for it); `no draw` takes the vote back.\n";

/// What Fog of War adds to the rules, while it hides anything.
const FOG_RULES: &str = "**Fog of War:** you see only the provinces of your units and \
centres and those next to them (by land or sea), with their units and centres' owners. \
You may support or convoy only units you see. Everyone sees the phase and each power's \
centre count; your results show the orders you could see. At the end everything opens.\n";

/// The setups a new game may choose (`/game new diplomacy options:...`):
/// every map there is, bundled or installed, each with its variants.
fn setups_text() -> String {
    let maps: Vec<String> = bundled_maps()
        .into_iter()
        .chain(installed_maps())
        .map(|m| {
            let variants: Vec<String> = m
                .variants()
                .iter()
                .map(|v| format!("`variant={}` ({})", v.id, v.title))
                .collect();
            let variants = if variants.is_empty() {
                String::new()
            } else {
                format!("; {}", variants.join(", "))
            };
            format!(
                "`map={}`: {}, {} powers{variants}",
                m.id(),
                m.title(),
                m.power_count()
            )
        })
        .collect();
    format!(
        "**Setups** (`/game new diplomacy options:...`): {}. On any map `variant=fog` \
         plays under Fog of War and `powers=` picks some of its powers \
         (`powers=\"france,england\"`).\n",
        maps.join(" · ")
    )
}

impl Diplomacy {
    /// [`crate::seam::Game::rules`]: the general rules, and for a power in
    /// the game its own units with examples it could really give now.
    pub(in crate::diplomacy) fn rules_text(&self, viewer: Option<Seat>) -> String {
        let m = self.map();
        let mut s = format!(
            "**Diplomacy** on the {} map: the powers race for the supply centres; {} of its {} \
             win. ",
            m.title(),
            self.victory_centres(),
            m.supply_centres().count()
        );
        s.push_str(RULES);
        if m.id() != "standard" {
            s.push_str("(The examples above name provinces of the standard map.)\n");
        }
        if self.fog_hides() {
            s.push_str(FOG_RULES);
        }
        if let Some(p) = viewer.and_then(|seat| self.power_of_seat(seat)) {
            // Under Fog of War the examples come from what the power sees.
            let seen = self.seen_by(p);
            let units = self.unit_names_of(p);
            s.push_str(&format!(
                "**You are {}.** Your units: {}. For example: {}.\n",
                self.power_name(p),
                if units.is_empty() {
                    "none".to_string()
                } else {
                    units.join(", ")
                },
                seen.movement_examples(p).join(", ")
            ));
        }
        if viewer.is_none() {
            s.push_str(&setups_text());
        }
        s
    }

    /// What `power` has and owes this phase and how to finish, for a front
    /// end's phase prompt: its units and centres, what the phase takes
    /// (with examples of its own units, the builds or removals owed), and
    /// what `done` then does. `pending`: the orders already given.
    pub fn phase_guide(&self, power: Power, pending: &[Order]) -> String {
        if self.fog_hides() {
            // Its examples and retreats come from what the power sees.
            return self.seen_by(power).phase_guide(power, pending);
        }
        let m = self.map();
        let units = self.unit_names_of(power);
        let centres: Vec<String> = self
            .owners()
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(power))
            .map(|(i, _)| m.prov(i as u8).name.clone())
            .collect();
        let mut s = format!(
            "{}: you are {}. Your centres ({}): {}.\n",
            self.phase_name(),
            self.power_name(power),
            centres.len(),
            centres.join(", ")
        );
        // The movement hint lists the units with its examples.
        if self.phase() != PhaseKind::Movement {
            s.push_str(&format!(
                "Your units: {}.\n",
                if units.is_empty() {
                    "none".to_string()
                } else {
                    units.join(", ")
                }
            ));
        }
        s.push_str(&self.hint_with(power, pending));
        s.push('\n');
        let finish = match self.phase() {
            PhaseKind::Movement => "Units without an order hold.",
            PhaseKind::Retreat => "A dislodged unit without an order disbands.",
            PhaseKind::Adjustment => {
                "Builds not given are waived; removals not given are chosen for you (civil disorder)."
            }
        };
        s.push_str(&format!(
            "Orders one per line (`rules` shows the syntax). {finish} Send `done` when finished.\n"
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::diplomacy::Diplomacy;
    use crate::seam::Game;

    #[test]
    fn the_rules_give_a_power_examples_of_its_own_units() {
        let g = Diplomacy::new_game(Default::default(), 1).unwrap();
        let general = g.rules_text(None);
        assert!(general.contains("`A Mar S A Par - Bur`"), "{general}");
        let seat = (0..7)
            .find(|&s| {
                g.power_of_seat(s)
                    .is_some_and(|p| g.power_name(p) == "England")
            })
            .unwrap();
        let mine = g.rules_text(Some(seat));
        assert!(mine.contains("You are England."), "{mine}");
        assert!(mine.contains("F Lon"), "{mine}");
        assert!(mine.chars().count() < 1950, "{}", mine.chars().count());
        // A player's rules are about their game; the kind's rules list
        // every setup a new game may choose.
        assert!(!mine.contains("**Setups**"), "{mine}");
        assert!(
            general.chars().count() < 1900,
            "{}",
            general.chars().count()
        );
        assert!(
            general.contains("**Diplomacy** on the Standard map"),
            "{general}"
        );
        for setup in [
            "`map=standard`: Standard, 7 powers; `variant=fva` (France vs Austria)",
            "`map=ancient_med`: Ancient Mediterranean, 5 powers",
            "`variant=fog`",
        ] {
            assert!(general.contains(setup), "{setup} not in {general}");
        }
    }

    #[test]
    fn the_rules_of_a_game_on_another_map_name_it() {
        let options = crate::diplomacy::DiplomacyOptions {
            map: "ancient_med".into(),
            ..Default::default()
        };
        let g = Diplomacy::new_game(options, 1).unwrap();
        let rome = (0..5)
            .find(|&s| {
                g.power_of_seat(s)
                    .is_some_and(|p| g.power_name(p) == "Rome")
            })
            .unwrap();
        let text = g.rules_text(Some(rome));
        assert!(
            text.contains("**Diplomacy** on the Ancient Mediterranean map")
                && text.contains("18 of its 34"),
            "{text}"
        );
        assert!(
            text.contains("You are Rome.") && text.contains("A Rom"),
            "{text}"
        );
        assert!(
            text.contains("name provinces of the standard map"),
            "{text}"
        );
    }
}
