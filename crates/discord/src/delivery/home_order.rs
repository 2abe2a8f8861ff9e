//! Order in a game's home (its channel and thread) across a lane's streams.
//!
//! A segment's streams go at once: the home's rows in one, each player's
//! DMs in another. A DM stream posts in the home only when a player's DMs
//! are closed: the note that replaces their prompt (or reminder, or private
//! note) goes to the game's thread. That note belongs after the home's rows
//! queued before it (the report that opens the turn it prompts for), so it
//! waits for them: the home stream says how far it has got, and a note
//! waits until every home row with a smaller id is out. Had it not waited,
//! about one run in twelve showed "your move" above the turn it was for.

use tokio::sync::watch;

/// How far the home stream of a segment has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    /// Every home row with a smaller id is out; this one is next.
    Next(i64),
    /// Every home row of the segment is out.
    Done,
    /// The home stream stopped at a row it will try again later (or the
    /// bot is stopping): the rows after it are not out.
    Stalled,
}

/// The home stream's side: it reports each row it is done with.
pub(crate) struct HomeProgress(watch::Sender<Progress>);

/// Another stream's side: waits for the home's earlier rows before posting
/// in the home. The home stream's own rows never wait (they are in order).
#[derive(Clone)]
pub(crate) struct HomeWaiter(Option<watch::Receiver<Progress>>);

/// The two sides for a segment whose home rows are `home_rows`, in order.
pub(crate) fn home_order(home_rows: &[i64]) -> (HomeProgress, HomeWaiter) {
    let first = home_rows
        .first()
        .map_or(Progress::Done, |id| Progress::Next(*id));
    let (progress, waiter) = watch::channel(first);
    (HomeProgress(progress), HomeWaiter(Some(waiter)))
}

impl HomeProgress {
    /// The home stream is done with a row (delivered, or not for it); `next`
    /// is its next row, if any.
    pub(crate) fn passed(&self, next: Option<i64>) {
        self.0
            .send_replace(next.map_or(Progress::Done, Progress::Next));
    }

    /// The home stream stopped before its remaining rows.
    pub(crate) fn stalled(&self) {
        self.0.send_replace(Progress::Stalled);
    }
}

impl Drop for HomeProgress {
    /// A home stream that ended without saying so (it panicked) has not
    /// delivered its remaining rows.
    fn drop(&mut self) {
        self.0.send_if_modified(|p| {
            let unfinished = *p != Progress::Done;
            if unfinished {
                *p = Progress::Stalled;
            }
            unfinished
        });
    }
}

impl HomeWaiter {
    /// The waiter of the home stream's own rows: they never wait.
    pub(crate) fn in_home() -> HomeWaiter {
        HomeWaiter(None)
    }

    /// Waits until every home row queued before `row` is out: true when
    /// they are, false when the home stream stopped first (the caller's row
    /// must then be tried again with them, not posted above them).
    pub(crate) async fn earlier_rows_out(&self, row: i64) -> bool {
        let Some(progress) = &self.0 else {
            return true;
        };
        let mut progress = progress.clone();
        let settled = progress
            .wait_for(|p| match p {
                Progress::Next(next) => *next > row,
                Progress::Done | Progress::Stalled => true,
            })
            .await
            .map(|p| *p);
        matches!(settled, Ok(Progress::Next(_) | Progress::Done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_note_waits_for_the_home_rows_before_it_and_not_for_those_after() {
        let (home, waiter) = home_order(&[10, 20]);
        let note = tokio::spawn({
            let waiter = waiter.clone();
            async move { waiter.earlier_rows_out(15).await }
        });
        tokio::task::yield_now().await;
        assert!(!note.is_finished(), "row 10 is not out yet");
        home.passed(Some(20));
        assert!(note.await.unwrap(), "row 10 is out; row 20 comes after");
        // A row after every home row waits for all of them.
        let last = tokio::spawn({
            let waiter = waiter.clone();
            async move { waiter.earlier_rows_out(25).await }
        });
        tokio::task::yield_now().await;
        assert!(!last.is_finished());
        home.passed(None);
        assert!(last.await.unwrap());
    }

    #[tokio::test]
    async fn a_stalled_or_failed_home_stream_keeps_the_note_back() {
        let (home, waiter) = home_order(&[10]);
        home.stalled();
        assert!(!waiter.earlier_rows_out(15).await);
        let (home, waiter) = home_order(&[10]);
        drop(home);
        assert!(!waiter.earlier_rows_out(15).await);
        // A segment without home rows holds nothing back, and neither does
        // the home's own waiter.
        let (_home, waiter) = home_order(&[]);
        assert!(waiter.earlier_rows_out(15).await);
        assert!(HomeWaiter::in_home().earlier_rows_out(15).await);
    }
}
