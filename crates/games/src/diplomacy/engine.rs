//! Diplomacy on the host seam: the [`Game`] impl, which hands the rules to
//! [`super::game`] and the AI seats to [`super::ai_seat`]. It sits above
//! both, so the rules never call their own AIs.

use super::ai_seat;
use super::game::{Diplomacy, DiplomacyAction, DiplomacyOptions, Season, is_fog_variant, setup};
use super::geo::{Map, MapRef, bundled_maps, find_map, installed_maps};
use super::judge::PhaseKind;
use crate::seam::{
    ActionError, AiBudget, Game, OptionsError, Outcome, Outstanding, Seat, TurnReport, View,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::fmt::Write;

impl Game for Diplomacy {
    type Action = DiplomacyAction;
    type Options = DiplomacyOptions;
    const KIND: &'static str = "diplomacy";
    // Orders are secret (by DM) and a whole power's orders are one message;
    // seven players read the map and write several orders each, so a phase
    // needs at least 10 min (retreats and adjustments get half) and a day
    // by default.
    const MAX_ACTION_CHARS: usize = 4000;
    const MIN_TURN_SECONDS: u64 = 600;
    const DEFAULT_TURN_SECONDS: u64 = 86_400;
    const BOARD_IMAGE: Option<&'static str> = Some("diplomacy-map");
    const HAS_PRESS: bool = true;
    const TAKES_DAILY_DEADLINE: bool = true;
    const ORDERS_BY_LINE: bool = true;
    const RULES_FIT_THE_READER: bool = true;

    fn is_draw_vote(text: &str) -> bool {
        super::game::is_draw_vote(text)
    }

    /// The map's powers in the full game; a variant's or `powers`' count
    /// otherwise (invalid options are refused by `new_game`, which says why).
    fn seat_count(options: &Self::Options) -> usize {
        let Ok(map) = map_of(options) else {
            return Map::standard().power_count();
        };
        setup(map, &options.variant, &options.powers).map_or(map.power_count(), |s| s.powers.len())
    }

    fn new_game(mut options: Self::Options, seed: u64) -> Result<Self, OptionsError> {
        // `variant=fog` is the classic game with the `fog` option.
        options.fog |= is_fog_variant(&options.variant);
        let m = map_of(&options)?;
        let centres = m.supply_centres().count() as u32;
        if let Some(v) = options.victory_centres.filter(|v| *v == 0 || *v > centres) {
            return Err(OptionsError(format!(
                "victory_centres {v} is not between 1 and the map's {centres} centres \
                 ({} is the {} map's rule).",
                m.victory_centres(),
                m.title()
            )));
        }
        // The game starts in the map's first year and ends after the Winter
        // of `end_year`: an earlier year would end it after the first year
        // while saying it ran to that year.
        let first = m.start_year();
        if let Some(y) = options.end_year.filter(|y| *y < first) {
            return Err(OptionsError(format!(
                "end_year {y} is before the game starts ({first}); give {first} or later, or leave it out for no limit."
            )));
        }
        let start = setup(m, &options.variant, &options.powers)?;
        let powers = m.power_count();
        // The playing powers own their home centres; every other centre
        // starts neutral.
        let mut owners = vec![None; m.province_count()];
        for (i, p) in m.provinces().iter().enumerate() {
            owners[i] = p.home.filter(|h| start.powers.contains(h));
        }
        Ok(Diplomacy {
            options,
            map: MapRef::new(m),
            seats: start.powers,
            year: first,
            season: Season::Spring,
            phase: PhaseKind::Movement,
            units: start.units,
            owners,
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            draw_votes: vec![false; powers],
            disorder: vec![false; powers],
            missed_moves: vec![0; powers],
            ai_held: vec![false; powers],
            peak_centres: 0,
            still_years: 0,
            outcome: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            sight: None,
            over_for_host: false,
        })
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.seat_label(seat)
    }

    fn awaiting(&self) -> Vec<Seat> {
        self.seats_to_act()
    }

    /// Each line is an order, or one of `done`, `clear`, `draw`, `no draw`.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, ActionError> {
        self.parse_message(seat, text)
    }

    fn validate(&self, seat: Seat, action: &Self::Action) -> Result<(), ActionError> {
        self.validate_action(seat, action)
    }

    fn combine(&self, seat: Seat, pending: Self::Action, new: Self::Action) -> Self::Action {
        self.combine_actions(seat, pending, new)
    }

    /// Notes and refused lines answer one message: the receipt shows them,
    /// the pending orders (`/orders list`, the turn log) do not keep them.
    fn settled(&self, _seat: Seat, action: Self::Action) -> Self::Action {
        DiplomacyAction {
            notes: Vec::new(),
            refused: Vec::new(),
            more_refused: 0,
            clear: false,
            ..action
        }
    }

    fn is_final(&self, _seat: Seat, action: &Self::Action) -> bool {
        action.ready
    }

    fn describe_action(&self, seat: Seat, action: &Self::Action) -> String {
        self.describe_orders(seat, action)
    }

    fn resolve(&mut self, actions: BTreeMap<Seat, Self::Action>) -> TurnReport {
        self.resolve_phase(actions)
    }

    /// Units hold, retreats disband, builds are waived, removals follow the
    /// civil-disorder rule; the miss is marked so that two consecutive missed
    /// movement phases put the power in civil disorder.
    fn default_action(&self, _seat: Seat) -> Self::Action {
        DiplomacyAction {
            ready: true,
            missed: true,
            ..Default::default()
        }
    }

    /// A configured turn length applies to movement phases, half of it to
    /// retreats and adjustments; without one, the options' hours (48 / 24).
    fn turn_seconds(&self, configured: Option<u64>) -> Option<u64> {
        let movement = self.phase == PhaseKind::Movement;
        match configured {
            Some(c) if movement => Some(c),
            Some(c) => Some((c / 2).max(1)),
            None => {
                let h = if movement {
                    self.options.movement_hours
                } else {
                    self.options.adjustment_hours
                };
                (h > 0).then_some(u64::from(h) * 3600)
            }
        }
    }

    /// The `extensions` option: one per phase unless the game says otherwise.
    fn extensions_per_turn(&self) -> u32 {
        self.options.extensions
    }

    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        let mut text = String::new();
        if let Some(p) = self.power_of_seat(seat) {
            self.disorder[p.index()] = true;
            let _ = writeln!(
                text,
                "{} has left the game; its units are in civil disorder.",
                self.power_name(p)
            );
            self.check_last_standing(&mut text);
        }
        TurnReport {
            public: text,
            private: BTreeMap::new(),
            detail: None,
        }
    }

    /// Open: a surviving power in civil disorder in a game still going on.
    fn seat_open(&self, seat: Seat) -> bool {
        self.power_of_seat(seat)
            .is_some_and(|p| self.outcome.is_none() && self.disorder[p.index()] && self.alive(p))
    }

    /// In play: alive and not in civil disorder.
    fn seat_in_play(&self, seat: Seat) -> bool {
        self.power_of_seat(seat)
            .is_some_and(|p| !self.disorder[p.index()] && self.alive(p))
    }

    /// The power leaves civil disorder with no missed deadlines counted. It
    /// is awaited again at once: in the current phase already if it has
    /// something to do (a unit to order, a retreat, an adjustment).
    fn take_over(&mut self, seat: Seat) -> bool {
        let Some(p) = self.power_of_seat(seat).filter(|_| self.seat_open(seat)) else {
            return false;
        };
        let i = p.index();
        self.disorder[i] = false;
        self.missed_moves[i] = 0;
        // Whoever takes the seat decides its draw vote from now on: the
        // one who left may have voted, and nobody can see that vote.
        self.ai_held[i] = false;
        self.draw_votes[i] = false;
        true
    }

    /// Units (or builds and removals) without an order; a power with all
    /// of them ordered owes nothing, ready or not: its orders stand at the
    /// deadline ([`Diplomacy::missing_orders`]).
    fn outstanding(&self, seat: Seat, pending: Option<&Self::Action>) -> Outstanding {
        let Some(power) = self.power_of_seat(seat) else {
            return Outstanding::Unknown;
        };
        let orders = pending.map(|a| a.orders.as_slice()).unwrap_or_default();
        match self.missing_orders(power, orders) {
            Some(text) => Outstanding::Missing(text),
            None => Outstanding::Nothing,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// Supply centres owned (sum-of-squares scoring).
    fn strength(&self, seat: Seat) -> u32 {
        self.power_of_seat(seat)
            .map_or(0, |p| self.centre_count(p) as u32)
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        self.board_view(viewer)
    }

    /// Under Fog of War, while the game runs.
    fn hides_board(&self) -> bool {
        self.fog_hides()
    }

    /// The fog lifts ([`Diplomacy::end_by_host`]).
    fn end_by_host(&mut self) {
        Diplomacy::end_by_host(self)
    }

    /// A Fog of War phase's public text with every order and outcome.
    fn report_after_end(&self, report: &TurnReport) -> String {
        self.unsealed_report(report)
    }

    fn rules(&self, viewer: Option<Seat>) -> String {
        self.rules_text(viewer)
    }

    /// Powers, places and per-power tables within the game's map: saved
    /// powers are numbers since maps became data, and a number the map
    /// does not have would index past its tables.
    fn check_loaded(&self) -> Result<(), String> {
        self.check_within_map()
    }

    fn ai_levels() -> &'static [&'static str] {
        &[
            "default",
            "random",
            "hold",
            "dumbbot",
            "heuristic",
            "search1",
        ]
    }

    /// `default`: a sampled best response over DumbBot's policy improved
    /// unit by unit, voting for a draw once the game has stalled;
    /// `search1` (the default before it), `heuristic`, `random`, `hold` and
    /// `dumbbot` as [`ai_seat::action`] describes them.
    /// Under Fog of War the AI plays from the position its power sees
    /// ([`Diplomacy::seen_by`]): it cannot read hidden units.
    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> Self::Action {
        match self.power_of_seat(seat).filter(|_| self.fog_hides()) {
            Some(power) => ai_seat::action(&self.seen_by(power), seat, level, budget, seed),
            None => ai_seat::action(self, seat, level, budget, seed),
        }
    }
}

/// The map the `map` option names: bundled or installed by the operator.
fn map_of(options: &DiplomacyOptions) -> Result<&'static Map, OptionsError> {
    let id = options.map.trim();
    if id.is_empty() {
        return Ok(Map::standard());
    }
    find_map(id).ok_or_else(|| {
        let known: Vec<String> = bundled_maps()
            .into_iter()
            .chain(installed_maps())
            .map(|m| format!("`{}` ({})", m.id(), m.title()))
            .collect();
        OptionsError(format!(
            "`{}` is not a map on this server. Maps: {}.",
            crate::clip::clip_typed(id),
            known.join(", ")
        ))
    })
}
