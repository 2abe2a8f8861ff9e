//! `[metrics] listen`, with the real `gamehost run` binary against the fake
//! Discord: `/healthz` follows the gateway (503 while the fake's gateway is
//! down, 200 once the bot has reconnected), `/metrics` counts a game played
//! to its end and the REST requests (a 429 among them) by route template
//! in Prometheus's text format without naming anyone, the
//! server shrugs off bad requests, `gamehost health` says the same as
//! `/healthz`, and the log shows the invite URL once.

mod support;

use serde_json::json;
use std::io::{Read, Write};
use std::time::Duration;
use support::commands::{command, opt};
use support::fake_discord::{APP_ID, FakeDiscord, TOKEN, WAIT};
use support::process::spawn_with;
use support::setup::thread_of;
use support::{ALICE, BOB};

const CH: u64 = 2_700_000_000_000_001;

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Sends `request` as is to 127.0.0.1:`port` and returns the status code
/// and the body (`None` when nothing answers).
fn http(port: u16, request: &str) -> Option<(u16, String)> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    let status = answer.get(9..12)?.parse().ok()?;
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Some((status, body.to_string()))
}

/// `GET path`.
fn get(port: u16, path: &str) -> Option<(u16, String)> {
    http(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    )
}

/// Polls `GET path` until it answers `status`; returns the body.
async fn until_status(port: u16, path: &str, status: u16) -> String {
    let deadline = tokio::time::Instant::now() + WAIT * 2;
    let mut last = None;
    while tokio::time::Instant::now() < deadline {
        let p = path.to_string();
        last = tokio::task::spawn_blocking(move || get(port, &p))
            .await
            .unwrap();
        if let Some((s, body)) = &last
            && *s == status
        {
            return body.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{path} never answered {status}; last: {last:?}");
}

/// The value of the sample line `name{labels}` (or `name`) in `text`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// `gamehost health` with `[metrics] listen` at `port`: exit code and output.
fn health_command(port: u16) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamehost"))
        // Its lines are read in English whatever the machine's locale.
        .env("LC_ALL", "C")
        .env_remove("GAMEHOST_CONFIG")
        .env("GAMEHOST_METRICS_LISTEN", format!("0.0.0.0:{port}"))
        .current_dir(std::env::temp_dir())
        .arg("health")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// Plays a card duel against the AI to its end as Alice, pressing her
/// first offered button each turn in the game's thread.
async fn play_cards_to_the_end(fake: &FakeDiscord) {
    let reply = command(
        fake,
        ALICE,
        CH,
        &["game", "new"],
        json!([opt("kind", 3, json!("cards"))]),
    )
    .await;
    assert!(reply.contains("Created cards"), "{reply}");
    let reply = command(fake, ALICE, CH, &["game", "ai"], json!([])).await;
    assert!(reply.contains("AI"), "{reply}");
    command(fake, ALICE, CH, &["game", "start"], json!([])).await;
    let home = thread_of(fake, CH).await;
    support::setup::play_board_to_the_end(fake, home).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_follows_the_gateway_and_metrics_count_a_played_game() {
    let fake = FakeDiscord::start().await;
    for (id, name) in [(ALICE, "Alice"), (BOB, "Bob")] {
        fake.user(id, name);
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let bin = spawn_with(
        dir.path(),
        &db,
        TOKEN,
        &fake,
        &[("GAMEHOST_METRICS_LISTEN", listen.as_str())],
        &[],
    );
    fake.wait_commands().await;
    assert_eq!(until_status(port, "/healthz", 200).await, "ok\n");
    let (code, said) = health_command(port);
    assert_eq!(code, Some(0), "{said}");

    // The gateway goes down: unhealthy, and says why; back up: healthy.
    fake.gateway_down();
    let why = until_status(port, "/healthz", 503).await;
    assert!(why.contains("gateway: 0 of 1 shard(s) connected"), "{why}");
    let (code, said) = health_command(port);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("unhealthy (503): gateway"), "{said}");
    fake.gateway_up();
    until_status(port, "/healthz", 200).await;
    fake.wait_ready(2).await;

    // Discord holds the game's first message in the channel back once.
    fake.fail_next_message_with_429(CH, Duration::from_millis(300));
    play_cards_to_the_end(&fake).await;
    assert_eq!(fake.state().too_many_in(CH).len(), 1);
    // A request is timed when its answer is back, a moment after the fake
    // stored its message: scrape until the last post is counted (the
    // assertions below say what is missing if it never is).
    let bot_posts = fake
        .state()
        .messages
        .iter()
        .filter(|m| !m.from_interaction)
        .count() as f64;
    let mut text = until_status(port, "/metrics", 200).await;
    for _ in 0..50 {
        let posts = sample(
            &text,
            r#"gamehost_discord_rest_request_seconds_count{route="POST /channels/{id}/messages"}"#,
        )
        .unwrap_or(0.0);
        if posts >= bot_posts {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        text = until_status(port, "/metrics", 200).await;
    }
    assert_eq!(
        sample(&text, r#"gamehost_games{kind="cards",status="finished"}"#),
        Some(1.0),
        "{text}"
    );
    let moves = sample(&text, r#"gamehost_actions_total{kind="cards"}"#).unwrap_or(0.0);
    let turns = sample(&text, r#"gamehost_turns_resolved_total{kind="cards"}"#).unwrap_or(0.0);
    assert!(moves >= 2.0 && turns >= 1.0, "{text}");
    assert!(
        sample(
            &text,
            r#"gamehost_turn_resolution_seconds_count{kind="cards"}"#
        ) == Some(turns),
        "{text}"
    );
    assert!(
        sample(&text, r#"gamehost_ai_decision_seconds_count{kind="cards"}"#).unwrap_or(0.0) >= 1.0,
        "{text}"
    );
    assert_eq!(
        sample(&text, "gamehost_gateway_shards_connected"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(sample(&text, "gamehost_database_up"), Some(1.0), "{text}");
    // The REST requests the bot made, timed by route template: every
    // message it posted and edited, the 429 waited out inside one.
    let posted = r#"route="POST /channels/{id}/messages""#;
    let posts = sample(
        &text,
        &format!("gamehost_discord_rest_request_seconds_count{{{posted}}}"),
    )
    .unwrap_or(0.0);
    assert!(
        posts >= bot_posts && bot_posts >= 2.0,
        "{posts} of {bot_posts}\n{text}"
    );
    let posting_time = sample(
        &text,
        &format!("gamehost_discord_rest_request_seconds_sum{{{posted}}}"),
    )
    .unwrap_or(0.0);
    assert!(
        posting_time >= 0.3,
        "the 429's wait is not in: {posting_time}\n{text}"
    );
    assert!(
        sample(
            &text,
            r#"gamehost_discord_rest_request_seconds_count{route="PATCH /channels/{id}/messages/{id}"}"#
        )
        .unwrap_or(0.0)
            >= 1.0,
        "{text}"
    );
    // (Also any spent bucket serenity waited out before sending.)
    assert!(
        sample(
            &text,
            &format!("gamehost_discord_rate_limited_total{{scope=\"route\",{posted}}}")
        )
        .unwrap_or(0.0)
            >= 1.0,
        "{text}"
    );
    assert!(text.contains("gamehost_outbox_depth "), "{text}");
    assert!(text.trim_end().ends_with("# EOF"), "{text}");
    for private in [TOKEN, "Alice", &ALICE.to_string(), &CH.to_string()] {
        assert!(!text.contains(private), "{private} in /metrics:\n{text}");
    }

    // Bad requests get an answer, not a stuck or crashed server.
    assert_eq!(get(port, "/nothing").map(|r| r.0), Some(404));
    let post = http(
        port,
        "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
    );
    assert_eq!(post.map(|r| r.0), Some(405));
    let huge = format!(
        "GET /metrics HTTP/1.1\r\nX: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    assert!(matches!(http(port, &huge), None | Some((431 | 400, _))));
    assert!(http(port, "NONSENSE\r\n\r\n").is_none_or(|r| r.0 == 400));
    assert_eq!(get(port, "/healthz").map(|r| r.0), Some(200));

    bin.signal("TERM");
    let (code, out) = bin.exit().await;
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("serving /healthz and /metrics"), "{out}");
    // The invite URL, with the Application ID from Discord's READY, once
    // although the gateway connected twice.
    let invite = format!(
        "invite the bot to a server with https://discord.com/oauth2/authorize?\
         client_id={APP_ID}&scope=bot+applications.commands&permissions=309237746688"
    );
    assert_eq!(out.matches(&invite).count(), 1, "{out}");
    assert!(!out.contains(TOKEN), "the token leaked:\n{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_or_busy_listen_address_is_refused_at_start_with_one_line() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = taken.local_addr().unwrap().to_string();
    for (listen, says) in [
        ("localhost", "`localhost` is not an address and port"),
        (busy.as_str(), "cannot listen on `[metrics] listen`"),
    ] {
        let bin = spawn_with(
            dir.path(),
            &db,
            TOKEN,
            &fake,
            &[("GAMEHOST_METRICS_LISTEN", listen)],
            &[],
        );
        let (code, out) = bin.exit().await;
        assert_eq!(code, Some(1), "{listen}: {out}");
        let last = out.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("gamehost: ") && last.contains(says),
            "{listen}: {out}"
        );
    }
    assert_eq!(fake.state().sessions, 0, "a refused start connected");
}
