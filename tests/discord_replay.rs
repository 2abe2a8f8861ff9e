//! The Diplomacy replay and the map's legend through the real bot and the
//! fake Discord: a short game (it ends after 1901) posts exactly one replay
//! GIF in its channel when it ends, `/game replay` answers with the same
//! animation, and the posted map names the players in its legend.

mod support;

use serde_json::json;
use support::commands::opt;
use support::fake_discord::{Msg, Upload};
use support::messages::channel_file;
use support::setup::{add_ai, new_game, start};
use support::*;

const CH: u64 = 3_600_000_000_000_001;

/// One day and a second: past any phase's deadline of a day.
const PAST_DEADLINE: i64 = 86_400_000 + 1_000;

/// The number of frames of a GIF (and checks it is one, of the map's size
/// scaled down).
fn gif_frames(f: &Upload) -> usize {
    assert_eq!(&f.data[..6], b"GIF89a", "{} is not a GIF", f.filename);
    let mut d = gif::DecodeOptions::new().read_info(&f.data[..]).unwrap();
    let (w, h) = (d.width() as f64, d.height() as f64);
    let ratio = render::diplomacy::WIDTH / render::diplomacy::IMAGE_HEIGHT;
    assert!((w / h - ratio).abs() < 0.01, "a {w}x{h} frame");
    let mut n = 0;
    while d.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

/// The GIF attachments of a message.
fn gifs(m: &Msg) -> Vec<&Upload> {
    m.files
        .iter()
        .filter(|f| f.filename.ends_with(".gif"))
        .collect()
}

/// Waits until game `id` has resolved `turn` turns or ended.
async fn wait_turn(h: &Harness, id: i64, turn: u32) {
    for _ in 0..400 {
        let g = h.host().game(id).unwrap();
        if g.turn >= turn || g.status != host::GameStatus::Running {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("game {id} did not reach turn {turn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_game_posts_its_replay_once_when_it_ends_and_on_request() {
    let h = Harness::start().await;
    let ch = CH;
    let id = new_game(
        &h,
        ch,
        "diplomacy",
        vec![
            opt("deadline", 3, json!("1d")),
            opt("options", 3, json!(r#"{"end_year": 1901}"#)),
        ],
    )
    .await;
    for _ in 0..6 {
        add_ai(&h, ch, Some("hold")).await;
    }
    start(&h, ch).await;

    // The map posted at the start names the players in its legend: it is
    // the position drawn with the host's seat names, not without them.
    let started = channel_file(&h.fake, ch, "map.png", |m| m.text().contains("started")).await;
    let posted = started.file("map.png").unwrap();
    let state = h.host().state_at(id, 0).unwrap();
    let names = render::seat_names(h.host(), id).unwrap();
    assert_eq!(names[0], (0, "Alice".to_string()), "{names:?}");
    let pos = render::diplomacy_position(state.as_ref(), &names).unwrap();
    assert!(
        pos.players
            .contains(&(std_power("Austria"), "Alice".to_string())),
        "{:?}",
        pos.players
    );
    assert_eq!(
        pos.players.len(),
        7,
        "every power's player: {:?}",
        pos.players
    );
    let svg = render::diplomacy::diplomacy_svg(&pos).unwrap();
    assert!(svg.contains(">Alice</text>"), "the legend names Alice");
    let named = render::board_png(state.as_ref(), &names).unwrap().unwrap();
    let unnamed = render::board_png(state.as_ref(), &[]).unwrap().unwrap();
    assert_eq!(*posted.data, named.png, "the posted map is the named one");
    assert_ne!(named.png, unnamed.png, "the names are drawn");

    // Nobody orders: each deadline holds every unit, and after Fall 1901
    // (nothing to build) the game ends in a draw.
    h.delivered().await;
    h.advance(PAST_DEADLINE);
    wait_turn(&h, id, 1).await;
    h.delivered().await;
    h.advance(PAST_DEADLINE);
    wait_turn(&h, id, 2).await;
    assert_eq!(
        h.host().game(id).unwrap().status,
        host::GameStatus::Finished
    );
    h.delivered().await;

    // Exactly one GIF in the channel: the replay, right after the final
    // message, with Spring and Fall 1901 and the final position.
    let file = format!("diplomacy-{id}-replay.gif");
    let replay = channel_file(&h.fake, ch, &file, |_| true).await;
    let all: Vec<Msg> = h.fake.state().channel(ch).into_iter().cloned().collect();
    let with_gif: Vec<&Msg> = all.iter().filter(|m| !gifs(m).is_empty()).collect();
    assert_eq!(with_gif.len(), 1, "one replay message");
    assert_eq!(gifs(with_gif[0]).len(), 1, "one GIF");
    let over = all
        .iter()
        .rposition(|m| m.text().contains("is over"))
        .expect("the final message");
    assert_eq!(all[over + 1].id, replay.id, "the replay follows it");
    let gif = replay.file(&file).unwrap();
    assert!(gif.data.len() <= render::replay::MAX_REPLAY_BYTES);
    assert_eq!(gif_frames(gif), 3);
    assert!(replay.text().contains("3 phases"), "{}", replay.text());

    // On request, in the channel of the finished game (without an id: the
    // channel's latest game): the same GIF.
    let t = h.fake.slash(BOB, ch, &["game", "replay"], json!([]));
    let tok = t.clone();
    let f = file.clone();
    let answer = h
        .fake
        .wait_for("the replay reply", move |s| {
            s.messages
                .iter()
                .find(|m| m.token.as_deref() == Some(tok.as_str()) && m.file(&f).is_some())
                .cloned()
        })
        .await;
    let asked = answer.file(&file).unwrap();
    assert!(gif_frames(asked) > 1);
    assert_eq!(asked.data, gif.data);
    // A game without a replay is told so.
    let t = h.fake.slash(
        BOB,
        ch,
        &["game", "replay"],
        json!([opt("id", 4, json!(id + 100))]),
    );
    let text = h.fake.reply_text(&t).await;
    assert!(text.contains(&format!("{}", id + 100)), "{text}");
    let refusals = h.fake.replies(&t).await;
    assert!(
        refusals.iter().all(|m| m.ephemeral),
        "a refusal is private: {refusals:?}"
    );
    h.finish().await;
}

/// A power of the standard map by name.
fn std_power(name: &str) -> ::games::diplomacy::geo::Power {
    ::games::diplomacy::geo::Map::standard()
        .parse_power(name)
        .unwrap_or_else(|| panic!("{name} is a standard power"))
}
