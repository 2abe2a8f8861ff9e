//! Reading the files an operator names (the `[battle] roster`, the
//! `[diplomacy] maps`, the config itself, `gamehost battle tournament
//! --roster`, `gamehost battle check-roster`): bounded in size, regular files only, and never quoted
//! back in an error, so a mistyped path (`/dev/zero`, a FIFO,
//! `/proc/self/environ`) fails fast with one line instead of hanging,
//! eating memory or printing secrets.

use games::battle::rules::data::{Roster, RosterError};
use i18n::{Message, Names, msg};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest roster file read (the built-in one is a few kilobytes).
pub const MAX_ROSTER_BYTES: u64 = 1024 * 1024;

/// Why an operator's file could not be read; says which file and why, never
/// what it holds.
#[derive(Debug, thiserror::Error)]
pub enum OperatorFileError {
    /// Missing, unreadable, not a regular file (a directory, FIFO, socket
    /// or device), larger than the limit, or not UTF-8 text.
    #[error("{what} {path}: {}", i18n::render(i18n::Lang::En, .problem))]
    Refused {
        /// What the file is for ("roster file").
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// What was wrong and what would be right (`operator-file-*`).
        problem: Message,
    },
    /// Read, but the rule data in it is wrong.
    #[error(transparent)]
    Roster(#[from] RosterError),
}

impl OperatorFileError {
    /// What was wrong with the file, without its name, for a message that
    /// names the file itself (the config's); `None` for rule data.
    pub fn problem(&self) -> Option<&Message> {
        match self {
            OperatorFileError::Refused { problem, .. } => Some(problem),
            OperatorFileError::Roster(_) => None,
        }
    }
}

/// What kind of non-regular file this is, for the message.
fn kind_of(t: std::fs::FileType) -> Message {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Message::new("operator-file-kind-fifo");
        }
        if t.is_char_device() || t.is_block_device() {
            return Message::new("operator-file-kind-device");
        }
        if t.is_socket() {
            return Message::new("operator-file-kind-socket");
        }
    }
    if t.is_dir() {
        Message::new("operator-file-kind-directory")
    } else {
        Message::new("operator-file-kind-other")
    }
}

/// What the system said about a file: its own words in English, and in
/// another language the catalogue's for the common cases.
pub fn system_reason(e: &std::io::Error) -> Names {
    use std::io::ErrorKind;
    let id = match e.kind() {
        ErrorKind::NotFound => Some("operator-io-not-found"),
        ErrorKind::PermissionDenied => Some("operator-io-permission-denied"),
        ErrorKind::IsADirectory => Some("operator-io-is-a-directory"),
        ErrorKind::ReadOnlyFilesystem => Some("operator-io-read-only"),
        _ => None,
    };
    Names {
        en: e.to_string(),
        ja: id.map(|id| i18n::text(i18n::Lang::Ja, id)),
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
    let refused = |problem: Message| OperatorFileError::Refused {
        what,
        path: path.to_path_buf(),
        problem,
    };
    let unreadable =
        |e: std::io::Error| refused(msg!("operator-file-unreadable", reason = system_reason(&e)));
    let regular = |meta: &std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(refused(msg!(
                "operator-file-not-regular",
                kind = kind_of(meta.file_type())
            )))
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
        return Err(refused(msg!(
            "operator-file-too-large",
            limit = limit.to_string()
        )));
    }
    String::from_utf8(bytes).map_err(|_| refused(Message::new("operator-file-not-text")))
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
