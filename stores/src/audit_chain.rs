//! What every store with a keyed audit chain shares: the canonical JSON of a record, the
//! keyed link (HMAC-SHA-256 under the audit key over every column of a row), where the audit
//! key comes from, and the checkpoint file of the chain's head.
//!
//! The text and hashes are exactly those of the SQLite store, so a record hashes the same
//! whichever store keeps it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use hmac::Mac;
use serde_json::Value;
use warrant_core::audit::{AuditBreak, AuditHead, AuditProblem, AuditVerification, GENESIS};
use warrant_core::store::StoreError;

use crate::error::{corrupt, unavailable};
use crate::files;
use crate::sqlite::{AUDIT_KEY_ENV, AuditKey};

/// The MAC of a link (the type `AuditKey::mac` returns).
type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The record's JSON as it is stored and hashed: object keys sorted, no whitespace, so the
/// same record always has the same text.
pub(crate) fn canonical_json(value: &Value) -> String {
    let mut out = Vec::with_capacity(512);
    write_canonical(value, &mut out);
    // Only serde_json's output and ASCII punctuation were written: valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes keys and scalars with serde_json's own encoder straight into `out`.
fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            }
            out.push(b'{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_scalar(key, out);
                out.push(b':');
                write_canonical(value, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        scalar => write_scalar(scalar, out),
    }
}

fn write_scalar<T: serde::Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Writing a string, a number, a bool or null into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}

/// The columns of an audit row a link covers, besides its seq and `prev_hash`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Columns<'a> {
    pub session_id: &'a str,
    pub tool_call_id: &'a str,
    pub at: i64,
    pub record: &'a str,
}

/// The keyed hash of a link: HMAC-SHA-256 (hex) under the audit key over a version tag and
/// every column of the row (seq, `prev_hash`, session, tool call id, `at`, record), each
/// length-prefixed so that no two rows share an input.
pub(crate) fn keyed_link(key: &AuditKey, seq: u64, prev_hash: &str, row: &Columns<'_>) -> String {
    hex::encode(link_mac(key, seq, prev_hash, row).finalize().into_bytes())
}

/// Whether `hash` is the keyed hash of the row (compared in constant time).
pub(crate) fn keyed_link_matches(
    key: &AuditKey,
    seq: u64,
    prev_hash: &str,
    row: &Columns<'_>,
    hash: &str,
) -> bool {
    hex::decode(hash).is_ok_and(|bytes| {
        link_mac(key, seq, prev_hash, row)
            .verify_slice(&bytes)
            .is_ok()
    })
}

fn link_mac(key: &AuditKey, seq: u64, prev_hash: &str, row: &Columns<'_>) -> HmacSha256 {
    let mut mac = key.mac();
    let at = row.at.to_string();
    let seq = seq.to_string();
    let fields: [&[u8]; 7] = [
        b"warrant audit link v3",
        seq.as_bytes(),
        prev_hash.as_bytes(),
        row.session_id.as_bytes(),
        row.tool_call_id.as_bytes(),
        at.as_bytes(),
        row.record.as_bytes(),
    ];
    for field in fields {
        mac.update(&(field.len() as u64).to_be_bytes());
        mac.update(field);
    }
    mac
}

/// Where the audit key comes from, in order: the configuration's key, `WARRANT_AUDIT_KEY`,
/// the key file. A missing key file is created (mode 0600) only when the log holds no keyed
/// record yet (`log_key_id` is `None`); its directory must exist (a missing one is a
/// configuration error, never created on another disk than meant).
pub(crate) fn resolve_key(
    configured: Option<&AuditKey>,
    key_file: &Path,
    log_key_id: Option<&str>,
) -> Result<AuditKey, StoreError> {
    if let Some(key) = configured {
        return Ok(key.clone());
    }
    if let Ok(text) = std::env::var(AUDIT_KEY_ENV) {
        return AuditKey::from_hex(&text, AUDIT_KEY_ENV);
    }
    if key_file.exists() {
        return AuditKey::read_file(key_file);
    }
    if let Some(id) = log_key_id {
        return Err(corrupt(
            format!("the audit key file {} is missing", key_file.display()),
            format!(
                "the audit log was written with the key of id {id}; restore the file or set \
                 {AUDIT_KEY_ENV} (a new key would make every record look forged)"
            ),
        ));
    }
    let key = AuditKey::generate()?;
    key.write_new_file(key_file)?;
    tracing::info!(path = %key_file.display(), key_id = %key.id(), "created the audit key file");
    Ok(key)
}

/// Appends the head to the checkpoint file (created with mode 0600).
pub(crate) fn append_checkpoint(path: &Path, head: &AuditHead) -> Result<(), StoreError> {
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
pub(crate) fn read_checkpoints(path: &Path) -> Result<Checkpoints, StoreError> {
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

/// What a record that fails its keyed hash was: edited, or written without the audit key.
pub(crate) const UNSOUND_KEYED: &str = "a column or its contents do not match its keyed hash: \
                                         it was edited, or written without the audit key";

/// Verifying a keyed audit chain, record by record, as every store does it: the report so
/// far, the last sound link, and the heads known from outside the log (checkpoint file,
/// expected head) still to meet. The first break found is the one reported.
pub(crate) struct Walk {
    /// What was found.
    pub report: AuditVerification,
    /// The last record that verified (`0` and [`GENESIS`] before the first).
    pub last: AuditHead,
    anchors: std::iter::Peekable<std::vec::IntoIter<(AuditHead, String)>>,
    anchored: bool,
    checkpoint: Option<PathBuf>,
}

impl Walk {
    /// A walk of a log whose head row says `head`, checked with the key of id `key_id`.
    pub fn new(head: &AuditHead, key_id: String) -> Self {
        Self {
            report: AuditVerification {
                records: 0,
                head_seq: head.seq,
                head_hash: head.hash.clone(),
                key_id,
                legacy_records: 0,
                checkpoint_seq: None,
                first_bad: None,
            },
            last: AuditHead {
                seq: 0,
                hash: GENESIS.to_owned(),
            },
            anchors: Vec::new().into_iter().peekable(),
            anchored: false,
            checkpoint: None,
        }
    }

    /// Records a break, unless an earlier one was found.
    pub fn broken(&mut self, seq: u64, problem: AuditProblem, detail: String) {
        if self.report.first_bad.is_none() {
            self.report.first_bad = Some(AuditBreak {
                seq,
                problem,
                detail,
            });
        }
    }

    /// Whether a break was found.
    pub fn is_broken(&self) -> bool {
        self.report.first_bad.is_some()
    }

    /// Takes the heads known from outside the log: the checkpoint file's (read as `found`
    /// from `path`) and an expected head. False when the checkpoint file is unreadable
    /// (reported as unanchored: the walk ends there).
    pub fn anchor(
        &mut self,
        checkpoint: Option<(&Path, Checkpoints)>,
        expect: Option<&AuditHead>,
    ) -> bool {
        let mut checks: Vec<(AuditHead, String)> = Vec::new();
        self.anchored = expect.is_some();
        if let Some((path, found)) = checkpoint {
            self.checkpoint = Some(path.to_path_buf());
            match found {
                Checkpoints::Absent => {}
                Checkpoints::Unreadable(evidence) => {
                    self.broken(0, AuditProblem::Unanchored, evidence);
                    return false;
                }
                Checkpoints::Heads(heads) => {
                    self.anchored = true;
                    self.report.checkpoint_seq = heads.last().map(|h| h.seq);
                    let source = format!("the checkpoint file {}", path.display());
                    checks.extend(heads.into_iter().map(|h| (h, source.clone())));
                }
            }
        }
        if let Some(expect) = expect {
            checks.push((expect.clone(), "the expected head".to_owned()));
        }
        checks.sort_by_key(|(h, _)| h.seq);
        self.anchors = checks.into_iter().peekable();
        // Heads at seq 0 name the empty log.
        while let Some((h, source)) = self.anchors.next_if(|(h, _)| h.seq == 0) {
            if h.hash != GENESIS {
                self.broken(
                    0,
                    AuditProblem::Edited,
                    format!("{source} names a record 0"),
                );
            }
        }
        true
    }

    /// Checks that record `seq` follows the last one: no gap, chained to its hash. `sound`
    /// says whether the record matches its own hash (then a wrong link blames its
    /// predecessor). True when a break was reported.
    pub fn link(&mut self, seq: u64, prev_hash: &str, sound: bool) -> bool {
        let last = self.last.clone();
        if seq != last.seq + 1 {
            self.broken(
                last.seq + 1,
                AuditProblem::Missing,
                format!("the log skips from {} to {seq}", last.seq),
            );
            true
        } else if prev_hash != last.hash {
            // A record sound on its own but chained to another hash means its predecessor
            // changed.
            let culprit = if seq > 1 && sound { last.seq } else { seq };
            self.broken(
                culprit,
                AuditProblem::Edited,
                format!(
                    "record {seq} is chained to a hash record {} does not have",
                    last.seq
                ),
            );
            true
        } else {
            false
        }
    }

    /// Meets the outside heads at record `seq`, whose hash is `hash`.
    pub fn meet_anchors(&mut self, seq: u64, hash: &str) {
        while let Some((h, source)) = self.anchors.next_if(|(h, _)| h.seq <= seq) {
            if h.seq < seq {
                continue; // a gap already reported
            }
            if h.hash != hash {
                self.broken(
                    seq,
                    AuditProblem::Edited,
                    format!("{source} records another hash for it"),
                );
            }
        }
    }

    /// After the last record: an outside head past it means records were cut off.
    pub fn end_of_records(&mut self) {
        let last = self.last.seq;
        let rest = std::mem::replace(&mut self.anchors, Vec::new().into_iter().peekable());
        if let Some((h, source)) = rest.last() {
            self.broken(
                last + 1,
                AuditProblem::Missing,
                format!("the log ends at {last} but {source} names record {}", h.seq),
            );
        }
    }

    /// After the last record: the log must end at its head row, and something outside the
    /// database must say where it ends (records after `unanchored_after`).
    pub fn end_at_head(&mut self, head: &AuditHead, unanchored_after: u64) {
        let last = self.last.clone();
        if head.seq > last.seq {
            self.broken(
                last.seq + 1,
                AuditProblem::Missing,
                format!(
                    "the log ends at {} but its head is at {}",
                    last.seq, head.seq
                ),
            );
        } else if head.seq == last.seq && head.hash != last.hash {
            self.broken(
                last.seq,
                AuditProblem::Edited,
                "its hash does not match the log's head".to_owned(),
            );
        } else if head.seq < last.seq {
            self.broken(
                head.seq + 1,
                AuditProblem::Edited,
                format!(
                    "records after the head at {} were added outside the log",
                    head.seq
                ),
            );
        }
        if !self.anchored && last.seq > unanchored_after {
            let detail = match &self.checkpoint {
                Some(path) => format!(
                    "the checkpoint file {} is missing, so a truncated log cannot be told from \
                     an intact one; pass --expect-head SEQ:HASH from a copy kept elsewhere",
                    path.display()
                ),
                None => "no checkpoint file and no expected head".to_owned(),
            };
            self.broken(last.seq, AuditProblem::Unanchored, detail);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_canonical_text_sorts_keys_and_drops_whitespace() {
        let value = json!({"z": 1, "a": [1, 2.5, "x", {"k\"ey": null, "b": false}], "m": {}});
        assert_eq!(
            canonical_json(&value),
            r#"{"a":[1,2.5,"x",{"b":false,"k\"ey":null}],"m":{},"z":1}"#
        );
    }

    #[test]
    fn a_link_matches_its_own_row_only() {
        let key = AuditKey::from_bytes(vec![7u8; 32]).unwrap();
        let row = Columns {
            session_id: "s1",
            tool_call_id: "c1",
            at: 5,
            record: "{}",
        };
        let hash = keyed_link(&key, 1, warrant_core::audit::GENESIS, &row);
        assert!(keyed_link_matches(
            &key,
            1,
            warrant_core::audit::GENESIS,
            &row,
            &hash
        ));
        assert!(!keyed_link_matches(
            &key,
            2,
            warrant_core::audit::GENESIS,
            &row,
            &hash
        ));
        let other = Columns { at: 6, ..row };
        assert!(!keyed_link_matches(
            &key,
            1,
            warrant_core::audit::GENESIS,
            &other,
            &hash
        ));
    }
}
