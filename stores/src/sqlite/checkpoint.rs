//! The checkpoint file: an append-only record of the audit head (`SEQ:HASH`, one line per
//! commit that appended records), kept outside the database so that a truncated or emptied
//! log no longer matches it.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use warrant_core::store::{StoreError, StoreErrorKind};

use crate::error::unavailable;
use crate::files;

/// A link of the audit chain named by its seq and hash: what `--expect-head SEQ:HASH` and
/// each line of the checkpoint file hold.
///
/// ```
/// use warrant_stores::sqlite::AuditHead;
///
/// let head: AuditHead = "7:ab12".parse().unwrap();
/// assert_eq!((head.seq, head.hash.as_str()), (7, "ab12"));
/// assert!("7".parse::<AuditHead>().unwrap_err().message.contains("\"7\""));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditHead {
    /// The record's seq.
    pub seq: u64,
    /// Its hash (hex).
    pub hash: String,
}

impl fmt::Display for AuditHead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.seq, self.hash)
    }
}

impl FromStr for AuditHead {
    type Err = StoreError;

    fn from_str(text: &str) -> Result<Self, StoreError> {
        let invalid = |why: &str| {
            StoreError::new(
                StoreErrorKind::Invalid,
                format!(
                    "audit head \"{text}\" {why}; write SEQ:HASH as `warrant audit --verify` prints it"
                ),
            )
        };
        let (seq, hash) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| invalid("has no ':'"))?;
        let seq = seq
            .parse()
            .map_err(|_| invalid("does not start with a seq number"))?;
        if hash.is_empty() || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid("has a hash that is not hex digits"));
        }
        Ok(Self {
            seq,
            hash: hash.to_ascii_lowercase(),
        })
    }
}

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
