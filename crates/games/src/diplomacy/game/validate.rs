//! Order validation: one order line checked against the position, a
//! player's message parsed into an action, and pending actions combined.

use super::legality::Refused;
use super::{Diplomacy, DiplomacyAction, MAX_ERRORS_LISTED, Refusal, err};
use crate::diplomacy::geo::{Map, Power};
use crate::diplomacy::judge::{PhaseKind, adjust::adjustment_count, retreat::retreat_options};
use crate::diplomacy::order::{Order, OrderKind, loc_name, parse_order, unit_name};
use crate::seam::{ActionError, Seat};

impl Diplomacy {
    /// Parses and checks one order line for `power` in the current phase.
    pub fn check_line(&self, power: Power, line: &str) -> Result<Order, ActionError> {
        let o = parse_order(self.map(), line).map_err(|e| err(e.problem, e.expected))?;
        self.check_parsed(power, o, line)
    }

    /// [`Diplomacy::check_line`] without the refusal's hint (the same
    /// verdict, cheaper): for checks that only need the answer.
    #[cfg(test)]
    pub(super) fn line_verdict(&self, power: Power, line: &str) -> Option<Order> {
        let o = parse_order(self.map(), line).ok()?;
        self.check_unhinted(power, o, line).ok()
    }

    /// Checks one order (as the menus build it, not typed) for `power` in
    /// the current phase: exactly the legality [`Diplomacy::check_line`]
    /// applies once a line is parsed.
    pub fn check_order(&self, power: Power, o: Order) -> Result<Order, ActionError> {
        self.check_parsed(power, o, &o.canonical(self.map()))
    }

    /// [`Diplomacy::check_unhinted`] with the power's hint added to a
    /// refusal by the rules.
    fn check_parsed(&self, power: Power, o: Order, line: &str) -> Result<Order, ActionError> {
        if self.fog_hides() {
            // The hint, too, is written from what the power sees.
            return self.seen_by(power).check_parsed(power, o, line);
        }
        self.check_unhinted(power, o, line)
            .map_err(|refused| match refused {
                Refused::Explained(refusal) => refusal,
                Refused::ByRules(problem) => err(problem, self.hint(power)),
            })
    }

    /// Up to three orders `power` could really give now, as examples in a
    /// hint: a move, a support and a convoy of its own units where it has
    /// them (France's `A Par - Bur` means nothing to Turkey). A support or
    /// convoy of one of the power's own units is preferred, a support to
    /// move over a support to hold. A power with no unit that can do any of
    /// these gets the rulebook's examples.
    pub(super) fn movement_examples(&self, power: Power) -> Vec<String> {
        use super::order_choice::OrderChoice;
        let m = self.map();
        let own = |at: crate::diplomacy::geo::LocId| {
            self.units
                .iter()
                .any(|u| u.power == power && m.prov_of(u.loc) == m.prov_of(at))
        };
        // Lower is a better example.
        let rank = |o: &Order| match o {
            Order::Unit {
                kind: OrderKind::Support { from, to, .. },
                ..
            } => u8::from(!own(*from)) * 2 + u8::from(to.is_none()),
            Order::Unit {
                kind: OrderKind::Convoy { from, .. },
                ..
            } => u8::from(!own(*from)),
            _ => 0,
        };
        let mut best: [(OrderChoice, Option<(u8, Order)>); 3] = [
            (OrderChoice::Move, None),
            (OrderChoice::Support, None),
            (OrderChoice::Convoy, None),
        ];
        for unit in self.units.iter().filter(|u| u.power == power) {
            // Enough once a move and a support of one's own moving unit are
            // found: each unit's orders cost a check of every candidate.
            if best[..2]
                .iter()
                .all(|(_, slot)| slot.as_ref().is_some_and(|(r, _)| *r == 0))
            {
                break;
            }
            for o in self.legal_unit_orders(power, unit.loc) {
                let choice = OrderChoice::of(&o);
                if let Some((_, slot)) = best.iter_mut().find(|(c, _)| *c == choice) {
                    let r = rank(&o);
                    if slot.as_ref().is_none_or(|(old, _)| r < *old) {
                        *slot = Some((r, o));
                    }
                }
            }
        }
        let examples: Vec<String> = best
            .into_iter()
            .filter_map(|(_, o)| o.map(|(_, o)| format!("`{}`", o.canonical(m))))
            .collect();
        if examples.is_empty() {
            return [
                "`A Par - Bur`",
                "`F Lon S F Nth - Eng`",
                "`F Nth C A Lon - Nwy`",
            ]
            .map(String::from)
            .to_vec();
        }
        examples
    }

    /// What the power may order now, as a hint after a refused line.
    pub(super) fn hint(&self, power: Power) -> String {
        self.hint_with(power, &[])
    }

    /// The hint counting the orders already pending: builds and removals
    /// already ordered are not offered again.
    pub(super) fn hint_with(&self, power: Power, pending: &[Order]) -> String {
        let m = self.map();
        match self.phase {
            PhaseKind::Movement => {
                let us = self.unit_names_of(power);
                format!(
                    "Your units: {}. Write e.g. {}.",
                    us.join(", "),
                    self.movement_examples(power).join(", ")
                )
            }
            PhaseKind::Retreat => {
                let occ = self.occupied();
                let so = self.standoff_bits();
                let opts: Vec<String> = self
                    .dislodged
                    .iter()
                    .filter(|d| d.unit.power == power)
                    .map(|d| {
                        let o = retreat_options(m, occ, so, d);
                        let os: Vec<String> = o.iter().map(|&l| loc_name(m, l)).collect();
                        format!(
                            "{}: R {} or D",
                            unit_name(m, &d.unit),
                            if os.is_empty() {
                                "(none)".into()
                            } else {
                                os.join("/")
                            }
                        )
                    })
                    .collect();
                format!("Dislodged units: {}.", opts.join("; "))
            }
            PhaseKind::Adjustment => {
                let n = adjustment_count(m, &self.units, &self.owners, power);
                let taken = |at: Option<crate::diplomacy::geo::LocId>| {
                    pending
                        .iter()
                        .any(|x| x.at().map(|p| m.prov_of(p)) == at.map(|p| m.prov_of(p)))
                };
                if n > 0 {
                    let ordered = pending
                        .iter()
                        .filter(|x| matches!(x, Order::Build { .. } | Order::Waive))
                        .count() as i32;
                    let left = n - ordered;
                    if left <= 0 {
                        return format!(
                            "All {n} of your builds are ordered; send a new order for a centre to change it, or `clear`."
                        );
                    }
                    let b: Vec<String> = self
                        .build_choices(power)
                        .into_iter()
                        .filter(|o| !taken(o.at()))
                        .map(|o| o.canonical(m))
                        .collect();
                    let more = if ordered > 0 {
                        format!("{left} more (of {n})")
                    } else {
                        n.to_string()
                    };
                    format!("You may build {more}: {} (or `Waive`).", b.join(", "))
                } else if n < 0 {
                    let ordered = pending
                        .iter()
                        .filter(|x| matches!(x, Order::Unit { .. }))
                        .count() as i32;
                    let left = -n - ordered;
                    if left <= 0 {
                        return format!("All {} of your removals are ordered.", -n);
                    }
                    let us: Vec<String> = self
                        .units
                        .iter()
                        .filter(|u| u.power == power && !taken(Some(u.loc)))
                        .map(|u| unit_name(m, u))
                        .collect();
                    let more = if ordered > 0 { " more" } else { "" };
                    format!("You must remove {left}{more}: one of {}.", us.join(", "))
                } else {
                    "You have no adjustments this Winter.".into()
                }
            }
        }
    }

    /// [`crate::seam::Game::parse_action`]: each line is an order, or one of
    /// `done`, `clear`, `draw`, `no draw`. A line repeated is taken (or
    /// refused) once; a second order for a unit replaces the first; builds
    /// beyond the allowance are refused.
    pub(in crate::diplomacy) fn parse_message(
        &self,
        seat: Seat,
        text: &str,
    ) -> Result<DiplomacyAction, ActionError> {
        let Some(power) = self.power_of_seat(seat) else {
            let last = self.seats.len().saturating_sub(1);
            return Err(err(
                format!("Seat {seat} is not a power."),
                format!(
                    "Seats are 0 ({}) to {last} ({}).",
                    self.seats.first().map_or("?", |&p| self.power_name(p)),
                    self.seats.last().map_or("?", |&p| self.power_name(p))
                ),
            ));
        };
        if self.outcome.is_some() {
            return Err(err("The game is over.", "No more orders are taken."));
        }
        let mut a = DiplomacyAction::default();
        let mut errors: Vec<(String, ActionError)> = Vec::new();
        let mut any_ok = false;
        let generic = self.hint(power);
        for line in text
            .split(['\n', ';'])
            .flat_map(|l| self.orders_of_line(power, l))
        {
            let l = line.trim();
            if l.is_empty() {
                continue;
            }
            if apply_keyword(&mut a, l) {
                any_ok = true;
                continue;
            }
            match self.check_line(power, l) {
                Ok(o) => {
                    any_ok = true;
                    self.add_order(power, &mut a, o, Source::SameMessage);
                }
                Err(e) => errors.push((l.to_string(), e)),
            }
        }
        if !any_ok {
            return Err(nothing_understood(errors, generic));
        }
        for (l, e) in errors {
            let expected = if e.expected == generic {
                String::new()
            } else {
                e.expected
            };
            refuse(&mut a, &l, e.problem, expected);
        }
        Ok(a)
    }

    /// One typed line as the order lines it holds: orders pasted on one
    /// line with ` / ` between them (`A Bud - Ser / A Vie - Gal`, as guides
    /// and the README write them) are taken one by one, unless the whole
    /// line is itself an order (a coast written `Stp / nc`).
    fn orders_of_line<'a>(&self, power: Power, line: &'a str) -> Vec<&'a str> {
        if !line.contains(" / ") || self.check_line(power, line.trim()).is_ok() {
            return vec![line];
        }
        line.split(" / ").collect()
    }

    /// [`crate::seam::Game::validate`]: every order still legal.
    pub(in crate::diplomacy) fn validate_action(
        &self,
        seat: Seat,
        action: &DiplomacyAction,
    ) -> Result<(), ActionError> {
        let Some(power) = self.power_of_seat(seat) else {
            return Err(err(
                format!("Seat {seat} is not a power."),
                "Seats are 0 to 6.",
            ));
        };
        for o in &action.orders {
            self.check_line(power, &o.canonical(self.map()))?;
        }
        Ok(())
    }
}

/// Where an order being added comes from: the same message as the orders
/// already there (a second order for a unit is a typing slip), or a later
/// message (a change of mind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// The same message.
    SameMessage,
    /// A later message, merged into the pending orders.
    LaterMessage,
}

/// The most distinct refused lines one receipt lists, and the most
/// characters they take, so a receipt fits two Discord messages.
const MAX_REFUSALS_LISTED: usize = 15;
const MAX_REFUSAL_CHARS: usize = 1500;
/// The words that vote for a draw (a line of its own).
const DRAW_VOTE_WORDS: [&str; 3] = ["draw", "vote draw", "propose draw"];

/// Whether a message is a draw vote and nothing else (`draw`, `vote
/// draw`, `propose draw`, in any case, a full stop allowed): front-ends
/// ask for a confirmation before sending it, since a draw can end the game
/// at once (AI powers accept one).
pub fn is_draw_vote(message: &str) -> bool {
    let l = message.trim().to_ascii_lowercase();
    DRAW_VOTE_WORDS.contains(&l.trim_end_matches(['.', '!']))
}

/// Applies a line that is one of the words `done`, `clear`, `draw` or
/// `no draw` (or their synonyms) to `a`; false when it is none of them.
fn apply_keyword(a: &mut DiplomacyAction, line: &str) -> bool {
    match line.to_ascii_lowercase().trim_end_matches(['.', '!']) {
        "done" | "ready" | "submit" | "end" | "finish" | "finished" => a.ready = true,
        "clear" | "reset" => {
            a.clear = true;
            a.orders.clear();
        }
        w if DRAW_VOTE_WORDS.contains(&w) => a.draw = Some(true),
        "no draw" | "nodraw" | "withdraw draw" | "cancel draw" => a.draw = Some(false),
        _ => return false,
    }
    true
}

/// The one error for a message with nothing usable in it: each distinct bad
/// line (counted when repeated), up to [`MAX_ERRORS_LISTED`].
fn nothing_understood(errors: Vec<(String, ActionError)>, generic: String) -> ActionError {
    let mut distinct: Vec<(String, ActionError, usize)> = Vec::new();
    for (l, e) in errors {
        match distinct
            .iter_mut()
            .find(|(d, _, _)| d.eq_ignore_ascii_case(&l))
        {
            Some(d) => d.2 += 1,
            None => distinct.push((l, e, 1)),
        }
    }
    let unlisted: usize = distinct
        .iter()
        .skip(MAX_ERRORS_LISTED)
        .map(|(_, _, n)| n)
        .sum();
    let more = (unlisted > 0).then(|| format!("({unlisted} more lines not understood.)"));
    let counted = |e: &ActionError, n: usize| {
        if n > 1 {
            format!("{} ({n} times)", e.problem)
        } else {
            e.problem.clone()
        }
    };
    match distinct.len() {
        0 => err("No orders found.", generic),
        1 => {
            let (_, e, n) = distinct.remove(0);
            err(counted(&e, n), e.expected)
        }
        _ => err(
            distinct
                .iter()
                .take(MAX_ERRORS_LISTED)
                .map(|(_, e, n)| counted(e, *n))
                .chain(more)
                .collect::<Vec<_>>()
                .join(" "),
            distinct[0].1.expected.clone(),
        ),
    }
}

/// Records a refused line once: a repeat only counts.
fn refuse(a: &mut DiplomacyAction, line: &str, problem: String, expected: String) {
    let line = crate::clip::clip_typed(line);
    if let Some(r) = a
        .refused
        .iter_mut()
        .find(|r| r.line.eq_ignore_ascii_case(&line))
    {
        r.times += 1;
        return;
    }
    let used: usize = a
        .refused
        .iter()
        .map(|r| r.line.len() + r.problem.len() + r.expected.len())
        .sum();
    if a.refused.len() >= MAX_REFUSALS_LISTED
        || used + line.len() + problem.len() + expected.len() > MAX_REFUSAL_CHARS
    {
        a.more_refused += 1;
        return;
    }
    a.refused.push(Refusal {
        line,
        problem,
        expected,
        times: 1,
    });
}

impl Diplomacy {
    /// [`crate::seam::Game::combine`]: newly typed orders merged into the
    /// pending ones, a new order for a unit replacing the old one (said
    /// only when it differs), builds beyond the allowance refused.
    pub(in crate::diplomacy) fn combine_actions(
        &self,
        seat: Seat,
        pending: DiplomacyAction,
        new: DiplomacyAction,
    ) -> DiplomacyAction {
        let mut a = if new.clear {
            DiplomacyAction::default()
        } else {
            pending
        };
        a.notes.clear();
        a.refused.clear();
        a.more_refused = 0;
        a.notes.extend(new.notes);
        a.refused.extend(new.refused);
        a.more_refused = new.more_refused;
        if let Some(power) = self.power_of_seat(seat) {
            for o in new.orders {
                self.add_order(power, &mut a, o, Source::LaterMessage);
            }
        }
        a.ready = a.ready || new.ready;
        if new.draw.is_some() {
            a.draw = new.draw;
        }
        a
    }

    /// Adds one checked order: the same order again changes nothing and says
    /// nothing; another order for the same unit (or build site) replaces it;
    /// a build, waive or removal beyond what the power may do is refused.
    pub(super) fn add_order(&self, power: Power, a: &mut DiplomacyAction, o: Order, from: Source) {
        let m = self.map();
        if a.orders.contains(&o) && !matches!(o, Order::Waive) {
            return;
        }
        let same_place = |x: &Order| match (x.at(), o.at()) {
            (Some(p), Some(q)) => {
                m.prov_of(p) == m.prov_of(q)
                    && matches!(
                        (x, &o),
                        (Order::Unit { .. }, Order::Unit { .. })
                            | (Order::Build { .. }, Order::Build { .. })
                    )
            }
            _ => false,
        };
        if let Some(i) = a.orders.iter().position(same_place) {
            let old = a.orders[i];
            a.orders[i] = o;
            a.notes.push(match from {
                Source::SameMessage => format!(
                    "Two orders for `{}` in one message: kept the last, `{}`.",
                    old_unit(&old, m),
                    o.canonical(m)
                ),
                Source::LaterMessage => {
                    format!("Changed `{}` to `{}`.", old.canonical(m), o.canonical(m))
                }
            });
            return;
        }
        if self.phase == PhaseKind::Adjustment {
            let n = adjustment_count(m, &self.units, &self.owners, power);
            let builds = a
                .orders
                .iter()
                .filter(|x| matches!(x, Order::Build { .. } | Order::Waive))
                .count() as i32;
            let removals = a
                .orders
                .iter()
                .filter(|x| matches!(x, Order::Unit { .. }))
                .count() as i32;
            let over = match o {
                Order::Build { .. } | Order::Waive => (builds >= n).then(|| {
                    format!(
                        "you may build {n} this Winter and {builds} {} already ordered.",
                        if builds == 1 { "is" } else { "are" }
                    )
                }),
                Order::Unit { .. } => (removals >= -n).then(|| {
                    format!(
                        "you must remove {} this Winter and {removals} {} already ordered.",
                        -n,
                        if removals == 1 { "is" } else { "are" }
                    )
                }),
            };
            if let Some(why) = over {
                refuse(
                    a,
                    &o.canonical(m),
                    format!("One too many: {why}"),
                    String::new(),
                );
                return;
            }
        }
        a.orders.push(o);
    }
}

/// The unit (or build site) an order is for, as players write it.
fn old_unit(o: &Order, m: &Map) -> String {
    match *o {
        Order::Unit { unit, at, .. } => format!(
            "{} {}",
            unit.map(|u| u.letter()).unwrap_or("?"),
            loc_name(m, at)
        ),
        Order::Build { at, .. } => format!("Build {}", loc_name(m, at)),
        Order::Waive => "Waive".into(),
    }
}
