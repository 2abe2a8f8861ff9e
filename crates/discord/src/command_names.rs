//! The slash commands in every language: each command's, subcommand's,
//! option's and choice's name and description come from the catalogues
//! (`commands.ftl`), so a Japanese client shows Japanese commands.
//!
//! Ids follow the command's path: `cmd-game-new` (its name, with
//! `.description`), `cmd-game-new-opt-kind` for an option,
//! `cmd-game-new-opt-timeout-choice-forfeit` for a choice (the English
//! choice name, lower case, other characters as `-`). English names stay
//! the ones the code registers (poise dispatches on them); the tests below
//! check every entry exists and keeps Discord's name rules.

use crate::{BotError, Data};
use i18n::{Lang, Message, render};
use std::borrow::Cow;

type Command = poise::Command<Data, BotError>;

/// The commands with their descriptions from the English catalogue and a
/// name and description in every other language.
pub fn localized(mut commands: Vec<Command>) -> Vec<Command> {
    for command in &mut commands {
        localize_command(command, "cmd");
    }
    commands
}

/// The catalogue id of `name` under `parent` (`cmd`, `cmd-game`).
fn id_under(parent: &str, name: &str) -> String {
    format!("{parent}-{}", name.replace(['_', ' '], "-"))
}

/// The id of a choice: its English name in lower case, other characters `-`.
fn choice_slug(name: &str) -> String {
    let lowered: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    lowered
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// Every language but English, as Discord names them.
fn other_languages() -> impl Iterator<Item = Lang> {
    Lang::ALL.into_iter().filter(|l| *l != Lang::En)
}

fn text(lang: Lang, id: &str) -> Cow<'static, str> {
    Cow::Owned(render(lang, &Message::new(id)))
}

fn localize_command(command: &mut Command, parent: &str) {
    let id = id_under(parent, &command.name);
    command.description = Some(text(Lang::En, &format!("{id}.description")));
    for lang in other_languages() {
        let code = Cow::Borrowed(lang.code());
        command
            .name_localizations
            .to_mut()
            .push((code.clone(), text(lang, &id)));
        command
            .description_localizations
            .to_mut()
            .push((code, text(lang, &format!("{id}.description"))));
    }
    for parameter in &mut command.parameters {
        let option = format!("{id}-opt-{}", parameter.name.replace('_', "-"));
        parameter.description = Some(text(Lang::En, &format!("{option}.description")));
        for lang in other_languages() {
            let code = Cow::Borrowed(lang.code());
            parameter
                .name_localizations
                .to_mut()
                .push((code.clone(), text(lang, &option)));
            parameter
                .description_localizations
                .to_mut()
                .push((code, text(lang, &format!("{option}.description"))));
        }
        for choice in &mut parameter.choices.to_mut().iter_mut() {
            let choice_id = format!("{option}-choice-{}", choice_slug(&choice.name));
            for lang in other_languages() {
                choice
                    .localizations
                    .to_mut()
                    .push((Cow::Borrowed(lang.code()), text(lang, &choice_id)));
            }
        }
    }
    for sub in &mut command.subcommands {
        localize_command(sub, &id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Discord's rule for a chat command's or option's name: 1 to 32
    /// letters, digits, `-` or `_`, in lower case where a letter has one.
    fn keeps_discords_name_rules(name: &str) -> bool {
        let count = name.chars().count();
        (1..=32).contains(&count)
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            && name.chars().all(|c| !c.is_uppercase())
    }

    fn described(description: &str) -> bool {
        (1..=100).contains(&description.chars().count())
    }

    fn walk(command: &Command, parent: &str, problems: &mut Vec<String>) {
        let id = id_under(parent, &command.name);
        for lang in Lang::ALL {
            for wanted in [id.clone(), format!("{id}.description")] {
                if !i18n::has(lang, &wanted) {
                    problems.push(format!("{lang}: `{wanted}` is missing"));
                }
            }
        }
        if render(Lang::En, &Message::new(&id)) != command.name {
            problems.push(format!(
                "`{id}` in en is not the registered name `{}`",
                command.name
            ));
        }
        let mut names: Vec<(&str, &str)> = vec![("en", &command.name)];
        names.extend(command.name_localizations.iter().map(|(l, n)| (&**l, &**n)));
        let mut descriptions: Vec<&str> = command.description.iter().map(|d| &**d).collect();
        descriptions.extend(command.description_localizations.iter().map(|(_, d)| &**d));
        for parameter in &command.parameters {
            names.push(("en", &parameter.name));
            names.extend(
                parameter
                    .name_localizations
                    .iter()
                    .map(|(l, n)| (&**l, &**n)),
            );
            descriptions.extend(parameter.description.iter().map(|d| &**d));
            descriptions.extend(
                parameter
                    .description_localizations
                    .iter()
                    .map(|(_, d)| &**d),
            );
            for choice in parameter.choices.iter() {
                for (lang, name) in choice.localizations.iter() {
                    if !described(name) || name.starts_with("cmd-") {
                        problems.push(format!("{lang}: choice `{}` reads `{name}`", choice.name));
                    }
                }
            }
        }
        for (lang, name) in &names {
            if !keeps_discords_name_rules(name) {
                problems.push(format!("{lang}: `{name}` breaks Discord's name rules"));
            }
        }
        for description in descriptions {
            if !described(description) {
                problems.push(format!("`{description}` is not 1 to 100 characters"));
            }
        }
        // Options of one command, and subcommands of one group, need
        // names of their own in each language.
        for lang in Lang::ALL {
            let mut seen = BTreeSet::new();
            let mut siblings: Vec<String> = command
                .parameters
                .iter()
                .map(|p| localized_name(&p.name, &p.name_localizations, lang))
                .collect();
            siblings.extend(
                command
                    .subcommands
                    .iter()
                    .map(|s| localized_name(&s.name, &s.name_localizations, lang)),
            );
            for name in siblings {
                if !seen.insert(name.clone()) {
                    problems.push(format!("{lang}: `{name}` twice under `{id}`"));
                }
            }
        }
        for sub in &command.subcommands {
            walk(sub, &id, problems);
        }
    }

    fn localized_name(
        name: &str,
        localizations: &[(Cow<'static, str>, Cow<'static, str>)],
        lang: Lang,
    ) -> String {
        localizations
            .iter()
            .find(|(l, _)| l == lang.code())
            .map_or(name.to_string(), |(_, n)| n.to_string())
    }

    #[test]
    fn every_command_option_and_choice_has_a_name_and_description_in_every_language() {
        let commands = localized(crate::commands::all());
        let mut problems = Vec::new();
        for command in &commands {
            walk(command, "cmd", &mut problems);
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let game = commands.iter().find(|c| c.name == "game").expect("/game");
        let new = game
            .subcommands
            .iter()
            .find(|c| c.name == "new")
            .expect("/game new");
        assert!(
            new.name_localizations
                .iter()
                .any(|(l, n)| l == "ja" && n == "新規")
        );
    }

    #[test]
    fn the_name_rules_are_discords() {
        assert!(keeps_discords_name_rules("新規"));
        assert!(keeps_discords_name_rules("daily-deadline"));
        assert!(keeps_discords_name_rules("ai追加"));
        assert!(!keeps_discords_name_rules("AI追加"));
        assert!(!keeps_discords_name_rules("two words"));
        assert!(!keeps_discords_name_rules(""));
        assert_eq!(choice_slug("draw-size (DSS)"), "draw-size-dss");
        assert_eq!(choice_slug("AI moves"), "ai-moves");
    }
}
