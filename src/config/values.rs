//! Values the config's sections share: durations like `6h`, log filters.

use super::*;

/// Parses a span such as `6h`, `30m`, `90s` or `1d`; `0` or empty: none.
pub fn parse_every(text: &str) -> Result<Option<Duration>, Message> {
    let t = text.trim();
    if t.is_empty() || t == "0" {
        return Ok(None);
    }
    let expected = || {
        msg!(
            "operator-not-a-span",
            value = t.chars().take(50).collect::<String>()
        )
    };
    let (number, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: u64 = number.parse().map_err(|_| expected())?;
    let seconds = match unit.trim() {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(expected()),
    };
    match n.checked_mul(seconds) {
        Some(0) => Ok(None),
        Some(s) => Ok(Some(Duration::from_secs(s))),
        None => Err(expected()),
    }
}

/// The levels a log filter may name.
const LOG_LEVELS: &[&str] = &["off", "error", "warn", "info", "debug", "trace"];

/// Accepts a `tracing` filter whose every directive names a level (`info`,
/// `gamehost=debug`); refuses a typo such as `verbose`, which `tracing`
/// would read as "only the module called verbose" and so log nothing.
pub fn check_log_filter(filter: &str) -> Result<(), Message> {
    let expected = || Message::new("operator-log-expected");
    let directives: Vec<&str> = filter
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .collect();
    if directives.is_empty() {
        return Err(msg!("operator-log-empty", expected = expected()));
    }
    for d in directives {
        let level = d.rsplit_once('=').map_or(d, |(_, l)| l).trim();
        if !LOG_LEVELS.contains(&level.to_ascii_lowercase().as_str()) {
            return Err(msg!(
                "operator-log-no-level",
                directive = d,
                expected = expected()
            ));
        }
    }
    tracing_subscriber::EnvFilter::try_new(filter)
        .map(|_| ())
        .map_err(|e| {
            msg!(
                "operator-log-not-a-filter",
                filter = filter,
                reason = e.to_string(),
                expected = expected()
            )
        })
}
