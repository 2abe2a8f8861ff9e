//! The standard map data: counts, centres, coasts and symmetry.

use games::diplomacy::geo::{Map, Terrain};

#[test]
fn province_and_edge_counts() {
    let m = Map::standard();
    let provs = m.provinces();
    assert_eq!(provs.len(), 76, "75 provinces + Switzerland");
    let count = |t: Terrain| provs.iter().filter(|p| p.terrain == t).count();
    assert_eq!(count(Terrain::Sea), 19);
    assert_eq!(count(Terrain::Land), 14);
    assert_eq!(count(Terrain::Coast), 42);
    assert_eq!(count(Terrain::Impassable), 1);
    assert_eq!(m.army_edge_count(), 111);
    assert_eq!(m.fleet_edge_count(), 141);
    assert_eq!(m.location_count(), 82, "76 provinces + 6 split coasts");
}

#[test]
fn supply_centres_and_homes() {
    let m = Map::standard();
    assert_eq!(m.supply_centres().count(), 34);
    let homes: Vec<usize> = m.powers().map(|p| m.home_centres(p).count()).collect();
    assert_eq!(homes, vec![3, 3, 3, 3, 3, 4, 3]);
    let neutral = m
        .provinces()
        .iter()
        .filter(|p| p.sc && p.home.is_none())
        .count();
    assert_eq!(neutral, 12);
}

#[test]
fn split_coasts() {
    let m = Map::standard();
    for (p, n) in [("spa", 2), ("stp", 2), ("bul", 2), ("par", 0), ("por", 0)] {
        let id = m.prov_by_abbr(p).unwrap();
        assert_eq!(m.prov(id).coasts.len(), n, "{p}");
    }
    let l = |s: &str| m.loc_by_abbr(s).unwrap();
    // Spain: north coast touches Gascony, south coast touches Marseilles.
    assert!(m.fleet_adj(l("spa/nc")) & (1u128 << l("gas")) != 0);
    assert!(m.fleet_adj(l("spa/sc")) & (1u128 << l("gas")) == 0);
    assert!(m.fleet_adj(l("spa/sc")) & (1u128 << l("mar")) != 0);
    assert!(m.fleet_adj(l("bul/ec")) & (1u128 << l("bla")) != 0);
    assert!(m.fleet_adj(l("bul/sc")) & (1u128 << l("aeg")) != 0);
    assert!(m.fleet_adj(l("stp/nc")) & (1u128 << l("bar")) != 0);
    assert!(m.fleet_adj(l("stp/sc")) & (1u128 << l("bot")) != 0);
}

#[test]
fn adjacency_is_symmetric_and_respects_terrain() {
    let m = Map::standard();
    for a in 0..m.province_count() as u8 {
        for b in 0..m.province_count() as u8 {
            let ab = m.army_adj(a) >> b & 1;
            assert_eq!(ab, m.army_adj(b) >> a & 1);
            if ab == 1 {
                assert_ne!(m.prov(a).terrain, Terrain::Sea);
                assert_ne!(m.prov(b).terrain, Terrain::Sea);
            }
        }
    }
    for a in 0..m.location_count() as u8 {
        for b in 0..m.location_count() as u8 {
            assert_eq!(m.fleet_adj(a) >> b & 1, m.fleet_adj(b) >> a & 1);
        }
    }
    let swi = m.prov_by_abbr("swi").unwrap();
    assert_eq!(m.army_adj(swi), 0);
}

#[test]
fn bad_map_data_is_rejected() {
    let head = "map two Two\npower Red #ff0000\npower Blue #0000ff\n";
    let one_way = format!("{head}prov aaa coast Red Aaa\nprov bbb coast Blue Bbb\narmy aaa: bbb\n");
    assert!(Map::parse(&one_way).is_err());
    let ok = format!(
        "{head}prov aaa coast Red Aaa\nprov bbb coast Blue Bbb\narmy aaa: bbb\narmy bbb: aaa\n"
    );
    assert_eq!(Map::parse(&ok).unwrap().army_edge_count(), 1);
    let no_header = "prov aaa coast - Aaa\nprov bbb coast - Bbb\narmy aaa: bbb\narmy bbb: aaa\n";
    let e = Map::parse(no_header).unwrap_err().to_string();
    assert!(e.contains("no `map` line"), "{e}");
}

/// The standard map's two files: its rules, then the geometry of its image.
fn standard_files() -> (String, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    (
        std::fs::read_to_string(format!(
            "{root}/crates/games/src/diplomacy/geo/standard.txt"
        ))
        .unwrap(),
        std::fs::read_to_string(format!("{root}/assets/diplomacy/standard-map.txt")).unwrap(),
    )
}

/// Runs `gamehost diplomacy check-map` on `files` (name, text) written to a
/// temporary folder: (success, stdout, stderr).
fn check_map(files: &[(&str, &str)]) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gamehost"));
    cmd.env_remove("GAMEHOST_CONFIG")
        .current_dir(dir.path())
        .args(["diplomacy", "check-map"]);
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
        cmd.arg(name);
    }
    let out = cmd.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_map_accepts_the_standard_map_and_sums_it_up() {
    let (rules, board) = standard_files();
    let (ok, out, err) = check_map(&[("standard.txt", &rules), ("board.txt", &board)]);
    assert!(ok, "{out}{err}");
    assert_eq!(
        out.trim(),
        "The map `standard` (Standard) is valid: 7 powers (Austria, England, France, Germany, \
         Italy, Russia, Turkey), 22 starting units, first year 1901, 18 centres to win, variants \
         fva, gvi, etv; 76 provinces (34 supply centres, 22 of them home centres), 82 places a \
         unit can stand, 111 army and 141 fleet edges; a 1193×1139 board of 273 regions."
    );
}

#[test]
fn check_map_names_every_problem_with_its_file_and_line() {
    let (rules, board) = standard_files();
    // An adjacency listed from one end only.
    let one_way = rules.replace("army boh: gal mun", "army boh: mun");
    assert_ne!(one_way, rules);
    let (ok, out, err) = check_map(&[("rules.txt", &one_way), ("board.txt", &board)]);
    assert!(!ok);
    assert_eq!(
        out.trim(),
        "map: army edge gal-boh listed one way only: `army gal:` names boh, `army boh:` does not name gal"
    );
    assert!(err.contains("1 problem in the map"), "{err}");
    // A coast without its province, and a line of no known kind: both
    // reported, each at its line of its file.
    let lines = rules.lines().count();
    let orphan = format!("{rules}coasts xyz nc sc\nborder par bur\n");
    let (ok, out, _) = check_map(&[("rules.txt", &orphan), ("board.txt", &board)]);
    assert!(!ok);
    assert!(
        out.contains(&format!(
            "rules.txt:{}: coasts of unknown province \"xyz\": declare it with a `prov` line",
            lines + 1
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "rules.txt:{}: unknown line kind \"border\"",
            lines + 2
        )),
        "{out}"
    );
    // A fleet edge to a coast its province does not have.
    let no_coast = rules.replace("fleet mao: ", "fleet mao: gas/nc ");
    assert_ne!(no_coast, rules);
    let (_, out, _) = check_map(&[("rules.txt", &no_coast), ("board.txt", &board)]);
    assert!(
        out.contains("unknown place gas/nc: gas has no coast \"nc\""),
        "{out}"
    );
    // A supply centre nobody can reach (an island with no edges).
    let island = format!("{rules}prov isl coast neutral Island\n");
    let (ok, out, _) = check_map(&[("rules.txt", &island), ("board.txt", &board)]);
    assert!(!ok);
    assert!(
        out.contains("the supply centre isl cannot be reached from any home centre"),
        "{out}"
    );
    // Geometry: missing altogether, or a unit drawn outside its province.
    let (ok, out, _) = check_map(&[("rules.txt", &rules)]);
    assert!(!ok);
    assert!(out.contains("map: no geometry"), "{out}");
    let stray = board
        .lines()
        .map(|l| {
            if l.starts_with("unit par ") {
                "unit par 10 10"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (ok, out, _) = check_map(&[("rules.txt", &rules), ("board.txt", &stray)]);
    assert!(!ok);
    assert_eq!(
        out.trim(),
        "map: the unit point of par (10.0, 10.0) lies outside par's regions"
    );
}
