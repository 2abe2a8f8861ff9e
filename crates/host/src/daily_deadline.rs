//! The fixed daily deadline: "every phase ends at 20:00 in the server's
//! time zone", a common rule of Diplomacy communities.
//!
//! Choices, where the issue leaves room:
//! - **Which day.** A phase ends at the first HH:MM (local time in the
//!   zone) that is at least [`DAILY_MIN_SPAN_MS`] (12 h) after it opens: a
//!   phase opening at 07:00 ends at 20:00 the same day (13 h), one opening
//!   at 19:59 or at 09:00 ends at 20:00 the next day (24 h 01 min, 35 h).
//!   So every phase gets at least half a day, whatever its kind (movement,
//!   retreats, adjustments).
//! - **Daylight saving.** The time is wall-clock time in an IANA zone
//!   (`chrono-tz`, the database bundled in the binary): 20:00 stays 20:00
//!   local across a change of clocks. A time that does not exist that day
//!   (inside the hour clocks skip) becomes the first minute after the gap;
//!   a time that happens twice (the hour clocks repeat) is the first one.
//! - **Snapshot.** A game copies the server's setting when it is created
//!   (`game_schedules`); changing the setting later moves no running game.

use chrono::{DateTime, Duration, LocalResult, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::Tz;

/// The least time a phase runs before a daily deadline ends it (12 h).
pub const DAILY_MIN_SPAN_MS: i64 = 12 * 3600 * 1000;

/// A fixed daily deadline: a minute of the day in an IANA time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyDeadline {
    minute_of_day: u32,
    zone: Tz,
}

impl DailyDeadline {
    /// Reads a time of day (`20:00`, 24-hour clock) and an IANA zone name
    /// (`Europe/Berlin`); the error says what was wrong and what would do.
    pub fn parse(time: &str, zone: &str) -> Result<DailyDeadline, String> {
        let minute_of_day = parse_time_of_day(time)?;
        let zone = parse_zone(zone)?;
        Ok(DailyDeadline {
            minute_of_day,
            zone,
        })
    }

    /// The deadline from stored values (a minute of the day, a zone name).
    pub fn from_stored(minute_of_day: u32, zone: &str) -> Result<DailyDeadline, String> {
        if minute_of_day >= 24 * 60 {
            return Err(format!("minute {minute_of_day} is not a minute of a day"));
        }
        Ok(DailyDeadline {
            minute_of_day,
            zone: parse_zone(zone)?,
        })
    }

    /// The minute of the day (0-1439).
    pub fn minute_of_day(&self) -> u32 {
        self.minute_of_day
    }

    /// The zone's IANA name.
    pub fn zone_name(&self) -> &'static str {
        self.zone.name()
    }

    /// The time of day as `HH:MM`.
    pub fn time_text(&self) -> String {
        format!(
            "{:02}:{:02}",
            self.minute_of_day / 60,
            self.minute_of_day % 60
        )
    }

    /// "20:00 Europe/Berlin".
    pub fn describe(&self) -> String {
        format!("{} {}", self.time_text(), self.zone_name())
    }

    /// The deadline (Unix ms) of a phase that opens at `opens_ms`: the
    /// first HH:MM in the zone at least [`DAILY_MIN_SPAN_MS`] later.
    pub fn deadline_after(&self, opens_ms: i64) -> i64 {
        let earliest = opens_ms.saturating_add(DAILY_MIN_SPAN_MS);
        let Some(utc) = DateTime::from_timestamp_millis(earliest) else {
            return earliest;
        };
        let first_day = utc.with_timezone(&self.zone).date_naive();
        let time = NaiveTime::from_num_seconds_from_midnight_opt(self.minute_of_day * 60, 0)
            .unwrap_or(NaiveTime::MIN);
        // The local time falls on the day of `earliest` or the next; a
        // third day covers a zone skipping a whole day (Samoa, 2011).
        (0..3)
            .filter_map(|d| first_day.checked_add_signed(Duration::days(d)))
            .map(|day| self.instant_of(day.and_time(time)))
            .find(|&at| at >= earliest)
            .unwrap_or(earliest)
    }

    /// The instant (Unix ms) a local date and time names in the zone: the
    /// first of two in a repeated hour, the end of a skipped one.
    fn instant_of(&self, local: NaiveDateTime) -> i64 {
        let mut t = local;
        for _ in 0..=24 * 60 {
            match self.zone.from_local_datetime(&t) {
                LocalResult::Single(at) => return at.timestamp_millis(),
                LocalResult::Ambiguous(first, _) => return first.timestamp_millis(),
                LocalResult::None => t += Duration::minutes(1),
            }
        }
        local.and_utc().timestamp_millis()
    }
}

/// `HH:MM` on the 24-hour clock as a minute of the day.
fn parse_time_of_day(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let refuse = || {
        format!(
            "`{}` is not a time of day; use HH:MM on the 24-hour clock, like `20:00` or `07:30`.",
            games::clip::clip_typed(t)
        )
    };
    let (h, m) = t.split_once(':').ok_or_else(refuse)?;
    let (h, m): (u32, u32) = (
        h.trim().parse().map_err(|_| refuse())?,
        m.trim().parse().map_err(|_| refuse())?,
    );
    if h > 23 || m > 59 || t.len() > 5 {
        return Err(refuse());
    }
    Ok(h * 60 + m)
}

/// An IANA zone name, e.g. `Europe/Berlin`.
fn parse_zone(name: &str) -> Result<Tz, String> {
    let name = name.trim();
    name.parse::<Tz>().map_err(|_| {
        format!(
            "`{}` is not a time zone; use an IANA name like `Europe/Berlin` or \
             `America/New_York`.",
            games::clip::clip_typed(name)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unix ms of a UTC date and time.
    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> i64 {
        chrono::Utc
            .with_ymd_and_hms(y, mo, d, h, mi, 0)
            .unwrap()
            .timestamp_millis()
    }

    fn berlin_20() -> DailyDeadline {
        DailyDeadline::parse("20:00", "Europe/Berlin").unwrap()
    }

    #[test]
    fn a_phase_gets_at_least_twelve_hours_and_ends_at_the_local_time() {
        let d = berlin_20();
        // 07:00 Berlin (winter, UTC+1): 20:00 the same day is 13 h away.
        assert_eq!(
            d.deadline_after(utc(2026, 1, 10, 6, 0)),
            utc(2026, 1, 10, 19, 0)
        );
        // 08:01 Berlin: 20:00 is 11 h 59 min away, too close: the next day.
        assert_eq!(
            d.deadline_after(utc(2026, 1, 10, 7, 1)),
            utc(2026, 1, 11, 19, 0)
        );
        // Exactly 12 h before is enough.
        assert_eq!(
            d.deadline_after(utc(2026, 1, 10, 7, 0)),
            utc(2026, 1, 10, 19, 0)
        );
        // Opening a minute before 20:00 runs to 20:00 the next day.
        assert_eq!(
            d.deadline_after(utc(2026, 1, 10, 18, 59)),
            utc(2026, 1, 11, 19, 0)
        );
        // Summer (UTC+2): the same local 20:00 is 18:00 UTC.
        assert_eq!(
            d.deadline_after(utc(2026, 7, 10, 5, 0)),
            utc(2026, 7, 10, 18, 0)
        );
    }

    #[test]
    fn the_local_time_holds_across_a_change_of_clocks() {
        let d = berlin_20();
        // Clocks go forward on 29 March 2026 at 02:00 in Berlin: a phase
        // opening at 19:30 CET on the 28th ends at 20:00 CEST on the 29th,
        // 23 h 30 min later (not 24 h 30 min).
        let opens = utc(2026, 3, 28, 18, 30);
        let due = d.deadline_after(opens);
        assert_eq!(due, utc(2026, 3, 29, 18, 0));
        assert_eq!(due - opens, (23 * 60 + 30) * 60_000);
        // Clocks go back on 25 October 2026: 20:00 CET is 19:00 UTC.
        assert_eq!(
            d.deadline_after(utc(2026, 10, 24, 18, 30)),
            utc(2026, 10, 25, 19, 0)
        );
        // New York's change (8 March 2026) is another day than Berlin's.
        let ny = DailyDeadline::parse("20:00", "America/New_York").unwrap();
        // 20:00 EST the day before is 01:00 UTC; 20:00 EDT after it, 00:00 UTC.
        assert_eq!(
            ny.deadline_after(utc(2026, 3, 7, 12, 0)),
            utc(2026, 3, 8, 1, 0)
        );
        assert_eq!(
            ny.deadline_after(utc(2026, 3, 8, 12, 0)),
            utc(2026, 3, 9, 0, 0)
        );
    }

    #[test]
    fn a_skipped_time_is_the_end_of_the_gap_and_a_repeated_one_the_first() {
        let d = DailyDeadline::parse("02:30", "Europe/Berlin").unwrap();
        // 02:30 does not exist on 29 March 2026: 03:00 CEST = 01:00 UTC.
        assert_eq!(
            d.deadline_after(utc(2026, 3, 28, 12, 0)),
            utc(2026, 3, 29, 1, 0)
        );
        // 02:30 happens twice on 25 October 2026: the first is CEST, 00:30 UTC.
        assert_eq!(
            d.deadline_after(utc(2026, 10, 24, 12, 0)),
            utc(2026, 10, 25, 0, 30)
        );
    }

    #[test]
    fn bad_times_and_zones_say_what_would_do() {
        assert_eq!(
            DailyDeadline::parse("20:00", "Europe/Berln").unwrap_err(),
            "`Europe/Berln` is not a time zone; use an IANA name like `Europe/Berlin` or \
             `America/New_York`."
        );
        for bad in ["25:00", "20", "8pm", "20:60", "-1:00"] {
            let e = DailyDeadline::parse(bad, "UTC").unwrap_err();
            assert!(e.contains("HH:MM on the 24-hour clock"), "{bad}: {e}");
        }
        // A huge answer is echoed clipped, not whole.
        let huge = "x".repeat(100_000);
        for e in [
            DailyDeadline::parse(&huge, "UTC").unwrap_err(),
            DailyDeadline::parse("20:00", &huge).unwrap_err(),
        ] {
            assert!(e.len() < 200, "{} bytes", e.len());
        }
        let d = DailyDeadline::parse(" 7:05 ", "Asia/Tokyo").unwrap();
        assert_eq!(
            (d.minute_of_day(), d.describe().as_str()),
            (425, "07:05 Asia/Tokyo")
        );
    }
}
