//! Order in a game's home (its channel and thread) across its lanes.
//!
//! Each stream of a game has its own lane: the home's rows in one, each
//! player's DMs in another, so a prompt never waits for the thread's rate
//! limits. A DM lane posts in the home only when a player's DMs are closed:
//! the note that replaces their prompt (or reminder, or private note) goes
//! to the game's thread. That note belongs after the home's rows queued
//! before it (the report that opens the turn it prompts for), so it waits
//! for them: the delivery loop tells the game's [`HomeOrder`] which home
//! rows it claimed, the home lane says which it delivered, and a note waits
//! until no home row with a smaller id is left. Had it not waited, about
//! one run in twelve showed "your move" above the turn it was for.

use std::collections::BTreeSet;
use std::time::Duration;
use tokio::sync::watch;

/// The longest a note waits for the home rows before it; then its row is
/// tried again later (after them), never posted above them.
const NOTE_WAIT: Duration = Duration::from_secs(10);

/// What a game's home still has to deliver, as far as this process knows.
#[derive(Clone, Debug, Default)]
struct HomeState {
    /// Home rows claimed and not delivered yet.
    pending: BTreeSet<i64>,
    /// The home lane stopped before its remaining rows (a failure, the bot
    /// stopping): they will not be out before it is tried again.
    stalled: bool,
}

/// One game's home order, kept by the delivery loop.
pub(crate) struct HomeOrder(watch::Sender<HomeState>);

impl Default for HomeOrder {
    fn default() -> Self {
        HomeOrder(watch::Sender::new(HomeState::default()))
    }
}

impl HomeOrder {
    /// Home rows of a claim, not delivered yet (claimed again, they are
    /// still one each).
    pub(crate) fn queued(&self, ids: impl IntoIterator<Item = i64>) {
        self.0.send_modify(|s| s.pending.extend(ids));
    }

    /// Forgets what was pending: a claim while no home lane runs says
    /// afresh what is left (rows another process took are not waited for).
    pub(crate) fn reset(&self) {
        self.0.send_modify(|s| s.pending.clear());
    }

    /// Nothing of the home is pending.
    pub(crate) fn idle(&self) -> bool {
        self.0.borrow().pending.is_empty()
    }

    /// A home lane starts: the side it reports through.
    pub(crate) fn lane(&self) -> HomeProgress {
        self.0.send_modify(|s| s.stalled = false);
        HomeProgress {
            order: self.0.clone(),
            ended: false,
        }
    }

    /// The side a DM lane waits on before posting in the home.
    pub(crate) fn waiter(&self) -> HomeWaiter {
        HomeWaiter(Some(self.0.subscribe()))
    }
}

/// A home lane's side: it reports each row it is done with.
pub(crate) struct HomeProgress {
    order: watch::Sender<HomeState>,
    ended: bool,
}

impl HomeProgress {
    /// The home lane is done with a row (delivered, or not for it).
    pub(crate) fn passed(&self, row: i64) {
        self.order.send_modify(|s| {
            s.pending.remove(&row);
        });
    }

    /// The home lane stopped before its remaining rows.
    pub(crate) fn stalled(&mut self) {
        self.ended = true;
        self.order.send_modify(|s| s.stalled = true);
    }

    /// The home lane delivered every row it had.
    pub(crate) fn done(&mut self) {
        self.ended = true;
    }
}

impl Drop for HomeProgress {
    /// A home lane that ended without saying so (it panicked) has not
    /// delivered its remaining rows.
    fn drop(&mut self) {
        if !self.ended {
            self.order.send_modify(|s| s.stalled = true);
        }
    }
}

/// A DM lane's side: waits for the home's earlier rows before posting in
/// the home. The home lane's own rows never wait (they are in order).
#[derive(Clone)]
pub(crate) struct HomeWaiter(Option<watch::Receiver<HomeState>>);

impl HomeWaiter {
    /// The waiter of the home lane's own rows: they never wait.
    pub(crate) fn in_home() -> HomeWaiter {
        HomeWaiter(None)
    }

    /// Waits until every home row queued before `row` is out: true when
    /// they are, false when the home lane stalled first or they took
    /// longer than [`NOTE_WAIT`] (the caller's row must then be tried again
    /// after them, not posted above them).
    pub(crate) async fn earlier_rows_out(&self, row: i64) -> bool {
        let Some(state) = &self.0 else {
            return true;
        };
        let mut state = state.clone();
        let out = |s: &HomeState| s.pending.range(..row).next().is_none();
        let settled =
            tokio::time::timeout(NOTE_WAIT, state.wait_for(|s| out(s) || s.stalled)).await;
        match settled {
            Ok(Ok(s)) => out(&s),
            // The loop forgot the game: nothing of its home is pending.
            Ok(Err(_)) => true,
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_note_waits_for_the_home_rows_before_it_and_not_for_those_after() {
        let order = HomeOrder::default();
        order.queued([10, 20]);
        let home = order.lane();
        let note = tokio::spawn({
            let waiter = order.waiter();
            async move { waiter.earlier_rows_out(15).await }
        });
        tokio::task::yield_now().await;
        assert!(!note.is_finished(), "row 10 is not out yet");
        home.passed(10);
        assert!(note.await.unwrap(), "row 10 is out; row 20 comes after");
        // A row after every home row waits for all of them, even those a
        // later claim queued.
        order.queued([30]);
        let last = tokio::spawn({
            let waiter = order.waiter();
            async move { waiter.earlier_rows_out(35).await }
        });
        tokio::task::yield_now().await;
        home.passed(20);
        tokio::task::yield_now().await;
        assert!(!last.is_finished(), "row 30 is not out yet");
        home.passed(30);
        assert!(last.await.unwrap());
        assert!(order.idle());
    }

    #[tokio::test]
    async fn a_stalled_or_failed_home_lane_keeps_the_note_back() {
        let order = HomeOrder::default();
        order.queued([10]);
        let mut home = order.lane();
        home.stalled();
        assert!(!order.waiter().earlier_rows_out(15).await);
        // The next home lane takes the row up again: the note waits anew.
        let home = order.lane();
        drop(home);
        assert!(!order.waiter().earlier_rows_out(15).await);
        // Nothing pending holds nothing back, and neither does the home's
        // own waiter; a reset forgets rows another process took.
        order.reset();
        assert!(order.waiter().earlier_rows_out(15).await);
        assert!(HomeWaiter::in_home().earlier_rows_out(15).await);
    }

    #[tokio::test(start_paused = true)]
    async fn a_note_gives_up_after_its_wait_and_is_tried_again_later() {
        let order = HomeOrder::default();
        order.queued([10]);
        let _home = order.lane();
        assert!(!order.waiter().earlier_rows_out(15).await);
    }
}
