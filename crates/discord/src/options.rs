//! The `options` text of `/game new`; parsed as every front-end parses a
//! creator's options (see [`host::options`]).

pub use host::parse_game_options;
