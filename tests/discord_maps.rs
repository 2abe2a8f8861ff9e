//! A Diplomacy game on a map the operator installed, through the real bot
//! and the fake Discord (issue 36): the map is installed as `gamehost run`
//! installs `[diplomacy] maps` at start-up, `/game new diplomacy options:
//! map=<id>` seats its powers, each prompt and map image is that map's, and
//! the game ends by that map's victory count.

mod support;

use serde_json::json;
use support::commands::opt;
use support::fake_discord::Upload;
use support::messages::{channel_where, dm_with};
use support::setup::{lobby_with_bob, start};
use support::*;

const CH: u64 = 3_700_000_000_000_001;

/// Width and height of a PNG from its IHDR chunk.
fn png_size(f: &Upload) -> (u32, u32) {
    let d = &f.data;
    assert_eq!(&d[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", f.filename);
    let w = u32::from_be_bytes(d[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(d[20..24].try_into().unwrap());
    (w, h)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_an_installed_map_plays_that_map() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/diplomacy_twin_isles.txt");
    gamehost::operator_maps::install_map_file(&path).expect("the test map installs");
    let h = Harness::start().await;
    // A map nobody installed is refused, with the maps there are.
    let t = h.fake.slash(
        ALICE,
        CH,
        &["game", "new"],
        json!([
            opt("kind", 3, json!("diplomacy")),
            opt("options", 3, json!("map=atlantis"))
        ]),
    );
    let refusal = h.fake.replies(&t).await[0].text();
    assert!(
        refusal.contains("`atlantis` is not a map on this server")
            && refusal.contains("`twin_isles` (Twin Isles)"),
        "{refusal}"
    );
    // Alice plays Red, Bob Blue.
    lobby_with_bob(
        &h,
        CH,
        "diplomacy",
        vec![opt("options", 3, json!("map=twin_isles"))],
    )
    .await;
    start(&h, CH).await;
    let alice = dm_with(&h.fake, ALICE, "Your move").await;
    let bob = dm_with(&h.fake, BOB, "Your move").await;
    assert!(alice.text().contains("you are Red"), "{}", alice.text());
    assert!(alice.text().contains("Spring 1950"), "{}", alice.text());
    assert!(alice.text().contains("A Alb"), "{}", alice.text());
    assert!(bob.text().contains("you are Blue"), "{}", bob.text());
    assert!(bob.text().contains("F Bra"), "{}", bob.text());
    for text in [alice.text(), bob.text()] {
        for standard in ["Austria", "Vienna", "1901"] {
            assert!(!text.contains(standard), "{standard} in {text}");
        }
    }
    // Each prompt's map is the installed board: 400×300 and the legend.
    let map = alice.file("my_orders.png").expect("Alice's map");
    assert_eq!(png_size(map), (400, 396));
    h.fake.dm(ALICE, "A Alba - Cay\ndone");
    h.fake.dm(BOB, "done");
    let fall = channel_where(&h.fake, CH, "the Fall phase", |m| {
        m.text().contains("Fall 1950")
    })
    .await;
    assert!(fall.text().contains("A Alb - Cay"), "{}", fall.text());
    h.fake.dm(ALICE, "done");
    h.fake.dm(BOB, "done");
    let end = channel_where(&h.fake, CH, "the win", |m| {
        m.text().contains("Red controls 2 centres and wins!")
    })
    .await;
    let image = channel_where(&h.fake, CH, "the final map", |m| {
        m.file("map.png").is_some()
    })
    .await;
    assert_eq!(png_size(image.file("map.png").unwrap()), (400, 396));
    assert!(end.text().contains("Red"), "{}", end.text());
    h.finish().await;
}
