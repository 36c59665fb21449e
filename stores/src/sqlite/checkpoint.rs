//! The checkpoint file: an append-only record of the audit head (`SEQ:HASH`, one line per
//! commit that appended records), kept outside the database so that a truncated or emptied
//! log no longer matches it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use warrant_core::store::StoreError;

use crate::error::unavailable;
use crate::files;

pub use warrant_core::audit::AuditHead;

/// Appends the head to the checkpoint file (created with mode 0600).
pub(crate) fn append(path: &Path, head: &AuditHead) -> Result<(), StoreError> {
    files::append_private(path)
        .and_then(|mut file| file.write_all(format!("{head}\n").as_bytes()))
        .map_err(|e| {
            unavailable(
                format!("appending to the checkpoint file {}", path.display()),
                e,
            )
        })
}

/// What the checkpoint file holds.
pub(crate) enum Checkpoints {
    /// No file.
    Absent,
    /// Its heads, by seq.
    Heads(Vec<AuditHead>),
    /// A line that is not a head: the file was damaged.
    Unreadable(String),
}

/// Reads the checkpoint file.
pub(crate) fn read(path: &Path) -> Result<Checkpoints, StoreError> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Checkpoints::Absent),
        Err(e) => {
            return Err(unavailable(
                format!("reading the checkpoint file {}", path.display()),
                e,
            ));
        }
    };
    let mut heads = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| {
            unavailable(format!("reading the checkpoint file {}", path.display()), e)
        })?;
        if line.trim().is_empty() {
            continue;
        }
        match line.parse::<AuditHead>() {
            Ok(head) => heads.push(head),
            Err(e) => {
                return Ok(Checkpoints::Unreadable(format!(
                    "line {} of the checkpoint file {}: {}",
                    n + 1,
                    path.display(),
                    e.message
                )));
            }
        }
    }
    heads.sort_by_key(|h| h.seq);
    Ok(Checkpoints::Heads(heads))
}
