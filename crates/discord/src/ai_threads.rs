//! The threads AI seats think on, below the rest of the bot in the
//! operating system's scheduling.
//!
//! Every AI level thinks until its wall-clock budget is spent, so AI
//! decisions keep every core busy whenever games against the AI are
//! running: on 2 cores with twelve battles, a Diplomacy phase's map drawn
//! on tokio's blocking pool beside sixteen thinking AIs got a sixteenth of
//! the machine and took 1–2.5 s. On these threads (nice 10 on Linux) the
//! work players wait for (drawing maps, reading the database, delivering)
//! runs first, and the AI thinks with the cores that are left; its moves are
//! no later (the budget is wall-clock), only a little shallower while the
//! bot is busy.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// How much lower than the rest of the bot the AI threads run (Linux nice
/// value: 10 gives a thread about a tenth of a core's share when others
/// want it, and the whole core when nobody does).
const AI_NICENESS: i32 = 10;

/// A decision to run on an AI thread.
type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of threads that run AI decisions at a lower priority.
pub struct AiThreads {
    jobs: Mutex<mpsc::Sender<Job>>,
}

/// An AI decision that panicked (its seat's move is tried again later).
#[derive(Debug, thiserror::Error)]
#[error("the AI decision panicked")]
pub struct DecisionPanicked;

impl AiThreads {
    /// Starts `threads` threads, each lowering its own priority first.
    pub fn start(threads: usize) -> AiThreads {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads.max(1) {
            let receiver = receiver.clone();
            let started = std::thread::Builder::new()
                .name(format!("ai-think-{n}"))
                .spawn(move || {
                    lower_own_priority();
                    run_jobs(&receiver);
                });
            if let Err(e) = started {
                tracing::error!(error = %e, "cannot start an AI thread");
            }
        }
        AiThreads {
            jobs: Mutex::new(sender),
        }
    }

    /// Runs `decide` on an AI thread and waits for its result.
    pub async fn run<T, F>(&self, decide: F) -> Result<T, DecisionPanicked>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (done, result) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let out = std::panic::catch_unwind(AssertUnwindSafe(decide));
            let _ = done.send(out);
        });
        let sent = self
            .jobs
            .lock()
            .map_err(|_| DecisionPanicked)?
            .send(job)
            .is_ok();
        if !sent {
            return Err(DecisionPanicked);
        }
        match result.await {
            Ok(Ok(value)) => Ok(value),
            _ => Err(DecisionPanicked),
        }
    }
}

/// Takes jobs one at a time until the bot drops its `AiThreads`.
fn run_jobs(receiver: &Mutex<mpsc::Receiver<Job>>) {
    loop {
        // The lock is held only while waiting for the next job: one thread
        // waits in `recv`, the others for the lock.
        let job = match receiver.lock() {
            Ok(jobs) => match jobs.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
            Err(_) => return,
        };
        job();
    }
}

/// Lowers the calling thread's scheduling priority (Linux keeps a nice
/// value per thread); elsewhere the AI threads run at the bot's priority.
fn lower_own_priority() {
    #[cfg(target_os = "linux")]
    {
        // Relative to the bot's own nice value: a bot an operator started
        // at nice 10 keeps its AI below itself too (an absolute 10 would be
        // no lower, and lowering a nice value is refused without privilege).
        let me = rustix::thread::gettid();
        let own = rustix::process::getpriority_process(Some(me)).unwrap_or(0);
        let lower = own.saturating_add(AI_NICENESS).min(19);
        if let Err(e) = rustix::process::setpriority_process(Some(me), lower) {
            tracing::warn!(error = %e, "cannot lower an AI thread's priority");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn decisions_run_on_the_ai_threads_and_a_panic_is_an_error() {
        let threads = AiThreads::start(2);
        let name = threads
            .run(|| std::thread::current().name().map(str::to_string))
            .await
            .unwrap();
        assert!(name.unwrap().starts_with("ai-think-"));
        assert!(threads.run(|| panic!("a broken AI")).await.is_err());
        // The thread that panicked is still there for the next decision.
        for _ in 0..4 {
            assert_eq!(threads.run(|| 2 + 2).await.unwrap(), 4);
        }
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn ai_threads_run_below_the_bots_priority() {
        let threads = AiThreads::start(1);
        let own = rustix::process::getpriority_process(None).unwrap();
        let ai = threads
            .run(|| rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap())
            .await
            .unwrap();
        assert_eq!(ai, (own + AI_NICENESS).min(19));
    }
}
