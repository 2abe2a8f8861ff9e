//! The `gamehost` binary's library: the command line, the terminal
//! front-end, the operator's config, and the composition root that builds
//! the registry of engines and opens the host on the configured store.
//!
//! The layers are crates of this workspace, and imports only point down:
//! `discord` (the bot) and [`terminal`] drive the `host`, which keeps
//! sessions in the `store` and plays them through the pure engines in
//! `games`; `render` draws their boards.

pub mod cli;
pub mod config;
pub mod operator_file;
pub mod operator_maps;
pub mod terminal;
