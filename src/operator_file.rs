//! Reading the files an operator names (the `[battle] roster`, the
//! `[diplomacy] maps`, the config itself, `gamehost battle tournament
//! --roster`, `gamehost battle check-roster`): bounded in size, regular files only, and never quoted
//! back in an error, so a mistyped path (`/dev/zero`, a FIFO,
//! `/proc/self/environ`) fails fast with one line instead of hanging,
//! eating memory or printing secrets.

use games::battle::rules::data::{Roster, RosterError};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest roster file read (the built-in one is a few kilobytes).
pub const MAX_ROSTER_BYTES: u64 = 1024 * 1024;

/// Why an operator's file could not be read; says which file and why, never
/// what it holds.
#[derive(Debug, thiserror::Error)]
pub enum OperatorFileError {
    /// Opening or reading failed (missing, no permission, ...).
    #[error("{what} {path}: cannot read it: {reason}")]
    Unreadable {
        /// What the file is for ("roster file").
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// A directory, FIFO, socket or device.
    #[error("{what} {path}: is {kind}, not a regular file; give the path of the file itself")]
    NotRegular {
        /// What the file is for.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// "a directory", "a FIFO", ...
        kind: &'static str,
    },
    /// Larger than the limit.
    #[error("{what} {path}: is larger than {limit} bytes; is it the right file?")]
    TooLarge {
        /// What the file is for.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// Not UTF-8 text.
    #[error("{what} {path}: is not UTF-8 text; is it the right file?")]
    NotText {
        /// What the file is for.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
    },
    /// Read, but the rule data in it is wrong.
    #[error(transparent)]
    Roster(#[from] RosterError),
}

/// What kind of non-regular file this is, for the message.
fn kind_of(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Reads a regular file of at most `limit` bytes as text. The type is
/// checked before opening (opening a FIFO would block until a writer
/// comes) and again on the open handle; the read itself stops after
/// `limit + 1` bytes, since files like `/proc/self/environ` report size 0.
pub fn read_bounded(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<String, OperatorFileError> {
    let unreadable = |e: std::io::Error| OperatorFileError::Unreadable {
        what,
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let regular = |meta: &std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(OperatorFileError::NotRegular {
                what,
                path: path.to_path_buf(),
                kind: kind_of(meta.file_type()),
            })
        }
    };
    regular(&std::fs::metadata(path).map_err(unreadable)?)?;
    let file = std::fs::File::open(path).map_err(unreadable)?;
    regular(&file.metadata().map_err(unreadable)?)?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(OperatorFileError::TooLarge {
            what,
            path: path.to_path_buf(),
            limit,
        });
    }
    String::from_utf8(bytes).map_err(|_| OperatorFileError::NotText {
        what,
        path: path.to_path_buf(),
    })
}

/// Reads and checks a roster file the operator named.
pub fn load_roster(path: &Path) -> Result<Roster, OperatorFileError> {
    let text = read_bounded(path, MAX_ROSTER_BYTES, "roster file")?;
    Ok(Roster::from_toml(&text, &path.display().to_string())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_big_files_are_refused_without_reading() {
        let err = load_roster(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(
            err.contains("/dev/zero") && err.contains("a device"),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        let err = load_roster(dir.path()).unwrap_err().to_string();
        assert!(err.contains("a directory"), "{err}");
        let big = dir.path().join("big.toml");
        std::fs::write(&big, "#".repeat(MAX_ROSTER_BYTES as usize + 1)).unwrap();
        let err = load_roster(&big).unwrap_err().to_string();
        assert!(err.contains("larger than"), "{err}");
        let missing = dir.path().join("nope.toml");
        let err = load_roster(&missing).unwrap_err().to_string();
        assert!(
            err.contains("nope.toml") && err.contains("cannot read"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo failed");
        let err = load_roster(&fifo).unwrap_err().to_string();
        assert!(err.contains("a FIFO"), "{err}");
    }

    #[test]
    fn a_file_that_is_no_roster_is_not_quoted() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("secrets");
        std::fs::write(&f, "PATH=/bin\0SECRET_TOKEN=hunter2hunter2\0").unwrap();
        let err = load_roster(&f).unwrap_err().to_string();
        assert!(err.contains("secrets") && err.contains("line 1"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        assert!(!err.contains("PATH"), "{err}");
    }
}
