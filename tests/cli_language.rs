//! The errors an operator meets first — no token, a config problem, a
//! database refused — follow the environment's language (`LC_ALL`,
//! `LC_MESSAGES`, `LANG`), through the real binary: Japanese under a
//! Japanese locale, the English unchanged otherwise, the setting at fault
//! named either way and the token never shown.

use std::path::Path;
use std::process::{Command, Output};

/// The token the tests set, which no output may show.
const TOKEN: &str = "MTIzNDU2Nzg5.secret-token-for-tests";

/// The binary in `dir` with no setting of the developer's own and the
/// locale given as `(variable, value)` pairs.
fn gamehost(dir: &Path, locale: &[(&str, &str)]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    for var in [
        "DISCORD_TOKEN",
        "GAMEHOST_DISCORD_TOKEN",
        "GAMEHOST_CONFIG",
        "GAMEHOST_DATABASE_PATH",
        "RUST_LOG",
        "LC_ALL",
        "LC_MESSAGES",
        "LANG",
        "LANGUAGE",
    ] {
        c.env_remove(var);
    }
    c.envs(locale.iter().copied()).current_dir(dir);
    c
}

const JA: &[(&str, &str)] = &[("LANG", "ja_JP.UTF-8")];
const EN: &[(&str, &str)] = &[];

/// The one line on stderr of a run that failed with exit code 1.
fn failure(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "stdout: {stdout}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("gamehost: "), "{stderr}");
    stderr.trim_end().to_string()
}

/// Whether a line holds a run of English words (the Japanese lines may
/// quote keys, paths, values and commands, never a sentence).
fn has_english_sentence(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2)
        .collect();
    ["cannot", "expected", "is not", "refused", "not found"]
        .iter()
        .any(|english| line.contains(english))
        || words.windows(4).any(|w| {
            w.iter()
                .all(|word| word.chars().all(|c| c.is_ascii_lowercase()))
                && line.contains(&w.join(" "))
        })
}

fn run(dir: &Path, locale: &[(&str, &str)], env: &[(&str, &str)], args: &[&str]) -> String {
    failure(
        &gamehost(dir, locale)
            .envs(env.iter().copied())
            .args(args)
            .output()
            .unwrap(),
    )
}

#[test]
fn no_token_is_said_in_the_environments_language() {
    let dir = tempfile::tempdir().unwrap();
    let english = "gamehost: no Discord token: set the DISCORD_TOKEN environment variable or \
                   `[discord] token` in the config file. To play without Discord, try \
                   `gamehost play cards --vs ai`.";
    for locale in [
        EN,
        &[("LANG", "C")],
        &[("LANG", "fr_FR.UTF-8")],
        &[("LC_ALL", "C"), ("LANG", "ja_JP.UTF-8")],
    ] {
        assert_eq!(
            run(dir.path(), locale, &[], &["run"]),
            english,
            "{locale:?}"
        );
    }
    let japanese = "gamehost: Discord のボットのトークンが設定されていません。環境変数 \
                    DISCORD_TOKEN か、設定ファイルの `[discord] token` に設定してください。\
                    Discord を使わずに遊ぶなら `gamehost play cards --vs ai` を試してください。";
    for locale in [
        JA,
        &[("LANG", "ja_JP.eucJP")],
        &[("LC_MESSAGES", "ja_JP.UTF-8"), ("LANG", "en_US.UTF-8")],
        &[("LC_ALL", "ja"), ("LANG", "C")],
    ] {
        assert_eq!(
            run(dir.path(), locale, &[], &["run"]),
            japanese,
            "{locale:?}"
        );
    }
    assert!(
        !dir.path().join("gamehost.db").exists(),
        "a refused start made a database"
    );
}

#[test]
fn a_config_value_of_the_wrong_type_names_its_key_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.toml"), "[ai]\nbudget_ms = \"soon\"\n").unwrap();
    let args = ["--config", "g.toml", "check"];
    assert_eq!(
        run(dir.path(), EN, &[], &args),
        "gamehost: config g.toml: key `ai.budget_ms`: expected a whole number of milliseconds, \
         got string \"soon\""
    );
    let line = run(dir.path(), JA, &[], &args);
    assert_eq!(
        line,
        "gamehost: 設定ファイル g.toml: キー `ai.budget_ms`: ミリ秒単位の整数を指定してください\
         （指定された値: 文字列 \"soon\"）"
    );
    for (file, says) in [
        (
            "[database\npath = 1\n",
            "TOML の書き方に誤りがあります（1 行目、",
        ),
        (
            "[database]\npaht = \"x\"\n",
            "`paht` は [database] の設定項目ではありません。[database] の設定項目は `path`、",
        ),
        (
            "[databse]\n",
            "`databse` というセクションはありません。セクションは `database`、`discord`、",
        ),
        (
            "[deadlines]\ntimeout_policy = \"pray\"\n",
            "キー `deadlines.timeout_policy`: `pray` というタイムアウト時の扱いはありません。default、ai、forfeit のどれかを指定してください",
        ),
        (
            "[log]\nlevel = \"verbose\"\n",
            "`verbose` にはログレベルがありません。error、warn、info、debug、trace、off のどれかを指定してください。",
        ),
        (
            "[backup]\nevery = \"6 hours\"\n",
            "`6 hours` は時間の長さとして読めません。",
        ),
        (
            "[discord]\nguild_id = true\n",
            "整数を指定してください（指定された値: 真偽値 true）",
        ),
    ] {
        std::fs::write(dir.path().join("g.toml"), file).unwrap();
        let line = run(dir.path(), JA, &[], &args);
        assert!(
            line.starts_with("gamehost: 設定ファイル g.toml: "),
            "{file}: {line}"
        );
        assert!(line.contains(says), "{file}: {line}");
        // toml's own description of a syntax error stays as toml says it.
        if !says.starts_with("TOML") {
            assert!(!has_english_sentence(&line), "{file}: {line}");
        }
    }
}

#[test]
fn a_bad_environment_variable_is_named_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let env = [("GAMEHOST_AI_BUDGET_MS", "fast")];
    assert_eq!(
        run(dir.path(), EN, &env, &["check"]),
        "gamehost: GAMEHOST_AI_BUDGET_MS=fast: expected a whole number of milliseconds"
    );
    assert_eq!(
        run(dir.path(), JA, &env, &["check"]),
        "gamehost: 環境変数 GAMEHOST_AI_BUDGET_MS=fast: ミリ秒単位の整数を指定してください"
    );
    for (var, value, says) in [
        (
            "GAMEHOST_DATABSE_PATH",
            "x.db",
            "環境変数 GAMEHOST_DATABSE_PATH=x.db: `databse` という設定のセクションはありません。\
             環境変数の名前は GAMEHOST_<SECTION>_<KEY> の形で、<SECTION> は database、discord、",
        ),
        (
            "GAMEHOST_DISCORD_REQUESTS_PER_SECOND",
            "50",
            "環境変数 GAMEHOST_DISCORD_REQUESTS_PER_SECOND=50: 0（既定値の 40）か、1 から 45 までの数を指定してください。",
        ),
    ] {
        let line = run(dir.path(), JA, &[(var, value)], &["check"]);
        assert!(line.contains(says), "{line}");
        assert!(!has_english_sentence(&line), "{line}");
    }
}

/// Neither a token in the file nor one in the environment shows in a
/// Japanese error, whatever is wrong around it.
#[test]
fn the_token_never_shows_in_japanese_either() {
    let dir = tempfile::tempdir().unwrap();
    for file in [
        format!("[discord]\ntoken = [\"{TOKEN}\"]\n"),
        format!("[discord]\ntoken = \"{TOKEN}\n"),
        format!("[discord]\ntoken = \"{TOKEN}\"\nguild_id = \"{TOKEN}\"\n"),
        format!("[discord]\ntoken = \"{TOKEN}\"\n{TOKEN}\n"),
    ] {
        std::fs::write(dir.path().join("g.toml"), &file).unwrap();
        let line = run(dir.path(), JA, &[], &["--config", "g.toml", "check"]);
        assert!(line.contains("設定ファイル g.toml"), "{line}");
        assert!(!line.contains(TOKEN), "token shown for {file:?}: {line}");
    }
    for var in ["DISCORD_TOKEN", "GAMEHOST_DISCORD_TOKEN"] {
        let line = run(
            dir.path(),
            JA,
            &[(var, TOKEN), ("GAMEHOST_LOG_LEVEL", TOKEN)],
            &["check"],
        );
        assert!(line.contains("環境変数 GAMEHOST_LOG_LEVEL"), "{line}");
        assert!(!line.contains(TOKEN), "token shown via {var}: {line}");
    }
}

#[test]
fn a_config_file_that_cannot_be_read_is_said_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let line = run(dir.path(), JA, &[], &["--config", "nope.toml", "check"]);
    assert_eq!(
        line,
        "gamehost: 設定ファイル nope.toml が見つかりません（config.example.toml をそこにコピーするか、\
         --config を付けずに実行してください）"
    );
    std::fs::create_dir(dir.path().join("folder.toml")).unwrap();
    let line = run(dir.path(), JA, &[], &["--config", "folder.toml", "check"]);
    assert_eq!(
        line,
        "gamehost: 設定ファイル folder.toml: フォルダで、通常のファイルではありません。\
         ファイルそのもののパスを指定してください"
    );
}

#[test]
fn a_database_that_cannot_be_opened_is_said_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/g.db");
    let env = [("GAMEHOST_DATABASE_PATH", missing.to_str().unwrap())];
    let english = run(dir.path(), EN, &env, &["play", "cards"]);
    assert!(
        english.starts_with(&format!(
            "gamehost: cannot open the database {}: ",
            missing.display()
        )) && english.contains("unable to open database file"),
        "{english}"
    );
    let line = run(dir.path(), JA, &env, &["play", "cards"]);
    assert_eq!(
        line,
        format!(
            "gamehost: データベース {} を開けません: データベースのエラー: データベースのファイルを開けません。\
             フォルダがあるか、読み書きの権限があるか確かめてください",
            missing.display()
        )
    );
    let line = run(dir.path(), JA, &env, &["check"]);
    assert_eq!(
        line,
        format!("gamehost: {} にデータベースがありません", missing.display())
    );
}

#[test]
fn a_database_from_a_newer_gamehost_is_said_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER); PRAGMA user_version = 99;")
        .unwrap();
    drop(conn);
    let known = store::schema_version_known();
    let env = [("GAMEHOST_DATABASE_PATH", db.to_str().unwrap())];
    assert_eq!(
        run(dir.path(), EN, &env, &["play", "cards"]),
        format!(
            "gamehost: cannot open the database {}: the database {} has schema version 99, newer \
             than the {known} this gamehost knows; upgrade gamehost or use another database",
            db.display(),
            db.display()
        )
    );
    assert_eq!(
        run(dir.path(), JA, &env, &["play", "cards"]),
        format!(
            "gamehost: データベース {} を開けません: データベース {} は、この gamehost より新しい \
             gamehost で書かれています（スキーマのバージョンが 99 で、この gamehost が扱えるのは \
             {known} までです）。gamehost を更新するか、別のデータベースを使ってください",
            db.display(),
            db.display()
        )
    );
    let line = run(dir.path(), JA, &env, &["check"]);
    assert!(
        line.contains("のスキーマのバージョンは 99 で")
            && line.contains("確認するには gamehost を更新してください"),
        "{line}"
    );
}

/// `run` refuses a database another `gamehost run` holds, and an empty
/// file, in the operator's language.
#[test]
fn a_database_in_use_or_empty_is_said_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let env = [
        ("GAMEHOST_DATABASE_PATH", db.to_str().unwrap()),
        ("DISCORD_TOKEN", TOKEN),
    ];
    std::fs::write(&db, "").unwrap();
    let line = run(dir.path(), JA, &env, &["run"]);
    assert!(
        line.starts_with(&format!(
            "gamehost: データベース {} は空のファイルで、",
            db.display()
        )) && line.contains("バックアップを復元するか"),
        "{line}"
    );
    std::fs::write(&db, "not yet a database").unwrap();
    let held = std::fs::File::open(&db).unwrap();
    held.lock().unwrap();
    let english = run(dir.path(), EN, &env, &["run"]);
    assert_eq!(
        english,
        format!(
            "gamehost: start refused: another gamehost process is running on {}; one process per \
             SQLite file (several processes share a PostgreSQL database)",
            db.display()
        )
    );
    let line = run(dir.path(), JA, &env, &["run"]);
    assert_eq!(
        line,
        format!(
            "gamehost: 起動できません。別の gamehost のプロセスが {} で動いています。SQLite のファイル \
             1 つにつき、動かせるプロセスは 1 つです（複数のプロセスで 1 つのデータベースを使うには \
             PostgreSQL を使ってください）",
            db.display()
        )
    );
    for out in [&english, &line] {
        assert!(!out.contains(TOKEN), "{out}");
    }
}
