//! What the host keeps about a person, and forgetting them on request.
//!
//! Forgetting first puts an anonymous id (`forgotten:<random>`, never a
//! Discord id) in every row that named the person, under the name "Former
//! player", so what follows is announced without their name: their running
//! games are then forfeited through the ordinary forfeit (which announces
//! it), the lobbies they sit in are left, and the lobbies they created are
//! closed (nobody could start them any more). Finished games keep their
//! results under the anonymous name; ratings, missed deadlines, absences,
//! pause votes, the remembered DM channel and the announcements addressed
//! to them are deleted (see `store::privacy`). The work is one transaction
//! for the rows plus one per game still in play.

use super::shared::FORGOTTEN_PREFIX;
use super::{Host, HostError};
use store::{GameRow, GameStatus, UserDataCounts};

/// What is stored about a person, for them to read.
#[derive(Debug, Clone, Default)]
pub struct PrivacySummary {
    /// Running games they play in.
    pub running: Vec<GameRow>,
    /// Lobbies they sit in or created.
    pub lobbies: Vec<GameRow>,
    /// Everything else, counted.
    pub counts: UserDataCounts,
}

impl PrivacySummary {
    /// Whether nothing at all is stored about them.
    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
            && self.lobbies.is_empty()
            && self.counts == UserDataCounts::default()
    }
}

/// What forgetting a person did.
#[derive(Debug, Clone, Default)]
pub struct Forgotten {
    /// Running games they forfeited.
    pub forfeited: Vec<String>,
    /// Lobbies they left (others are still in them).
    pub left: Vec<String>,
    /// Lobbies they created, closed.
    pub closed: Vec<String>,
    /// Finished games (those forfeited now included) whose results stay,
    /// under the anonymous name.
    pub games_kept: usize,
}

impl Host {
    /// What is stored about `user_id`.
    pub fn privacy_summary(&self, user_id: &str) -> Result<PrivacySummary, HostError> {
        self.store.read(|tx| {
            let mut summary = PrivacySummary {
                counts: tx.user_data_counts(user_id)?,
                ..PrivacySummary::default()
            };
            let mut active = tx.active_games_of_user(user_id)?;
            for id in tx.active_games_created_by(user_id)? {
                if !active.iter().any(|g| g.id == id)
                    && let Some(g) = tx.game(id)?
                {
                    active.push(g);
                }
            }
            active.sort_by_key(|g| g.id);
            for g in active {
                match g.status {
                    GameStatus::Running => summary.running.push(g),
                    _ => summary.lobbies.push(g),
                }
            }
            Ok(summary)
        })
    }

    /// Forgets `user_id` (see the module's comment). `names` are names the
    /// front-end knows them by besides those stored with their seats.
    pub fn forget_user(&self, user_id: &str, names: &[String]) -> Result<Forgotten, HostError> {
        let anonymous = format!("{FORGOTTEN_PREFIX}{:016x}", rand::random::<u64>());
        let (active, created, report) = self.store.write(|tx| {
            let active = tx.active_games_of_user(user_id)?;
            let created = tx.active_games_created_by(user_id)?;
            let report = tx.forget_user(user_id, &anonymous, names)?;
            Ok::<_, HostError>((active, created, report))
        })?;
        let mut out = Forgotten::default();
        for g in &active {
            let label = super::game_label(g);
            let done = match g.status {
                GameStatus::Running => self.forfeit(g.id, &anonymous).map(|()| &mut out.forfeited),
                _ if created.contains(&g.id) => self
                    .abort(g.id, &anonymous, false)
                    .map(|()| &mut out.closed),
                _ => self.leave(g.id, &anonymous).map(|()| &mut out.left),
            };
            match done {
                Ok(list) => list.push(label),
                // Already out of it, or it ended meanwhile: nothing to give up.
                Err(HostError::User(why)) => {
                    tracing::info!(game_id = g.id, %why, "nothing to give up")
                }
                Err(e) => return Err(e),
            }
        }
        for &id in created
            .iter()
            .filter(|id| !active.iter().any(|g| g.id == **id))
        {
            let g = self.game(id)?;
            if g.status == GameStatus::Lobby {
                self.abort(id, &anonymous, false)?;
                out.closed.push(super::game_label(&g));
            }
        }
        // A forfeit may have addressed the seat's new occupant privately.
        out.games_kept = self.store.write(|tx| {
            tx.delete_outbox_to_user(&anonymous)?;
            let mut finished = 0;
            for &id in &report.games {
                if tx
                    .game(id)?
                    .is_some_and(|g| g.status == GameStatus::Finished)
                {
                    finished += 1;
                }
            }
            Ok::<_, HostError>(finished)
        })?;
        // What was deleted must not stay readable in the database's files.
        self.store.erase_deleted_rows()?;
        tracing::info!(games = out.games_kept, "forgot a user on their request");
        Ok(out)
    }
}
