//! The kinds of game the host can run, behind one type-erased interface.
//!
//! The host stores games and actions as JSON and never names an engine type;
//! [`AnyGame`] is the [`Game`] seam with JSON in place of the engine's own
//! action and option types, and [`Registry`] maps a kind name to its engine.

use games::seam::{
    ActionError, AiBudget, Game, OptionsError, Outcome, Outstanding, Seat, TurnReport, View,
};
// The errors live in `error.rs`, below every module that returns them;
// re-exported here, beside the registry that raises them.
pub use crate::error::{CreateError, DecodeError, UnknownKind};
use serde_json::Value;
use std::collections::BTreeMap;

/// A game of any kind, as the host drives it.
pub trait AnyGame: Send + Sync {
    /// The engine kind.
    fn kind(&self) -> &'static str;
    /// See [`Game::BOARD_IMAGE`]: the renderer that draws this game, if any.
    fn board_image(&self) -> Option<&'static str>;
    /// See [`Game::RULES_IMAGE`]: the renderer of this game's rules image, if any.
    fn rules_image(&self) -> Option<&'static str>;
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
    /// See [`Game::settled`]: the action as it stays pending after its receipt.
    fn settled(&self, seat: Seat, action: &Value) -> Result<Value, DecodeError>;
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
    /// See [`Game::outstanding`]: what a seat still owes, given its pending action.
    fn outstanding(&self, seat: Seat, pending: Option<&Value>) -> Result<Outstanding, DecodeError>;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// See [`Game::strength`].
    fn strength(&self, seat: Seat) -> u32;
    /// What a viewer may see.
    fn view(&self, viewer: Option<Seat>) -> View;
    /// [`Game::hides_board`].
    fn hides_board(&self) -> bool;
    /// [`Game::end_by_host`].
    fn end_by_host(&mut self);
    /// [`Game::report_after_end`].
    fn report_after_end(&self, report: &TurnReport) -> String;
    /// [`Game::rules`].
    fn rules(&self, viewer: Option<Seat>) -> String;
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
    fn board_image(&self) -> Option<&'static str> {
        G::BOARD_IMAGE
    }
    fn rules_image(&self) -> Option<&'static str> {
        G::RULES_IMAGE
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
    fn settled(&self, seat: Seat, action: &Value) -> Result<Value, DecodeError> {
        let a: G::Action = decode(G::KIND, "action", action)?;
        Ok(encode(&self.0.settled(seat, a)))
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
    fn outstanding(&self, seat: Seat, pending: Option<&Value>) -> Result<Outstanding, DecodeError> {
        let a: Option<G::Action> = match pending {
            Some(v) => Some(decode(G::KIND, "action", v)?),
            None => None,
        };
        Ok(self.0.outstanding(seat, a.as_ref()))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn strength(&self, seat: Seat) -> u32 {
        self.0.strength(seat)
    }
    fn view(&self, viewer: Option<Seat>) -> View {
        self.0.view(viewer)
    }
    fn hides_board(&self) -> bool {
        self.0.hides_board()
    }
    fn end_by_host(&mut self) {
        self.0.end_by_host()
    }
    fn report_after_end(&self, report: &TurnReport) -> String {
        self.0.report_after_end(report)
    }
    fn rules(&self, viewer: Option<Seat>) -> String {
        self.0.rules(viewer)
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

/// Builds a new game of one kind from options and a seed. A boxed closure,
/// so a kind can be registered with data the operator loaded at start-up
/// (e.g. the battle roster) instead of reading it from the options.
type CreateFn = Box<dyn Fn(&Value, u64) -> Result<Box<dyn AnyGame>, OptionsError> + Send + Sync>;

/// Everything the registry needs to know of one kind.
pub struct KindEntry {
    /// The kind's name (`Game::KIND`).
    pub name: &'static str,
    /// The AI levels the kind offers, default first.
    pub ai_levels: &'static [&'static str],
    /// See [`Game::check_ai_level`]: whether the engine plays a level as
    /// written (`mc:500`), beyond the offered names, and if not, why.
    pub check_ai_level: fn(&str) -> Result<(), String>,
    /// See [`Game::MOVES_IN_CHANNEL`]: moves are made in the channel, not by DM.
    pub moves_in_channel: bool,
    /// See [`Game::MAX_ACTION_CHARS`], capped at the host's ceiling
    /// [`MAX_ORDERS_CHARS`].
    pub max_action_chars: usize,
    /// See [`Game::MIN_TURN_SECONDS`].
    pub min_turn_seconds: u64,
    /// See [`Game::DEFAULT_TURN_SECONDS`].
    pub default_turn_seconds: u64,
    /// See [`Game::BOARD_IMAGE`]: the name of the renderer drawing this kind.
    pub board_image: Option<&'static str>,
    /// See [`Game::RULES_IMAGE`]: the name of the renderer of this kind's rules image.
    pub rules_image: Option<&'static str>,
    /// See [`Game::HAS_PRESS`].
    pub has_press: bool,
    /// See [`Game::TAKES_DAILY_DEADLINE`].
    pub takes_daily_deadline: bool,
    /// See [`Game::ORDERS_BY_LINE`].
    pub orders_by_line: bool,
    /// See [`Game::RULES_FIT_THE_READER`].
    pub rules_fit_the_reader: bool,
    /// See [`Game::is_draw_vote`].
    pub is_draw_vote: fn(&str) -> bool,
    create: CreateFn,
    load: fn(&str) -> Result<Box<dyn AnyGame>, DecodeError>,
    seat_count: fn(&Value) -> Result<usize, OptionsError>,
    check_keys: fn(&Value) -> Result<(), OptionsError>,
    option_keys: fn() -> Vec<String>,
}

use serde::Deserialize;

/// What the options are, for a message: "an array", "a number", ...
fn shape_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Refuses options that are neither an object nor absent. serde would
/// otherwise read a struct from a JSON array by position, so a creator
/// could set fields by index that no key names.
fn require_object(kind: &str, options: &Value) -> Result<(), OptionsError> {
    match options {
        Value::Null | Value::Object(_) => Ok(()),
        other => Err(OptionsError(format!(
            "Options for {kind} must be a JSON object of named options such as \
             `{{\"team_size\": 3}}` or `key=value` pairs, not {}.",
            shape_of(other)
        ))),
    }
}

/// serde's name of an expected type, in words a game's creator knows.
fn expected_in_words(expected: &str) -> String {
    let e = expected.trim();
    let whole = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    if whole.contains(&e) {
        return "a whole number".into();
    }
    match e {
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list such as [1, 2]".into(),
        "a string" => "text".into(),
        _ => e.to_string(),
    }
}

/// Rewrites serde's message about one option's value as
/// "`key`: expected a whole number, got \"x\"".
fn describe_option_error(key: &str, value: &Value, serde_message: &str) -> String {
    // serde_json from a Value says "invalid type: string \"x\", expected usize"
    // or "invalid value: integer `-1`, expected usize"; keep what it expected.
    let shorten = |text: String| games::clip::clip_typed(&text);
    let parsed = serde_message
        .strip_prefix("invalid type: ")
        .or_else(|| serde_message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.rsplit_once(", expected "));
    match parsed {
        // A list or table: the fault is inside it, so say which element.
        Some((actual, expected)) if value.is_array() || value.is_object() => format!(
            "`{key}`: expected {}, got {actual} (in {})",
            expected_in_words(expected),
            shorten(value.to_string())
        ),
        Some((_, expected)) => format!(
            "`{key}`: expected {}, got {}",
            expected_in_words(expected),
            shorten(value.to_string())
        ),
        None => format!("`{key}`: {}", games::clip::clip_chars(serde_message, 120)),
    }
}

fn options_of<G: Game>(options: &Value) -> Result<G::Options, OptionsError> {
    require_object(G::KIND, options)?;
    let options = if options.is_null() {
        Value::Object(Default::default())
    } else {
        options.clone()
    };
    G::Options::deserialize(&options).map_err(|e| {
        // Name the option at fault: try each given key alone on top of the
        // defaults, so the message says which value is wrong, not where in
        // the text serde stopped.
        if let (Value::Object(given), Ok(Value::Object(defaults))) =
            (&options, serde_json::to_value(G::Options::default()))
        {
            for (k, v) in given.iter().filter(|(k, _)| defaults.contains_key(*k)) {
                let mut probe = defaults.clone();
                probe.insert(k.clone(), v.clone());
                if let Err(one) = G::Options::deserialize(&Value::Object(probe)) {
                    return OptionsError(format!(
                        "Options for {} are not valid: {}. Leave it out for the default.",
                        G::KIND,
                        describe_option_error(k, v, &one.to_string())
                    ));
                }
            }
        }
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
    require_object(G::KIND, options)?;
    let Value::Object(given) = options else {
        return Ok(());
    };
    let Ok(Value::Object(known)) = serde_json::to_value(G::Options::default()) else {
        return Ok(());
    };
    match given.keys().find(|k| !known.contains_key(k.as_str())) {
        None => Ok(()),
        Some(k) => {
            let names: Vec<String> = known.keys().map(|n| format!("`{n}`")).collect();
            Err(OptionsError(format!(
                "`{k}` is not an option of {}; its options are {}.",
                G::KIND,
                names.join(", ")
            )))
        }
    }
}

/// The option keys of a kind: the fields of its options type, read from
/// its defaults (empty when the options are not a table of named fields).
fn option_keys_kind<G: Game>() -> Vec<String> {
    match serde_json::to_value(G::Options::default()) {
        Ok(Value::Object(known)) => known.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

fn load_kind<G: Game>(state: &str) -> Result<Box<dyn AnyGame>, DecodeError> {
    let g: G = serde_json::from_str(state).map_err(|e| DecodeError {
        kind: G::KIND,
        what: "state",
        reason: e.to_string(),
    })?;
    g.check_loaded().map_err(|reason| DecodeError {
        kind: G::KIND,
        what: "state",
        reason,
    })?;
    Ok(Box::new(Erased(g)))
}

fn seat_count_kind<G: Game>(options: &Value) -> Result<usize, OptionsError> {
    Ok(G::seat_count(&options_of::<G>(options)?))
}

impl KindEntry {
    /// The option keys a creator may give this kind (e.g. `team_size`).
    pub fn option_keys(&self) -> Vec<String> {
        (self.option_keys)()
    }

    /// The entry of an engine type, creating games with [`Game::new_game`].
    pub fn of<G: Game>() -> KindEntry {
        KindEntry::with_constructor::<G>(G::new_game)
    }

    /// The entry of an engine type whose games are created by `new_game`
    /// (e.g. a closure holding rule data the operator configured).
    pub fn with_constructor<G: Game>(
        new_game: impl Fn(G::Options, u64) -> Result<G, OptionsError> + Send + Sync + 'static,
    ) -> KindEntry {
        KindEntry {
            name: G::KIND,
            ai_levels: G::ai_levels(),
            check_ai_level: G::check_ai_level,
            moves_in_channel: G::MOVES_IN_CHANNEL,
            max_action_chars: G::MAX_ACTION_CHARS.min(MAX_ORDERS_CHARS),
            min_turn_seconds: G::MIN_TURN_SECONDS,
            default_turn_seconds: G::DEFAULT_TURN_SECONDS,
            board_image: G::BOARD_IMAGE,
            rules_image: G::RULES_IMAGE,
            has_press: G::HAS_PRESS,
            takes_daily_deadline: G::TAKES_DAILY_DEADLINE,
            orders_by_line: G::ORDERS_BY_LINE,
            rules_fit_the_reader: G::RULES_FIT_THE_READER,
            is_draw_vote: G::is_draw_vote,
            create: Box::new(move |options, seed| {
                let opts = options_of::<G>(options)?;
                Ok(Box::new(Erased(new_game(opts, seed)?)) as Box<dyn AnyGame>)
            }),
            load: load_kind::<G>,
            seat_count: seat_count_kind::<G>,
            check_keys: check_keys_kind::<G>,
            option_keys: option_keys_kind::<G>,
        }
    }
}

/// The kinds of game a host can run.
#[derive(Default)]
pub struct Registry {
    kinds: Vec<KindEntry>,
}

impl Registry {
    /// Every game gamehost ships.
    pub fn standard() -> Registry {
        Registry::default()
            // gamehost:kinds — one `.with::<Engine>()` line per game, in the order players see them.
            .with::<games::cards::Invisible>()
            .with::<games::battle::Battle>()
            .with::<games::puzzle::PuzzleDuel>()
            .with::<games::diplomacy::Diplomacy>()
    }

    /// Adds a kind (tests may add their own engines).
    pub fn with<G: Game>(self) -> Registry {
        self.with_entry(KindEntry::of::<G>())
    }

    /// Adds a kind whose games are built by `new_game`, replacing an entry
    /// of the same kind in place (so the order players see is kept): how the
    /// operator's `[battle] roster`, loaded once at start-up, reaches the
    /// engine as data rather than as a path in the options.
    pub fn with_constructor<G: Game>(
        self,
        new_game: impl Fn(G::Options, u64) -> Result<G, OptionsError> + Send + Sync + 'static,
    ) -> Registry {
        self.with_entry(KindEntry::with_constructor::<G>(new_game))
    }

    fn with_entry(mut self, entry: KindEntry) -> Registry {
        match self.kinds.iter_mut().find(|k| k.name == entry.name) {
            Some(slot) => *slot = entry,
            None => self.kinds.push(entry),
        }
        self
    }

    /// Every game gamehost ships, battles on the given rule set (the
    /// operator's `[battle] roster`); `None` keeps the built-in roster.
    pub fn standard_with_roster(roster: Option<games::battle::rules::data::Roster>) -> Registry {
        let registry = Registry::standard();
        match roster {
            None => registry,
            Some(roster) => registry.with_constructor(move |options, seed| {
                games::battle::Battle::with_roster(&roster, &options, seed)
            }),
        }
    }

    /// Whether any kind takes `text` as a draw vote ([`Game::is_draw_vote`]).
    pub fn is_draw_vote_of_any_kind(&self, text: &str) -> bool {
        self.kinds.iter().any(|k| (k.is_draw_vote)(text))
    }

    /// The kinds a server's daily deadline applies to
    /// ([`Game::TAKES_DAILY_DEADLINE`]).
    pub fn daily_deadline_kinds(&self) -> Vec<&'static str> {
        self.kinds
            .iter()
            .filter(|k| k.takes_daily_deadline)
            .map(|k| k.name)
            .collect()
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
                asked: games::clip::clip_typed(kind.trim()),
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

/// The longest message any game may accept, in characters: the ceiling on
/// every kind's `Game::MAX_ACTION_CHARS` (Diplomacy's, a whole power's
/// orders one per line, is this), so a text front-end can size its line cap.
pub const MAX_ORDERS_CHARS: usize = 4000;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What the generic layers need to know of a kind comes from its
    /// engine through the registry entry, not from matching its name.
    #[test]
    fn every_kind_states_its_host_facing_properties_through_its_entry() {
        let registry = Registry::standard();
        let entry = |kind| registry.get(kind).unwrap();
        let in_channel: Vec<&str> = registry
            .names()
            .into_iter()
            .filter(|k| entry(k).moves_in_channel)
            .collect();
        assert_eq!(in_channel, ["cards", "puzzle"]);
        assert_eq!(entry("diplomacy").max_action_chars, 4000);
        assert_eq!(entry("battle").max_action_chars, 200);
        assert_eq!(entry("diplomacy").min_turn_seconds, 600);
        assert_eq!(entry("cards").min_turn_seconds, 30);
        assert_eq!(entry("diplomacy").default_turn_seconds, 86_400);
        assert_eq!(entry("battle").default_turn_seconds, 300);
        assert_eq!(entry("battle").board_image, None);
        assert_eq!(entry("puzzle").board_image, Some("puzzle-fields"));
        assert!(
            entry("battle")
                .option_keys()
                .contains(&"team_size".to_string())
        );
        let game = registry.create("diplomacy", &Value::Null, 1).unwrap();
        assert_eq!(game.board_image(), Some("diplomacy-map"));
    }

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
            assert!(
                registry.create(kind, &odd, 1).is_ok(),
                "{kind}: stored options load"
            );
        }
    }

    /// serde reads a struct from a JSON array by position, so
    /// `[3, null, "/etc/passwd", false, null]` once set battle's unnamed
    /// `roster` path; options that are not an object are refused by every
    /// entry point of every kind.
    #[test]
    fn options_that_are_not_an_object_are_refused_everywhere() {
        let registry = Registry::standard();
        for kind in registry.names() {
            for odd in [
                json!([3, null, "/etc/passwd", false, null]),
                json!([]),
                json!("team_size"),
                json!(3),
                json!(true),
            ] {
                for err in [
                    registry.create(kind, &odd, 1).err().map(|e| e.to_string()),
                    registry.seat_count(kind, &odd).err().map(|e| e.to_string()),
                    registry
                        .check_option_keys(kind, &odd)
                        .err()
                        .map(|e| e.to_string()),
                ] {
                    let err = err.unwrap_or_else(|| panic!("{kind}: {odd} accepted"));
                    assert!(err.contains("must be a JSON object"), "{kind}: {err}");
                    assert!(!err.contains("root"), "{kind}: {err}");
                }
            }
        }
    }

    /// A value of the wrong type is refused naming the option, not with
    /// serde's positional message.
    #[test]
    fn option_type_errors_name_the_key() {
        let registry = Registry::standard();
        let err = registry
            .create("battle", &json!({"team_size": "x"}), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains(r#"`team_size`: expected a whole number, got "x""#),
            "{err}"
        );
        let err = registry
            .create("battle", &json!({"team_size": 2, "pick_teams": "yes"}), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains(r#"`pick_teams`: expected true or false, got "yes""#),
            "{err}"
        );
        let err = registry
            .create("battle", &json!({"teams": [["a"]]}), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("`teams`"), "{err}");
        let err = registry
            .create("cards", &json!({"decks": [[1, "a"]]}), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains(r#"`decks`: expected a whole number, got string "a" (in [[1,"a"]])"#),
            "{err}"
        );
    }

    /// The operator's roster reaches the engine as data: a kind registered
    /// with a constructor builds its games with it, keeps its place in the
    /// list, and still refuses non-object options.
    #[test]
    fn a_kind_can_be_registered_with_operator_data() {
        use games::battle::rules::data::Roster;
        let mut roster = Roster::builtin().clone();
        roster.monsters.truncate(2);
        let names: Vec<String> = roster.monsters.iter().map(|m| m.name.clone()).collect();
        let registry = Registry::standard_with_roster(Some(roster));
        assert_eq!(registry.names(), Registry::standard().names());
        let game = registry
            .create("battle", &json!({"team_size": 2}), 7)
            .unwrap();
        let state: Value = serde_json::from_str(&game.state_json()).unwrap();
        for team in state["ctx"]["teams"].as_array().unwrap() {
            for m in team.as_array().unwrap() {
                assert!(names.contains(&m["name"].as_str().unwrap().to_string()));
            }
        }
        let err = registry
            .create("battle", &json!({"team_size": 3}), 7)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("larger than the roster"), "{err}");
        assert!(registry.create("battle", &json!([2]), 7).is_err());
    }
}
