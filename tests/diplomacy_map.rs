//! The standard map data: counts, centres, coasts and symmetry.

use games::diplomacy::geo::{Map, Power, Terrain};

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
    let homes: Vec<usize> = Power::ALL
        .iter()
        .map(|&p| m.home_centres(p).count())
        .collect();
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
    let one_way = "prov aaa coast - Aaa\nprov bbb coast - Bbb\narmy aaa: bbb\n";
    assert!(Map::parse(one_way).is_err());
    let ok = "prov aaa coast - Aaa\nprov bbb coast - Bbb\narmy aaa: bbb\narmy bbb: aaa\n";
    assert_eq!(Map::parse(ok).unwrap().army_edge_count(), 1);
}
