//! Buttons and select menus. A custom id carries the game and the turn it
//! was made for (`gh:<game>:<turn>:<verb>[:<arg>]`), so a click on a button
//! of a finished game or an earlier turn is answered kindly instead of acting.

use crate::ui::messages;
use games::seam::{ActionChoice, ChoiceStyle};
use host::GameId;
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

/// What a component asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verb {
    /// Take a seat in the lobby.
    Join,
    /// Leave the lobby.
    Leave,
    /// Put an AI in the next free seat.
    Ai,
    /// Start the game.
    Start,
    /// Show me my view and my choices (ephemeral).
    Show,
    /// Play this exact text.
    Move(String),
    /// Play choice number n of the current view.
    MoveIndex(usize),
    /// A select menu (the value says which choice).
    Select,
    /// A step of the Diplomacy order desk (`order_desk.rs`).
    Desk(String),
}

/// A decoded custom id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Custom {
    /// The game.
    pub game: GameId,
    /// The turn the component was made for.
    pub turn: u32,
    /// What it does.
    pub verb: Verb,
}

/// Encodes a custom id (at most 100 characters: a long move text falls
/// back to its index).
pub fn encode(game: GameId, turn: u32, verb: &Verb) -> String {
    let base = format!("gh:{game}:{turn}:");
    let tail = match verb {
        Verb::Join => "join".to_string(),
        Verb::Leave => "leave".to_string(),
        Verb::Ai => "ai".to_string(),
        Verb::Start => "start".to_string(),
        Verb::Show => "show".to_string(),
        Verb::Move(t) => format!("mv:{t}"),
        Verb::MoveIndex(i) => format!("mi:{i}"),
        Verb::Select => "sel".to_string(),
        Verb::Desk(step) => format!("od:{step}"),
    };
    format!("{base}{tail}")
}

/// Decodes a custom id of ours.
pub fn decode(id: &str) -> Option<Custom> {
    let mut it = id.splitn(5, ':');
    if it.next()? != "gh" {
        return None;
    }
    let game = it.next()?.parse().ok()?;
    let turn = it.next()?.parse().ok()?;
    let verb = match (it.next()?, it.next()) {
        ("join", _) => Verb::Join,
        ("leave", _) => Verb::Leave,
        ("ai", _) => Verb::Ai,
        ("start", _) => Verb::Start,
        ("show", _) => Verb::Show,
        ("mv", Some(t)) => Verb::Move(t.to_string()),
        ("mi", Some(i)) => Verb::MoveIndex(i.parse().ok()?),
        ("sel", _) => Verb::Select,
        ("od", Some(step)) => Verb::Desk(step.to_string()),
        _ => return None,
    };
    Some(Custom { game, turn, verb })
}

/// The custom id prefix of `/privacy delete`'s buttons (they concern the
/// person who clicks, no game).
const PRIVACY_PREFIX: &str = "gh-privacy:";

/// A click on `/privacy delete`'s question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrivacyChoice {
    /// Delete everything stored about me.
    Delete,
    /// Keep everything.
    Cancel,
}

/// Decodes a `/privacy delete` button's custom id.
pub fn decode_privacy(id: &str) -> Option<PrivacyChoice> {
    match id.strip_prefix(PRIVACY_PREFIX)? {
        "delete" => Some(PrivacyChoice::Delete),
        "cancel" => Some(PrivacyChoice::Cancel),
        _ => None,
    }
}

/// `/privacy delete`'s buttons: Delete (red) and Cancel.
pub fn privacy_rows() -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(format!("{PRIVACY_PREFIX}delete"))
            .label("Delete my data")
            .style(ButtonStyle::Danger),
        CreateButton::new(format!("{PRIVACY_PREFIX}cancel"))
            .label("Cancel")
            .style(ButtonStyle::Secondary),
    ])]
}

/// The custom id of an order-desk step.
pub fn encode_desk(game: GameId, turn: u32, step: &str) -> String {
    encode(game, turn, &Verb::Desk(step.to_string()))
}

/// The lobby's buttons.
pub fn lobby_rows(game: GameId) -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(encode(game, 0, &Verb::Join))
            .label("Join")
            .style(ButtonStyle::Success),
        CreateButton::new(encode(game, 0, &Verb::Leave))
            .label("Leave")
            .style(ButtonStyle::Secondary),
        CreateButton::new(encode(game, 0, &Verb::Ai))
            .label("Add AI")
            .style(ButtonStyle::Secondary),
        CreateButton::new(encode(game, 0, &Verb::Start))
            .label("Start")
            .style(ButtonStyle::Primary),
    ])]
}

/// The lobby's buttons, disabled: shown once the game started or closed.
pub fn lobby_rows_disabled(game: GameId) -> Vec<CreateActionRow> {
    lobby_rows(game)
        .into_iter()
        .map(|row| match row {
            CreateActionRow::Buttons(b) => {
                CreateActionRow::Buttons(b.into_iter().map(|b| b.disabled(true)).collect())
            }
            other => other,
        })
        .collect()
}

/// A "Show my move" button (for players whose DMs are closed).
pub fn show_row(game: GameId, turn: u32) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(encode(game, turn, &Verb::Show))
            .label("Show my move")
            .style(ButtonStyle::Primary),
    ])
}

/// Buttons and select menus for a seat's choices, within Discord's limits
/// (5 rows, 5 buttons a row, 25 options a menu). Returns the rows and
/// whether some choices did not fit (they can still be typed with `/move`).
pub fn choice_rows(
    game: GameId,
    turn: u32,
    choices: &[ActionChoice],
) -> (Vec<CreateActionRow>, bool) {
    let mut buttons: Vec<(usize, &ActionChoice)> = Vec::new();
    let mut selects: Vec<(usize, &ActionChoice)> = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        match c.style {
            ChoiceStyle::Button => buttons.push((i, c)),
            ChoiceStyle::Select => selects.push((i, c)),
        }
    }
    // Many "buttons" read better as a menu.
    if buttons.len() > 10 {
        selects.splice(0..0, buttons.drain(..));
    }
    let mut rows = Vec::new();
    for chunk in buttons.chunks(5) {
        rows.push(CreateActionRow::Buttons(
            chunk
                .iter()
                .map(|(i, c)| {
                    let verb = move_verb(*i, c);
                    let label = messages::clip(
                        if c.label.trim().is_empty() {
                            &c.text
                        } else {
                            &c.label
                        },
                        80,
                    );
                    CreateButton::new(encode(game, turn, &verb))
                        .label(label)
                        .style(ButtonStyle::Primary)
                })
                .collect(),
        ));
    }
    for (n, chunk) in selects.chunks(25).enumerate() {
        let options = chunk
            .iter()
            .map(|(i, c)| {
                let value = if c.text.chars().count() <= 98 {
                    format!("t:{}", c.text)
                } else {
                    format!("i:{i}")
                };
                let label = if c.label.trim().is_empty() {
                    &c.text
                } else {
                    &c.label
                };
                CreateSelectMenuOption::new(messages::clip(label, 100), value)
            })
            .collect();
        let id = format!("{}:{n}", encode(game, turn, &Verb::Select));
        rows.push(CreateActionRow::SelectMenu(
            CreateSelectMenu::new(id, CreateSelectMenuKind::String { options }).placeholder(
                if n == 0 {
                    "Choose…"
                } else {
                    "More choices…"
                },
            ),
        ));
    }
    let truncated = rows.len() > 5;
    rows.truncate(5);
    (rows, truncated)
}

fn move_verb(index: usize, c: &ActionChoice) -> Verb {
    let v = Verb::Move(c.text.clone());
    if encode(i64::MAX, u32::MAX, &v).chars().count() <= 100 {
        v
    } else {
        Verb::MoveIndex(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        for v in [
            Verb::Join,
            Verb::Leave,
            Verb::Ai,
            Verb::Start,
            Verb::Show,
            Verb::Move("F par - bur: x".into()),
            Verb::MoveIndex(7),
            Verb::Select,
            Verb::Desk("k:stp/sc:Move:0".into()),
        ] {
            let id = encode(42, 3, &v);
            assert_eq!(
                decode(&id),
                Some(Custom {
                    game: 42,
                    turn: 3,
                    verb: v
                })
            );
        }
        assert_eq!(decode("other:1"), None);
        assert_eq!(decode("gh:x:1:join"), None);
    }

    #[test]
    fn long_texts_use_indexes_and_limits_hold() {
        let choices: Vec<ActionChoice> = (0..150)
            .map(|i| ActionChoice {
                label: format!("choice {i} {}", "y".repeat(120)),
                text: format!("{i} {}", "z".repeat(i * 3)),
                style: if i < 4 {
                    ChoiceStyle::Button
                } else {
                    ChoiceStyle::Select
                },
            })
            .collect();
        let (rows, cut) = choice_rows(1, 2, &choices);
        assert!(rows.len() <= 5);
        assert!(cut);
        let json = serde_json::to_value(&rows).unwrap();
        for row in json.as_array().unwrap() {
            for c in row["components"].as_array().unwrap() {
                assert!(c["custom_id"].as_str().unwrap().len() <= 100);
                if let Some(opts) = c["options"].as_array() {
                    assert!(opts.len() <= 25);
                    for o in opts {
                        assert!(o["value"].as_str().unwrap().chars().count() <= 100);
                        assert!(o["label"].as_str().unwrap().chars().count() <= 100);
                    }
                }
                if let Some(l) = c["label"].as_str() {
                    assert!(l.chars().count() <= 80);
                }
            }
        }
    }
}
