//! The maps a process knows: the bundled ones and those its operator
//! installed. A game names its map by id, so a saved game finds its map
//! again after a restart.
//!
//! Installing is the one piece of shared state in the engines: the host
//! reads the operator's files at start-up (the engines do no I/O) and hands
//! their text here. Maps are never removed, so each is leaked once and
//! handed out as `&'static`, which keeps a game's state `Copy`-cheap.

use super::{Map, MapError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::Deref;
use std::sync::{OnceLock, RwLock};

/// The bundled map files, standard first.
const BUNDLED: [&str; 2] = [
    include_str!("standard.txt"),
    include_str!("ancient_med.txt"),
];

fn bundled() -> &'static [&'static Map] {
    static MAPS: OnceLock<Vec<&'static Map>> = OnceLock::new();
    MAPS.get_or_init(|| {
        BUNDLED
            .iter()
            .map(|text| &*Box::leak(Box::new(Map::parse(text).expect("a bundled map is valid"))))
            .collect()
    })
}

/// The installed maps, each with the text it was read from.
fn installed() -> &'static RwLock<Vec<(String, &'static Map)>> {
    static MAPS: OnceLock<RwLock<Vec<(String, &'static Map)>>> = OnceLock::new();
    MAPS.get_or_init(|| RwLock::new(Vec::new()))
}

/// The standard map.
pub(super) fn standard() -> &'static Map {
    bundled()[0]
}

/// The maps that ship with gamehost, standard first.
pub fn bundled_maps() -> Vec<&'static Map> {
    bundled().to_vec()
}

/// The maps the operator installed, in the order they were installed.
pub fn installed_maps() -> Vec<&'static Map> {
    installed()
        .read()
        .map(|maps| maps.iter().map(|(_, m)| *m).collect())
        .unwrap_or_default()
}

/// The map with this id, bundled or installed.
pub fn find_map(id: &str) -> Option<&'static Map> {
    let id = id.trim().to_ascii_lowercase();
    bundled()
        .iter()
        .copied()
        .chain(installed_maps())
        .find(|m| m.id == id)
}

/// Why a map could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The file is not a valid map.
    #[error(transparent)]
    Invalid(#[from] MapError),
    /// Another map already has the id.
    #[error(
        "a map with the id {0:?} is already installed or bundled; give this one another `map` id"
    )]
    Taken(String),
}

/// Parses a map file and makes it available to new games under its id.
/// Installing the same text again (a process that reads its config twice)
/// gives the map installed the first time.
pub fn install_map(text: &str) -> Result<&'static Map, InstallError> {
    let map = Map::parse(text)?;
    let mut maps = installed().write().unwrap_or_else(|e| e.into_inner());
    if let Some((_, same)) = maps.iter().find(|(t, m)| m.id == map.id && t == text) {
        return Ok(same);
    }
    if bundled().iter().any(|m| m.id == map.id) || maps.iter().any(|(_, m)| m.id == map.id) {
        return Err(InstallError::Taken(map.id));
    }
    let leaked: &'static Map = Box::leak(Box::new(map));
    maps.push((text.to_string(), leaked));
    Ok(leaked)
}

/// A game's map: saved as its id, found again by it when the game loads.
#[derive(Clone, Copy)]
pub struct MapRef(&'static Map);

impl MapRef {
    /// The standard map (games saved before maps were data played on it).
    pub fn standard() -> MapRef {
        MapRef(standard())
    }
    /// A map from [`find_map`] or [`install_map`].
    pub fn new(map: &'static Map) -> MapRef {
        MapRef(map)
    }
    /// The map itself, for as long as the process lives.
    pub fn get(self) -> &'static Map {
        self.0
    }
}

/// The standard map, as for games saved before maps were data.
impl Default for MapRef {
    fn default() -> MapRef {
        MapRef::standard()
    }
}

impl Deref for MapRef {
    type Target = Map;
    fn deref(&self) -> &Map {
        self.0
    }
}

impl fmt::Debug for MapRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MapRef({})", self.0.id)
    }
}

impl PartialEq for MapRef {
    fn eq(&self, other: &MapRef) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for MapRef {}

impl Serialize for MapRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.id)
    }
}

impl<'de> Deserialize<'de> for MapRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MapRef, D::Error> {
        let id = String::deserialize(d)?;
        find_map(&id).map(MapRef).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "this game is played on the map {:?}, which is not installed here: \
                 install its file again (see `maps` in the configuration)",
                id.chars().take(40).collect::<String>()
            ))
        })
    }
}

/// Data derived from a map once (an AI's distance tables), kept for the
/// life of the process, keyed by map id: maps are never replaced under an
/// id, so the data stays right.
pub struct MapCache<T: 'static> {
    entries: RwLock<Vec<(String, &'static T)>>,
}

impl<T: Send + Sync + 'static> MapCache<T> {
    /// An empty cache, for a `static`.
    pub const fn new() -> MapCache<T> {
        MapCache {
            entries: RwLock::new(Vec::new()),
        }
    }

    /// The data for `map`, built by `build` the first time it is asked for.
    pub fn get(&self, map: &Map, build: impl FnOnce(&Map) -> T) -> &'static T {
        let find = |entries: &[(String, &'static T)]| {
            entries
                .iter()
                .find(|(id, _)| *id == map.id)
                .map(|(_, t)| *t)
        };
        if let Some(found) = find(&self.entries.read().unwrap_or_else(|e| e.into_inner())) {
            return found;
        }
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = find(&entries) {
            return found;
        }
        let built: &'static T = Box::leak(Box::new(build(map)));
        entries.push((map.id.clone(), built));
        built
    }
}

impl<T: Send + Sync + 'static> Default for MapCache<T> {
    fn default() -> Self {
        MapCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "map two_isles Two Isles\npower Red #ff0000\npower Blue #0000ff\n\
        prov aaa coast Red Alpha\nprov bbb coast Blue Beta\n\
        army aaa: bbb\narmy bbb: aaa\nstart-unit Red army aaa\nstart-unit Blue army bbb\n";

    #[test]
    fn an_installed_map_is_found_by_id_and_saved_as_it() {
        let map = install_map(SMALL).unwrap();
        assert_eq!(find_map("Two_Isles").map(|m| m.title()), Some("Two Isles"));
        // The same text again is the same map; other text under its id is refused.
        assert!(std::ptr::eq(install_map(SMALL).unwrap(), map));
        let other = SMALL.replace("Two Isles", "Other Isles");
        assert!(matches!(install_map(&other), Err(InstallError::Taken(_))));
        let saved = serde_json::to_string(&MapRef::new(map)).unwrap();
        assert_eq!(saved, "\"two_isles\"");
        let back: MapRef = serde_json::from_str(&saved).unwrap();
        assert_eq!(back.victory_centres(), 2, "more than half of two centres");
        let e = serde_json::from_str::<MapRef>("\"atlantis\"").unwrap_err();
        assert!(e.to_string().contains("not installed here"), "{e}");
    }

    #[test]
    fn the_standard_map_cannot_be_replaced() {
        let text = include_str!("standard.txt");
        assert!(matches!(install_map(text), Err(InstallError::Taken(id)) if id == "standard"));
    }
}
