//! Diplomacy's scoring systems and its Weng-Lin rating through the host,
//! on real games of seven people that end in a draw after 1901.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{GameRules, Host, HostSettings, ManualClock, NewGame, Scoring};
use serde_json::json;
use std::sync::Arc;
use store::{GameStatus, TimeoutPolicy};

const USERS: [&str; 7] = ["u0", "u1", "u2", "u3", "u4", "u5", "u6"];
/// Seat 1 is England, seat 5 Russia (4 home centres; everyone else 3).
const ENGLAND: usize = 1;
const RUSSIA: usize = 5;

fn diplomacy_host(dir: &std::path::Path, clock: Arc<ManualClock>) -> Host {
    host_builder::diplomacy_host(&dir.join("g.db"), clock, HostSettings::default())
}

/// A game of seven people ending after 1901, with `scoring`, in `channel`.
fn seven(host: &Host, channel: &str, scoring: Scoring, turn_seconds: Option<u64>) -> i64 {
    let id = host
        .create_game(NewGame {
            kind: "diplomacy".into(),
            guild_id: Some("guild".into()),
            channel_id: channel.into(),
            creator_id: "u0".into(),
            creator_name: "U0".into(),
            options: json!({"end_year": 1901}),
            seed: Some(1),
            turn_seconds,
            timeout_policy: TimeoutPolicy::Default,
            creator_plays: true,
        })
        .unwrap();
    host.set_game_rules(
        id,
        "u0",
        GameRules {
            scoring: Some(scoring),
            ..GameRules::default()
        },
    )
    .unwrap();
    for u in &USERS[1..] {
        host.join(id, u, &u.to_uppercase(), None).unwrap();
    }
    host.start(id, "u0").unwrap();
    id
}

/// Every user but `skip` says `done` (all units hold) this phase.
fn all_done(host: &Host, id: i64, skip: Option<usize>) {
    for (seat, u) in USERS.iter().enumerate() {
        if Some(seat) != skip {
            host.submit(Some(id), u, "done").unwrap();
        }
    }
}

fn final_message(host: &Host, id: i64) -> String {
    host.unsent_of_game(id)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.announcement.ok())
        .find(|a| a.kind == host::AnnouncementKind::Finished)
        .map(|a| a.text)
        .expect("a final message")
}

fn rating(host: &Host, user: &str) -> f64 {
    host.profile(Some("guild"), user).unwrap().kinds[0]
        .rating
        .unwrap()
        .0
}

#[test]
fn sum_of_squares_with_a_forfeit_scores_the_draw_and_rates_by_place() {
    let dir = tempfile::tempdir().unwrap();
    let host = diplomacy_host(dir.path(), Arc::new(ManualClock::at(0)));
    let id = seven(&host, "c1", Scoring::SumOfSquares, None);
    host.forfeit(id, USERS[ENGLAND]).unwrap();
    all_done(&host, id, Some(ENGLAND)); // Spring 1901
    all_done(&host, id, Some(ENGLAND)); // Fall 1901: the final year ends in a draw
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    // Six powers draw: Russia 4² and five 3² of 61; England, who left, scores 0.
    let text = final_message(&host, id);
    assert!(
        text.contains("Scores (sum-of-squares): Russia (U5) 26.2, Austria (U0) 14.8,"),
        "{text}"
    );
    assert!(text.contains("England (U1) 0.0."), "{text}");
    assert!(text.contains("Ratings: U0 1500 → "), "{text}");
    // Weng-Lin by place: Russia, first, gains; England, last, loses; the
    // five placed second between them gain from England what they lose to
    // Russia.
    let russia = rating(&host, USERS[RUSSIA]);
    let austria = rating(&host, USERS[0]);
    let england = rating(&host, USERS[ENGLAND]);
    assert!(
        russia > austria && austria > england,
        "{russia} {austria} {england}"
    );
    assert!(russia > 1500.0 && england < 1500.0);
    let p = host.profile(Some("guild"), USERS[ENGLAND]).unwrap();
    assert_eq!((p.kinds[0].forfeits, p.kinds[0].draws), (1, 0));
    let p = host.profile(Some("guild"), USERS[RUSSIA]).unwrap();
    assert_eq!(p.kinds[0].draws, 1);
    assert_eq!(p.recent[0].score, Some(26.2));
    assert_eq!(p.kinds[0].mean_score, Some(26.2));
}

#[test]
fn draw_size_shares_equally_and_two_missed_deadlines_are_civil_disorder() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = diplomacy_host(dir.path(), clock.clone());
    let id = seven(&host, "c1", Scoring::DrawSize, Some(3600));
    // England misses both movement deadlines of 1901 and falls into civil
    // disorder; the other six share the draw.
    for _ in 0..2 {
        all_done(&host, id, Some(ENGLAND));
        clock.advance(3_601_000);
        host.fire_due_deadlines().unwrap();
    }
    assert_eq!(host.game(id).unwrap().status, GameStatus::Finished);
    let text = final_message(&host, id);
    assert!(text.contains("Scores (draw-size): "), "{text}");
    assert!(text.contains("Russia (U5) 16.7"), "{text}");
    assert!(text.contains("England (U1) 0.0."), "{text}");
    let r = host.reliability(Some("guild"), USERS[ENGLAND]).unwrap();
    assert_eq!((r.missed_deadlines, r.civil_disorders), (2, 1));
    assert_eq!(r.turns_awaited, 2);
    // 0 of 2 turns in time, less 10 for the civil disorder.
    assert_eq!(r.percent, 0);
    assert_eq!(
        host.reliability(Some("guild"), USERS[0]).unwrap().percent,
        100
    );
    let p = host.profile(Some("guild"), USERS[ENGLAND]).unwrap();
    assert_eq!(p.kinds[0].forfeits, 1);
    // Equal places: the six who drew move together.
    let a = rating(&host, USERS[0]);
    let r = rating(&host, USERS[RUSSIA]);
    assert!((a - r).abs() < 1e-9 && a > 1500.0, "{a} {r}");
}

#[test]
fn solo_only_gives_a_draw_no_points() {
    let dir = tempfile::tempdir().unwrap();
    let host = diplomacy_host(dir.path(), Arc::new(ManualClock::at(0)));
    let id = seven(&host, "c1", Scoring::SoloOnly, None);
    all_done(&host, id, None);
    all_done(&host, id, None);
    let text = final_message(&host, id);
    assert!(text.contains("Scores (solo-only): "), "{text}");
    assert!(!text.contains(" 14.3"), "{text}");
    assert!(text.contains("Russia (U5) 0.0"), "{text}");
}

/// Migration 0007 moves Diplomacy ratings stored on the first Weng-Lin
/// scale (×42) to the expected-score scale, keeping the model's μ and σ;
/// Glicko-2 kinds are untouched.
#[test]
fn the_migration_moves_diplomacy_ratings_to_the_new_scale() {
    if host_builder::sqlite_only("builds a version-4 SQLite file") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        for m in [
            "0001_initial",
            "0002_deadline_extensions",
            "0003_idle_deadlines",
            "0004_ratings",
        ] {
            let sql = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("migrations/{m}.sql")),
            )
            .unwrap();
            c.execute_batch(&sql).unwrap();
        }
        c.pragma_update(None, "user_version", 4).unwrap();
        // μ = 35, σ = 5 on the old scale, in both kinds.
        c.execute_batch(
            "INSERT INTO ratings VALUES ('guild', 'diplomacy', 'u1', 1920.0, 210.0, 0.06, 3, 0);
             INSERT INTO ratings VALUES ('guild', 'battle', 'u1', 1920.0, 210.0, 0.06, 3, 0);",
        )
        .unwrap();
    }
    let host = diplomacy_host(dir.path(), Arc::new(ManualClock::at(0)));
    let dip = host
        .rating_of(Some("guild"), "diplomacy", "u1")
        .unwrap()
        .unwrap();
    let (mu, sigma) = (
        25.0 + (dip.rating - 1500.0) / host::WENG_LIN_SCALE,
        dip.deviation / host::WENG_LIN_SCALE,
    );
    assert!(
        (mu - 35.0).abs() < 1e-9 && (sigma - 5.0).abs() < 1e-9,
        "{dip:?}"
    );
    let battle = host
        .rating_of(Some("guild"), "battle", "u1")
        .unwrap()
        .unwrap();
    assert_eq!((battle.rating, battle.deviation), (1920.0, 210.0));
}

/// A power that ordered every unit but never said `done` has moved: at the
/// deadline its orders stand, the announcement does not name it, and its
/// reliability counts the turn as in time (its reminder said it would lose
/// nothing). A power that ordered some of its units missed the deadline.
#[test]
fn complete_orders_without_done_are_not_a_missed_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(0));
    let host = diplomacy_host(dir.path(), clock.clone());
    let id = seven(&host, "c1", Scoring::DrawSize, Some(3600));
    host.submit(
        Some(id),
        USERS[ENGLAND],
        "F Lon - Nth\nF Edi H\nA Lvp - Yor",
    )
    .unwrap();
    // Russia orders one of its four units.
    host.submit(Some(id), USERS[RUSSIA], "A Mos - Ukr").unwrap();
    for (seat, u) in USERS.iter().enumerate() {
        if seat != ENGLAND && seat != RUSSIA {
            host.submit(Some(id), u, "done").unwrap();
        }
    }
    clock.advance(3_601_000);
    host.fire_due_deadlines().unwrap();
    let texts: Vec<String> = host
        .unsent_of_game(id)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.announcement.ok())
        .map(|a| a.text)
        .collect();
    let time_up = texts
        .iter()
        .find(|t| t.starts_with("Time is up"))
        .expect("a deadline announcement");
    assert!(time_up.contains("U5"), "{time_up}");
    assert!(!time_up.contains("U1"), "{time_up}");
    // England's orders stood, Russia's one order too.
    let all = texts.join("\n");
    assert!(all.contains("F Lon - Nth"), "{all}");
    assert!(all.contains("A Lvp - Yor"), "{all}");
    assert!(all.contains("A Mos - Ukr"), "{all}");
    let england = host.reliability(Some("guild"), USERS[ENGLAND]).unwrap();
    assert_eq!((england.missed_deadlines, england.turns_awaited), (0, 1));
    assert_eq!(england.percent, 100);
    let russia = host.reliability(Some("guild"), USERS[RUSSIA]).unwrap();
    assert_eq!((russia.missed_deadlines, russia.turns_awaited), (1, 1));
}
