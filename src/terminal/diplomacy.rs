//! What the terminal adds for Diplomacy, as the DM desk does in Discord:
//! a guide at each phase (units, centres, what the phase owes, examples of
//! one's own units, how to finish, where the phase's map image is),
//! `orders` to list what was given, and a second `done` or `draw` asked for
//! before one that leaves builds or removals to civil disorder or ends the
//! game at once.

use games::diplomacy::Diplomacy;
use games::diplomacy::geo::Power;
use games::diplomacy::judge::PhaseKind;
use games::diplomacy::order::Order;
use games::seam::Game;
use host::{GameId, Host};
use std::path::PathBuf;

/// The player's power in a running Diplomacy game, the position and the
/// orders they gave this phase.
pub(super) struct Seated {
    game_id: GameId,
    game: Diplomacy,
    power: Power,
    pending: Vec<Order>,
    /// The turn (phase) this is, counted from 0 as the host does.
    pub(super) turn: u32,
}

/// The user's seat when the game is Diplomacy and they play in it.
pub(super) fn seated(host: &Host, game_id: GameId, user: &str) -> anyhow::Result<Option<Seated>> {
    let view = host.view(game_id, Some(user))?;
    if view.kind != Diplomacy::KIND || view.status != host::GameStatus::Running {
        return Ok(None);
    }
    let state = host.state_at(game_id, view.turn)?;
    let game: Diplomacy = serde_json::from_str(&state.state_json())?;
    let Some(power) = view.viewer_seat.and_then(|s| game.power_of_seat(s)) else {
        return Ok(None);
    };
    // The host shows a seat its own pending action as text whose leading
    // lines are its orders in canonical form.
    let pending = match host.own_pending(game_id, user)? {
        Some(text) => text
            .lines()
            .map_while(|l| game.check_line(power, l).ok())
            .collect(),
        None => Vec::new(),
    };
    Ok(Some(Seated {
        game_id,
        game,
        power,
        pending,
        turn: view.turn,
    }))
}

/// The guide printed when a phase begins: what the power has and owes,
/// the commands, and the path of the phase's map image.
pub(super) fn guide(s: &Seated) -> String {
    let mut text = s.game.phase_guide(s.power, &s.pending);
    text.push_str("`orders` lists what you gave, `clear` drops it, `draw` votes for a draw, `help` shows every command.\n");
    match write_map(s) {
        Ok(path) => text.push_str(&format!("Map of this phase: {}\n", path.display())),
        Err(e) => text.push_str(&format!(
            "(The map of this phase could not be drawn: {e}.)\n"
        )),
    }
    text
}

/// `orders`: the orders given this phase, or what is still without one.
pub(super) fn orders_text(s: &Seated) -> String {
    let m = s.game.map();
    let mut text = if s.pending.is_empty() {
        format!("No orders yet this phase ({}).\n", s.game.phase_name())
    } else {
        let lines: Vec<String> = s
            .pending
            .iter()
            .map(|o| format!("  {}", o.canonical(m)))
            .collect();
        format!(
            "Your orders ({}):\n{}\n",
            s.game.phase_name(),
            lines.join("\n")
        )
    };
    if let Some(missing) = s.game.missing_orders(s.power, &s.pending) {
        text.push_str(&missing);
        text.push('\n');
    }
    text
}

/// The phase's map drawn to a PNG in this process's own folder of maps
/// ([`map_folder`]; one file per game and phase, drawn again if asked again).
fn write_map(s: &Seated) -> anyhow::Result<PathBuf> {
    // Under Fog of War, the map of what the player's power sees.
    let pos = render::diplomacy::MapPosition::seen_by(&s.game, s.power);
    let png = render::diplomacy::render_position_png(&pos)?;
    let name = format!("diplomacy-{}-phase-{}.png", s.game_id, s.turn);
    let path = map_folder()?.join(name);
    std::fs::write(&path, png)?;
    Ok(path)
}

/// A folder of this process's own under the system's temporary directory,
/// with a random name and readable by this user only (made once, kept after
/// exit so the last map can still be opened). A fixed name there would let
/// another user of the machine place a link where the map is written, or
/// read a fogged power's map.
fn map_folder() -> anyhow::Result<&'static std::path::Path> {
    static FOLDER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    if let Some(folder) = FOLDER.get() {
        return Ok(folder);
    }
    use std::os::unix::fs::PermissionsExt;
    let made = tempfile::Builder::new()
        .prefix("gamehost-maps-")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
        .map_err(|e| anyhow::anyhow!("could not make a folder for the map images: {e}"))?
        .keep();
    Ok(FOLDER.get_or_init(|| made))
}

/// Whether `line` is one of the words the engine takes for `done` / `draw`.
fn is_word(line: &str, words: &[&str]) -> bool {
    let l = line.trim().to_ascii_lowercase();
    words.contains(&l.trim_end_matches(['.', '!']))
}

/// The warning to show before `line` is sent, when it should be typed a
/// second time to take effect: a `draw` vote (the AI powers accept a draw,
/// so it ends the game at once) and a `done` that leaves a retreat or an
/// adjustment to the civil-disorder rule.
pub(super) fn needs_confirmation(s: &Seated, line: &str) -> Option<String> {
    if games::diplomacy::game::is_draw_vote(line) {
        return Some(
            "A draw vote ends the game when this phase resolves if every other surviving power \
             accepts it, and the AI powers accept. Type `draw` again to vote for the draw, \
             anything else to play on."
                .into(),
        );
    }
    let done = ["done", "ready", "submit", "end", "finish", "finished"];
    if !is_word(line, &done) || s.game.phase() == PhaseKind::Movement {
        return None;
    }
    let missing = s.game.missing_orders(s.power, &s.pending)?;
    Some(format!(
        "{missing} `done` now does the same. Type `done` again to finish anyway, or give the orders first."
    ))
}
