//! Spans of time in words for messages: shared by the limits, deadlines,
//! extensions and pauses that quote them, so it sits below all of them.

/// "24 h", "90 min", "45 s" for messages.
pub(super) fn duration_words(ms: i64) -> String {
    let s = ms / 1000;
    if s >= 3600 && s % 3600 == 0 {
        format!("{} h", s / 3600)
    } else if s >= 60 && s % 60 == 0 {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}

/// A span as people say it: under a minute in seconds ("15 s", so a
/// reminder with 15 s left does not promise a minute), else rounded up to
/// the minute: "45 min", "2 h 05 min", "3 days 4 h" (never "0 min" while
/// time is left).
pub fn time_left_words(ms: i64) -> String {
    if ms < 60_000 {
        return format!("{} s", (ms.max(0) + 999) / 1000);
    }
    let minutes = (ms.max(0) + 59_999) / 60_000;
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    match (days, hours, mins) {
        (0, 0, m) => format!("{m} min"),
        (0, h, 0) => format!("{h} h"),
        (0, h, m) => format!("{h} h {m:02} min"),
        (1, 0, _) => "1 day".to_string(),
        (1, h, _) => format!("1 day {h} h"),
        (d, 0, _) => format!("{d} days"),
        (d, h, _) => format!("{d} days {h} h"),
    }
}

#[cfg(test)]
mod tests {
    use super::{duration_words, time_left_words};

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_words(24 * 3600 * 1000), "24 h");
        assert_eq!(duration_words(90 * 60 * 1000), "90 min");
        assert_eq!(duration_words(45_500), "45 s");
    }

    #[test]
    fn time_left_reads_as_people_say_it() {
        assert_eq!(time_left_words(1), "1 s");
        assert_eq!(time_left_words(15_000), "15 s");
        assert_eq!(time_left_words(60_000), "1 min");
        assert_eq!(time_left_words(60_001), "2 min");
        assert_eq!(time_left_words(2_600_000), "44 min");
        assert_eq!(time_left_words(2 * 3_600_000 + 5 * 60_000), "2 h 05 min");
        assert_eq!(time_left_words(48 * 3_600_000), "2 days");
        assert_eq!(time_left_words(28 * 3_600_000), "1 day 4 h");
    }
}
