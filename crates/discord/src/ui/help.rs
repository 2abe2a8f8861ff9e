//! `/help`'s text: what a user can do where they ask (a DM, a channel with
//! no game, a lobby, a game), so a player who never read a manual finds the
//! next step. The rules of each game come from the engines (`/rules`).

use i18n::{Lang, Message, msg, render};

/// Where `/help` was asked, as far as it changes the answer.
pub enum HelpPlace {
    /// A direct message with the bot, with the labels of the user's
    /// running games ("diplomacy #3").
    Dm {
        /// The user's running games.
        games: Vec<String>,
    },
    /// A server channel without a game.
    Channel {
        /// The kinds of game the bot hosts.
        kinds: Vec<&'static str>,
    },
    /// A channel whose game waits in its lobby.
    Lobby {
        /// The game's label ("cards #4").
        label: String,
        /// The game's kind.
        kind: String,
    },
    /// A channel or thread with a running game.
    Game {
        /// The game's label.
        label: String,
        /// The game's kind.
        kind: String,
        /// Whether the asking user plays in it.
        playing: bool,
        /// How its players make their moves.
        moves: MoveStyle,
        /// Whether its players write press to each other (`/press`).
        has_press: bool,
        /// Whether `/rules` fits the reader's own seat.
        rules_fit_the_reader: bool,
    },
}

/// How the players of a kind make their moves, from its engine's seam.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveStyle {
    /// Orders by DM, one a line, ended with `done` (`Game::ORDERS_BY_LINE`).
    OrdersByLine,
    /// With the buttons of a prompt in the game's thread (`Game::MOVES_IN_CHANNEL`).
    InChannel,
    /// Hidden, with the buttons of a DM prompt.
    ByDm,
}

/// The answer to `/help` in `place`, in `lang`.
pub fn help_text(place: &HelpPlace, lang: Lang) -> String {
    render(lang, &help_message(place))
}

/// The answer to `/help` in `place`, as a message.
fn help_message(place: &HelpPlace) -> Message {
    let yes = |b: bool| if b { "yes" } else { "no" };
    match place {
        HelpPlace::Dm { games } => msg!(
            "help-dm",
            games = if games.is_empty() { "none" } else { "some" },
            list = games.join(", ")
        ),
        HelpPlace::Channel { kinds } => msg!("help-channel", kinds = kinds.join(", ")),
        HelpPlace::Lobby { label, kind } => msg!("help-lobby", label = label, kind = kind),
        HelpPlace::Game {
            label,
            kind,
            playing: true,
            moves,
            has_press,
            rules_fit_the_reader,
        } => msg!(
            "help-playing",
            label = label,
            kind = kind,
            how = how_to_move(*moves),
            press = yes(*has_press),
            fitted = yes(*rules_fit_the_reader)
        ),
        HelpPlace::Game { label, kind, .. } => {
            msg!("help-watching", label = label, kind = kind)
        }
    }
}

/// The greeting posted once when the bot joins a server, in `lang`: what
/// it is and how to start, in a few lines.
pub fn greeting_text(kinds: &[&str], lang: Lang) -> String {
    render(lang, &msg!("greeting", kinds = kinds.join(", ")))
}

/// How a player makes a move, by the kind's move style.
fn how_to_move(moves: MoveStyle) -> Message {
    Message::new(match moves {
        MoveStyle::OrdersByLine => "help-move-orders-by-line",
        MoveStyle::InChannel => "help-move-in-channel",
        MoveStyle::ByDm => "help-move-by-dm",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_fits_one_message_and_names_the_next_step() {
        let places = [
            HelpPlace::Dm {
                games: vec!["diplomacy #3".into()],
            },
            HelpPlace::Channel {
                kinds: vec!["battle", "cards"],
            },
            HelpPlace::Lobby {
                label: "cards #4".into(),
                kind: "cards".into(),
            },
            HelpPlace::Game {
                label: "diplomacy #3".into(),
                kind: "diplomacy".into(),
                playing: true,
                moves: MoveStyle::OrdersByLine,
                has_press: true,
                rules_fit_the_reader: true,
            },
        ];
        let wanted = ["diplomacy #3", "/game new", "Join", "done"];
        for (place, word) in places.iter().zip(wanted) {
            let text = help_text(place, Lang::En);
            assert!(text.contains(word), "{word}: {text}");
            assert!(text.chars().count() < 2000);
        }
        let japanese = ["diplomacy #3", "/game new", "参加", "done"];
        for (place, word) in places.iter().zip(japanese) {
            let text = help_text(place, Lang::Ja);
            assert!(text.contains(word), "{word}: {text}");
            assert!(text.contains("。"), "{text}");
            assert!(!text.contains("You "), "English left in: {text}");
        }
    }
}
