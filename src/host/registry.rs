//! The kinds of game the host can run, behind one type-erased interface.
//!
//! The host stores games and actions as JSON and never names an engine type;
//! [`AnyGame`] is the [`Game`] seam with JSON in place of the engine's own
//! action and option types, and [`Registry`] maps a kind name to its engine.

use crate::games::seam::{
    ActionChoice, ActionError, AiBudget, Game, OptionsError, Outcome, Seat, TurnReport, View,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// Why stored JSON could not be turned back into an engine value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} does not match the {kind} engine: {reason}")]
pub struct DecodeError {
    /// The engine kind.
    pub kind: &'static str,
    /// What was being decoded ("state", "action", "options").
    pub what: &'static str,
    /// The serde error.
    pub reason: String,
}

/// A game of any kind, as the host drives it.
pub trait AnyGame: Send + Sync {
    /// The engine kind.
    fn kind(&self) -> &'static str;
    /// The state as JSON text, for the store.
    fn state_json(&self) -> String;
    /// What players call a seat.
    fn seat_name(&self, seat: Seat) -> String;
    /// Seats that must act now.
    fn awaiting(&self) -> Vec<Seat>;
    /// Parses and validates a player's text into an action (as JSON).
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Value, ActionError>;
    /// Checks a stored action against the current position.
    fn validate(&self, seat: Seat, action: &Value) -> Result<(), ActionError>;
    /// Merges a new action into a pending one.
    fn combine(&self, seat: Seat, pending: &Value, new: &Value) -> Result<Value, DecodeError>;
    /// Whether a pending action is final.
    fn is_final(&self, seat: Seat, action: &Value) -> Result<bool, DecodeError>;
    /// Canonical text of an action.
    fn describe_action(&self, seat: Seat, action: &Value) -> Result<String, DecodeError>;
    /// Resolves one turn from the awaited seats' actions.
    fn resolve(&mut self, actions: &BTreeMap<Seat, Value>) -> Result<TurnReport, DecodeError>;
    /// The action given at a deadline.
    fn default_action(&self, seat: Seat) -> Value;
    /// See [`Game::turn_seconds`].
    fn turn_seconds(&self, configured: Option<u64>) -> Option<u64>;
    /// See [`Game::extensions_per_turn`].
    fn extensions_per_turn(&self) -> u32;
    /// The seat gives up.
    fn forfeit(&mut self, seat: Seat) -> TurnReport;
    /// See [`Game::seat_open`].
    fn seat_open(&self, seat: Seat) -> bool;
    /// See [`Game::seat_in_play`].
    fn seat_in_play(&self, seat: Seat) -> bool;
    /// See [`Game::take_over`].
    fn take_over(&mut self, seat: Seat) -> bool;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// What a viewer may see.
    fn view(&self, viewer: Option<Seat>) -> View;
    /// AI levels, default first.
    fn ai_levels(&self) -> &'static [&'static str];
    /// An AI action as JSON.
    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> Value;
    /// A copy, e.g. for an AI to think on outside the database lock.
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
}

/// Wraps an engine so it can be used as an [`AnyGame`].
#[derive(Clone)]
struct Erased<G: Game>(G);

fn decode<T: serde::de::DeserializeOwned>(
    kind: &'static str,
    what: &'static str,
    v: &Value,
) -> Result<T, DecodeError> {
    T::deserialize(v).map_err(|e| DecodeError {
        kind,
        what,
        reason: e.to_string(),
    })
}

fn encode<T: serde::Serialize>(v: &T) -> Value {
    // Engine types are plain data with derived Serialize; turning them into
    // a JSON value cannot fail (no maps with non-string keys are used).
    serde_json::to_value(v).unwrap_or(Value::Null)
}

impl<G: Game> AnyGame for Erased<G> {
    fn kind(&self) -> &'static str {
        G::KIND
    }
    fn state_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }
    fn seat_name(&self, seat: Seat) -> String {
        self.0.seat_name(seat)
    }
    fn awaiting(&self) -> Vec<Seat> {
        self.0.awaiting()
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Value, ActionError> {
        self.0.parse_action(seat, text).map(|a| encode(&a))
    }
    fn validate(&self, seat: Seat, action: &Value) -> Result<(), ActionError> {
        let a: G::Action = decode(G::KIND, "action", action).map_err(|e| {
            ActionError::new(
                format!("The stored action could not be read ({}).", e.reason),
                "Send the action again.",
            )
        })?;
        self.0.validate(seat, &a)
    }
    fn combine(&self, seat: Seat, pending: &Value, new: &Value) -> Result<Value, DecodeError> {
        let p: G::Action = decode(G::KIND, "action", pending)?;
        let n: G::Action = decode(G::KIND, "action", new)?;
        Ok(encode(&self.0.combine(seat, p, n)))
    }
    fn is_final(&self, seat: Seat, action: &Value) -> Result<bool, DecodeError> {
        let a: G::Action = decode(G::KIND, "action", action)?;
        Ok(self.0.is_final(seat, &a))
    }
    fn describe_action(&self, seat: Seat, action: &Value) -> Result<String, DecodeError> {
        let a: G::Action = decode(G::KIND, "action", action)?;
        Ok(self.0.describe_action(seat, &a))
    }
    fn resolve(&mut self, actions: &BTreeMap<Seat, Value>) -> Result<TurnReport, DecodeError> {
        let mut typed = BTreeMap::new();
        for (seat, v) in actions {
            typed.insert(*seat, decode::<G::Action>(G::KIND, "action", v)?);
        }
        Ok(self.0.resolve(typed))
    }
    fn default_action(&self, seat: Seat) -> Value {
        encode(&self.0.default_action(seat))
    }
    fn turn_seconds(&self, configured: Option<u64>) -> Option<u64> {
        self.0.turn_seconds(configured)
    }
    fn extensions_per_turn(&self) -> u32 {
        self.0.extensions_per_turn()
    }
    fn forfeit(&mut self, seat: Seat) -> TurnReport {
        self.0.forfeit(seat)
    }
    fn seat_open(&self, seat: Seat) -> bool {
        self.0.seat_open(seat)
    }
    fn seat_in_play(&self, seat: Seat) -> bool {
        self.0.seat_in_play(seat)
    }
    fn take_over(&mut self, seat: Seat) -> bool {
        self.0.take_over(seat)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn view(&self, viewer: Option<Seat>) -> View {
        self.0.view(viewer)
    }
    fn ai_levels(&self) -> &'static [&'static str] {
        G::ai_levels()
    }
    fn ai_action(&self, seat: Seat, level: &str, budget: AiBudget, seed: u64) -> Value {
        encode(&self.0.ai_action(seat, level, budget, seed))
    }
    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

/// Builds a new game of one kind from options and a seed.
type CreateFn = fn(&Value, u64) -> Result<Box<dyn AnyGame>, OptionsError>;

/// Everything the registry needs to know of one kind.
pub struct KindEntry {
    /// The kind's name (`Game::KIND`).
    pub name: &'static str,
    /// The AI levels the kind offers, default first.
    pub ai_levels: &'static [&'static str],
    /// Option keys only the operator may set ([`Game::OPERATOR_OPTIONS`]).
    pub operator_options: &'static [&'static str],
    create: CreateFn,
    load: fn(&str) -> Result<Box<dyn AnyGame>, DecodeError>,
    seat_count: fn(&Value) -> Result<usize, OptionsError>,
    check_keys: fn(&Value) -> Result<(), OptionsError>,
}

use serde::Deserialize;

fn options_of<G: Game>(options: &Value) -> Result<G::Options, OptionsError> {
    let options = if options.is_null() {
        Value::Object(Default::default())
    } else {
        options.clone()
    };
    G::Options::deserialize(options).map_err(|e| {
        OptionsError(format!(
            "Options for {} are not valid: {e}. Leave them out for the defaults.",
            G::KIND
        ))
    })
}

/// Refuses option keys the kind does not have, naming the ones it has.
/// Checked when a game is created, not when a stored game is loaded: the
/// options types ignore unknown keys so that older rows still load.
fn check_keys_kind<G: Game>(options: &Value) -> Result<(), OptionsError> {
    // Not an object: the options type refuses it with its own message.
    let Value::Object(given) = options else {
        return Ok(());
    };
    let Ok(Value::Object(known)) = serde_json::to_value(G::Options::default()) else {
        return Ok(());
    };
    match given.keys().find(|k| !known.contains_key(k.as_str())) {
        None => Ok(()),
        Some(k) => {
            let names: Vec<String> = known
                .keys()
                .filter(|n| !G::OPERATOR_OPTIONS.contains(&n.as_str()))
                .map(|n| format!("`{n}`"))
                .collect();
            Err(OptionsError(format!(
                "`{k}` is not an option of {}; its options are {}.",
                G::KIND,
                names.join(", ")
            )))
        }
    }
}

fn create_kind<G: Game>(options: &Value, seed: u64) -> Result<Box<dyn AnyGame>, OptionsError> {
    let opts = options_of::<G>(options)?;
    Ok(Box::new(Erased(G::new_game(opts, seed)?)))
}

fn load_kind<G: Game>(state: &str) -> Result<Box<dyn AnyGame>, DecodeError> {
    let g: G = serde_json::from_str(state).map_err(|e| DecodeError {
        kind: G::KIND,
        what: "state",
        reason: e.to_string(),
    })?;
    Ok(Box::new(Erased(g)))
}

fn seat_count_kind<G: Game>(options: &Value) -> Result<usize, OptionsError> {
    Ok(G::seat_count(&options_of::<G>(options)?))
}

impl KindEntry {
    /// The entry of an engine type.
    pub fn of<G: Game>() -> KindEntry {
        KindEntry {
            name: G::KIND,
            ai_levels: G::ai_levels(),
            operator_options: G::OPERATOR_OPTIONS,
            create: create_kind::<G>,
            load: load_kind::<G>,
            seat_count: seat_count_kind::<G>,
            check_keys: check_keys_kind::<G>,
        }
    }
}

/// The kinds of game a host can run.
#[derive(Default)]
pub struct Registry {
    kinds: Vec<KindEntry>,
}

/// Asked for a kind the registry does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("There is no game called `{asked}`. Games: {}.", known.join(", "))]
pub struct UnknownKind {
    /// What was asked for.
    pub asked: String,
    /// What exists.
    pub known: Vec<&'static str>,
}

impl Registry {
    /// Every game gamehost ships.
    pub fn standard() -> Registry {
        Registry::default()
            // gamehost:kinds — one `.with::<Engine>()` line per game, in the order players see them.
            .with::<crate::games::cards::Invisible>()
            .with::<crate::games::battle::Battle>()
            .with::<crate::games::puzzle::PuzzleDuel>()
            .with::<crate::games::diplomacy::Diplomacy>()
    }

    /// Adds a kind (tests may add their own engines).
    pub fn with<G: Game>(mut self) -> Registry {
        self.kinds.retain(|k| k.name != G::KIND);
        self.kinds.push(KindEntry::of::<G>());
        self
    }

    /// The names of all kinds.
    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name).collect()
    }

    /// The entry of a kind.
    pub fn get(&self, kind: &str) -> Result<&KindEntry, UnknownKind> {
        let wanted = kind.trim().to_ascii_lowercase();
        self.kinds
            .iter()
            .find(|k| k.name == wanted)
            .ok_or_else(|| UnknownKind {
                asked: kind.to_string(),
                known: self.names(),
            })
    }

    /// Creates a new game of a kind.
    pub fn create(
        &self,
        kind: &str,
        options: &Value,
        seed: u64,
    ) -> Result<Box<dyn AnyGame>, CreateError> {
        let entry = self.get(kind)?;
        Ok((entry.create)(options, seed)?)
    }

    /// Refuses option keys a kind does not know (a creator's typo would
    /// otherwise start the game with the default, silently).
    pub fn check_option_keys(&self, kind: &str, options: &Value) -> Result<(), CreateError> {
        let entry = self.get(kind)?;
        Ok((entry.check_keys)(options)?)
    }

    /// Loads a stored game.
    pub fn load(&self, kind: &str, state: &str) -> Result<Box<dyn AnyGame>, DecodeError> {
        let entry = self.get(kind).map_err(|e| DecodeError {
            kind: "unknown",
            what: "kind",
            reason: e.to_string(),
        })?;
        (entry.load)(state)
    }

    /// The number of seats a game of a kind with these options has.
    pub fn seat_count(&self, kind: &str, options: &Value) -> Result<usize, CreateError> {
        let entry = self.get(kind)?;
        Ok((entry.seat_count)(options)?)
    }
}

/// Why a game could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// No such kind.
    #[error(transparent)]
    UnknownKind(#[from] UnknownKind),
    /// The engine refused the options.
    #[error(transparent)]
    Options(#[from] OptionsError),
}

/// Spreads a game seed into an independent seed per (turn, seat), so every
/// AI decision is reproducible (splitmix64 finaliser).
pub fn derive_seed(game_seed: u64, turn: u32, seat: Seat) -> u64 {
    let mut z = game_seed
        .wrapping_add((turn as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add((seat as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Lists the choices as "a, b or c" for messages.
pub fn list_choices(choices: &[ActionChoice]) -> String {
    let texts: Vec<&str> = choices.iter().map(|c| c.text.as_str()).collect();
    match texts.len() {
        0 => String::new(),
        1 => texts[0].to_string(),
        n => format!("{} or {}", texts[..n - 1].join(", "), texts[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A misspelt option is refused with the names the kind knows, never
    /// silently ignored (the game would start with the default instead);
    /// a stored game's options still load if they hold a key no longer known.
    #[test]
    fn every_kind_refuses_unknown_options_and_names_the_known_ones() {
        let registry = Registry::standard();
        for (kind, known) in [
            ("cards", "jam_percent"),
            ("battle", "team_size"),
            ("puzzle", "max_turns"),
            ("diplomacy", "victory_centres"),
        ] {
            let odd = json!({"no_such_option": 1});
            let err = registry
                .check_option_keys(kind, &odd)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("`no_such_option` is not an option"),
                "{kind}: {err}"
            );
            assert!(err.contains(known), "{kind}: {err}");
            assert!(!err.contains("roster"), "{kind}: {err}");
            assert!(
                registry.check_option_keys(kind, &json!({})).is_ok(),
                "{kind}"
            );
            assert!(
                registry.check_option_keys(kind, &Value::Null).is_ok(),
                "{kind}"
            );
            if kind != "battle" {
                assert!(
                    registry.create(kind, &odd, 1).is_ok(),
                    "{kind}: stored options load"
                );
            }
        }
    }
}
