//! Abuse limits through the host: oversized messages and users who are not
//! seated are refused with a clear sentence, and nothing is recorded.

mod support;

use host::ManualClock;
use std::sync::Arc;
use store::TimeoutPolicy;
use support::rps::{host_at, new_rps};

#[test]
fn oversized_messages_and_strangers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), Arc::new(ManualClock::at(1_000)));
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    host.join(id, "bob", "Bob", None).unwrap();
    host.start(id, "alice").unwrap();

    let huge = "rock ".repeat(10_000);
    let err = host.submit(Some(id), "alice", &huge).unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("at most 200 characters"), "{err}");
    assert_eq!(host.own_pending(id, "alice").unwrap(), None);

    let err = host.submit(Some(id), "mallory", "rock").unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains("not playing"), "{err}");

    // Exactly at the limit is still parsed (and refused only as a bad move).
    let err = host
        .submit(Some(id), "alice", &"r".repeat(200))
        .unwrap_err();
    assert!(!err.to_string().contains("at most"), "{err}");
    host.submit(Some(id), "alice", "rock").unwrap();
    assert!(host.own_pending(id, "alice").unwrap().is_some());
}

/// A game's creator cannot name a server file as the battle roster (the bot
/// would read it and could quote it in an error): no battle option names a
/// file, and options that are not a JSON object (serde would read a struct
/// from an array by position) are refused before anything is read.
#[test]
fn creators_cannot_set_operator_only_options() {
    use host::Registry;

    let dir = tempfile::tempdir().unwrap();
    let host = support::host_builder::host_on(
        &dir.path().join("g.db"),
        Registry::standard(),
        Arc::new(ManualClock::at(1_000)),
        support::host_builder::settings(50, 20),
    );
    let mut req = new_rps("c1", None, TimeoutPolicy::Default);
    req.kind = "battle".into();
    req.options = serde_json::json!({"roster": "/etc/passwd", "team_size": 2});
    let err = host.create_game(req.clone()).unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(
        err.to_string()
            .contains("`roster` is not an option of battle"),
        "{err}"
    );
    assert!(!err.to_string().contains("root"), "{err}");
    for positional in [
        serde_json::json!([3, null, "/etc/passwd", false, null]),
        serde_json::json!(["/etc/passwd"]),
        serde_json::json!("/etc/passwd"),
        serde_json::json!(3),
    ] {
        req.options = positional.clone();
        let err = host.create_game(req.clone()).unwrap_err();
        assert!(err.is_user_error(), "{positional}: {err}");
        assert!(
            err.to_string().contains("JSON object"),
            "{positional}: {err}"
        );
        assert!(!err.to_string().contains("root"), "{err}");
    }
    assert!(host.list_games(None, &[], 10).unwrap().is_empty());

    // A misspelt key is refused with the keys the game knows.
    req.options = serde_json::json!({"team_sise": 2});
    let err = host.create_game(req.clone()).unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(
        err.to_string()
            .contains("`team_sise` is not an option of battle"),
        "{err}"
    );
    assert!(err.to_string().contains("`team_size`"), "{err}");

    req.options = serde_json::json!({"team_size": 2});
    host.create_game(req).unwrap();
}

/// A seat name a player types is quoted back in short, however long.
#[test]
fn a_huge_seat_name_is_quoted_back_in_short() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_at(&dir.path().join("g.db"), Arc::new(ManualClock::at(1_000)));
    let id = host
        .create_game(new_rps("c1", None, TimeoutPolicy::Default))
        .unwrap();
    let err = host
        .seat_by_name(id, &"x".repeat(100_000))
        .unwrap_err()
        .to_string();
    assert!(err.contains("is not a seat"), "{err}");
    assert!(err.len() < 300, "{} chars", err.len());
    let err = host
        .add_ai(id, "alice", Some(&"x".repeat(100_000)), None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("There is no AI level"), "{err}");
    assert!(err.len() < 300, "{} chars", err.len());
}

/// An AI level with a parameter is accepted only when the engine plays it
/// as written: `mc:500` where `mc:1000` is offered, but not a battle level
/// kept for tournaments (`duct`) nor a mistyped puzzle tuning key, which
/// would otherwise be stored and played as the plain default.
#[test]
fn ai_levels_with_parameters_are_checked_by_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let host = support::host_builder::standard_host(&dir.path().join("g.db"));
    for (kind, level) in [
        ("battle", "mc:500"),
        ("battle", "default:5000"),
        ("battle", "Greedy"),
        ("puzzle", "default:8"),
        ("puzzle", "default:classic"),
        ("puzzle", "default:beam=3/s3=4"),
    ] {
        let got = host.check_ai_level(kind, level);
        assert!(got.is_ok(), "{kind} {level}: {got:?}");
    }
    // Names no offered level starts with: the list of levels is the answer.
    for (kind, level) in [("battle", "duct"), ("battle", "search:5000")] {
        let err = host.check_ai_level(kind, level).unwrap_err();
        assert!(err.is_user_error(), "{kind} {level}: {err}");
        let text = err.to_string();
        assert!(text.contains("There is no AI level"), "{text}");
        assert!(text.contains("Levels: default"), "{text}");
    }
    // An offered level with a parameter the engine refuses: its reason too.
    for (kind, level, says) in [
        (
            "battle",
            "mc:lots",
            "must be a whole number above 0, as in `mc:500`",
        ),
        ("battle", "greedy:3", "`greedy` takes no number"),
        ("puzzle", "default:bogus=1", "`bogus` is not a parameter"),
        (
            "puzzle",
            "default:second=nan",
            "the value must be a finite number",
        ),
        ("puzzle", "greedy:2", "`greedy` takes no parameter"),
    ] {
        let err = host.check_ai_level(kind, level).unwrap_err();
        assert!(err.is_user_error(), "{kind} {level}: {err}");
        let text = err.to_string();
        assert!(
            text.contains(&format!("The AI level `{level}` is refused:")),
            "{text}"
        );
        assert!(text.contains(says), "{text}");
        assert!(text.contains("Levels: default"), "{text}");
    }
}
