//! AI seats: the tasks to think about, and their actions submitted.

use super::*;

impl Host {
    /// AI seats that must act now, with a copy of their position each.
    pub fn ai_tasks(&self) -> Result<Vec<AiTask>, HostError> {
        let games = self.store.read(|tx| tx.running_games_with_ai())?;
        let mut tasks = Vec::new();
        for g in games {
            tasks.extend(self.ai_tasks_for(g.id)?);
        }
        Ok(tasks)
    }

    /// The AI seats of one game that must act now.
    pub fn ai_tasks_for(&self, game_id: GameId) -> Result<Vec<AiTask>, HostError> {
        self.store.read(|tx| {
            let row = require_game(tx, game_id)?;
            if row.status != GameStatus::Running {
                return Ok(Vec::new());
            }
            let seats = tx.seats(game_id)?;
            let engine = self.engine_of(&row)?;
            let pending = current_pending(tx, &row)?;
            let mut out = Vec::new();
            for seat in engine.awaiting() {
                let Some(Occupant::Ai(level)) =
                    seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
                else {
                    continue;
                };
                if pending.get(&seat).is_some_and(|(_, f)| *f) {
                    continue;
                }
                out.push(AiTask {
                    game_id,
                    turn: row.turn,
                    seat,
                    level: level.clone(),
                    seed: derive_seed(row.seed, row.turn, seat),
                    engine: engine.boxed_clone(),
                });
            }
            Ok(out)
        })
    }

    /// Records an AI's action; ignored (Ok(None)) if the turn moved on meanwhile.
    pub fn submit_ai(&self, task: &AiTask, action: Value) -> Result<Option<Receipt>, HostError> {
        let started = std::time::Instant::now();
        let receipt = self.store.write(|tx| {
            let row = require_game(tx, task.game_id)?;
            if row.status != GameStatus::Running || row.turn != task.turn {
                return Ok(None);
            }
            let engine = self.engine_of(&row)?;
            if !engine.awaiting().contains(&task.seat) {
                return Ok(None);
            }
            // Cloned: a write lost to a concurrent one runs this again.
            let action = match engine.validate(task.seat, &action) {
                Ok(()) => action.clone(),
                Err(e) => {
                    tracing::error!(game_id = row.id, seat = task.seat, level = %task.level, error = %e,
                        "AI produced an illegal action; using the default action");
                    engine.default_action(task.seat)
                }
            };
            let seats = tx.seats(row.id)?;
            self.record_action(tx, &row, engine, &seats, task.seat, action, false)
                .map(Some)
        })?;
        if let Some(r) = &receipt {
            self.metrics
                .action(task.engine.kind(), r.resolved, started.elapsed());
        }
        Ok(receipt)
    }

    /// Lets every AI seat that must act do so, until none must (bounded, so
    /// an engine that keeps awaiting AIs cannot loop forever). Returns the
    /// number of AI actions made.
    pub fn run_ai_turns(
        &self,
        game_id: Option<GameId>,
        max_actions: usize,
    ) -> Result<usize, HostError> {
        let mut made = 0;
        while made < max_actions {
            let tasks = match game_id {
                Some(id) => self.ai_tasks_for(id)?,
                None => self.ai_tasks()?,
            };
            if tasks.is_empty() {
                break;
            }
            for task in tasks {
                let action = task.think(self.settings.ai_budget_ms);
                self.submit_ai(&task, action)?;
                made += 1;
            }
        }
        Ok(made)
    }
}
