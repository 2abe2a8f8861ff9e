//! Maps an operator installs (issue 36): a map file (rules and geometry)
//! named in `[diplomacy] maps` is checked at start-up and played by id
//! (`map=<id>`); a creator can name only an installed or bundled map,
//! never a file; a broken file stops start-up in one line naming it.
//! The real binary, through the terminal, reading what a player reads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn twin_isles() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diplomacy_twin_isles.txt")
}

fn gamehost(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamehost"));
    c.env_remove("DISCORD_TOKEN")
        .env_remove("GAMEHOST_DISCORD_TOKEN")
        .env_remove("GAMEHOST_CONFIG")
        .env_remove("GAMEHOST_DIPLOMACY_MAPS")
        .env_remove("RUST_LOG")
        .current_dir(dir);
    c
}

/// A config installing `maps`.
fn config_with(dir: &Path, maps: &[&Path]) -> PathBuf {
    let config = dir.join("gamehost.toml");
    let list: Vec<String> = maps
        .iter()
        .map(|p| format!("{:?}", p.display().to_string()))
        .collect();
    std::fs::write(
        &config,
        format!("[diplomacy]\nmaps = [{}]\n", list.join(", ")),
    )
    .unwrap();
    config
}

/// `play diplomacy` with `options` against the `hold` AI, typing `input`.
fn play(dir: &Path, config: &Path, options: &str, input: &str) -> Output {
    let mut child = gamehost(dir)
        .arg("--config")
        .arg(config)
        .args([
            "play",
            "diplomacy",
            "--vs",
            "hold",
            "--seed",
            "4",
            "--options",
            options,
        ])
        .arg("--db")
        .arg(dir.join("t.db"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    // A run refused at start-up (a broken map) may exit before it reads
    // its input: the pipe is then closed, which is no failure of the test.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_map_accepts_a_map_with_rules_and_geometry_in_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = gamehost(dir.path())
        .args(["diplomacy", "check-map"])
        .arg(twin_isles())
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "The map `twin_isles` (Twin Isles) is valid: 2 powers (Red, Blue), 2 starting units, \
             first year 1950, 2 centres to win; 4 provinces (3 supply centres, 2 of them home centres)"
        ),
        "{stdout}"
    );
}

/// A whole game on the installed map, through the terminal: Red marches
/// on the neutral centre and holds two of the three centres after the
/// first Fall, which wins on this map.
#[test]
fn an_installed_map_is_played_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with(dir.path(), &[&twin_isles()]);
    let out = play(
        dir.path(),
        &config,
        "map=twin_isles",
        "A Alba - Cay\ndone\ndone\nquit\n",
    );
    let (stdout, stderr) = texts(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("you are Red"), "{stdout}");
    assert!(stdout.contains("Spring 1950"), "{stdout}");
    assert!(
        stdout.contains("A Aaa - Ccc") || stdout.contains("A Alb - Cay"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Red controls 2 centres and wins!"),
        "{stdout}"
    );
    for standard in ["Austria", "Vienna", "1901"] {
        assert!(!stdout.contains(standard), "{standard} in\n{stdout}");
    }
}

/// `map=` names a map by id: an unknown id or a path is refused with the
/// maps there are, and no file is read.
#[test]
fn a_creator_can_name_only_an_installed_map() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with(dir.path(), &[&twin_isles()]);
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "map stolen Hunter2 secret\n").unwrap();
    for wanted in [
        "atlantis".to_string(),
        "/etc/passwd".to_string(),
        secret.display().to_string(),
        "../tests/data/diplomacy_twin_isles.txt".to_string(),
    ] {
        let out = play(dir.path(), &config, &format!("map={wanted}"), "quit\n");
        let (stdout, stderr) = texts(&out);
        let all = format!("{stdout}{stderr}");
        assert!(!out.status.success(), "{wanted}: accepted\n{all}");
        assert!(
            all.contains("is not a map on this server"),
            "{wanted}: {all}"
        );
        assert!(
            all.contains("`standard` (Standard)") && all.contains("`twin_isles` (Twin Isles)"),
            "{wanted}: {all}"
        );
        assert!(!all.contains("Hunter2") && !all.contains("root:"), "{all}");
    }
    // Without the config the map is not there.
    let bare = dir.path().join("bare.toml");
    std::fs::write(&bare, "").unwrap();
    let out = play(dir.path(), &bare, "map=twin_isles", "quit\n");
    let all = format!("{}{}", texts(&out).0, texts(&out).1);
    assert!(
        !out.status.success() && all.contains("is not a map on this server"),
        "{all}"
    );
}

/// A broken map file stops start-up in one line that names the file, the
/// first problem and the command listing them all.
#[test]
fn a_broken_map_file_stops_start_up_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(twin_isles()).unwrap();
    let one_way = dir.path().join("one_way.txt");
    std::fs::write(&one_way, text.replace("army alb: bra cay", "army alb: cay")).unwrap();
    let no_geometry = dir.path().join("rules_only.txt");
    let rules: String = text
        .lines()
        .take_while(|l| !l.starts_with("# Geometry"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&no_geometry, rules).unwrap();
    let clash = dir.path().join("clash.txt");
    std::fs::write(
        &clash,
        text.replace("map twin_isles Twin Isles", "map standard Mine"),
    )
    .unwrap();
    for (file, expected) in [
        (one_way.as_path(), "listed one way only"),
        (no_geometry.as_path(), "no geometry"),
        (clash.as_path(), "the id `standard` is taken"),
        (Path::new("/dev/zero"), "a device"),
        (dir.path(), "a directory"),
    ] {
        let config = config_with(dir.path(), &[file]);
        let out = play(dir.path(), &config, "", "quit\n");
        let (stdout, stderr) = texts(&out);
        assert!(
            !out.status.success(),
            "{}: started\n{stdout}",
            file.display()
        );
        assert!(
            stderr.contains("[diplomacy] maps") && stderr.contains(expected),
            "{}: {stderr}",
            file.display()
        );
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
}

/// A file of a hundred thousand `variant` (or `power`) lines is refused at
/// the first one past the limit, at once, instead of comparing every pair;
/// a variant may not take the name every map has.
#[test]
fn check_map_stops_at_the_limits_of_a_map_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(twin_isles()).unwrap();
    let variants: String = (0..100_000)
        .map(|i| format!("variant v{i} Red,Blue Variant {i}\n"))
        .collect();
    let powers: String = (0..100_000)
        .map(|i| format!("power P{i} #000000\n"))
        .collect();
    for (name, extra, expected) in [
        ("variants.txt", variants, "more than 32 variants"),
        ("powers.txt", powers, "more than 16 powers"),
        (
            "fog.txt",
            "variant fog Red,Blue Mine\n".to_string(),
            "not `classic` or `fog`",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{text}{extra}")).unwrap();
        let out = gamehost(dir.path())
            .args(["diplomacy", "check-map"])
            .arg(&path)
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&out);
        assert!(!out.status.success(), "{name}: accepted");
        assert!(stdout.contains(expected), "{name}: {stdout}{stderr}");
    }
}
