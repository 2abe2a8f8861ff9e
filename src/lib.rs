//! gamehost: a self-hosted Discord bot that runs many games at once, one per
//! channel, with a terminal mode for playing against the AI without a token.
//!
//! Layers (imports only point down): `discord` and `terminal` drive the
//! [`host`], which keeps sessions in the [`store`] and plays them through the
//! pure engines in [`games`].

pub mod cli;
pub mod config;
pub mod discord;
pub mod games;
pub mod host;
pub mod render;
pub mod store;
pub mod terminal;
