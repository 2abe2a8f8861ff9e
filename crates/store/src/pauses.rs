//! Pauses, pause votes, absences and the rules for them (migration 0008).

use super::db::{Row, args};
use super::{StoreError, Tx};

/// A row of `leave_rules`: what a game's creator chose for pauses and absences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaveRulesRow {
    /// The creator alone may pause and resume.
    pub creator_pauses: bool,
    /// `extend`, `ai` or `off`: what an absence does at a deadline.
    pub away: String,
    /// Days of absence each player may declare in any 365 days.
    pub away_days: u32,
}

/// A row of `pauses`: a paused game's frozen deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PauseRow {
    /// When the pause took effect (ms).
    pub since: i64,
    /// Time that was left before the deadline (None: no deadline).
    pub due_left_ms: Option<i64>,
    /// Time that was left before the reminder (None: none to come).
    pub remind_left_ms: Option<i64>,
    /// Extensions already granted this turn.
    pub extensions_used: u32,
    /// Idle deadlines in a row before this turn's.
    pub idle_deadlines: u32,
}

/// A row of `absences`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsenceRow {
    /// Row id.
    pub id: i64,
    /// The absent user.
    pub user_id: String,
    /// First moment of the absence (ms).
    pub starts_at: i64,
    /// First moment back (ms).
    pub ends_at: i64,
}

impl Tx<'_> {
    /// Sets a game's pause and absence rules.
    pub fn set_leave_rules(&self, game_id: i64, r: &LeaveRulesRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO leave_rules (game_id, creator_pauses, away, away_days) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (game_id) DO UPDATE SET creator_pauses = excluded.creator_pauses, \
             away = excluded.away, away_days = excluded.away_days",
            args![game_id, r.creator_pauses, r.away, r.away_days],
        )?;
        Ok(())
    }

    /// A game's pause and absence rules, if its creator set any.
    pub fn leave_rules(&self, game_id: i64) -> Result<Option<LeaveRulesRow>, StoreError> {
        self.conn
            .row(
                "SELECT creator_pauses, away, away_days FROM leave_rules WHERE game_id = ?1",
                args![game_id],
            )?
            .map(|r| {
                Ok(LeaveRulesRow {
                    creator_pauses: r.get(0)?,
                    away: r.get(1)?,
                    away_days: r.get(2)?,
                })
            })
            .transpose()
    }

    /// Pauses a game: stores its frozen deadline (replacing an earlier one).
    pub fn set_pause(&self, game_id: i64, p: &PauseRow) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO pauses (game_id, since, due_left_ms, remind_left_ms, extensions_used, idle_deadlines) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (game_id) DO UPDATE SET \
             due_left_ms = excluded.due_left_ms, remind_left_ms = excluded.remind_left_ms, \
             extensions_used = excluded.extensions_used, idle_deadlines = excluded.idle_deadlines",
            args![
                game_id,
                p.since,
                p.due_left_ms,
                p.remind_left_ms,
                p.extensions_used,
                p.idle_deadlines
            ],
        )?;
        Ok(())
    }

    /// A game's pause, if it is paused.
    pub fn pause(&self, game_id: i64) -> Result<Option<PauseRow>, StoreError> {
        self.per_game(&super::prefetch::PAUSE, game_id)?
            .first()
            .map(|r| {
                Ok(PauseRow {
                    since: r.get(0)?,
                    due_left_ms: r.get(1)?,
                    remind_left_ms: r.get(2)?,
                    extensions_used: r.get(3)?,
                    idle_deadlines: r.get(4)?,
                })
            })
            .transpose()
    }

    /// Ends a game's pause and forgets the votes for one.
    pub fn clear_pause(&self, game_id: i64) -> Result<(), StoreError> {
        self.conn
            .exec("DELETE FROM pauses WHERE game_id = ?1", args![game_id])?;
        self.conn
            .exec("DELETE FROM pause_votes WHERE game_id = ?1", args![game_id])?;
        Ok(())
    }

    /// Records a user's vote for a pause (again: no change).
    pub fn add_pause_vote(&self, game_id: i64, user_id: &str, now: i64) -> Result<(), StoreError> {
        self.conn.exec(
            "INSERT INTO pause_votes (game_id, user_id, voted_at) VALUES (?1, ?2, ?3) \
             ON CONFLICT DO NOTHING",
            args![game_id, user_id, now],
        )?;
        Ok(())
    }

    /// Withdraws a user's vote for a pause; true if there was one.
    pub fn remove_pause_vote(&self, game_id: i64, user_id: &str) -> Result<bool, StoreError> {
        Ok(self.conn.exec(
            "DELETE FROM pause_votes WHERE game_id = ?1 AND user_id = ?2",
            args![game_id, user_id],
        )? > 0)
    }

    /// The users who voted for a pause, by id.
    pub fn pause_votes(&self, game_id: i64) -> Result<Vec<String>, StoreError> {
        self.per_game(&super::prefetch::PAUSE_VOTES, game_id)?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Records an absence.
    pub fn insert_absence(
        &self,
        game_id: i64,
        user_id: &str,
        starts_at: i64,
        ends_at: i64,
    ) -> Result<i64, StoreError> {
        self.conn
            .one(
                "INSERT INTO absences (game_id, user_id, starts_at, ends_at) VALUES (?1, ?2, ?3, ?4) \
                 RETURNING id",
                args![game_id, user_id, starts_at, ends_at],
            )?
            .get(0)
    }

    /// Moves an absence's end (to end it early), never before its start.
    pub fn set_absence_end(&self, id: i64, ends_at: i64) -> Result<(), StoreError> {
        self.conn.exec(
            "UPDATE absences SET ends_at = CASE WHEN ?2 > starts_at THEN ?2 ELSE starts_at END \
             WHERE id = ?1",
            args![id, ends_at],
        )?;
        Ok(())
    }

    /// A game's absences, oldest first.
    pub fn absences(&self, game_id: i64) -> Result<Vec<AbsenceRow>, StoreError> {
        self.per_game(&super::prefetch::ABSENCES, game_id)?
            .iter()
            .map(|r: &Row| {
                Ok(AbsenceRow {
                    id: r.get(0)?,
                    user_id: r.get(1)?,
                    starts_at: r.get(2)?,
                    ends_at: r.get(3)?,
                })
            })
            .collect()
    }
}
