//! The rules of each kind of game, for `/rules` in Discord and `rules` in
//! the terminal: the engine's own text (one source for every front-end),
//! read from a game in play when there is one, so a player sees the rule
//! set that game uses and what concerns their seat.

use crate::{AnyGame, GameId, GameStatus, Host, HostError};
use games::seam::Seat;

impl Host {
    /// The rules of `kind`. When `game` is a running game of that kind, as
    /// `viewer` reads them there (Diplomacy: examples of their own units;
    /// a battle: the type chart of the rule set it was created with);
    /// otherwise the rules of a game of that kind with default options.
    pub fn rules(
        &self,
        kind: &str,
        game: Option<GameId>,
        viewer: Option<&str>,
    ) -> Result<String, HostError> {
        let (state, seat) = self.rules_game(kind, game, viewer)?;
        Ok(or_none_written(state.kind(), state.rules(seat)))
    }

    /// The game whose rules [`Host::rules`] shows, with the viewer's seat in
    /// it: `game` when it is a running game of `kind`, else a game of that
    /// kind with default options (no seat). Front-ends draw a kind's rules
    /// image (`Game::RULES_IMAGE`) from it, so the image shows the same rule
    /// set as the text.
    pub fn rules_game(
        &self,
        kind: &str,
        game: Option<GameId>,
        viewer: Option<&str>,
    ) -> Result<(Box<dyn AnyGame>, Option<Seat>), HostError> {
        let entry = self.registry().get(kind)?;
        if let Some(id) = game {
            let view = self.view(id, viewer)?;
            if view.kind == entry.name && view.status == GameStatus::Running {
                return Ok((self.state_at(id, view.turn)?, view.viewer_seat));
            }
        }
        let sample = self
            .registry()
            .create(entry.name, &serde_json::Value::Null, 0)?;
        Ok((sample, None))
    }
}

/// The rules text, or a sentence saying the engine has none.
fn or_none_written(kind: &str, text: String) -> String {
    if text.trim().is_empty() {
        format!("No rules are written for {kind} yet.")
    } else {
        text
    }
}
