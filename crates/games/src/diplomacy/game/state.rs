//! The position's state as seen from outside: accessors, the phase name,
//! occupied and standoff provinces, legal builds, and the orders a phase
//! adjudicates.

use super::{Diplomacy, STALL_YEARS, Season};
use crate::diplomacy::geo::{Bits, Map, Power};
use crate::diplomacy::judge::{Dislodgement, PhaseKind, adjust::check_build};
use crate::diplomacy::order::{Order, Unit, UnitKind};
use crate::seam::Seat;

impl Diplomacy {
    /// The units of `power` that must be ordered this phase and have no
    /// order among `orders` (movement: its units; retreats: its dislodged
    /// units; adjustments: none, builds and removals are counted instead).
    pub fn units_without_orders(&self, power: Power, orders: &[Order]) -> Vec<Unit> {
        let m = self.map();
        let ordered = |u: &Unit| {
            orders
                .iter()
                .any(|o| matches!(o, Order::Unit { at, .. } if m.prov_of(*at) == m.prov_of(u.loc)))
        };
        match self.phase {
            PhaseKind::Movement => self
                .units
                .iter()
                .filter(|u| u.power == power && !ordered(u))
                .copied()
                .collect(),
            PhaseKind::Retreat => self
                .dislodged
                .iter()
                .map(|d| d.unit)
                .filter(|u| u.power == power && !ordered(u))
                .collect(),
            PhaseKind::Adjustment => Vec::new(),
        }
    }

    /// A seat's name: its power's (what the seam's `seat_name` answers).
    pub(in crate::diplomacy) fn seat_label(&self, seat: Seat) -> String {
        self.power_of_seat(seat)
            .map(|p| self.power_name(p).to_string())
            .unwrap_or_else(|| format!("Seat {seat}"))
    }

    /// The map the game is played on.
    pub fn map(&self) -> &'static Map {
        self.map.get()
    }
    /// A power's name on this game's map (`France`).
    pub fn power_name(&self, p: Power) -> &'static str {
        self.map.get().power_name(p)
    }
    /// Centres a power needs to win: the `victory_centres` option, else the map's.
    pub fn victory_centres(&self) -> u32 {
        self.options
            .victory_centres
            .unwrap_or_else(|| self.map.victory_centres())
    }
    /// Every power, province and place the state names exists on its map,
    /// and the per-power tables have one entry per power.
    pub(in crate::diplomacy) fn check_within_map(&self) -> Result<(), String> {
        let m = self.map();
        let powers = m.power_count();
        let bad_power = |p: &Power| p.index() >= powers;
        let bad_loc = |l: u8| l as usize >= m.location_count();
        if self.seats.iter().any(bad_power)
            || self
                .units
                .iter()
                .any(|u| bad_power(&u.power) || bad_loc(u.loc))
            || self.owners.iter().flatten().any(bad_power)
            || self.dislodged.iter().any(|d| {
                bad_power(&d.unit.power)
                    || bad_loc(d.unit.loc)
                    || d.attacker_from as usize >= m.province_count()
            })
            || self
                .standoffs
                .iter()
                .any(|&p| p as usize >= m.province_count())
        {
            return Err(format!(
                "a power or place that the {} map does not have",
                m.title()
            ));
        }
        if self.owners.len() != m.province_count()
            || [
                self.draw_votes.len(),
                self.disorder.len(),
                self.ai_held.len(),
            ]
            .iter()
            .chain([&self.missed_moves.len()])
            .any(|&n| n != powers)
        {
            return Err(format!(
                "tables that do not fit the {} map ({} powers, {} provinces)",
                m.title(),
                powers,
                m.province_count()
            ));
        }
        Ok(())
    }
    /// Current year.
    pub fn year(&self) -> u16 {
        self.year
    }
    /// Current season.
    pub fn season(&self) -> Season {
        self.season
    }
    /// Current phase kind.
    pub fn phase(&self) -> PhaseKind {
        self.phase
    }
    /// Units on the board.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// The names of `power`'s units as players write them (`A Vie`, `F Tri`).
    pub(super) fn unit_names_of(&self, power: Power) -> Vec<String> {
        let m = self.map();
        self.units
            .iter()
            .filter(|u| u.power == power)
            .map(|u| crate::diplomacy::order::unit_name(m, u))
            .collect()
    }
    /// Units dislodged and awaiting retreat orders.
    pub fn dislodged(&self) -> &[Dislodgement] {
        &self.dislodged
    }
    /// Centre owners by province id.
    pub fn owners(&self) -> &[Option<Power>] {
        &self.owners
    }
    /// Number of centres a power owns.
    pub fn centre_count(&self, p: Power) -> usize {
        self.owners.iter().filter(|o| **o == Some(p)).count()
    }
    /// The power seat `seat` plays (`None` past the last seat).
    pub fn power_of_seat(&self, seat: Seat) -> Option<Power> {
        self.seats.get(seat).copied()
    }

    /// The seat playing `power` (`None` when the variant leaves it out).
    pub fn seat_of(&self, power: Power) -> Option<Seat> {
        self.seats.iter().position(|&p| p == power)
    }

    /// The powers on the board, in seat order.
    pub fn playing_powers(&self) -> &[Power] {
        &self.seats
    }

    /// Whether a power is still in the game (has units or centres).
    pub fn alive(&self, p: Power) -> bool {
        self.centre_count(p) > 0 || self.units.iter().any(|u| u.power == p)
    }

    /// Whether the game has stalled: for the last [`STALL_YEARS`] years no
    /// power grew beyond the largest size any power had reached (the AI
    /// then votes for a draw).
    pub fn stalled(&self) -> bool {
        self.still_years >= STALL_YEARS
    }

    /// Whether a power is in civil disorder (left, or missed two movement deadlines).
    pub fn in_disorder(&self, p: Power) -> bool {
        self.disorder[p.index()]
    }

    /// Consecutive movement deadlines a power has missed.
    pub fn missed_moves(&self, p: Power) -> u8 {
        self.missed_moves[p.index()]
    }

    /// "Spring 1901 movement".
    pub fn phase_name(&self) -> String {
        let s = match self.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        };
        format!("{s} {} {}", self.year, self.phase.name())
    }

    pub(in crate::diplomacy) fn standoff_bits(&self) -> Bits {
        self.standoffs.iter().fold(0, |b, &p| b | 1u128 << p)
    }

    pub(in crate::diplomacy) fn occupied(&self) -> Bits {
        self.units
            .iter()
            .fold(0, |b, u| b | 1u128 << self.map().prov_of(u.loc))
    }

    /// Provinces where a standoff left them empty this phase (no retreats there).
    pub fn standoff_provinces(&self) -> Bits {
        self.standoff_bits()
    }

    /// Provinces with a unit on the board.
    pub fn occupied_provinces(&self) -> Bits {
        self.occupied()
    }

    /// Every legal build for `power` now (one per unit type and location).
    pub fn build_choices(&self, power: Power) -> Vec<Order> {
        let m = self.map();
        let occ = self.occupied();
        let mut out = Vec::new();
        for p in m.home_centres(power) {
            let prov = m.prov(p);
            let mut locs = vec![p];
            locs.extend(prov.coasts.iter().copied());
            for kind in [UnitKind::Army, UnitKind::Fleet] {
                for &l in &locs {
                    if check_build(m, occ, &self.owners, power, kind, l).is_ok()
                        && !(kind == UnitKind::Army && l != p)
                    {
                        out.push(Order::Build { unit: kind, at: l });
                    }
                }
            }
        }
        out
    }
}
