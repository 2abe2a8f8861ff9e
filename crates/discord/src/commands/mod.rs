//! The slash commands, one file per command or `/game` family. Command
//! files never import each other: what they share is in `shared.rs`.

mod game;
mod help;
mod language;
mod moves;
mod orders;
mod press;
mod privacy;
mod rules;
mod settings;
mod shared;

use crate::BotError;
use crate::Data;
/// The slash commands.
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    vec![
        game::game(),
        help::help(),
        language::language(),
        moves::move_(),
        orders::orders(),
        press::press(),
        privacy::privacy(),
        rules::rules(),
        settings::settings(),
    ]
}
