//! A message: what an engine or the host says, before it is put in a
//! reader's language. An id in the catalogues and typed arguments, so it
//! can be stored (turn reports, announcements, history) and rendered later
//! in whoever reads it.

use crate::Lang;
use serde::{Deserialize, Serialize};

/// A catalogue id with its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The id in the catalogues (`help-dm`, `error-no-token`).
    pub id: String,
    /// The arguments by name, in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<(String, Arg)>,
}

/// One argument of a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    /// Text shown as it is: a player's name, an order as written, a label.
    Text(String),
    /// A number (Fluent picks plural forms by it).
    Number(i64),
    /// A message rendered in the reader's language first.
    Message(Box<Message>),
    /// Messages rendered one a line.
    Lines(Vec<Message>),
    /// Messages listed in a sentence ("a, b and c"; 「a、b、c」).
    List(Vec<Message>),
    /// A name from a game's data with a form per language (a province, a
    /// monster); the English one is the fallback.
    Name(Names),
}

/// A thing's name in each language its data gives (English always).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// The English name.
    pub en: String,
    /// The Japanese name, when the data has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ja: Option<String>,
}

impl Names {
    /// A name with an English form only.
    pub fn english(en: impl Into<String>) -> Names {
        Names {
            en: en.into(),
            ja: None,
        }
    }

    /// The name in `lang`, else in English.
    pub fn in_lang(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ja => self.ja.as_deref().unwrap_or(&self.en),
            Lang::En => &self.en,
        }
    }
}

impl Message {
    /// A message without arguments.
    pub fn new(id: impl Into<String>) -> Message {
        Message {
            id: id.into(),
            args: Vec::new(),
        }
    }

    /// The message with one more argument.
    pub fn arg(mut self, name: &str, value: impl Into<Arg>) -> Message {
        self.args.push((name.to_string(), value.into()));
        self
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_string())
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.clone())
    }
}

impl From<Message> for Arg {
    fn from(message: Message) -> Arg {
        Arg::Message(Box::new(message))
    }
}

impl From<Names> for Arg {
    fn from(names: Names) -> Arg {
        Arg::Name(names)
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {
        $(impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        })*
    };
}
number_args!(i64, i32, u32, u64, usize, u8, u16);

/// A message from an id and `name = value` arguments:
/// `msg!("help-game", label = "cards #4", seats = 2)`.
#[macro_export]
macro_rules! msg {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::Message::new($id)$(.arg(stringify!($name), $value))*
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_round_trips_through_json() {
        let m = msg!(
            "x",
            name = "Alice",
            n = 3u32,
            inner = Message::new("y"),
            place = Names {
                en: "Paris".into(),
                ja: Some("パリ".into())
            }
        );
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<Message>(&json).unwrap(), m);
        assert_eq!(
            serde_json::to_string(&Message::new("bare")).unwrap(),
            r#"{"id":"bare"}"#
        );
    }
}
