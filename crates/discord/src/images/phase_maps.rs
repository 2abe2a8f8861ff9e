//! The position of a phase as it begins, drawn once and shared by the
//! channel's post and the order-desk prompts of every power.
//!
//! Why: a phase's prompts go to seven players at once, and before anyone
//! has ordered, each one's private map is the picture the channel shows.
//! Drawing it eight times (about 130 ms each, beside the channel's orders
//! image) made the last player wait seconds for their prompt; drawn once,
//! everyone waits for that one drawing only.

use render::BoardImage;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Phases remembered (the newest): a few per running game is plenty, as a
/// phase's prompts all go out within seconds of each other.
const REMEMBERED: usize = 64;

/// One phase's drawing: empty until drawn; `None` when it could not be.
type Drawing = Arc<OnceCell<Option<Arc<BoardImage>>>>;

/// The drawn maps of recent phases, by game and turn.
#[derive(Clone, Default)]
pub struct PhaseMaps {
    inner: Arc<Mutex<Remembered>>,
}

#[derive(Default)]
struct Remembered {
    drawings: HashMap<(i64, u32), Drawing>,
    /// Keys oldest first, to forget the oldest past [`REMEMBERED`].
    order: VecDeque<(i64, u32)>,
}

impl PhaseMaps {
    /// The image of `game`'s position at `turn`: drawn by `draw` (off the async
    /// workers) the first time, shared after; callers arriving while it is
    /// being drawn wait for that drawing instead of making their own.
    pub async fn get_or_draw<F>(&self, game: i64, turn: u32, draw: F) -> Option<Arc<BoardImage>>
    where
        F: FnOnce() -> Option<BoardImage> + Send + 'static,
    {
        let cell = self.cell(game, turn);
        cell.get_or_init(|| async move {
            tokio::task::spawn_blocking(draw)
                .await
                .ok()
                .flatten()
                .map(Arc::new)
        })
        .await
        .clone()
    }

    fn cell(&self, game: i64, turn: u32) -> Drawing {
        let mut r = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(cell) = r.drawings.get(&(game, turn)) {
            return cell.clone();
        }
        if r.order.len() >= REMEMBERED
            && let Some(oldest) = r.order.pop_front()
        {
            r.drawings.remove(&oldest);
        }
        let cell = Drawing::default();
        r.drawings.insert((game, turn), cell.clone());
        r.order.push_back((game, turn));
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn image(png: Vec<u8>) -> BoardImage {
        BoardImage {
            filename: "map.png",
            png,
            description: String::new(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn seven_prompts_of_a_phase_draw_its_map_once() {
        let maps = PhaseMaps::default();
        let drawn = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..7 {
            let (maps, drawn) = (maps.clone(), drawn.clone());
            tasks.push(tokio::spawn(async move {
                maps.get_or_draw(1, 3, move || {
                    drawn.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    Some(image(vec![1, 2, 3]))
                })
                .await
            }));
        }
        for t in tasks {
            assert_eq!(t.await.unwrap().unwrap().png, vec![1, 2, 3]);
        }
        assert_eq!(drawn.load(Ordering::SeqCst), 1);
        // The next phase is another drawing.
        let next = maps.get_or_draw(1, 4, || Some(image(vec![4]))).await;
        assert_eq!(next.unwrap().png, vec![4]);
    }

    #[tokio::test]
    async fn only_the_newest_phases_are_remembered() {
        let maps = PhaseMaps::default();
        for turn in 0..(REMEMBERED as u32 + 5) {
            maps.get_or_draw(9, turn, move || Some(image(vec![turn as u8])))
                .await;
        }
        let r = maps.inner.lock().unwrap();
        assert_eq!(r.drawings.len(), REMEMBERED);
        assert!(!r.drawings.contains_key(&(9, 0)), "the oldest is forgotten");
        assert!(r.drawings.contains_key(&(9, REMEMBERED as u32 + 4)));
    }
}
