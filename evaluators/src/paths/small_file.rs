//! The one way the policy reads a small file it decides by (a repository's configuration, a
//! toolchain's configuration): only a regular file (links followed), opened without blocking
//! (a FIFO or device named like a configuration file must not hang the evaluator), and only
//! up to a size cap, so the work a call costs stays bounded. A file that is not read in full
//! is not modeled: callers treat it as the worst case (it names a program, holds a credential).

use std::io::Read;
use std::path::Path;

/// The most bytes read from a configuration file the policy decides by; a longer one is not
/// proven.
pub(crate) const MAX_SMALL_FILE_BYTES: u64 = 64 * 1024;

/// The file at `path` opened for reading, if it is a regular file (links followed) of at
/// most `limit` bytes; `Ok(None)` when nothing is there. It is opened without blocking, and
/// what was opened is checked again (the name may have been replaced in between).
///
/// # Errors
///
/// Why the file is not opened, in words: it cannot be, is not a regular file (a FIFO, a
/// device, a directory), or is longer than `limit`.
fn open_regular(path: &Path, limit: u64) -> Result<Option<std::fs::File>, String> {
    let shown = path.display();
    super::watch::note(path);
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read `{shown}` ({e})")),
    };
    let not_regular = || format!("`{shown}` is not a regular file and is not read");
    if !meta.is_file() {
        return Err(not_regular());
    }
    if meta.len() > limit {
        return Err(too_long(path, limit));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Opened without blocking: a FIFO swapped in after the check returns at once.
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("cannot read `{shown}` ({e})"))?;
    let opened = file
        .metadata()
        .map_err(|e| format!("cannot read `{shown}` ({e})"))?;
    if !opened.is_file() {
        return Err(not_regular());
    }
    Ok(Some(file))
}

/// Why a file is not read: it is longer than `limit`.
fn too_long(path: &Path, limit: u64) -> String {
    format!(
        "`{}` is longer than {limit} bytes and is not read",
        path.display()
    )
}

/// The bytes of the file at `path`, if it is a regular file (links followed) of at most
/// `limit` bytes; `Ok(None)` when nothing is there.
///
/// # Errors
///
/// Why the file is not read, in words: it cannot be opened, is not a regular file (a FIFO,
/// a device, a directory), or is longer than `limit`.
pub(crate) fn read_bytes(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, String> {
    let Some(file) = open_regular(path, limit)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read `{}` ({e})", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(too_long(path, limit));
    }
    Ok(Some(bytes))
}

/// The first `limit` bytes of the regular file at `path` (links followed), however long it
/// is; `None` when it is not a regular file or cannot be read.
pub(crate) fn read_head(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let file = open_regular(path, u64::MAX).ok().flatten()?;
    let mut head = Vec::new();
    file.take(limit).read_to_end(&mut head).ok()?;
    Some(head)
}

/// The text of the file at `path` (invalid UTF-8 replaced), read as [`read_bytes`] reads it
/// with the cap [`MAX_SMALL_FILE_BYTES`].
///
/// # Errors
///
/// As [`read_bytes`].
pub(crate) fn read_text(path: &Path) -> Result<Option<String>, String> {
    read_bytes(path, MAX_SMALL_FILE_BYTES)
        .map(|b| b.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_small_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        assert_eq!(read_text(&path), Ok(None));
        std::fs::write(&path, "x = 1\n").unwrap();
        assert_eq!(read_text(&path), Ok(Some("x = 1\n".to_owned())));
        std::fs::write(&path, vec![b'a'; MAX_SMALL_FILE_BYTES as usize + 1]).unwrap();
        assert!(read_text(&path).is_err());
        assert!(read_text(dir.path()).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_not_read_and_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".tool-versions");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(read_text(&path).is_err());
    }
}
