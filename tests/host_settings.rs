//! Server settings in the host, on either back end
//! (`GAMEHOST_TEST_STORE=postgres` runs them on PostgreSQL): stored and
//! read back across a restart, games confined to the listed channels,
//! per-kind defaults, the fixed daily Diplomacy deadline on a
//! hand-moved clock across a change of clocks, with its reminder, and a
//! game master giving a seat in play to a person and then to an AI.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{DailyDeadline, Host, KindDefaults, ManualClock, NewGame, Registry, TimeoutPolicy};
use std::path::Path;
use std::sync::Arc;

/// 28 March 2026, 08:00 UTC (09:00 in Berlin), the day before Berlin's
/// clocks go forward.
const BEFORE_DST_MS: i64 = 1_774_684_800_000;

fn host(db: &Path, clock: Arc<ManualClock>) -> Host {
    host_builder::host_on(
        db,
        Registry::standard(),
        clock,
        host_builder::settings(20, 20),
    )
}

fn request(kind: &str, channel: &str, turn_seconds: Option<u64>) -> NewGame {
    NewGame {
        kind: kind.into(),
        guild_id: Some("guild".into()),
        channel_id: channel.into(),
        creator_id: "u0".into(),
        creator_name: "Ursula".into(),
        options: serde_json::Value::Null,
        seed: Some(7),
        turn_seconds,
        timeout_policy: TimeoutPolicy::Default,
        creator_plays: true,
    }
}

#[test]
fn settings_are_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let clock = Arc::new(ManualClock::at(BEFORE_DST_MS));
    let h = host(&db, clock.clone());
    assert_eq!(h.server_settings("guild").unwrap(), Default::default());
    h.set_game_master_role("guild", Some("role-9")).unwrap();
    assert!(h.add_game_channel("guild", "c2").unwrap());
    assert!(h.add_game_channel("guild", "c1").unwrap());
    assert!(!h.add_game_channel("guild", "c1").unwrap());
    assert!(h.remove_game_channel("guild", "c2").unwrap());
    assert!(!h.remove_game_channel("guild", "c2").unwrap());
    h.set_default_deadline("guild", "battle", Some(600))
        .unwrap();
    assert_eq!(
        h.set_default_ai_level("guild", "battle", Some("greedy"))
            .unwrap(),
        Some("greedy".to_string())
    );
    let daily = DailyDeadline::parse("20:00", "Europe/Berlin").unwrap();
    h.set_daily_deadline("guild", Some(daily)).unwrap();
    drop(h);

    let h = host(&db, clock);
    let s = h.server_settings("guild").unwrap();
    assert_eq!(s.game_master_role.as_deref(), Some("role-9"));
    assert_eq!(s.game_channels, vec!["c1".to_string()]);
    assert_eq!(
        s.kind_defaults,
        vec![KindDefaults {
            kind: "battle".into(),
            turn_seconds: Some(600),
            ai_level: Some("greedy".into()),
        }]
    );
    assert_eq!(s.daily_deadline, Some(daily));
    // Another server has none of it.
    assert_eq!(h.server_settings("other").unwrap(), Default::default());

    // Bad values are refused with what would do.
    let e = h
        .set_default_deadline("guild", "diplomacy", Some(60))
        .unwrap_err();
    assert!(e.to_string().contains("diplomacy"), "{e}");
    let e = h
        .set_default_ai_level("guild", "battle", Some("grandmaster"))
        .unwrap_err();
    assert!(e.to_string().contains("grandmaster"), "{e}");
    // Resetting both defaults of a kind leaves no row behind.
    h.set_default_deadline("guild", "battle", None).unwrap();
    h.set_default_ai_level("guild", "battle", None).unwrap();
    h.set_game_master_role("guild", None).unwrap();
    h.clear_game_channels("guild").unwrap();
    h.set_daily_deadline("guild", None).unwrap();
    assert_eq!(h.server_settings("guild").unwrap(), Default::default());
}

#[test]
fn games_are_created_only_in_listed_channels_with_the_servers_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        &dir.path().join("c.db"),
        Arc::new(ManualClock::at(BEFORE_DST_MS)),
    );
    // No list: every channel.
    h.create_game_in_server(request("battle", "anywhere", Some(300)), true)
        .unwrap();
    h.add_game_channel("guild", "c1").unwrap();
    h.add_game_channel("guild", "c2").unwrap();
    let e = h
        .create_game_in_server(request("battle", "elsewhere", Some(300)), true)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Games are not created in this channel on this server. Use `/game new` in <#c1> or \
         <#c2>. (A server manager changes this with `/settings channels`.)"
    );
    // The plain create_game is held to the list too.
    assert!(h.create_game(request("battle", "elsewhere", None)).is_err());
    // A game outside any server (the terminal) is not.
    let mut terminal = request("battle", "elsewhere", None);
    terminal.guild_id = None;
    h.create_game(terminal).unwrap();

    // The server's default deadline replaces the operator's unless the
    // creator chose one; its default AI level seats an AI named by none.
    h.set_default_deadline("guild", "battle", Some(900))
        .unwrap();
    h.set_default_ai_level("guild", "battle", Some("greedy"))
        .unwrap();
    let id = h
        .create_game_in_server(request("battle", "c1", Some(300)), false)
        .unwrap();
    assert_eq!(h.game(id).unwrap().turn_seconds, Some(900));
    h.add_ai(id, "u0", None, None).unwrap();
    let seats = h.seats(id).unwrap();
    assert_eq!(seats[1].display_name, "AI (greedy)");
    let chosen = h
        .create_game_in_server(request("battle", "c2", Some(300)), true)
        .unwrap();
    assert_eq!(h.game(chosen).unwrap().turn_seconds, Some(300));
}

#[test]
fn diplomacy_phases_end_at_the_daily_time_across_a_change_of_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(BEFORE_DST_MS));
    let h = host(&dir.path().join("d.db"), clock.clone());
    let daily = DailyDeadline::parse("20:00", "Europe/Berlin").unwrap();
    h.set_daily_deadline("guild", Some(daily)).unwrap();
    let id = h
        .create_game_in_server(request("diplomacy", "dip", Some(86_400)), false)
        .unwrap();
    // A creator who names a deadline keeps it: no daily time for that game.
    let spanned = h
        .create_game_in_server(request("diplomacy", "dip2", Some(86_400)), true)
        .unwrap();
    // Changing the setting later moves no game already created.
    h.set_daily_deadline("guild", Some(DailyDeadline::parse("06:00", "UTC").unwrap()))
        .unwrap();
    for game in [id, spanned] {
        for _ in 0..6 {
            h.add_ai(game, "u0", Some("hold"), None).unwrap();
        }
        h.start(game, "u0").unwrap();
    }
    // Opened 09:00 CET on the 28th: 20:00 that day is 11 h away, under the
    // 12 h a phase gets, so the phase ends at 20:00 CEST on the 29th, the
    // day clocks go forward: 18:00 UTC, 34 h after it opened (35 h on
    // the wall clock, which skipped an hour).
    let due = h.view(id, None).unwrap().deadline.unwrap();
    assert_eq!(due, BEFORE_DST_MS + 34 * 3_600_000);
    assert_eq!(due, daily.deadline_after(BEFORE_DST_MS));
    assert_eq!(
        h.view(spanned, None).unwrap().deadline,
        Some(BEFORE_DST_MS + 86_400_000)
    );

    // The reminder still comes, at a fifth of the phase left.
    clock.advance((due - BEFORE_DST_MS) * 4 / 5 + 1_000);
    let events = h.fire_due_deadlines().unwrap();
    assert!(
        events.contains(&host::DeadlineEvent::Reminded(id)),
        "{events:?}"
    );
    // The phase ends at the daily time, and the next opens with the next one:
    // opened 20:00 CEST on the 29th, it ends 20:00 CEST on the 30th.
    clock.advance(due - clock_now(&clock));
    h.fire_due_deadlines().unwrap();
    let next = h.view(id, None).unwrap().deadline.unwrap();
    assert_eq!(next, due + 24 * 3_600_000);
}

fn clock_now(clock: &ManualClock) -> i64 {
    use host::Clock;
    clock.now_ms()
}

#[test]
fn a_game_master_gives_a_seat_in_play_to_a_person_then_to_an_ai() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(BEFORE_DST_MS));
    let h = host(&dir.path().join("r.db"), clock.clone());
    let id = h
        .create_game_in_server(request("diplomacy", "dip", Some(86_400)), true)
        .unwrap();
    h.join(id, "u1", "Uma", None).unwrap();
    for _ in 0..5 {
        h.add_ai(id, "u0", Some("hold"), None).unwrap();
    }
    h.start(id, "u0").unwrap();
    // England (Uma, seat 2) has orders in, not final yet.
    h.submit(Some(id), "u1", "F Lon - Nth").unwrap();
    assert!(h.view(id, Some("u1")).unwrap().own_pending.is_some());
    let england = h.seat_by_name(id, "england").unwrap();
    let replaced = |who: &str| host::Replacement::User {
        id: who.into(),
        name: format!("Player {who}"),
    };
    // Ursula plays Austria: she cannot also take England.
    let e = h
        .replace_as_game_master(id, "Gemma", england, replaced("u0"))
        .unwrap_err();
    assert!(e.to_string().contains("already holds a seat"), "{e}");
    let role = h
        .replace_as_game_master(id, "Gemma", england, replaced("u9"))
        .unwrap();
    assert_eq!(role, "England");
    // The new player starts from nothing this phase; Uma is out.
    let view = h.view(id, Some("u9")).unwrap();
    assert_eq!(view.viewer_seat, Some(england));
    assert_eq!(
        view.own_pending, None,
        "Uma's unfinished orders are dropped"
    );
    assert_eq!(h.view(id, Some("u1")).unwrap().viewer_seat, None);
    let e = h.submit(Some(id), "u1", "F Lon - Eng");
    assert!(e.is_err(), "Uma no longer plays: {e:?}");
    // Then an AI of the server's default level; the phase goes on.
    h.replace_as_game_master(id, "Gemma", england, host::Replacement::Ai(None))
        .unwrap();
    let seats = h.seats(id).unwrap();
    assert!(
        matches!(&seats[england].occupant, store::Occupant::Ai(_)),
        "{seats:?}"
    );
    assert_eq!(
        h.game(id).unwrap().turn,
        0,
        "no turn was resolved or logged"
    );
    h.submit(Some(id), "u0", "done").unwrap();
    assert!(h.run_ai_turns(Some(id), 10).unwrap() >= 1);
    assert_eq!(
        h.game(id).unwrap().turn,
        1,
        "the AI finished England's phase"
    );
    // Every change was told in the channel, naming the game master.
    let told: Vec<String> = h
        .unsent(500)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.announcement.ok())
        .map(|a| a.text)
        .filter(|t| t.starts_with("The game master Gemma"))
        .collect();
    assert_eq!(
        told,
        vec![
            "The game master Gemma gave England (Uma's until now) to Player u9 in diplomacy #1.",
            "The game master Gemma gave England (Player u9's until now) to AI (default) in diplomacy #1.",
        ]
    );
}
