//! Private files: the data directory is created 0700; the database, its WAL and shared
//! memory, the audit key and the checkpoint file are 0600, so other users of the machine
//! read none of them.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use warrant_core::store::{StoreError, StoreErrorKind};

/// The mode of every file the store writes.
pub(crate) const FILE_MODE: u32 = 0o600;

/// The mode of a data directory the store creates.
pub(crate) const DIR_MODE: u32 = 0o700;

/// Creates `dir` and its missing parents with mode 0700 (an existing directory is left as
/// it is: it may be shared on purpose, such as `.`).
pub(crate) fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, DIR_MODE);
    builder.create(dir)
}

/// Creates a new file of mode 0600; an existing file is an error.
pub(crate) fn create_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    options.open(path)
}

/// Opens a file to append to, creating it with mode 0600.
pub(crate) fn append_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    options.open(path)
}

/// Creates the file when missing, and narrows it to mode 0600 when it exists.
pub(crate) fn make_private(path: &Path) -> io::Result<()> {
    match create_private(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => narrow(path),
        Err(e) => Err(e),
    }
}

/// Narrows an existing file to mode 0600 (a missing file is no error).
pub(crate) fn narrow(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::metadata(path) {
            Ok(meta) if meta.permissions().mode() & 0o777 != FILE_MODE => {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(FILE_MODE))
            }
            Ok(_) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

/// Refuses a secret file that group or others may read or write.
pub(crate) fn check_private(path: &Path, what: &str) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o777)
            .map_err(|e| {
                StoreError::new(
                    StoreErrorKind::Unavailable,
                    format!("{what} {}: {e}", path.display()),
                )
            })?;
        if mode & 0o077 != 0 {
            return Err(StoreError::new(
                StoreErrorKind::Invalid,
                format!(
                    "{what} {} has mode {mode:o}, so other users may read it; run \
                     `chmod 600 {}` (and replace the key if it may have leaked)",
                    path.display(),
                    path.display()
                ),
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = (path, what);
    Ok(())
}
