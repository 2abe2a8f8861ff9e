//! The AI ladder: every AI level of every kind with a rating on the
//! players' scale, measured by self-play (`gamehost ratings ai-ladder`)
//! and kept in `assets/ai-ratings.toml`.
//!
//! The file is compiled in ([`AiLadder::builtin`]); the host only reads the
//! text it was given, never a file. With it a player sees where they stand
//! against each level (the level's rating and the expected score against
//! it, from the same models that rate players) and can ask for "an AI at
//! about 1500" (`~1500` as the level), which seats the nearest level.

use super::registry::KindEntry;
use super::scoring::SeatOutcome;
use super::skill::{START_RATING, Skill, WENG_LIN_SCALE};
use super::{Host, HostError};
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{
    Glicko2Config, Glicko2Rating, expected_score as glicko2_expected, glicko2_rating_period,
};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, expected_score as weng_lin_expected};
use std::collections::BTreeMap;

/// The ladder file as committed, compiled into the binary.
const BUILTIN_TOML: &str = include_str!("../../../assets/ai-ratings.toml");

/// The rating model of a kind on the ladder (the one the host rates its
/// players of that kind with).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LadderModel {
    /// Glicko-2 (two seats).
    Glicko2,
    /// Weng-Lin, stored on the Glicko scale (more than two seats).
    WengLin,
}

/// One AI level's measured rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderLevel {
    /// Rating on the players' scale.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Self-play games the level played.
    pub games: u32,
}

/// One kind's ladder and how it was measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderKind {
    /// The rating model.
    pub model: LadderModel,
    /// Games played in all.
    pub games: u32,
    /// How the games were played (schedule, budget, limits), for people.
    pub schedule: String,
    /// Every AI level of the kind, by name.
    pub levels: BTreeMap<String, LadderLevel>,
}

/// The whole ladder: where it came from, its anchor, and each kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiLadder {
    /// The exact command that wrote the file.
    pub command: String,
    /// When it ran (UTC date).
    pub date: String,
    /// The commit it ran on.
    pub commit: String,
    /// The level pinned in every kind ([`AiLadder::anchor_rating`]).
    pub anchor_level: String,
    /// The rating the anchor level is pinned at.
    pub anchor_rating: f64,
    /// Each kind's ladder, by kind name.
    pub kinds: BTreeMap<String, LadderKind>,
}

/// Where a player stands against one AI level.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelStanding {
    /// The level.
    pub level: String,
    /// The level's ladder rating.
    pub rating: f64,
    /// The player's expected score against it (0 to 1).
    pub expected: f64,
}

/// The most a `~rating` may ask for: far beyond any level, but a number.
const MAX_ASKED_RATING: f64 = 10_000.0;

impl AiLadder {
    /// Parses a ladder file; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<AiLadder, String> {
        let ladder: AiLadder =
            toml::from_str(text).map_err(|e| format!("the AI ladder file is not valid: {e}"))?;
        for (kind, k) in &ladder.kinds {
            for (level, l) in &k.levels {
                if !(l.rating.is_finite() && l.deviation.is_finite() && l.deviation >= 0.0) {
                    return Err(format!(
                        "the AI ladder gives {kind} level `{level}` no finite rating and deviation"
                    ));
                }
            }
        }
        Ok(ladder)
    }

    /// The ladder committed in `assets/ai-ratings.toml`.
    pub fn builtin() -> AiLadder {
        // A test (`the_committed_ladder_parses`) keeps the file valid; were it
        // not, an empty ladder only hides the ladder lines.
        AiLadder::parse(BUILTIN_TOML).unwrap_or_else(|_| AiLadder::empty())
    }

    /// A ladder with no kinds.
    pub fn empty() -> AiLadder {
        AiLadder {
            command: String::new(),
            date: String::new(),
            commit: String::new(),
            anchor_level: String::new(),
            anchor_rating: START_RATING,
            kinds: BTreeMap::new(),
        }
    }

    /// The file's text: a header of comments, then the TOML.
    pub fn to_toml(&self, header: &str) -> Result<String, String> {
        let body = toml::to_string(self).map_err(|e| e.to_string())?;
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&body);
        Ok(out)
    }

    /// A kind's ladder, if measured.
    pub fn kind(&self, kind: &str) -> Option<&LadderKind> {
        self.kinds.get(kind)
    }

    /// A newcomer's skill in `kind`, by the kind's model (Glicko-2's when
    /// the ladder does not know the kind).
    pub fn newcomer(&self, kind: &str) -> Skill {
        match self.kinds.get(kind).map(|k| k.model) {
            Some(LadderModel::WengLin) => Skill::newcomer(7),
            _ => Skill::newcomer(2),
        }
    }

    /// The level of `kind` whose rating is nearest `rating` (the lower
    /// on a tie), among `offered` levels.
    pub fn nearest<'a>(
        &self,
        kind: &str,
        offered: &[&'a str],
        rating: f64,
    ) -> Option<(&'a str, f64)> {
        let k = self.kinds.get(kind)?;
        offered
            .iter()
            .filter_map(|l| k.levels.get(*l).map(|r| (*l, r.rating)))
            .min_by(|a, b| {
                let (da, db) = ((a.1 - rating).abs(), (b.1 - rating).abs());
                da.total_cmp(&db).then(a.1.total_cmp(&b.1))
            })
    }

    /// Where a player of `skill` stands against each level of `kind`, in
    /// the order `offered` lists them.
    pub fn standings(&self, kind: &str, offered: &[&str], skill: Skill) -> Vec<LevelStanding> {
        let Some(k) = self.kinds.get(kind) else {
            return Vec::new();
        };
        offered
            .iter()
            .filter_map(|l| {
                let r = k.levels.get(*l)?;
                let level = Skill {
                    rating: r.rating,
                    deviation: r.deviation,
                    ..Skill::default()
                };
                Some(LevelStanding {
                    level: l.to_string(),
                    rating: r.rating,
                    expected: expected_score(k.model, skill, level),
                })
            })
            .collect()
    }
}

/// `a`'s expected score against `b` in `model`: Glicko-2's for two seats,
/// Weng-Lin's pairwise one (the chance of finishing ahead) for more.
pub fn expected_score(model: LadderModel, a: Skill, b: Skill) -> f64 {
    match model {
        LadderModel::Glicko2 => {
            let g = |s: Skill| Glicko2Rating {
                rating: s.rating,
                deviation: s.deviation,
                volatility: s.volatility,
            };
            glicko2_expected(&g(a), &g(b)).0
        }
        LadderModel::WengLin => {
            let w = |s: Skill| WengLinRating {
                rating: 25.0 + (s.rating - START_RATING) / WENG_LIN_SCALE,
                uncertainty: s.deviation / WENG_LIN_SCALE,
            };
            weng_lin_expected(&w(a), &w(b), &WengLinConfig::new()).0
        }
    }
}

/// Glicko-2 for one rating period: `player` against each opponent (as
/// rated before the period) with the result given. The ladder rates each
/// round of its round robin as one period, as Glicko-2 intends.
pub fn update_period(player: Skill, results: &[(Skill, SeatOutcome)]) -> Skill {
    let g = |s: Skill| Glicko2Rating {
        rating: s.rating,
        deviation: s.deviation,
        volatility: s.volatility,
    };
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(o, r)| {
            let outcome = match r {
                SeatOutcome::Win => Outcomes::WIN,
                SeatOutcome::Draw => Outcomes::DRAW,
                SeatOutcome::Loss | SeatOutcome::Forfeit => Outcomes::LOSS,
            };
            (g(*o), outcome)
        })
        .collect();
    let r = glicko2_rating_period(&g(player), &results, &Glicko2Config::new());
    Skill {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Reads `~1500` (or `~ 1500`) as a wanted rating; `None` when the text
/// does not start with `~`.
fn asked_rating(text: &str) -> Option<Result<f64, String>> {
    let rest = text.trim().strip_prefix('~')?.trim();
    Some(match rest.parse::<f64>() {
        Ok(r) if r.is_finite() && (0.0..=MAX_ASKED_RATING).contains(&r) => Ok(r),
        _ => Err(format!(
            "`~{}` is not a rating: write `~` and a number from 0 to {MAX_ASKED_RATING:.0}, \
             e.g. `~1500` for the AI level rated nearest 1500.",
            games::clip::clip_typed(rest)
        )),
    })
}

impl Host {
    /// Checks that `kind` offers the AI level `level`; returns it as the
    /// host will store it.
    /// `~1500` names the level rated nearest 1500 on the AI ladder.
    pub fn check_ai_level(&self, kind: &str, level: &str) -> Result<String, HostError> {
        let level = self.level_by_rating(kind, level)?;
        check_level(self.registry.get(kind)?, &level)
    }

    /// The AI ladder this host shows and picks levels from.
    pub fn ai_ladder(&self) -> &AiLadder {
        &self.ai_ladder
    }

    /// This host with another AI ladder (the built-in one by default).
    pub fn with_ai_ladder(mut self, ladder: AiLadder) -> Host {
        self.ai_ladder = std::sync::Arc::new(ladder);
        self
    }

    /// A level as asked: `~1500` becomes the level of `kind` rated nearest
    /// 1500 on the ladder; anything else is returned as it is.
    pub(super) fn level_by_rating(&self, kind: &str, asked: &str) -> Result<String, HostError> {
        let Some(wanted) = asked_rating(asked) else {
            return Ok(asked.to_string());
        };
        let wanted = wanted.map_err(HostError::user)?;
        let entry = self.registry.get(kind)?;
        match self.ai_ladder.nearest(entry.name, entry.ai_levels, wanted) {
            Some((level, _)) => Ok(level.to_string()),
            None => Err(HostError::user(format!(
                "{} has no measured AI ladder, so `~{wanted:.0}` cannot pick a level. Name one of: {}.",
                entry.name,
                entry.ai_levels.join(", ")
            ))),
        }
    }

    /// Where a player of `skill` stands against each AI level of `kind`
    /// (the kind's levels in their order; empty without a ladder).
    pub fn ladder_standings(
        &self,
        kind: &str,
        skill: Skill,
    ) -> Result<Vec<LevelStanding>, HostError> {
        let entry = self.registry.get(kind)?;
        Ok(self.ai_ladder.standings(entry.name, entry.ai_levels, skill))
    }
}

/// The longest AI level name accepted, in bytes.
const MAX_LEVEL_CHARS: usize = 40;

/// Accepts a level the engine lists, or one with another parameter that
/// the engine says it plays as written (`mc:500` when the engine lists
/// `mc:1000`; not `default:bogus=1`, which the puzzle refuses, nor a
/// level kept for tournaments such as the battle's `duct`).
fn check_level(entry: &KindEntry, asked: &str) -> Result<String, HostError> {
    let levels = entry.ai_levels;
    let asked = asked.trim().to_ascii_lowercase();
    let base = asked.split(':').next().unwrap_or("");
    // Levels are short (`mc:1000`); a long one is refused, not stored.
    let offered_base =
        asked.contains(':') && levels.iter().any(|l| l.split(':').next() == Some(base));
    if asked.len() <= MAX_LEVEL_CHARS {
        if levels.contains(&asked.as_str()) {
            return Ok(asked);
        }
        // An offered level with a parameter (`mc:500`): the engine decides,
        // and its reason is worth more to the player than the list alone.
        if offered_base {
            return match (entry.check_ai_level)(&asked) {
                Ok(()) => Ok(asked),
                Err(why) => Err(HostError::user(format!(
                    "The AI level `{asked}` is refused: {why}. Levels: {}.",
                    levels.join(", ")
                ))),
            };
        }
    }
    Err(HostError::user(format!(
        "There is no AI level `{}`. Levels: {}.",
        games::clip::clip_typed(&asked),
        levels.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder() -> AiLadder {
        let mut levels = BTreeMap::new();
        for (l, r) in [("random", 1000.0), ("greedy", 1400.0), ("default", 1800.0)] {
            levels.insert(
                l.to_string(),
                LadderLevel {
                    rating: r,
                    deviation: 50.0,
                    games: 10,
                },
            );
        }
        let mut kinds = BTreeMap::new();
        kinds.insert(
            "puzzle".to_string(),
            LadderKind {
                model: LadderModel::Glicko2,
                games: 30,
                schedule: "test".into(),
                levels,
            },
        );
        AiLadder {
            kinds,
            ..AiLadder::empty()
        }
    }

    #[test]
    fn nearest_level_picks_the_closest_rating_and_the_lower_on_a_tie() {
        let l = ladder();
        let offered = ["default", "greedy", "random"];
        assert_eq!(
            l.nearest("puzzle", &offered, 1500.0),
            Some(("greedy", 1400.0))
        );
        assert_eq!(
            l.nearest("puzzle", &offered, 1700.0),
            Some(("default", 1800.0))
        );
        assert_eq!(l.nearest("puzzle", &offered, 0.0), Some(("random", 1000.0)));
        assert_eq!(
            l.nearest("puzzle", &offered, 1200.0),
            Some(("random", 1000.0))
        );
        // Only levels the kind offers.
        assert_eq!(
            l.nearest("puzzle", &["greedy"], 9000.0),
            Some(("greedy", 1400.0))
        );
        assert_eq!(l.nearest("battle", &offered, 1500.0), None);
    }

    /// skillratings' published rating-period example (1500 ± 200 against
    /// 1400 ± 30 won, 1550 ± 100 lost, 1700 ± 300 lost).
    #[test]
    fn rating_period_matches_the_crates_published_example() {
        let at = |r: f64, d: f64| Skill {
            rating: r,
            deviation: d,
            volatility: 0.06,
        };
        let p = update_period(
            at(1500.0, 200.0),
            &[
                (at(1400.0, 30.0), SeatOutcome::Win),
                (at(1550.0, 100.0), SeatOutcome::Loss),
                (at(1700.0, 300.0), SeatOutcome::Forfeit),
            ],
        );
        assert_eq!(p.rating.round(), 1464.0);
        assert_eq!(p.deviation.round(), 152.0);
    }

    #[test]
    fn asked_ratings_are_numbers_after_a_tilde() {
        assert_eq!(asked_rating("default"), None);
        assert_eq!(asked_rating("~1500"), Some(Ok(1500.0)));
        assert_eq!(asked_rating(" ~ 1250.5 "), Some(Ok(1250.5)));
        for bad in ["~", "~abc", "~-5", "~1e9", "~NaN", "~inf"] {
            let e = asked_rating(bad).unwrap().unwrap_err();
            assert!(e.contains("is not a rating"), "{bad}: {e}");
        }
    }

    #[test]
    fn expected_scores_follow_the_models() {
        let at = |r: f64, d: f64| Skill {
            rating: r,
            deviation: d,
            ..Skill::default()
        };
        // Equal ratings: even, in both models.
        for m in [LadderModel::Glicko2, LadderModel::WengLin] {
            let e = expected_score(m, at(1500.0, 350.0), at(1500.0, 50.0));
            assert!((e - 0.5).abs() < 1e-9, "{m:?} {e}");
        }
        // 400 points with small deviations: about 10 to 1 in Glicko-2.
        let e = expected_score(LadderModel::Glicko2, at(1900.0, 1.0), at(1500.0, 1.0));
        assert!((e - 10.0 / 11.0).abs() < 0.01, "{e}");
        // Uncertainty pulls the expectation towards even.
        let sure = expected_score(LadderModel::Glicko2, at(1900.0, 30.0), at(1500.0, 30.0));
        let unsure = expected_score(LadderModel::Glicko2, at(1900.0, 350.0), at(1500.0, 30.0));
        assert!(unsure < sure && unsure > 0.5);
        let stronger = expected_score(LadderModel::WengLin, at(1900.0, 100.0), at(1500.0, 100.0));
        assert!(stronger > 0.5);
    }

    #[test]
    fn the_file_round_trips_and_bad_values_are_refused() {
        let l = ladder();
        let text = l.to_toml("made by a test\nsecond line").unwrap();
        assert!(text.starts_with("# made by a test\n# second line\n"));
        assert_eq!(AiLadder::parse(&text).unwrap(), l);
        let bad = text.replace("rating = 1000.0", "rating = nan");
        assert!(
            AiLadder::parse(&bad)
                .unwrap_err()
                .contains("no finite rating")
        );
        let e = AiLadder::parse("command = 3").unwrap_err();
        assert!(e.contains("not valid"), "{e}");
    }
}
