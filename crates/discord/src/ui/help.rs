//! `/help`'s text: what a user can do where they ask (a DM, a channel with
//! no game, a lobby, a game), so a player who never read a manual finds the
//! next step. The rules of each game come from the engines (`/rules`).

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

/// The answer to `/help` in `place`.
pub fn help_text(place: &HelpPlace) -> String {
    match place {
        HelpPlace::Dm { games } => dm_help(games),
        HelpPlace::Channel { kinds } => format!(
            "**gamehost** runs games here: {}.\n\
             **Start one:** `/game new` with the kind opens a lobby in this channel; others \
             press **Join**, `/game ai` adds an AI seat, **Start** when the seats are taken. \
             The game is then played in a thread of its own.\n\
             **Learn a game:** `/rules` with the game's name.\n\
             **More:** `/game list` (games running), `/game leaderboard`, `/game profile`, \
             `/game history`. `/privacy show` says what the bot stores about you.\n\
             **Server admins:** `/settings` chooses the channels for games, a game-master \
             role, default deadlines and a daily Diplomacy deadline; `/settings show` shows them.",
            kinds.join(", ")
        ),
        HelpPlace::Lobby { label, kind } => format!(
            "**{label}** waits in its lobby here. Press **Join** on the lobby message (or \
             `/game join`); `/game leave` leaves it; `/game ai` adds an AI seat; **Start** \
             (or `/game start`) once the seats are taken.\n`/rules {kind}` explains the game."
        ),
        HelpPlace::Game {
            label,
            kind,
            playing: true,
            moves,
            has_press,
            rules_fit_the_reader,
        } => format!(
            "**You play in {label}.** {}{}\n`/game status` shows whose move it is, `/game extend` \
             asks for more time, `/game away` says you are away, `/game forfeit` gives up.\n\
             `/rules {kind}` shows the rules{}.",
            how_to_move(*moves),
            if *has_press {
                " `/press` writes to the other players."
            } else {
                ""
            },
            if *rules_fit_the_reader {
                " with examples for your own units"
            } else {
                ""
            }
        ),
        HelpPlace::Game { label, kind, .. } => format!(
            "**{label}** is played here. `/game watch` follows it, `/game status` shows it; \
             after it ends `/game replay` replays it.\n`/rules {kind}` explains the game; \
             `/game new` in a channel without a game starts another."
        ),
    }
}

/// The greeting posted once when the bot joins a server: what it is and
/// how to start, in a few lines.
pub fn greeting_text(kinds: &[&str]) -> String {
    format!(
        "Hello! I host games here: {}. To start one, type `/game new` in a channel and \
         pick a game; others join with the lobby's **Join** button, or add an AI with \
         `/game ai`. `/rules` explains a game, `/help` says what you can do where you are.",
        kinds.join(", ")
    )
}

/// How a player makes a move, by the kind's move style.
fn how_to_move(moves: MoveStyle) -> &'static str {
    match moves {
        MoveStyle::OrdersByLine => {
            "Write your orders to me by DM, one per line (`A Par - Bur`), or use the menus of \
             my DM prompt; `/orders` lists them; send `done` when finished."
        }
        MoveStyle::InChannel => {
            "Make your move with the buttons of the prompt in the game's thread."
        }
        MoveStyle::ByDm => {
            "Your moves are hidden: make them with the buttons of my DM prompt (or `/move`)."
        }
    }
}

/// `/help` in a DM: what is done here and what in a server.
fn dm_help(games: &[String]) -> String {
    let yours = if games.is_empty() {
        "You play in no running game.".to_string()
    } else {
        format!("Your running games: {}.", games.join(", "))
    };
    format!(
        "**In this DM** you make hidden moves: Diplomacy orders (one per line, `done` when \
         finished; `/orders` lists them) and battle moves with the buttons of my prompts. \
         {yours}\n`/rules` with a game's name shows its rules. Games are created in a \
         server channel with `/game new`. `/privacy show` says what the bot stores about \
         you; `/privacy delete` deletes it."
    )
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
            let text = help_text(place);
            assert!(text.contains(word), "{word}: {text}");
            assert!(text.chars().count() < 2000);
        }
    }
}
