//! No source file longer than 800 lines.
//!
//! A reader should be able to hold a file in their head: a file that grows
//! past [`MAX_LINES`] is split by what a reader looks for (the store by
//! table family, the host's turns by submit / resolve / deadline / forfeit,
//! the movement judge by stage, the config by section). This test reads
//! every `.rs` file under `crates/*/src` and `src/` and fails listing each
//! one over the limit, with its length. Tests (`tests/`) and benches
//! (`benches/`) are outside it; a data table would be listed in
//! [`ALLOWED`] with why (none is today).

#[path = "support/source_files.rs"]
mod source_files;

use std::path::Path;

/// The longest a source file may be, in lines.
const MAX_LINES: usize = 800;

/// Files allowed past [`MAX_LINES`], with why.
const ALLOWED: &[(&str, &str)] = &[];

#[test]
fn no_source_file_is_longer_than_800_lines() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = source_files::workspace_sources(workspace);
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut too_long = Vec::new();
    for file in files {
        let relative = file.strip_prefix(workspace).unwrap_or(&file);
        let allowed = ALLOWED.iter().any(|(path, _)| relative == Path::new(path));
        let lines = std::fs::read_to_string(&file)
            .expect("a source file")
            .lines()
            .count();
        if lines > MAX_LINES && !allowed {
            too_long.push(format!("{}: {lines} lines", relative.display()));
        }
    }
    assert!(
        too_long.is_empty(),
        "files over {MAX_LINES} lines (split by what a reader looks for):\n{}",
        too_long.join("\n")
    );
}
