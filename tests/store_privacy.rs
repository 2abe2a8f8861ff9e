//! Forgetting a person on request (`/privacy delete`, issue 34) leaves no
//! trace of their id or name in any column of any table, on either back end
//! (`GAMEHOST_TEST_STORE=postgres` runs it on PostgreSQL): the scan reads
//! every table the schema has, so a table added later is covered too.
//! Finished games keep their results under "Former player"; a running game
//! is forfeited and goes on to its end without ever rating the forgotten
//! seat; a lobby they created is closed, one they sat in is left.

#[path = "support/host_builder.rs"]
mod host_builder;

use host::{GameStatus, Host, HostSettings, ManualClock, NewGame, Occupant, TimeoutPolicy};
use std::sync::Arc;

/// A Discord-like id and a name found nowhere else.
const ZED: &str = "1000000000000000077";
const ZED_NAME: &str = "Zephyrine";

fn request(channel: &str, creator: &str, name: &str) -> NewGame {
    NewGame {
        kind: "diplomacy".into(),
        guild_id: None,
        channel_id: channel.into(),
        creator_id: creator.into(),
        creator_name: name.into(),
        options: serde_json::json!({ "end_year": 1901 }),
        seed: Some(3),
        turn_seconds: Some(3600),
        timeout_policy: TimeoutPolicy::Default,
        creator_plays: true,
    }
}

/// Zed and Bob against five holding AIs, started.
fn zed_and_bob(host: &Host, channel: &str) -> i64 {
    let id = host.create_game(request(channel, ZED, ZED_NAME)).unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    for _ in 2..7 {
        host.add_ai(id, ZED, Some("hold"), None).unwrap();
    }
    host.start(id, ZED).unwrap();
    id
}

/// Plays phases (the people in `skip` miss their deadline) until the game ends.
fn play_out(host: &Host, clock: &ManualClock, id: i64, skip: &[&str]) {
    for _ in 0..10 {
        if host.game(id).unwrap().status != GameStatus::Running {
            return;
        }
        host_builder::phase_missing(host, clock, id, skip);
    }
    panic!("game {id} did not end after 1901");
}

#[test]
fn a_forgotten_person_is_in_no_column_and_their_games_keep_their_results() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_800_000_000_000));
    let host = host_builder::diplomacy_host(
        &dir.path().join("g.db"),
        clock.clone(),
        HostSettings::default(),
    );
    host.set_rate_ai_seats(None, true).unwrap();
    host.remember_dm_channel(ZED, "2000000000000000001")
        .unwrap();
    // A rating of Zed's (games with AI seats of this test end unrated).
    host.store()
        .write(|tx| {
            tx.upsert_rating(&store::RatingRow {
                scope: "guild-1".into(),
                kind: "cards".into(),
                player: ZED.into(),
                rating: 1600.0,
                deviation: 80.0,
                volatility: 0.06,
                games: 5,
                updated_at: 1,
            })
        })
        .unwrap();

    // A finished game, Zed missing a deadline in it.
    let finished = zed_and_bob(&host, "c1");
    play_out(&host, &clock, finished, &[ZED]);
    // A running game with an absence and a pause vote.
    let running = zed_and_bob(&host, "c2");
    host.declare_away(running, ZED, 1).unwrap();
    host.pause_game(running, ZED).unwrap();
    // A lobby Zed created (Carol waits in it) and one Zed sits in.
    let own_lobby = host.create_game(request("c3", ZED, ZED_NAME)).unwrap();
    host.join(own_lobby, "carol", "Carol", None).unwrap();
    let bobs_lobby = host.create_game(request("c4", "bob", "Bob")).unwrap();
    host.join(bobs_lobby, ZED, ZED_NAME, None).unwrap();

    let before = host.privacy_summary(ZED).unwrap();
    assert_eq!(before.running.len(), 1);
    assert_eq!(before.lobbies.len(), 2);
    assert_eq!(before.counts.ended_games, 1);
    assert_eq!(before.counts.ratings, 1);
    assert!(before.counts.player_events > 0, "{:?}", before.counts);
    assert_eq!(before.counts.absences, 1);
    assert_eq!(before.counts.pause_votes, 1);
    assert!(before.counts.dm_channel);
    assert!(!host.store().columns_containing(ZED).unwrap().is_empty());

    let done = host.forget_user(ZED, &[ZED_NAME.to_string()]).unwrap();
    assert_eq!(done.forfeited, [format!("diplomacy #{running}")]);
    assert_eq!(done.closed, [format!("diplomacy #{own_lobby}")]);
    assert_eq!(done.left, [format!("diplomacy #{bobs_lobby}")]);

    // The running game goes on to its end without Zed's seat being rated.
    play_out(&host, &clock, running, &[]);
    for needle in [ZED, ZED_NAME] {
        assert_eq!(
            host.store().columns_containing(needle).unwrap(),
            Vec::<(String, i64)>::new(),
            "{needle} is still stored"
        );
    }
    assert!(host.privacy_summary(ZED).unwrap().is_empty());
    assert!(
        host.store()
            .columns_containing("forgotten:")
            .unwrap()
            .iter()
            .all(|(c, _)| !c.starts_with("ratings.")),
        "a forgotten seat was rated"
    );

    // The finished game keeps Zed's result, under the anonymous name.
    let seats = host.seats(finished).unwrap();
    let former = seats
        .iter()
        .find(|s| s.display_name == host::FORMER_PLAYER)
        .expect("a seat named Former player");
    assert!(matches!(&former.occupant, Occupant::User(u) if host::is_forgotten(u)));
    let history = host.history(finished, None, None).unwrap();
    assert!(!format!("{history:?}").contains(ZED_NAME));
    // The lobbies: Zed's is closed, Bob's still waits with Bob alone.
    assert_eq!(host.game(own_lobby).unwrap().status, GameStatus::Aborted);
    let left = host.seats(bobs_lobby).unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].display_name, "Bob");
}

/// How many times `needle` stands in the bytes of `file` (0 for no file).
fn occurrences(file: &std::path::Path, needle: &str) -> usize {
    let Ok(bytes) = std::fs::read(file) else {
        return 0;
    };
    bytes
        .windows(needle.len())
        .filter(|w| *w == needle.as_bytes())
        .count()
}

/// The files that hold the database's data: on SQLite the file and its
/// write-ahead log; on PostgreSQL every table's and index's relation files
/// (after a checkpoint, so what is in the server's memory is in them), or
/// `None` when this process cannot read the server's data directory.
fn database_files(db: &std::path::Path) -> Option<Vec<std::path::PathBuf>> {
    if !host_builder::on_postgres() {
        let wal = std::path::PathBuf::from(format!("{}-wal", db.display()));
        return Some(vec![db.to_path_buf(), wal]);
    }
    let mut client = store::connect_postgres(&host_builder::pg_database_for(db)).ok()?;
    client.batch_execute("CHECKPOINT").ok()?;
    let data_dir: String = client
        .query_one("SELECT current_setting('data_directory')", &[])
        .ok()?
        .get(0);
    let files: Vec<std::path::PathBuf> = client
        .query(
            "SELECT pg_relation_filepath(c.oid) FROM pg_class c \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname IN ('public', 'pg_toast') AND c.relkind IN ('r', 'i', 't') \
             AND pg_relation_filepath(c.oid) IS NOT NULL",
            &[],
        )
        .ok()?
        .iter()
        .map(|r| std::path::Path::new(&data_dir).join(r.get::<_, String>(0)))
        .collect();
    let readable = files.iter().any(|f| std::fs::File::open(f).is_ok());
    readable.then_some(files)
}

/// Issue 46: after forgetting, the raw database files (SQLite: the file
/// and its write-ahead log, while the bot runs and after it stops;
/// PostgreSQL: the relation files) hold the person's id and name nowhere,
/// not even in free space, where they stood many times before.
#[test]
fn a_forgotten_person_is_gone_from_the_raw_database_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("raw.db");
    let clock = Arc::new(ManualClock::at(1_800_000_000_000));
    let host = host_builder::diplomacy_host(&db, clock.clone(), HostSettings::default());
    host.remember_dm_channel(ZED, "2000000000000000001")
        .unwrap();
    // Two finished games and a running one, so Zed's id and name went
    // through many rows (seats, outbox items sent and deleted, reports).
    for channel in ["r1", "r2"] {
        let id = zed_and_bob(&host, channel);
        play_out(&host, &clock, id, &[ZED]);
    }
    let running = zed_and_bob(&host, "r3");
    // Delivered announcements are deleted rows: free space that held Zed.
    for item in host.unsent(1000).unwrap() {
        host.mark_sent(item.id).unwrap();
    }
    let Some(files) = database_files(&db) else {
        eprintln!("the PostgreSQL server's data files cannot be read here: raw check skipped");
        return;
    };
    let count = |needle: &str| files.iter().map(|f| occurrences(f, needle)).sum::<usize>();
    assert!(
        count(ZED) > 0 && count(ZED_NAME) > 0,
        "the test stores Zed first"
    );

    host.forget_user(ZED, &[ZED_NAME.to_string()]).unwrap();
    let files = database_files(&db).unwrap();
    let count = |needle: &str| files.iter().map(|f| occurrences(f, needle)).sum::<usize>();
    for needle in [ZED, ZED_NAME] {
        let holding: Vec<_> = files
            .iter()
            .filter(|f| occurrences(f, needle) > 0)
            .collect();
        assert_eq!(count(needle), 0, "{needle} is still in {holding:?}");
    }
    // The game Zed forfeited goes on; nothing brings Zed back.
    play_out(&host, &clock, running, &[]);
    drop(host);
    if !host_builder::on_postgres() {
        for needle in [ZED, ZED_NAME] {
            assert_eq!(occurrences(&db, needle), 0, "{needle} in the stopped file");
        }
    }
}
