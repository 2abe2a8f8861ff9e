//! The workspace's Rust source files, for the tests that read them
//! (function and file length, generic layers). Each test uses what it
//! needs of it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, searched recursively, in sorted order.
pub fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// Every source file of the binary (`src/`) and of each crate
/// (`crates/*/src`), sorted.
pub fn workspace_sources(workspace: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&workspace.join("src"), &mut files);
    let mut crates: Vec<PathBuf> = std::fs::read_dir(workspace.join("crates"))
        .expect("crates/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    crates.sort();
    for krate in crates {
        rust_files(&krate.join("src"), &mut files);
    }
    files
}
