//! Game options and the seeded deal of the two decks.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::seam::OptionsError;

use super::rules::{JAM, MAX_DECK, MAX_VALUE, check_decks};

/// Options of an Invisible game. Every field has a default, so `{}` is valid.
///
/// Either `decks` gives both decks explicitly (top card first, `-1` = jam),
/// or they are dealt from the game's seed: `n` and `m` cards, each a jam with
/// probability `jam_percent`%, otherwise a score uniform in `1..=max_value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct InvisibleOptions {
    /// Player 1's deck size for a dealt game (1..=50; default 10).
    pub n: usize,
    /// Player 2's deck size for a dealt game (1..=50; default 10).
    pub m: usize,
    /// Largest score card dealt (1..=1,000,000; default 100).
    pub max_value: i64,
    /// Chance in percent that a dealt card is a jam (0..=100; default 25).
    pub jam_percent: u8,
    /// Explicit decks `[player 1's, player 2's]`; overrides the deal.
    pub decks: Option<(Vec<i64>, Vec<i64>)>,
}

impl Default for InvisibleOptions {
    fn default() -> Self {
        // Ten cards each keeps a game to a few minutes of clicking.
        InvisibleOptions {
            n: 10,
            m: 10,
            max_value: 100,
            jam_percent: 25,
            decks: None,
        }
    }
}

impl InvisibleOptions {
    /// The two decks these options give for `seed`, or why the options are invalid.
    pub fn decks(&self, seed: u64) -> Result<[Vec<i64>; 2], OptionsError> {
        let decks = match &self.decks {
            Some((a, b)) => [a.clone(), b.clone()],
            None => {
                for (name, size) in [("n", self.n), ("m", self.m)] {
                    if !(1..=MAX_DECK).contains(&size) {
                        return Err(OptionsError(format!(
                            "`{name}` is {size}; a deck size must be 1 to {MAX_DECK}."
                        )));
                    }
                }
                if !(1..=MAX_VALUE).contains(&self.max_value) {
                    return Err(OptionsError(format!(
                        "`max_value` is {}; it must be 1 to {MAX_VALUE}.",
                        self.max_value
                    )));
                }
                if self.jam_percent > 100 {
                    return Err(OptionsError(format!(
                        "`jam_percent` is {}; it must be 0 to 100.",
                        self.jam_percent
                    )));
                }
                deal(self.n, self.m, self.max_value, self.jam_percent, seed)
            }
        };
        check_decks(&decks).map_err(|e| OptionsError(format!("Invalid decks: {e}.")))?;
        Ok(decks)
    }
}

/// Deals two decks from `seed` (ChaCha8): `n` and `m` cards, each a jam
/// with probability `jam_percent`%, else a score uniform in `1..=max_value`.
pub fn deal(n: usize, m: usize, max_value: i64, jam_percent: u8, seed: u64) -> [Vec<i64>; 2] {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let max_value = max_value.max(1);
    let mut one = |len: usize| -> Vec<i64> {
        (0..len)
            .map(|_| {
                if rng.gen_range(0..100u8) < jam_percent {
                    JAM
                } else {
                    rng.gen_range(1..=max_value)
                }
            })
            .collect()
    };
    let a = one(n);
    let b = one(m);
    [a, b]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_options_deal_valid_decks() {
        let d = InvisibleOptions::default().decks(7).unwrap();
        assert_eq!((d[0].len(), d[1].len()), (10, 10));
        assert_eq!(d, InvisibleOptions::default().decks(7).unwrap());
    }

    #[test]
    fn bad_options_are_refused() {
        let o = InvisibleOptions {
            n: 0,
            ..Default::default()
        };
        assert!(o.decks(1).is_err());
        let o = InvisibleOptions {
            decks: Some((vec![0], vec![1])),
            ..Default::default()
        };
        assert!(o.decks(1).is_err());
    }
}
