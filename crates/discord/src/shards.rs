//! Which gateway shards one bot process runs.
//!
//! Discord splits a bot's guilds across gateway shards (guild `g` is on
//! shard `(g >> 22) % total`; DMs arrive on shard 0 only). An operator who
//! runs several processes on one shared database gives each a range of the
//! shards; every process can still act on every game, because the game's
//! state is in the store, not in the process that received the event.

use std::fmt;

/// The most shards a bot may run; Discord's own recommendation for the
/// largest bots is in the low thousands.
pub const MAX_SHARDS: u32 = 4096;

/// The shards `first..end` (half-open) out of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    /// The first shard this process runs.
    pub first: u32,
    /// One past the last shard this process runs.
    pub end: u32,
    /// How many shards the bot runs in all, across every process.
    pub total: u32,
}

impl ShardRange {
    /// Every shard of a one-process bot with `total` shards.
    pub fn all(total: u32) -> ShardRange {
        ShardRange {
            first: 0,
            end: total,
            total,
        }
    }

    /// Reads `--shards` (`A..B`, half-open as in Rust; `A..=B`, inclusive;
    /// or a single shard `A`) against `--shard-total N`.
    pub fn parse(range: &str, total: u32) -> Result<ShardRange, String> {
        let example = "e.g. `--shards 0..2 --shard-total 4` runs shards 0 and 1 of 4";
        if total == 0 || total > MAX_SHARDS {
            return Err(format!(
                "`--shard-total {total}` is out of range: it must be 1 to {MAX_SHARDS} \
                 (Discord recommends one shard per ~1,000 guilds); {example}"
            ));
        }
        let number = |s: &str| -> Result<u32, String> {
            s.trim().parse::<u32>().map_err(|_| {
                format!(
                    "`--shards {range}`: `{}` is not a shard number; {example}",
                    s.trim()
                )
            })
        };
        let text = range.trim();
        let (first, end) = if let Some((a, b)) = text.split_once("..=") {
            (number(a)?, number(b)?.saturating_add(1))
        } else if let Some((a, b)) = text.split_once("..") {
            (number(a)?, number(b)?)
        } else {
            let a = number(text)?;
            (a, a.saturating_add(1))
        };
        if first >= end {
            return Err(format!(
                "`--shards {range}` names no shard (the end is not after the start); {example}"
            ));
        }
        if end > total {
            return Err(format!(
                "`--shards {range}` goes past `--shard-total {total}`: shards are numbered 0 to {}; \
                 {example}",
                total - 1
            ));
        }
        Ok(ShardRange { first, end, total })
    }

    /// Whether this process runs shard 0, the one that receives DMs.
    pub fn receives_dms(&self) -> bool {
        self.first == 0
    }

    /// The shard that receives a guild's events.
    pub fn shard_of_guild(guild_id: u64, total: u32) -> u32 {
        ((guild_id >> 22) % u64::from(total.max(1))) as u32
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.end - self.first == 1 {
            write!(f, "shard {} of {}", self.first, self.total)
        } else {
            write!(
                f,
                "shards {} to {} of {}",
                self.first,
                self.end - 1,
                self.total
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ShardRange;

    #[test]
    fn ranges_parse_half_open_inclusive_and_single() {
        assert_eq!(
            ShardRange::parse("0..2", 4),
            Ok(ShardRange {
                first: 0,
                end: 2,
                total: 4
            })
        );
        assert_eq!(
            ShardRange::parse("2..=3", 4),
            Ok(ShardRange {
                first: 2,
                end: 4,
                total: 4
            })
        );
        assert_eq!(
            ShardRange::parse(" 1 ", 2),
            Ok(ShardRange {
                first: 1,
                end: 2,
                total: 2
            })
        );
        assert_eq!(
            ShardRange::parse("0..2", 4).unwrap().to_string(),
            "shards 0 to 1 of 4"
        );
        assert_eq!(
            ShardRange::parse("1", 2).unwrap().to_string(),
            "shard 1 of 2"
        );
    }

    #[test]
    fn bad_ranges_say_what_would_be_right() {
        let past = ShardRange::parse("0..3", 2).unwrap_err();
        assert!(past.contains("numbered 0 to 1"), "{past}");
        let empty = ShardRange::parse("2..2", 4).unwrap_err();
        assert!(empty.contains("names no shard"), "{empty}");
        let word = ShardRange::parse("a..b", 4).unwrap_err();
        assert!(word.contains("`a` is not a shard number"), "{word}");
        let zero = ShardRange::parse("0", 0).unwrap_err();
        assert!(zero.contains("1 to 4096"), "{zero}");
        for e in [past, empty, word, zero] {
            assert!(e.contains("e.g. `--shards 0..2"), "{e}");
        }
    }

    #[test]
    fn guilds_map_to_shards_as_discord_does() {
        // Discord's formula: (guild_id >> 22) % num_shards.
        assert_eq!(ShardRange::shard_of_guild(5_000_000_000_000_001, 2), 1);
        assert_eq!(ShardRange::shard_of_guild(5_000_000_004_194_305, 2), 0);
        assert_eq!(ShardRange::shard_of_guild(5_000_000_000_000_001, 1), 0);
    }
}
