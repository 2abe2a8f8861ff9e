//! Every sentence a person reads comes from here: the Fluent catalogues
//! (`locales/en`, `locales/ja`), embedded in the binary; the [`Message`]
//! type engines and the host return instead of sentences (so they stay
//! pure and stored texts render in whoever reads them); and text measured
//! by display width and typed input normalised (NFKC).
//!
//! No I/O, clock or environment: the crate sits below the games.

mod catalogue;
mod input;
mod lang;
mod message;
mod width;

pub use catalogue::{has, list_in_words, render, text};
pub use input::normalize_typed;
pub use lang::Lang;
pub use message::{Arg, Message, Names};
pub use width::{display_width, pad_left, pad_right, truncate_to_width};

/// Each catalogue file's name and its English and Japanese text, for the
/// checks that both hold the same ids with the same variables.
pub fn catalogue_files() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    catalogue::FILES.iter().copied()
}
