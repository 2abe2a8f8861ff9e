//! One request at a time to each channel: the bot's sends to a channel
//! (a thread, a lobby channel, a user's DMs) take turns.
//!
//! Why: serenity's rate limiter learns a channel's bucket (5 messages per
//! 5 s) from Discord's first answer. Requests sent together before that
//! answer all go out, the sixth and later meet 429s, and serenity then
//! waits out each 429 while it holds the bucket, one after another: four
//! replies to a flood of DMs took 20 s. Taking turns lets the first answer
//! teach the limiter, so the rest wait for the bucket instead of meeting
//! 429s, and they arrive in the order they were sent.

use poise::serenity_prelude::ChannelId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{Mutex as TurnLock, OwnedMutexGuard};

/// Past this many channels remembered, the ones nobody waits on are dropped.
const PRUNE_ABOVE: usize = 1024;

/// The turn of each channel that has a send under way.
#[derive(Clone, Default)]
pub struct ChannelTurns {
    locks: Arc<Mutex<HashMap<ChannelId, Weak<TurnLock<()>>>>>,
}

/// The right to send to one channel; the next sender goes when it drops.
pub type ChannelTurn = OwnedMutexGuard<()>;

impl ChannelTurns {
    /// Waits for `channel`'s turn: until every earlier sender to it is done.
    pub async fn take(&self, channel: ChannelId) -> ChannelTurn {
        self.lock_of(channel).lock_owned().await
    }

    /// The lock of `channel`, shared by everyone waiting on it now. Only
    /// senders hold it strongly, so an idle channel costs a dead entry,
    /// swept once there are many.
    fn lock_of(&self, channel: ChannelId) -> Arc<TurnLock<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(lock) = locks.get(&channel).and_then(Weak::upgrade) {
            return lock;
        }
        if locks.len() >= PRUNE_ABOVE {
            locks.retain(|_, lock| lock.strong_count() > 0);
        }
        let lock = Arc::new(TurnLock::new(()));
        locks.insert(channel, Arc::downgrade(&lock));
        lock
    }

    /// How many channels are remembered (live or dead entries).
    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.locks.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn sends_to_one_channel_take_turns_in_order_of_arrival() {
        let turns = ChannelTurns::default();
        let channel = ChannelId::new(7);
        let in_flight = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let order = Arc::new(Mutex::new(Vec::new()));
        let first = turns.take(channel).await;
        let mut tasks = Vec::new();
        for i in 0..5 {
            let (turns, in_flight, most, order) = (
                turns.clone(),
                in_flight.clone(),
                most.clone(),
                order.clone(),
            );
            tasks.push(tokio::spawn(async move {
                let _turn = turns.take(channel).await;
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(2)).await;
                order.lock().unwrap().push(i);
                in_flight.fetch_sub(1, Ordering::SeqCst);
            }));
            // One thread: the task runs until it waits for its turn, so
            // the tasks queue in the order they were made.
            tokio::task::yield_now().await;
        }
        assert!(order.lock().unwrap().is_empty(), "a send went out of turn");
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1, "two sends were in flight");
        assert_eq!(*order.lock().unwrap(), vec![0, 1, 2, 3, 4]);
    }

    #[tokio::test]
    async fn different_channels_do_not_wait_for_each_other() {
        let turns = ChannelTurns::default();
        let _a = turns.take(ChannelId::new(1)).await;
        // Would hang (and time out) if channel 2 waited on channel 1.
        let b = tokio::time::timeout(Duration::from_secs(5), turns.take(ChannelId::new(2))).await;
        assert!(b.is_ok());
    }

    #[tokio::test]
    async fn idle_channels_are_swept_once_there_are_many() {
        let turns = ChannelTurns::default();
        for c in 1..=(PRUNE_ABOVE as u64 + 10) {
            drop(turns.take(ChannelId::new(c)).await);
        }
        assert!(turns.remembered() <= PRUNE_ABOVE, "{}", turns.remembered());
        // A channel in use survives the sweep.
        let held = turns.take(ChannelId::new(5_000_000)).await;
        for c in 1..=(PRUNE_ABOVE as u64) {
            drop(turns.take(ChannelId::new(10_000 + c)).await);
        }
        assert!(
            turns
                .locks
                .lock()
                .unwrap()
                .contains_key(&ChannelId::new(5_000_000))
        );
        drop(held);
    }
}
