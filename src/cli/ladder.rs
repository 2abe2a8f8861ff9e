//! `gamehost ratings ai-ladder`: rates every AI level of every kind on the
//! players' scale by self-play, and writes the ladder file the host
//! compiles in (`assets/ai-ratings.toml`, see [`host::AiLadder`]).
//!
//! Two-seat kinds (battle, puzzle, cards) play the tournament runner's
//! round robin ([`games::tournament::fixtures`]: every pair of levels
//! `--games` games, seats alternating, the same seeds for every pair), and
//! each round is one Glicko-2 rating period for every level. Diplomacy
//! plays `--games` seven-power games, levels rotating over the powers
//! game by game, and rates each game with Weng-Lin, places by supply
//! centres at the end. Both are the host's models ([`host::update_period`],
//! [`host::update_multi`]). Then every kind's ratings are shifted so the
//! anchor level (`random`) sits at the anchor rating: only differences
//! carry meaning in both models, so the shift keeps every expected score.
//!
//! Without `--budget-ms` every AI uses its own iteration count and the
//! ladder is the same for the same seed on any machine and any number of
//! threads; with it, the AIs' wall-clock cut-off makes the run depend on
//! the machine.

use super::tournament::ai_budget;
use anyhow::{Context, bail};
use games::seam::{Game, Outcome};
use games::tournament::{Fixture, fixtures, pairs, play_out, seat_levels};
use host::{
    AiLadder, LadderKind, LadderLevel, LadderModel, SeatOutcome, Skill, update_multi, update_period,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The rating tools.
#[derive(clap::Args, Debug)]
pub struct RatingsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: RatingsCommand,
}

/// The rating subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum RatingsCommand {
    /// Measure every AI level of every kind by self-play and write the AI
    /// ladder file (the one the host compiles in is assets/ai-ratings.toml).
    AiLadder(LadderArgs),
}

/// Options of `gamehost ratings ai-ladder`.
#[derive(clap::Args, Debug, Clone)]
pub struct LadderArgs {
    /// Games per pair of levels in a two-seat kind; Diplomacy games in all.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Other game counts for some kinds, e.g. `cards=200,battle=20`.
    #[arg(long, value_delimiter = ',', value_name = "KIND=N")]
    pub per_kind: Vec<String>,
    /// Wall-clock limit of one decision in ms (default: each AI's own
    /// iteration count, which makes the ladder reproducible).
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// Seed of every game and AI.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these kinds (comma-separated; default: all four).
    #[arg(long, value_delimiter = ',')]
    pub kinds: Vec<String>,
    /// The last Diplomacy year played (then the game ends in a draw).
    #[arg(long, default_value_t = 1906)]
    pub end_year: u16,
    /// Worker threads (the result does not depend on them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Where to write the ladder (default: print it).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The level every kind's ladder is pinned at.
pub const ANCHOR_LEVEL: &str = "random";
/// The rating the anchor level is pinned at: a newcomer (1500) is
/// expected to beat random moves, so random sits well below them.
pub const ANCHOR_RATING: f64 = 1000.0;
/// The most games a two-seat kind's pair plays in one run.
const MAX_GAMES: u32 = 10_000;
/// The last Diplomacy year a ladder game may be played to (a game takes
/// about a second a year).
const MAX_END_YEAR: u16 = 1950;
/// A two-seat game longer than this many turns counts as a draw (every
/// game ends by its rules long before; this only guards against a bug).
const TURN_LIMIT: u64 = 1 << 20;

/// Runs a rating subcommand.
pub fn run(args: RatingsArgs) -> anyhow::Result<()> {
    match args.command {
        RatingsCommand::AiLadder(a) => {
            let ladder = ai_ladder(&a, &command_line(&a), &today(), &commit())?;
            let text = ladder
                .to_toml(&header(&a, &ladder))
                .map_err(anyhow::Error::msg)?;
            match &a.out {
                Some(path) => std::fs::write(path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => print!("{text}"),
            }
            Ok(())
        }
    }
}

/// The command line that reproduces this run.
fn command_line(a: &LadderArgs) -> String {
    let mut s = format!(
        "gamehost ratings ai-ladder --games {} --seed {}",
        a.games, a.seed
    );
    if !a.per_kind.is_empty() {
        s.push_str(&format!(" --per-kind {}", a.per_kind.join(",")));
    }
    if let Some(ms) = a.budget_ms {
        s.push_str(&format!(" --budget-ms {ms}"));
    }
    if !a.kinds.is_empty() {
        s.push_str(&format!(" --kinds {}", a.kinds.join(",")));
    }
    s.push_str(&format!(" --end-year {}", a.end_year));
    if let Some(out) = &a.out {
        s.push_str(&format!(" --out {}", out.display()));
    }
    s
}

/// Today's UTC date, `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = super::backups::utc_date(secs as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The commit the binary runs on, from git (or `unknown`).
fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The file's comment header: what it is, the anchor and the counts.
fn header(a: &LadderArgs, ladder: &AiLadder) -> String {
    let mut h = format!(
        "The AI ladder: each AI level's rating on the players' scale, measured by self-play.\n\
         Written by `{}`\n\
         on {} at commit {}. Do not edit by hand: run the command again.\n\
         Anchor: `{}` = {} in every kind (only rating differences carry meaning).\n\
         Budget: {}.\n",
        ladder.command,
        ladder.date,
        ladder.commit,
        ladder.anchor_level,
        ladder.anchor_rating,
        match a.budget_ms {
            Some(ms) => format!("{ms} ms of wall clock per decision (not reproducible)"),
            None => "each AI's own iteration count (reproducible from the seed)".to_string(),
        }
    );
    for (kind, k) in &ladder.kinds {
        h.push_str(&format!("{kind}: {} games; {}.\n", k.games, k.schedule));
    }
    h
}

/// Measures the ladder of every kind asked for.
pub fn ai_ladder(
    a: &LadderArgs,
    command: &str,
    date: &str,
    commit: &str,
) -> anyhow::Result<AiLadder> {
    let all = ["battle", "cards", "diplomacy", "puzzle"];
    let known = |kind: &str, what: &str| -> anyhow::Result<()> {
        if !all.contains(&kind) {
            bail!(
                "{what}: there is no kind `{kind}`; the kinds are {}",
                all.join(", ")
            );
        }
        Ok(())
    };
    let check_games = |n: u32, what: &str| -> anyhow::Result<u32> {
        if !(1..=MAX_GAMES).contains(&n) {
            bail!("{what} must be 1 to {MAX_GAMES}, got {n}");
        }
        Ok(n)
    };
    check_games(a.games, "--games")?;
    if !(1901..=MAX_END_YEAR).contains(&a.end_year) {
        bail!(
            "--end-year must be 1901 to {MAX_END_YEAR}, got {}",
            a.end_year
        );
    }
    let mut games_of: BTreeMap<String, u32> = BTreeMap::new();
    for item in &a.per_kind {
        let Some((kind, n)) = item.split_once('=') else {
            bail!("--per-kind takes KIND=N items, e.g. cards=200; got `{item}`");
        };
        let kind = kind.trim().to_ascii_lowercase();
        known(&kind, "--per-kind")?;
        let n = n.trim().parse::<u32>().ok().with_context(|| {
            format!("--per-kind {kind}: `{}` is not a number of games", n.trim())
        })?;
        games_of.insert(kind, check_games(n, &format!("--per-kind {item}"))?);
    }
    let kinds: Vec<String> = if a.kinds.is_empty() {
        all.iter().map(|k| k.to_string()).collect()
    } else {
        a.kinds
            .iter()
            .map(|k| k.trim().to_ascii_lowercase())
            .collect()
    };
    for kind in &kinds {
        known(kind, "--kinds")?;
    }
    let mut out = BTreeMap::new();
    for kind in &kinds {
        let games = games_of.get(kind).copied().unwrap_or(a.games);
        let k = match kind.as_str() {
            "battle" => two_seat::<games::battle::Battle>(a, games)?,
            "cards" => two_seat::<games::cards::Invisible>(a, games)?,
            "puzzle" => two_seat::<games::puzzle::PuzzleDuel>(a, games)?,
            _ => diplomacy(a, games)?,
        };
        out.insert(kind.clone(), k);
    }
    Ok(AiLadder {
        command: command.to_string(),
        date: date.to_string(),
        commit: commit.to_string(),
        anchor_level: ANCHOR_LEVEL.to_string(),
        anchor_rating: ANCHOR_RATING,
        kinds: out,
    })
}

/// Runs `job(k)` for `k` in `0..n` on `threads` threads; the results in order.
fn parallel<T: Send>(
    n: usize,
    threads: usize,
    job: impl Fn(usize) -> anyhow::Result<T> + Sync,
) -> anyhow::Result<Vec<T>> {
    let slots: Mutex<Vec<Option<anyhow::Result<T>>>> = Mutex::new((0..n).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, 64) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= n {
                        break;
                    }
                    let r = job(k);
                    slots.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(r);
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.context("a ladder game was not played")?)
        .collect()
}

/// The round robin of every level of a two-seat kind, rated by Glicko-2.
fn two_seat<G: Game>(a: &LadderArgs, games: u32) -> anyhow::Result<LadderKind> {
    let levels: Vec<String> = G::ai_levels().iter().map(|l| l.to_string()).collect();
    let schedule = fixtures(levels.len(), games, a.seed);
    let outcomes = parallel(schedule.len(), a.threads, |k| {
        let f = &schedule[k];
        let mut game = G::new_game(G::Options::default(), f.game_seed)
            .map_err(|e| anyhow::anyhow!("{}: {e}", G::KIND))?;
        let seats = seat_levels(&levels, f);
        let (outcome, _) = play_out(
            &mut game,
            &seats,
            TURN_LIMIT,
            games::tournament::ai_decision::<G>(f.ai_seed, || ai_budget(a.budget_ms)),
        );
        Ok(outcome)
    })?;
    let played: Vec<(&Fixture, Option<&Outcome>)> = schedule
        .iter()
        .zip(outcomes.iter().map(Option::as_ref))
        .collect();
    let rated = rate_round_robin(levels.len(), games, &played);
    let pair_count = pairs(levels.len()).len();
    Ok(LadderKind {
        model: LadderModel::Glicko2,
        games: schedule.len() as u32,
        schedule: format!(
            "round robin of {} levels, {} games per pair ({} pairs), seats alternating, \
             one Glicko-2 rating period per round",
            levels.len(),
            games,
            pair_count
        ),
        levels: anchored(&levels, rated)?,
    })
}

/// Glicko-2 ratings of `n` contenders from a round robin: round `r` of
/// every pair is one rating period, every contender rated against its
/// opponents as they stood before it. Returns each contender's rating and
/// games played.
pub fn rate_round_robin(
    n: usize,
    rounds: u32,
    played: &[(&Fixture, Option<&Outcome>)],
) -> Vec<(Skill, u32)> {
    let all_pairs = pairs(n);
    let mut skills = vec![Skill::default(); n];
    let mut games = vec![0u32; n];
    for round in 0..rounds {
        let mut results: Vec<Vec<(Skill, SeatOutcome)>> = vec![Vec::new(); n];
        for (f, outcome) in played.iter().filter(|(f, _)| f.round == round) {
            let (i, j) = all_pairs[f.pair];
            let i_result = match outcome {
                Some(Outcome::Win(s)) if *s == f.a_seat => SeatOutcome::Win,
                Some(Outcome::Win(_)) => SeatOutcome::Loss,
                // A draw, or a game stopped by the turn limit.
                _ => SeatOutcome::Draw,
            };
            let j_result = match i_result {
                SeatOutcome::Win => SeatOutcome::Loss,
                SeatOutcome::Loss => SeatOutcome::Win,
                other => other,
            };
            results[i].push((skills[j], i_result));
            results[j].push((skills[i], j_result));
            games[i] += 1;
            games[j] += 1;
        }
        skills = skills
            .iter()
            .zip(&results)
            .map(|(s, r)| {
                if r.is_empty() {
                    *s
                } else {
                    update_period(*s, r)
                }
            })
            .collect();
    }
    skills.into_iter().zip(games).collect()
}

/// The levels' ratings shifted so [`ANCHOR_LEVEL`] is at [`ANCHOR_RATING`].
fn anchored(
    levels: &[String],
    rated: Vec<(Skill, u32)>,
) -> anyhow::Result<BTreeMap<String, LadderLevel>> {
    let anchor = levels
        .iter()
        .position(|l| l == ANCHOR_LEVEL)
        .with_context(|| format!("no `{ANCHOR_LEVEL}` level to anchor the ladder at"))?;
    let shift = ANCHOR_RATING - rated[anchor].0.rating;
    Ok(levels
        .iter()
        .zip(rated)
        .map(|(l, (s, games))| {
            (
                l.clone(),
                LadderLevel {
                    // Whole tenths: the file stays readable and diffs small.
                    rating: ((s.rating + shift) * 10.0).round() / 10.0,
                    deviation: (s.deviation * 10.0).round() / 10.0,
                    games,
                },
            )
        })
        .collect())
}

/// The powers' levels in Diplomacy game `g`: the levels in order from
/// level `g`, round and round the seven powers.
pub fn diplomacy_lineup(levels: &[String], g: u32) -> [&str; 7] {
    std::array::from_fn(|s| levels[(g as usize + s) % levels.len()].as_str())
}

/// Finishing places from final supply centres: 1 for the most, equal
/// counts share a place.
pub fn places_by_centres(centres: &[usize]) -> Vec<usize> {
    centres
        .iter()
        .map(|c| 1 + centres.iter().filter(|o| *o > c).count())
        .collect()
}

/// Seven-power games of Diplomacy's levels, rated by Weng-Lin: each seat a
/// player with its level's rating; a level's change is the mean of its
/// seats' changes (a level holding two powers in a game is one player).
fn diplomacy(a: &LadderArgs, count: u32) -> anyhow::Result<LadderKind> {
    use games::diplomacy::Diplomacy;
    let levels: Vec<String> = Diplomacy::ai_levels()
        .iter()
        .map(|l| l.to_string())
        .collect();
    let results = parallel(count as usize, a.threads, |g| {
        let g = g as u32;
        let seed = games::tournament::mix(a.seed ^ games::tournament::mix(u64::from(g)));
        let r = games::diplomacy::tournament::play_levels(
            seed,
            diplomacy_lineup(&levels, g),
            None,
            a.end_year,
            || ai_budget(a.budget_ms),
        );
        Ok(r.powers.iter().map(|p| p.centres).collect::<Vec<usize>>())
    })?;
    let mut skills = vec![Skill::newcomer(7); levels.len()];
    let mut played = vec![0u32; levels.len()];
    for (g, centres) in results.iter().enumerate() {
        let lineup = diplomacy_lineup(&levels, g as u32);
        let index: Vec<usize> = lineup
            .iter()
            .map(|l| levels.iter().position(|x| x == l).unwrap_or(0))
            .collect();
        let places = places_by_centres(centres);
        let before: Vec<(Skill, usize)> = index
            .iter()
            .zip(&places)
            .map(|(i, p)| (skills[*i], *p))
            .collect();
        let after = update_multi(&before);
        for (i, skill) in skills.iter_mut().enumerate() {
            let mine: Vec<usize> = (0..7).filter(|s| index[*s] == i).collect();
            if mine.is_empty() {
                continue;
            }
            let n = mine.len() as f64;
            let delta: f64 = mine
                .iter()
                .map(|s| after[*s].rating - before[*s].0.rating)
                .sum();
            let deviation: f64 = mine.iter().map(|s| after[*s].deviation).sum();
            skill.rating += delta / n;
            skill.deviation = deviation / n;
            played[i] += 1;
        }
    }
    Ok(LadderKind {
        model: LadderModel::WengLin,
        games: count,
        schedule: format!(
            "{count} seven-power games to {} (a draw then), the {} levels rotating over the \
             powers game by game, places by supply centres, Weng-Lin per game",
            a.end_year,
            levels.len()
        ),
        levels: anchored(&levels, skills.into_iter().zip(played).collect())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_share_ties_and_rank_by_centres() {
        assert_eq!(
            places_by_centres(&[5, 9, 5, 0, 0, 12, 3]),
            vec![3, 2, 3, 6, 6, 1, 5]
        );
    }

    #[test]
    fn lineups_rotate_every_level_over_the_powers() {
        let levels: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert_eq!(
            diplomacy_lineup(&levels, 0),
            ["a", "b", "c", "d", "e", "a", "b"]
        );
        assert_eq!(
            diplomacy_lineup(&levels, 3),
            ["d", "e", "a", "b", "c", "d", "e"]
        );
    }

    #[test]
    fn a_round_robin_ranks_the_stronger_contender_higher() {
        // Contender 0 beats 1 every game, 1 and 2 draw, 0 beats 2.
        let schedule = fixtures(3, 4, 9);
        let outcomes: Vec<Option<Outcome>> = schedule
            .iter()
            .map(|f| match f.pair {
                0 | 1 => Some(Outcome::Win(f.a_seat)),
                _ => Some(Outcome::Draw(vec![0, 1])),
            })
            .collect();
        let played: Vec<_> = schedule
            .iter()
            .zip(outcomes.iter().map(Option::as_ref))
            .collect();
        let r = rate_round_robin(3, 4, &played);
        assert!(r[0].0.rating > r[1].0.rating + 100.0);
        assert!((r[1].0.rating - r[2].0.rating).abs() < 1.0);
        assert!(r.iter().all(|(s, g)| *g == 8 && s.deviation < 350.0));
    }
}
