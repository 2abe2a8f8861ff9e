//! Board images for the posts and prompts: a game's position and a resolved
//! phase's orders, drawn off the async workers (`boards`), and each phase's
//! position drawn once for the channel and every prompt (`phase_maps`).

pub mod boards;
pub mod phase_maps;
