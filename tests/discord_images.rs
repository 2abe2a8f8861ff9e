//! Board images in the channel, through the real bot and the fake Discord's
//! multipart uploads: the puzzle fields and the Diplomacy map (with the
//! phase's orders) as PNG attachments drawn at the announced turn, and the
//! text board when an image cannot be drawn.

mod support;

use serde_json::json;
use support::commands::opt;
use support::fake_discord::{FakeDiscord, Msg, Upload};
use support::messages::{channel_file, channel_where, count_in_channel, dm_where, dm_with};
use support::setup::{against_ai, diplomacy_against_holding_ais};
use support::*;

const CH: u64 = 3_500_000_000_000_001;

/// Width and height of a PNG from its signature and IHDR chunk.
fn png_size(f: &Upload) -> (u32, u32) {
    let d = &f.data;
    assert!(d.len() > 33, "{} is only {} bytes", f.filename, d.len());
    assert_eq!(&d[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", f.filename);
    assert_eq!(
        &d[12..16],
        b"IHDR",
        "{}: the first chunk is not IHDR",
        f.filename
    );
    let w = u32::from_be_bytes(d[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(d[20..24].try_into().unwrap());
    (w, h)
}

/// The attachment JSON Discord returned for a file of a message.
fn attachment_json<'a>(m: &'a Msg, file: &str) -> &'a serde_json::Value {
    m.json["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["filename"] == file)
        .unwrap_or_else(|| panic!("no attachment {file} in {}", m.json))
}

/// Creates a puzzle game against the AI and starts it; returns its id.
async fn puzzle_vs_ai(h: &Harness, ch: u64) -> i64 {
    against_ai(h, ch, "puzzle", vec![opt("seed", 4, json!(11))]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_turn_in_the_channel_carries_the_board_image() {
    let h = Harness::start().await;
    let ch = CH;
    puzzle_vs_ai(&h, ch).await;
    let expected = render::puzzle::image_size();
    let started = channel_file(&h.fake, ch, "board.png", |m| m.text().contains("started")).await;
    assert_eq!(png_size(started.file("board.png").unwrap()), expected);
    // Alice plays her first group until a turn she played is posted. Her
    // prompt is on the start message (with its image): no separate post.
    let prompt = channel_where(&h.fake, ch, "Alice's prompt in the channel", |m| {
        m.content().contains(&format!("<@{ALICE}>, your move")) && !m.selects().is_empty()
    })
    .await;
    assert_eq!(prompt.id, started.id);
    let (sid, opts) = prompt.selects().into_iter().next().unwrap();
    let t = h.fake.select(ALICE, prompt.id, &sid, &[opts[0].1.as_str()]);
    h.fake.reply_text(&t).await;
    // The board is one living message: her turn edits it, with the image
    // of the position now.
    let (first, started_id) = (started.file("board.png").unwrap().data.clone(), started.id);
    let turn = channel_file(&h.fake, ch, "board.png", move |m| {
        m.id == started_id && m.file("board.png").is_some_and(|f| f.data != first)
    })
    .await;
    let board = turn.file("board.png").unwrap();
    assert_eq!(png_size(board), expected);
    assert_eq!(board.content_type.as_deref(), Some("image/png"));
    // Discord's view of it: the same size, and the text board as alt text.
    let a = attachment_json(&turn, "board.png");
    assert_eq!(a["width"], json!(expected.0));
    assert_eq!(a["size"], json!(board.data.len()));
    let alt = board.description.as_deref().unwrap_or("");
    assert!(!alt.is_empty() && alt.chars().count() <= 1024, "{alt:?}");
    // The image replaces the text board in the channel.
    assert!(!turn.content().contains("```"), "{}", turn.content());
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diplomacy_phase_result_carries_the_map_and_its_orders() {
    let h = Harness::start().await;
    let ch = CH + 1;
    diplomacy_against_holding_ais(&h, ch, vec![opt("deadline", 3, json!("1d"))]).await;
    let map_size = (
        render::diplomacy::WIDTH as u32,
        render::diplomacy::IMAGE_HEIGHT as u32,
    );
    let started = channel_file(&h.fake, ch, "map.png", |m| m.text().contains("started")).await;
    assert_eq!(png_size(started.file("map.png").unwrap()), map_size);
    assert!(
        started.file("orders.png").is_none(),
        "no orders before the first phase"
    );
    dm_with(&h.fake, ALICE, "Your move").await;
    h.fake.dm(ALICE, "A Vie - Tyr\nF Tri - Alb\nA Bud - Ser");
    dm_where(&h.fake, ALICE, "the receipt", |m| {
        m.text().starts_with("Recorded")
    })
    .await;
    h.delivered().await;
    // The six AI seats moved without a line each; Alice's orders are not final.
    assert_eq!(count_in_channel(&h.fake, ch, "has moved"), 0);
    h.advance(86_400_000 + 1_000);
    let result = channel_file(&h.fake, ch, "map.png", |m| !m.text().contains("started")).await;
    assert_eq!(png_size(result.file("map.png").unwrap()), map_size);
    let orders = result.file("orders.png").expect("the orders image");
    assert_eq!(png_size(orders), map_size);
    // The orders come first, then the position they led to.
    let names: Vec<&str> = result.files.iter().map(|f| f.filename.as_str()).collect();
    assert_eq!(names, ["orders.png", "map.png"]);
    // The new position differs from the start: Austria moved.
    assert_ne!(
        result.file("map.png").unwrap().data,
        started.file("map.png").unwrap().data
    );
    let text: String = h
        .fake
        .state()
        .channel(ch)
        .iter()
        .filter(|m| m.id > started.id && m.id <= result.id)
        .map(|m| m.text())
        .collect();
    assert!(text.contains("Spring 1901"), "{text}");
    // Alice's prompt for the next phase shows the picture the channel
    // shows: drawn once for the channel and every prompt.
    let prompt = dm_where(&h.fake, ALICE, "the next phase's prompt", |m| {
        m.file("my_orders.png").is_some() && m.text().contains("Fall 1901")
    })
    .await;
    assert_eq!(
        prompt.file("my_orders.png").unwrap().data,
        result.file("map.png").unwrap().data
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_that_cannot_be_drawn_is_posted_as_text() {
    let mut h = Harness::start().await;
    let ch = CH + 2;
    let id = puzzle_vs_ai(&h, ch).await;
    channel_file(&h.fake, ch, "board.png", |m| m.text().contains("started")).await;
    h.delivered().await;
    // While the bot is down, a turn resolves and its logged state is damaged.
    h.stop().await;
    let host = h.offline_host();
    let before = host.game(id).unwrap().turn;
    let v = host.view(id, Some(&ALICE.to_string())).unwrap();
    let mine = v.view.as_ref().unwrap().choices.first().cloned();
    match mine {
        Some(c) => {
            host.submit(Some(id), &ALICE.to_string(), &c.text).unwrap();
        }
        None => {
            host.run_ai_turns(Some(id), 1).unwrap();
        }
    }
    let turn = host.game(id).unwrap().turn;
    assert_eq!(turn, before + 1);
    drop(host);
    let changed = h.sql(&format!(
        "UPDATE turn_log SET state_after = '{{\"damaged\": true}}' WHERE game_id = {id} AND turn = {turn}"
    ));
    assert_eq!(changed, 1);
    h.start_again().await;
    // The turn is announced anyway: the living board shows the text board
    // instead of the image, and no longer the old image.
    let text = h
        .fake
        .wait_for("the turn shown as text", move |s| {
            s.channel(ch)
                .into_iter()
                .find(|m| m.content().contains("```"))
                .cloned()
        })
        .await;
    assert!(text.files.is_empty(), "{:?}", text.files);
    assert_eq!(text.json["attachments"], json!([]), "{}", text.json);
    h.assert_clean();
}

/// The Discord error code of a failed request.
fn discord_code(e: &serenity::Error) -> (u16, isize) {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("not a Discord error: {other}"),
    }
}

/// A raw HTTP/1.1 POST to the fake; returns the status and the body.
async fn raw_post(base: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bot {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        support::fake_discord::TOKEN,
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text[9..12].parse().unwrap();
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_takes_uploads_and_nonces_as_discord_does() {
    use serenity::all::{ChannelId, CreateAttachment, CreateMessage, HttpBuilder, Nonce};
    let fake = FakeDiscord::start().await;
    // This client goes through the proxy without a rate limiter (serenity
    // 0.12's would skip the proxy) and posts more than 5 messages into one
    // channel: the limits are not what this test is about.
    fake.set_rate_limits(support::fake_discord::RateLimits::off());
    let http = HttpBuilder::new(support::fake_discord::TOKEN)
        .proxy(fake.base_url.clone())
        .ratelimiter_disabled(true)
        .default_allowed_mentions(serenity::all::CreateAllowedMentions::new())
        .build();
    let ch = ChannelId::new(CH + 5);
    let files = |n: usize, size: usize| {
        (0..n).map(move |i| CreateAttachment::bytes(vec![i as u8; size], format!("f{i}.bin")))
    };
    // Ten files are fine; their bytes are kept in order, without text.
    let m = ch
        .send_message(&http, CreateMessage::new().add_files(files(10, 3)))
        .await
        .unwrap();
    assert_eq!(m.attachments.len(), 10);
    assert_eq!(m.attachments[9].filename, "f9.bin");
    assert_eq!(m.attachments[9].size, 3);
    {
        let s = fake.state();
        let rec = s.message(m.id.get()).unwrap();
        assert_eq!(rec.files.len(), 10);
        assert_eq!(*rec.files[9].data, vec![9u8; 3]);
    }
    // Eleven are not.
    let e = ch
        .send_message(
            &http,
            CreateMessage::new().content("x").add_files(files(11, 1)),
        )
        .await
        .unwrap_err();
    assert_eq!(discord_code(&e), (400, 50035));
    // Nor is a file over 10 MiB (an unboosted server's limit).
    let big = CreateAttachment::bytes(vec![0u8; 10 * 1024 * 1024 + 1], "big.bin");
    let e = ch
        .send_message(&http, CreateMessage::new().content("x").add_file(big))
        .await
        .unwrap_err();
    assert_eq!(discord_code(&e), (413, 40005));
    // Nor an attachment in payload_json whose file was not uploaded.
    let body = b"--b0\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.png\"\r\n\r\nabc\r\n--b0\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"x\",\"allowed_mentions\":{\"parse\":[]},\"attachments\":[{\"id\":0,\"filename\":\"a.png\"},{\"id\":1,\"filename\":\"b.png\"}]}\r\n--b0--\r\n";
    let path = format!("/api/v10/channels/{}/messages", ch.get());
    let (status, reply) = raw_post(
        &fake.base_url,
        &path,
        "multipart/form-data; boundary=b0",
        body,
    )
    .await;
    assert_eq!(status, 400, "{reply}");
    assert!(reply.contains("50035"), "{reply}");
    assert!(
        fake.state()
            .rejected
            .iter()
            .any(|r| r.contains("files[1], which was not uploaded")),
        "{:?}",
        fake.state().rejected
    );
    // A nonce repeated with enforce_nonce returns the first message.
    let with_nonce = |text: &str, enforce: bool| {
        CreateMessage::new()
            .content(text)
            .nonce(Nonce::String("ob1p0".into()))
            .enforce_nonce(enforce)
    };
    let first = ch
        .send_message(&http, with_nonce("one", true))
        .await
        .unwrap();
    let again = ch
        .send_message(&http, with_nonce("two", true))
        .await
        .unwrap();
    assert_eq!(again.id, first.id);
    assert_eq!(again.content, "one");
    assert_eq!(fake.state().dedupe_hits.len(), 1);
    // Without enforce_nonce, or in another channel, it is a new message.
    let loose = ch
        .send_message(&http, with_nonce("three", false))
        .await
        .unwrap();
    assert_ne!(loose.id, first.id);
    let other = ChannelId::new(CH + 6)
        .send_message(&http, with_nonce("four", true))
        .await
        .unwrap();
    assert_ne!(other.id, first.id);
    assert_eq!(fake.state().dedupe_hits.len(), 1);
    // A nonce over 25 characters is refused.
    let long = CreateMessage::new()
        .content("x")
        .nonce(Nonce::String("n".repeat(26)))
        .enforce_nonce(true);
    let e = ch.send_message(&http, long).await.unwrap_err();
    assert_eq!(discord_code(&e), (400, 50035));
}
