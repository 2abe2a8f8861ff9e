//! Reading ratings: leaderboards, a player's rating, reliability and profile.

use super::*;

impl Host {
    /// A page (from 1; past the end: the last) of a kind's leaderboard in a
    /// server, with the viewer's own place.
    pub fn leaderboard(
        &self,
        guild_id: Option<&str>,
        kind: &str,
        page: u32,
        viewer: Option<&str>,
    ) -> Result<Leaderboard, HostError> {
        let kind = self.registry.get(kind)?.name.to_string();
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        self.store.read(|tx| {
            let total = tx.leaderboard_len(&scope, &kind)?;
            let pages = total.div_ceil(LEADERBOARD_PAGE).max(1);
            let page = page.clamp(1, pages);
            let offset = (page - 1) * LEADERBOARD_PAGE;
            let entries = tx
                .leaderboard(&scope, &kind, offset, LEADERBOARD_PAGE)?
                .into_iter()
                .enumerate()
                .map(|(i, r)| LeaderboardEntry {
                    place: offset + i as u32 + 1,
                    player: r.player,
                    rating: r.rating,
                    deviation: r.deviation,
                    games: r.games,
                })
                .collect();
            let viewer = match viewer {
                Some(v) => match (
                    tx.rating(&scope, &kind, v)?,
                    tx.leaderboard_place(&scope, &kind, v)?,
                ) {
                    (Some(r), Some(place)) => Some(LeaderboardEntry {
                        place,
                        player: r.player,
                        rating: r.rating,
                        deviation: r.deviation,
                        games: r.games,
                    }),
                    _ => None,
                },
                None => None,
            };
            Ok(Leaderboard {
                kind: kind.clone(),
                page,
                pages,
                total,
                entries,
                viewer,
            })
        })
    }

    /// One player's line on a kind's leaderboard in a server (a user id,
    /// or `ai:<level>`), if they are rated.
    pub fn rating_of(
        &self,
        guild_id: Option<&str>,
        kind: &str,
        player: &str,
    ) -> Result<Option<LeaderboardEntry>, HostError> {
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        self.store.read(|tx| {
            let (Some(r), Some(place)) = (
                tx.rating(&scope, kind, player)?,
                tx.leaderboard_place(&scope, kind, player)?,
            ) else {
                return Ok(None);
            };
            Ok(Some(LeaderboardEntry {
                place,
                player: r.player,
                rating: r.rating,
                deviation: r.deviation,
                games: r.games,
            }))
        })
    }

    /// The kinds rated in a server, by name.
    pub fn rated_kinds(&self, guild_id: Option<&str>) -> Result<Vec<String>, HostError> {
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        Ok(self.store.read(|tx| tx.rated_kinds(&scope))?)
    }

    /// A user's reliability in a server.
    pub fn reliability(
        &self,
        guild_id: Option<&str>,
        user_id: &str,
    ) -> Result<Reliability, HostError> {
        let scope = scope_key(guild_id);
        Ok(Reliability::from_counts(
            self.store
                .read(|tx| tx.reliability_counts(&scope, user_id))?,
        ))
    }

    /// A user's ratings, results, reliability and latest games in a server.
    pub fn profile(&self, guild_id: Option<&str>, user_id: &str) -> Result<Profile, HostError> {
        self.backlog_rated()?;
        let scope = scope_key(guild_id);
        self.store.read(|tx| {
            let ratings = tx.ratings_of_player(&scope, user_id)?;
            let counts = tx.result_counts(&scope, user_id)?;
            // Enough to find any streak a profile shows and the mean score.
            let history = tx.results_of_player(&scope, user_id, 500)?;
            let mut kinds: Vec<String> = counts.iter().map(|c| c.kind.clone()).collect();
            kinds.extend(ratings.iter().map(|r| r.kind.clone()));
            kinds.sort();
            kinds.dedup();
            let mut out = Vec::new();
            for kind in kinds {
                let count = |result: &str| {
                    counts
                        .iter()
                        .filter(|c| c.kind == kind && c.result == result)
                        .map(|c| c.count)
                        .sum::<u32>()
                };
                let mine: Vec<&store::PlayerResultRow> =
                    history.iter().filter(|h| h.kind == kind).collect();
                let mut streak: i32 = 0;
                for h in &mine {
                    match h.result.result.as_str() {
                        "win" if streak >= 0 => streak += 1,
                        "loss" | "forfeit" if streak <= 0 => streak -= 1,
                        _ => break,
                    }
                }
                let scores: Vec<f64> = mine.iter().filter_map(|h| h.result.score).collect();
                let rating = ratings.iter().find(|r| r.kind == kind);
                let (wins, draws, losses, forfeits) =
                    (count("win"), count("draw"), count("loss"), count("forfeit"));
                let skill = rating
                    .map(|r| Skill {
                        rating: r.rating,
                        deviation: r.deviation,
                        volatility: r.volatility,
                    })
                    .unwrap_or_else(|| self.ai_ladder.newcomer(&kind));
                let offered = self.registry.get(&kind).map(|e| e.ai_levels).unwrap_or(&[]);
                let ai_ladder = self.ai_ladder.standings(&kind, offered, skill);
                out.push(KindProfile {
                    rating: rating.map(|r| (r.rating, r.deviation)),
                    place: match rating {
                        Some(_) => tx.leaderboard_place(&scope, &kind, user_id)?,
                        None => None,
                    },
                    games: wins + draws + losses + forfeits,
                    wins,
                    draws,
                    losses,
                    forfeits,
                    streak,
                    mean_score: (!scores.is_empty())
                        .then(|| scores.iter().sum::<f64>() / scores.len() as f64),
                    ai_ladder,
                    kind,
                });
            }
            let recent = history
                .iter()
                .take(PROFILE_RECENT)
                .map(|h| RecentGame {
                    game_id: h.result.game_id,
                    kind: h.kind.clone(),
                    guild_id: h.guild_id.clone(),
                    channel_id: h.channel_id.clone(),
                    result: h.result.result.clone(),
                    score: h.result.score,
                    change: h.result.rating_before.zip(h.result.rating_after),
                    ended_at: h.ended_at,
                })
                .collect();
            Ok(Profile {
                user_id: user_id.to_string(),
                kinds: out,
                reliability: Reliability::from_counts(tx.reliability_counts(&scope, user_id)?),
                recent,
            })
        })
    }
}
