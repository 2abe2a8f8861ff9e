//! The catalogues, embedded in the binary, and rendering a message in a
//! language: the reader's catalogue first, English when it lacks the id.

use crate::Lang;
use crate::message::{Arg, Message};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::LazyLock;

/// Each catalogue file: its name, then its text in English and in Japanese.
/// One file an area, so a translator reads one subject at a time.
pub(crate) const FILES: &[(&str, &str, &str)] = &[
    (
        "common",
        include_str!("../locales/en/common.ftl"),
        include_str!("../locales/ja/common.ftl"),
    ),
    (
        "commands",
        include_str!("../locales/en/commands.ftl"),
        include_str!("../locales/ja/commands.ftl"),
    ),
    (
        "help",
        include_str!("../locales/en/help.ftl"),
        include_str!("../locales/ja/help.ftl"),
    ),
    (
        "operator",
        include_str!("../locales/en/operator.ftl"),
        include_str!("../locales/ja/operator.ftl"),
    ),
];

/// One bundle a language, built once.
struct Catalogues {
    en: FluentBundle<FluentResource>,
    ja: FluentBundle<FluentResource>,
}

static CATALOGUES: LazyLock<Catalogues> = LazyLock::new(|| Catalogues {
    en: bundle(Lang::En),
    ja: bundle(Lang::Ja),
});

/// The bundle of `lang` from every file. The catalogues are checked by
/// this crate's tests, so a file that does not parse is a build that does
/// not ship; what parses is still loaded.
fn bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier = lang.code().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Discord shows Unicode isolation marks as boxes in some fonts.
    bundle.set_use_isolating(false);
    for (_, en, ja) in FILES {
        let text = match lang {
            Lang::En => en,
            Lang::Ja => ja,
        };
        let resource = FluentResource::try_new(text.to_string()).unwrap_or_else(|(r, _)| r);
        let _ = bundle.add_resource(resource);
    }
    bundle
}

fn bundle_of(lang: Lang) -> &'static FluentBundle<FluentResource> {
    match lang {
        Lang::En => &CATALOGUES.en,
        Lang::Ja => &CATALOGUES.ja,
    }
}

/// Whether `lang`'s catalogue has `id` (`id.attribute` for an attribute).
pub fn has(lang: Lang, id: &str) -> bool {
    let (message_id, attribute) = split_id(id);
    bundle_of(lang)
        .get_message(message_id)
        .is_some_and(|m| match attribute {
            Some(a) => m.get_attribute(a).is_some(),
            None => m.value().is_some(),
        })
}

/// `message` in `lang`: from `lang`'s catalogue, else English's, else its
/// id (which the catalogue tests make sure never ships).
pub fn render(lang: Lang, message: &Message) -> String {
    let lang_with_it = if has(lang, &message.id) {
        lang
    } else {
        Lang::En
    };
    let bundle = bundle_of(lang_with_it);
    let (message_id, attribute) = split_id(&message.id);
    let Some(found) = bundle.get_message(message_id) else {
        return message.id.clone();
    };
    let pattern = match attribute {
        Some(a) => found.get_attribute(a).map(|a| a.value()),
        None => found.value(),
    };
    let Some(pattern) = pattern else {
        return message.id.clone();
    };
    let args = fluent_args(lang, &message.args);
    let mut errors = Vec::new();
    bundle
        .format_pattern(pattern, Some(&args), &mut errors)
        .into_owned()
}

/// A message without arguments in `lang`.
pub fn text(lang: Lang, id: &str) -> String {
    render(lang, &Message::new(id))
}

/// `msg-id.attribute` as the message id and the attribute.
fn split_id(id: &str) -> (&str, Option<&str>) {
    match id.split_once('.') {
        Some((message, attribute)) => (message, Some(attribute)),
        None => (id, None),
    }
}

/// The arguments as Fluent takes them, nested messages rendered first in
/// the reader's language.
fn fluent_args<'a>(lang: Lang, args: &'a [(String, Arg)]) -> FluentArgs<'a> {
    let mut out = FluentArgs::new();
    for (name, arg) in args {
        let value: FluentValue = match arg {
            Arg::Text(text) => FluentValue::from(text.as_str()),
            Arg::Number(n) => FluentValue::from(*n),
            Arg::Message(inner) => FluentValue::from(render(lang, inner)),
            Arg::Lines(lines) => FluentValue::from(
                lines
                    .iter()
                    .map(|m| render(lang, m))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Arg::List(items) => {
                let items: Vec<String> = items.iter().map(|m| render(lang, m)).collect();
                FluentValue::from(list_in_words(lang, &items))
            }
            Arg::Name(names) => FluentValue::from(names.in_lang(lang)),
        };
        out.set(name.as_str(), value);
    }
    out
}

/// Items as a sentence lists them: "a, b and c" in English, 「a、b、c」 in
/// Japanese.
pub fn list_in_words(lang: Lang, items: &[String]) -> String {
    match lang {
        Lang::Ja => items.join("、"),
        Lang::En => match items {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        },
    }
}
