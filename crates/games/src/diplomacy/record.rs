//! Adjudication of one test record in the shape of `datc.jsonl`: the engine
//! behind `gamehost diplomacy adjudicate` and the DATC test.

use super::game::{Diplomacy, DiplomacyAction, Season};
use super::geo::{Bits, Map, Power, ProvId};
use super::judge::{
    Dislodgement, PhaseKind, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
};
use super::order::{Order, OrderKind, Unit, UnitKind, parse_order};
use crate::clip::clip_typed;
use crate::seam::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A unit as written in records: `{"power": "England", "type": "F", "at": "stp/sc"}`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecUnit {
    /// Power name.
    pub power: String,
    /// `A` or `F`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Location abbreviation (`spa/nc`).
    pub at: String,
}

/// A dislodged unit as written in records.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecDislodged {
    /// Power name.
    pub power: String,
    /// `A` or `F`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Where it was dislodged.
    pub at: String,
    /// The attacker's origin.
    pub attacker_from: String,
    /// The attacker came by convoy, so the unit may retreat to its origin
    /// (written only when true; the DATC records leave it out).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_convoy: bool,
}

/// An order as written in records (other fields are ignored).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecOrder {
    /// Power name.
    pub power: String,
    /// The order text.
    pub text: String,
}

/// The movement phase before a retreat record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecPreceding {
    /// Units before the movement.
    pub units: Vec<RecUnit>,
    /// Movement orders.
    pub orders: Vec<RecOrder>,
}

/// The input record (fields of `datc.jsonl` that the adjudicator reads).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    /// Optional case id, echoed back.
    #[serde(default)]
    pub id: Option<String>,
    /// The map, by id; absent: the standard map (as in every DATC case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    /// `movement`, `retreat` or `adjustment`.
    pub phase: String,
    /// `spring`, `fall` or `winter` (informational; exported games write it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<String>,
    /// The year (informational; exported games write it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u16>,
    /// Units on the board.
    #[serde(default)]
    pub units: Vec<RecUnit>,
    /// Orders.
    #[serde(default)]
    pub orders: Vec<RecOrder>,
    /// Retreat: dislodged units.
    #[serde(default)]
    pub dislodged: Vec<RecDislodged>,
    /// Retreat: standoff provinces.
    #[serde(default)]
    pub standoffs: Vec<String>,
    /// Adjustment: centres by power.
    #[serde(default)]
    pub supply_centers: BTreeMap<String, Vec<String>>,
    /// Retreat: the movement phase to adjudicate first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preceding_movement: Option<RecPreceding>,
}

/// One order's result in the output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecResult {
    /// Power name as given.
    pub power: String,
    /// Order text as given.
    pub text: String,
    /// Canonical form (`null` if it did not parse).
    pub canonical: Option<String>,
    /// `succeeds` or `fails`.
    pub result: String,
    /// Why it was illegal or failed.
    pub reason: Option<String>,
}

/// The adjudicator's answer for one record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RecOutput {
    /// The record's id, if it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// One per input order, in input order.
    pub results: Vec<RecResult>,
    /// Units after the phase, sorted.
    pub final_units: Vec<RecUnit>,
    /// Movement: dislodged units (retreat with a preceding movement: those of it).
    pub dislodged: Vec<RecDislodged>,
    /// Movement: provinces left empty by a standoff.
    pub standoffs: Vec<String>,
    /// Retreat: dislodged units that did not retreat.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disbanded: Vec<RecUnit>,
    /// Adjustment: units built.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub built: Vec<RecUnit>,
    /// Adjustment: units removed (by order and by civil disorder).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<RecUnit>,
    /// Adjustment: units removed by civil disorder.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub civil_disorder_disbands: Vec<RecUnit>,
    /// Retreat: the results of the preceding movement phase, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preceding_movement: Option<Box<RecOutput>>,
}

/// The largest record `adjudicate` and `render` read, in bytes (a line of
/// `adjudicate --jsonl` included): a real one, a full board with its orders
/// and centres, is a few kilobytes.
pub const MAX_RECORD_BYTES: usize = 256 * 1024;
/// The longest record id, in characters (`render` writes it as the title).
pub const MAX_ID_CHARS: usize = 200;
/// The most orders one record (or its preceding movement) may carry: 34
/// units is a full board; the margin leaves room for the illegal and
/// repeated orders test cases give.
pub const MAX_ORDERS: usize = 200;
/// The longest order text in a record, in characters.
pub const MAX_ORDER_CHARS: usize = 200;
/// Refuses a record beyond the limits above, or describing a board that
/// cannot exist (more units than provinces, too many orders, an overlong
/// id or order), before any work is done on it. Positions are checked unit
/// by unit as they are read ([`units_from`]).
pub fn check_record(map: &Map, rec: &Record) -> Result<(), String> {
    if let Some(id) = &rec.id
        && id.chars().take(MAX_ID_CHARS + 1).count() > MAX_ID_CHARS
    {
        return Err(format!(
            "the id is longer than {MAX_ID_CHARS} characters; give a short name"
        ));
    }
    let provinces = map.province_count();
    let count = |what: &str, n: usize, max: usize, why: &str| {
        if n > max {
            Err(format!("the record has {n} {what}; at most {max} {why}"))
        } else {
            Ok(())
        }
    };
    let one_each = "(one per province)";
    let mut boards = vec![(&rec.units, &rec.orders, "")];
    if let Some(pm) = &rec.preceding_movement {
        boards.push((&pm.units, &pm.orders, "preceding-movement "));
    }
    for (units, orders, of) in boards {
        count(&format!("{of}units"), units.len(), provinces, one_each)?;
        count(
            &format!("{of}orders"),
            orders.len(),
            MAX_ORDERS,
            "are accepted",
        )?;
        if let Some((i, _)) = orders
            .iter()
            .enumerate()
            .find(|(_, o)| o.text.chars().take(MAX_ORDER_CHARS + 1).count() > MAX_ORDER_CHARS)
        {
            return Err(format!(
                "{of}order {} is longer than {MAX_ORDER_CHARS} characters; an order is one line like `A Par - Bur`",
                i + 1
            ));
        }
    }
    count("dislodged units", rec.dislodged.len(), provinces, one_each)?;
    count("standoffs", rec.standoffs.len(), provinces, one_each)?;
    let centres: usize = rec.supply_centers.values().map(Vec::len).sum();
    count("supply centres", centres, provinces, one_each)?;
    Ok(())
}

/// The map a record is on: the one its `map` names (bundled or
/// installed), else `default`.
pub fn map_of_record<'a>(default: &'a Map, rec: &Record) -> Result<&'a Map, String> {
    match rec.map.as_deref() {
        None => Ok(default),
        Some(id) if id == default.id() => Ok(default),
        Some(id) => super::geo::find_map(id)
            .map(|m| m as &Map)
            .ok_or_else(|| format!("unknown map {}", clip_typed(id))),
    }
}

/// Converts a record unit to a board unit, refusing a unit that cannot
/// stand where the record puts it: an army at sea or on a named coast, a
/// fleet inland, a fleet in a split-coast province without its coast.
pub fn unit_from(map: &Map, u: &RecUnit) -> Result<Unit, String> {
    use super::geo::Terrain;
    let power = map
        .parse_power(&u.power)
        .ok_or_else(|| format!("unknown power {}", clip_typed(&u.power)))?;
    let kind = match u.kind.to_ascii_uppercase().as_str() {
        "A" | "ARMY" => UnitKind::Army,
        "F" | "FLEET" => UnitKind::Fleet,
        _ => {
            return Err(format!(
                "unknown unit type {}; expected A or F",
                clip_typed(&u.kind)
            ));
        }
    };
    let loc = map
        .loc_by_abbr(&u.at)
        .ok_or_else(|| format!("unknown location {}", clip_typed(&u.at)))?;
    let l = map.loc(loc);
    let prov = map.prov(l.prov);
    let fits = match kind {
        UnitKind::Army => {
            matches!(prov.terrain, Terrain::Land | Terrain::Coast) && l.coast.is_none()
        }
        UnitKind::Fleet => {
            matches!(prov.terrain, Terrain::Sea | Terrain::Coast)
                && (prov.coasts.is_empty() == l.coast.is_none())
        }
    };
    if !fits {
        let hint = match (kind, prov.terrain) {
            (UnitKind::Army, Terrain::Sea) => "an army cannot be at sea".to_string(),
            (UnitKind::Army, _) if l.coast.is_some() => format!(
                "an army stands in the province ({}), not on a coast",
                prov.abbr
            ),
            (UnitKind::Fleet, Terrain::Land) => format!("{} has no coast", prov.name),
            (UnitKind::Fleet, _) if !prov.coasts.is_empty() => format!(
                "a fleet in {} must name its coast: {}",
                prov.name,
                prov.coasts
                    .iter()
                    .map(|c| map.loc(*c).abbr.as_str())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            _ => "no unit can stand there".to_string(),
        };
        return Err(format!(
            "{} {} {} cannot exist: {hint}",
            map.power_name(power),
            kind.letter(),
            l.abbr
        ));
    }
    Ok(Unit { power, kind, loc })
}

/// Converts the units of a record, refusing two in one province.
pub fn units_from(map: &Map, units: &[RecUnit]) -> Result<Vec<Unit>, String> {
    let mut seen: Bits = 0;
    let mut out = Vec::with_capacity(units.len().min(map.province_count()));
    for u in units {
        let unit = unit_from(map, u)?;
        let p = map.prov_of(unit.loc);
        if seen & (1u128 << p) != 0 {
            return Err(format!(
                "two units in {}: a province holds at most one unit",
                map.prov(p).name
            ));
        }
        seen |= 1u128 << p;
        out.push(unit);
    }
    Ok(out)
}

/// Converts a unit to record form.
/// A dislodged unit in record form.
fn rec_dislodged(map: &Map, d: &Dislodgement) -> RecDislodged {
    let u = rec_unit(map, &d.unit);
    RecDislodged {
        power: u.power,
        kind: u.kind,
        at: u.at,
        attacker_from: map.prov(d.attacker_from).abbr.clone(),
        by_convoy: d.by_convoy,
    }
}

pub fn rec_unit(map: &Map, u: &Unit) -> RecUnit {
    RecUnit {
        power: map.power_name(u.power).into(),
        kind: u.kind.letter().into(),
        at: map.loc(u.loc).abbr.clone(),
    }
}

fn sorted(mut v: Vec<RecUnit>) -> Vec<RecUnit> {
    v.sort();
    v
}

/// Each order's power and its parse (or the parse error text).
type Parsed = Vec<(Power, Result<Order, String>)>;

fn parse_all(map: &Map, orders: &[RecOrder]) -> Result<Parsed, String> {
    orders
        .iter()
        .map(|o| {
            let p = map
                .parse_power(&o.power)
                .ok_or_else(|| format!("unknown power {}", clip_typed(&o.power)))?;
            Ok((p, parse_order(map, &o.text).map_err(|e| e.to_string())))
        })
        .collect()
}

/// Runs the parsed orders through `judge`, which sees only the orders that
/// parsed; the results are merged back in input order.
fn results(
    map: &Map,
    given: &[RecOrder],
    parsed: &[(Power, Result<Order, String>)],
    units: &[Unit],
    outcomes: &[super::judge::OrderOutcome],
) -> Vec<RecResult> {
    let mut k = 0;
    given
        .iter()
        .zip(parsed)
        .map(|(g, (_, p))| match p {
            Ok(o) => {
                let oc = outcomes[k];
                k += 1;
                // Print the unit type from the board when the text left it out.
                let o = match o
                    .at()
                    .and_then(|l| units.iter().find(|u| map.prov_of(u.loc) == map.prov_of(l)))
                {
                    Some(u) if matches!(o, Order::Unit { unit: None, .. }) => o.with_unit(u.kind),
                    _ => *o,
                };
                RecResult {
                    power: g.power.clone(),
                    text: g.text.clone(),
                    canonical: Some(o.canonical(map)),
                    result: if oc.success { "succeeds" } else { "fails" }.into(),
                    reason: oc.reason.map(|r| r.text(map)),
                }
            }
            Err(e) => RecResult {
                power: g.power.clone(),
                text: g.text.clone(),
                canonical: None,
                result: "fails".into(),
                reason: Some(e.clone()),
            },
        })
        .collect()
}

fn ok_orders(parsed: &[(Power, Result<Order, String>)]) -> Vec<(Power, Order)> {
    parsed
        .iter()
        .filter_map(|(p, o)| o.as_ref().ok().map(|o| (*p, *o)))
        .collect()
}

fn movement(
    map: &Map,
    units_in: &[RecUnit],
    orders: &[RecOrder],
) -> Result<(RecOutput, Vec<Unit>, Vec<Dislodgement>, Bits), String> {
    let units = units_from(map, units_in)?;
    let parsed = parse_all(map, orders)?;
    let r = adjudicate_movement(map, &units, &ok_orders(&parsed));
    let out = RecOutput {
        results: results(map, orders, &parsed, &units, &r.orders),
        final_units: sorted(r.final_units.iter().map(|u| rec_unit(map, u)).collect()),
        dislodged: r.dislodged.iter().map(|d| rec_dislodged(map, d)).collect(),
        standoffs: super::geo::BitIter(r.standoffs)
            .map(|p| map.prov(p).abbr.clone())
            .collect(),
        ..Default::default()
    };
    Ok((out, r.final_units, r.dislodged, r.standoffs))
}

/// Adjudicates one record.
pub fn adjudicate_record(map: &Map, rec: &Record) -> Result<RecOutput, String> {
    let map = map_of_record(map, rec)?;
    check_record(map, rec)?;
    let mut out = match rec.phase.as_str() {
        "movement" => movement(map, &rec.units, &rec.orders)?.0,
        "retreat" => retreat_record(map, rec)?,
        "adjustment" => adjustment_record(map, rec)?,
        p => {
            return Err(format!(
                "unknown phase `{}`; expected movement, retreat or adjustment",
                clip_typed(p)
            ));
        }
    };
    out.id = rec.id.clone();
    Ok(out)
}

/// A retreat record: the position to retreat from comes from the preceding
/// movement when the record has one, else from its own units, dislodged
/// units and standoffs.
fn retreat_record(map: &Map, rec: &Record) -> Result<RecOutput, String> {
    let (units, dislodged, standoffs, pre) = match &rec.preceding_movement {
        Some(pm) => {
            let (o, units, d, s) = movement(map, &pm.units, &pm.orders)?;
            (units, d, s, Some(Box::new(o)))
        }
        None => {
            let units = units_from(map, &rec.units)?;
            let (d, s) = dislodged_and_standoffs(map, rec)?;
            (units, d, s, None)
        }
    };
    let parsed = parse_all(map, &rec.orders)?;
    let r = adjudicate_retreats(map, &units, &dislodged, standoffs, &ok_orders(&parsed));
    let all: Vec<Unit> = units
        .iter()
        .copied()
        .chain(dislodged.iter().map(|d| d.unit))
        .collect();
    Ok(RecOutput {
        results: results(map, &rec.orders, &parsed, &all, &r.orders),
        final_units: sorted(r.final_units.iter().map(|u| rec_unit(map, u)).collect()),
        disbanded: sorted(r.disbanded.iter().map(|u| rec_unit(map, u)).collect()),
        preceding_movement: pre,
        ..Default::default()
    })
}

/// The record's dislodged units (at most one per province) and standoff
/// provinces, as the retreat adjudicator takes them.
fn dislodged_and_standoffs(map: &Map, rec: &Record) -> Result<(Vec<Dislodgement>, Bits), String> {
    let mut dislodged_at: Bits = 0;
    let d = rec
        .dislodged
        .iter()
        .map(|d| {
            let unit = unit_from(
                map,
                &RecUnit {
                    power: d.power.clone(),
                    kind: d.kind.clone(),
                    at: d.at.clone(),
                },
            )?;
            let p = map.prov_of(unit.loc);
            if dislodged_at & (1u128 << p) != 0 {
                return Err(format!(
                    "two dislodged units in {}: at most one per province",
                    map.prov(p).name
                ));
            }
            dislodged_at |= 1u128 << p;
            let from = map
                .prov_by_abbr(&d.attacker_from)
                .ok_or_else(|| format!("unknown province {}", clip_typed(&d.attacker_from)))?;
            Ok(Dislodgement {
                unit,
                attacker_from: from,
                by_convoy: d.by_convoy,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut s: Bits = 0;
    for a in &rec.standoffs {
        s |= 1u128
            << map
                .prov_by_abbr(a)
                .ok_or_else(|| format!("unknown province {}", clip_typed(a)))?;
    }
    Ok((d, s))
}

/// An adjustment record: builds and removals against the record's centres.
fn adjustment_record(map: &Map, rec: &Record) -> Result<RecOutput, String> {
    let units = units_from(map, &rec.units)?;
    let mut owners: Vec<Option<Power>> = vec![None; map.province_count()];
    for (pw, list) in &rec.supply_centers {
        let pw = map
            .parse_power(pw)
            .ok_or_else(|| format!("unknown power {}", clip_typed(pw)))?;
        for a in list {
            let p = map
                .prov_by_abbr(a)
                .ok_or_else(|| format!("unknown province {}", clip_typed(a)))?;
            owners[p as usize] = Some(pw);
        }
    }
    let parsed = parse_all(map, &rec.orders)?;
    let r = adjudicate_adjustments(map, &units, &owners, &ok_orders(&parsed));
    Ok(RecOutput {
        results: results(map, &rec.orders, &parsed, &units, &r.orders),
        final_units: sorted(r.final_units.iter().map(|u| rec_unit(map, u)).collect()),
        built: r.built.iter().map(|u| rec_unit(map, u)).collect(),
        removed: r
            .removed
            .iter()
            .chain(&r.civil_disorder)
            .map(|u| rec_unit(map, u))
            .collect(),
        civil_disorder_disbands: r.civil_disorder.iter().map(|u| rec_unit(map, u)).collect(),
        ..Default::default()
    })
}

/// Marks every order as a retreat when it was written as a move (retreat phase).
pub fn as_retreat(o: Order) -> Order {
    match o {
        Order::Unit {
            unit,
            at,
            kind:
                OrderKind::Move {
                    to,
                    via_convoy: false,
                },
        } => Order::Unit {
            unit,
            at,
            kind: OrderKind::Retreat { to },
        },
        o => o,
    }
}

impl Diplomacy {
    /// This phase as an `adjudicate` record: the position before the phase
    /// (units, dislodged units, standoffs, centre owners) and the orders it
    /// adjudicates from `actions` (see [`Diplomacy::orders_to_adjudicate`]),
    /// each in canonical text. Only orders are written: draw votes and the
    /// rest of an action stay secret. With no actions it is the bare position.
    pub fn phase_record(&self, actions: &BTreeMap<Seat, DiplomacyAction>) -> Record {
        let map = self.map();
        let mut supply_centers: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (prov, owner) in self.owners().iter().enumerate() {
            if let Some(p) = owner {
                supply_centers
                    .entry(map.power_name(*p).to_string())
                    .or_default()
                    .push(map.prov(prov as ProvId).abbr.clone());
            }
        }
        let season = match self.season() {
            Season::Spring => "spring",
            Season::Fall => "fall",
            Season::Winter => "winter",
        };
        Record {
            map: (map.id() != "standard").then(|| map.id().to_string()),
            id: Some(format!("{} {}", capitalised(season), self.year())),
            phase: self.phase().name().to_string(),
            season: Some(season.to_string()),
            year: Some(self.year()),
            units: sorted(self.units().iter().map(|u| rec_unit(map, u)).collect()),
            orders: self
                .orders_to_adjudicate(actions)
                .iter()
                .map(|(p, o)| RecOrder {
                    power: map.power_name(*p).to_string(),
                    text: o.canonical(map),
                })
                .collect(),
            dislodged: self
                .dislodged()
                .iter()
                .map(|d| rec_dislodged(map, d))
                .collect(),
            // Standoffs only bind retreats (the engine keeps the last
            // movement's until a retreat phase clears them).
            standoffs: match self.phase() {
                PhaseKind::Retreat => super::geo::BitIter(self.standoff_provinces())
                    .map(|p| map.prov(p).abbr.clone())
                    .collect(),
                _ => Vec::new(),
            },
            supply_centers,
            preceding_movement: None,
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// The records of a whole game: one per resolved phase, from each phase's
/// state before it (engine JSON) and the actions it was resolved with (by
/// seat, engine JSON), then the current position with no orders.
/// Adjudicating record `i` gives the position of record `i + 1`.
pub fn game_records<'a>(
    phases: impl IntoIterator<Item = (&'a str, &'a BTreeMap<Seat, serde_json::Value>)>,
    current: &str,
) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for (n, (state, actions)) in phases.into_iter().enumerate() {
        let g: Diplomacy = serde_json::from_str(state)
            .map_err(|e| format!("phase {n}: the position cannot be read: {e}"))?;
        let actions = actions
            .iter()
            .map(|(s, v)| {
                serde_json::from_value::<DiplomacyAction>(v.clone())
                    .map(|a| (*s, a))
                    .map_err(|e| format!("phase {n}: the orders of seat {s} cannot be read: {e}"))
            })
            .collect::<Result<BTreeMap<_, _>, _>>()?;
        out.push(g.phase_record(&actions));
    }
    let g: Diplomacy = serde_json::from_str(current)
        .map_err(|e| format!("the current position cannot be read: {e}"))?;
    out.push(g.phase_record(&BTreeMap::new()));
    Ok(out)
}
