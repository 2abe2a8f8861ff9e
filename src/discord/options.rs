//! The `options` text of `/game new`; parsed as every front-end parses a
//! creator's options (see [`crate::host::options`]).

pub use crate::host::options::parse_game_options;
