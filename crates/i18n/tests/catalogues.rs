//! The catalogues hold the same messages in every language, with the same
//! variables, and parse without an error: a message added in English only
//! (or a variable renamed in one language) fails here, not in front of a
//! player.

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use fluent_syntax::parser::parse;
use std::collections::{BTreeMap, BTreeSet};

/// Each message (and `message.attribute`) of a file with the variables its
/// text uses.
fn messages_of(source: &str, file: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = parse(source).unwrap_or_else(|(_, errors)| panic!("{file}: {errors:?}"));
    let mut out = BTreeMap::new();
    for entry in resource.body {
        if let Entry::Message(m) = entry {
            let id = m.id.name.to_string();
            if let Some(value) = &m.value {
                out.insert(id.clone(), variables(value));
            }
            for attribute in &m.attributes {
                out.insert(
                    format!("{id}.{}", attribute.id.name),
                    variables(&attribute.value),
                );
            }
        }
    }
    out
}

fn variables(pattern: &Pattern<&str>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_variables(expression, &mut out);
        }
    }
    out
}

fn expression_variables(expression: &Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        Expression::Inline(inline) => inline_variables(inline, out),
        Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                out.extend(variables(&variant.value));
            }
        }
    }
}

fn inline_variables(inline: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

#[test]
fn every_language_holds_the_same_messages_with_the_same_variables() {
    let mut problems = Vec::new();
    for (file, en, ja) in i18n::catalogue_files() {
        let en = messages_of(en, &format!("en/{file}.ftl"));
        let ja = messages_of(ja, &format!("ja/{file}.ftl"));
        for (id, vars) in &en {
            match ja.get(id) {
                None => problems.push(format!("{file}: `{id}` is missing in ja")),
                Some(ja_vars) if ja_vars != vars => problems.push(format!(
                    "{file}: `{id}` uses {vars:?} in en but {ja_vars:?} in ja"
                )),
                Some(_) => {}
            }
        }
        for id in ja.keys().filter(|id| !en.contains_key(*id)) {
            problems.push(format!("{file}: `{id}` is in ja only"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_message_id_is_defined_twice() {
    for (file, en, ja) in i18n::catalogue_files() {
        for (lang, source) in [("en", en), ("ja", ja)] {
            let resource = parse(source).expect("parses");
            let mut seen = BTreeSet::new();
            for entry in resource.body {
                if let Entry::Message(m) = entry {
                    assert!(
                        seen.insert(m.id.name),
                        "{lang}/{file}.ftl: `{}` twice",
                        m.id.name
                    );
                }
            }
        }
    }
}

#[test]
fn a_message_renders_in_each_language_and_falls_back_to_english() {
    use i18n::{Lang, Message, msg, render};
    let m = msg!("help-lobby", label = "cards #4", kind = "cards");
    assert!(render(Lang::En, &m).contains("waits in its lobby"));
    assert!(render(Lang::Ja, &m).contains("ロビーで参加者を待っています"));
    assert!(
        !render(Lang::Ja, &m).contains('\u{2068}'),
        "no isolation marks"
    );
    assert_eq!(render(Lang::Ja, &Message::new("no-such-id")), "no-such-id");
    assert_eq!(
        render(Lang::Ja, &Message::new("cmd-game-new.description")),
        "このチャンネルにゲームを作ります（ロビーのボタンで参加者を募ります）"
    );
}

#[test]
fn japanese_sentences_keep_one_register() {
    // The bot speaks in です・ます: a sentence ending in a plain form
    // (である, だ。) reads as another voice.
    for (file, _, ja) in i18n::catalogue_files() {
        for line in ja.lines().filter(|l| !l.trim_start().starts_with('#')) {
            assert!(
                !line.contains("である") && !line.contains("だ。"),
                "ja/{file}.ftl: not です・ます: {line}"
            );
        }
    }
}
