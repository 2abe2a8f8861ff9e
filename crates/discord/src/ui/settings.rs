//! The text of `/settings`: a server's settings as its members read them,
//! and the answers to changing them.

use host::{DAILY_MIN_SPAN_MS, DailyDeadline, ServerSettings, time_left_words};

/// A change `/settings defaults` made, for its answer.
pub struct DefaultsChange {
    /// The kind changed.
    pub kind: &'static str,
    /// The new default deadline in seconds, if changed (`None` inside: reset).
    pub deadline: Option<Option<u64>>,
    /// The new default AI level, if changed (`None` inside: reset).
    pub ai_level: Option<Option<String>>,
}

/// `/settings show`.
pub fn settings_text(s: &ServerSettings) -> String {
    let masters = match &s.game_master_role {
        Some(r) => {
            format!("**Game masters:** members with <@&{r}>, and members with Manage Server.")
        }
        None => {
            "**Game masters:** members with Manage Server (no game-master role is set).".to_string()
        }
    };
    let defaults: Vec<String> = s
        .kind_defaults
        .iter()
        .map(|d| {
            let mut parts = Vec::new();
            if let Some(secs) = d.turn_seconds {
                parts.push(format!("deadline {}", deadline_words(secs)));
            }
            if let Some(l) = &d.ai_level {
                parts.push(format!("AI level {l}"));
            }
            format!("{}: {}", d.kind, parts.join(", "))
        })
        .collect();
    let defaults = if defaults.is_empty() {
        "**Defaults:** the bot's own for every game.".to_string()
    } else {
        format!("**Defaults:** {}.", defaults.join("; "))
    };
    let language = match s.language {
        Some(lang) => format!("**Language:** {}.", lang.native_name()),
        None => "**Language:** the server's own (Discord's server language; English if it has no catalogue).".to_string(),
    };
    format!(
        "**Settings of this server**\n{}\n{masters}\n{}\n{defaults}\n{language}\n\
         Members with Manage Server or the game-master role change them with \
         `/settings channels`, `/settings defaults`, `/settings daily-deadline` and \
         `/settings language`; `/settings game-master` (Manage Server only) chooses the role.",
        channels_line(&s.game_channels),
        daily_line(s.daily_deadline.as_ref())
    )
}

/// Where games may be created.
pub fn channels_line(channels: &[String]) -> String {
    if channels.is_empty() {
        return "**Games may be created in:** every channel.".to_string();
    }
    let list: Vec<String> = channels.iter().map(|c| format!("<#{c}>")).collect();
    format!("**Games may be created in:** {} only.", list.join(", "))
}

/// The daily Diplomacy deadline.
fn daily_line(daily: Option<&DailyDeadline>) -> String {
    match daily {
        Some(d) => format!(
            "**Daily deadline:** every phase of a new Diplomacy game ends at {}, at least {} \
             after it opens (a `deadline:` given to `/game new` replaces it).",
            d.describe(),
            time_left_words(DAILY_MIN_SPAN_MS)
        ),
        None => "**Daily deadline:** off; Diplomacy phases last their deadline.".to_string(),
    }
}

/// The answer to `/settings daily-deadline`.
pub fn daily_changed(daily: Option<&DailyDeadline>) -> String {
    let now = daily_line(daily);
    format!("{now}\nGames already running keep the deadline they were created with.")
}

/// The answer to `/settings defaults`.
pub fn defaults_changed(c: &DefaultsChange) -> String {
    let mut lines = Vec::new();
    match c.deadline {
        Some(Some(secs)) => lines.push(format!(
            "New {} games here have a deadline of {} unless their creator names one.",
            c.kind,
            deadline_words(secs)
        )),
        Some(None) => lines.push(format!(
            "New {} games here have the bot's default deadline again.",
            c.kind
        )),
        None => {}
    }
    match &c.ai_level {
        Some(Some(l)) => lines.push(format!(
            "AI seats of {} games here play at level {l} unless another is named.",
            c.kind
        )),
        Some(None) => lines.push(format!(
            "AI seats of {} games here play at the game's default level again.",
            c.kind
        )),
        None => {}
    }
    lines.join("\n")
}

/// A turn's length: "none" for 0, else "1 day", "10 min".
fn deadline_words(secs: u64) -> String {
    if secs == 0 {
        "none".to_string()
    } else {
        time_left_words(secs.min(i64::MAX as u64 / 1000) as i64 * 1000)
    }
}
