//! Verifying an audit log: what a store reports (whether the log is intact, how much of it
//! an audit key covers, its head, the first record that broke), and the check every store
//! gets by default (numbering without gaps, an unkeyed hash chain computed on the spot).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::store::{StoreError, StoreErrorKind, StoredAuditRecord};

/// The `prev_hash` of the first record.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// A link of the audit chain named by its seq and hash: what `--expect-head SEQ:HASH` and
/// each line of the checkpoint file hold.
///
/// ```
/// use warrant_core::audit::AuditHead;
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

/// What verifying an audit log found ([`Store::verify_audit`](crate::store::AuditLog::verify_audit)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditVerification {
    /// How many records were checked.
    pub records: u64,
    /// The seq of the last record the log says it holds.
    pub head_seq: u64,
    /// The hash of that record ([`GENESIS`] for an empty log): with `head_seq`, what to keep
    /// elsewhere and pass to `--expect-head` later.
    pub head_hash: String,
    /// The id of the audit key the records were checked with (not the key).
    pub key_id: String,
    /// How many records predate the keyed chain (schema version 2 or older): they are checked
    /// only against an unkeyed SHA-256 chain, which a writer of the database could recompute.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub legacy_records: u64,
    /// The latest head of the checkpoint file, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_seq: Option<u64>,
    /// The first record that is not as it was written, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_bad: Option<AuditBreak>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl AuditVerification {
    /// Whether every record is as it was written and none is missing.
    pub fn is_intact(&self) -> bool {
        self.first_bad.is_none()
    }

    /// Whether the whole log is covered by the audit key (no legacy records).
    pub fn is_keyed(&self) -> bool {
        self.legacy_records == 0
    }

    /// The head as `SEQ:HASH`.
    pub fn head(&self) -> AuditHead {
        AuditHead {
            seq: self.head_seq,
            hash: self.head_hash.clone(),
        }
    }
}

impl fmt::Display for AuditVerification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(bad) = &self.first_bad {
            return write!(f, "audit log broken: {bad}");
        }
        if self.key_id.is_empty() {
            return write!(
                f,
                "audit log numbered without gaps: {} records, head {}; this store keeps no keyed \
                 chain, so an edited record cannot be told from the original",
                self.records,
                self.head()
            );
        }
        write!(
            f,
            "audit log intact: {} records verified with the audit key of id {}, head {}",
            self.records,
            self.key_id,
            self.head()
        )?;
        match self.checkpoint_seq {
            Some(seq) => write!(f, "; matches the checkpoint file (at {seq})")?,
            None => write!(f, "; no checkpoint to compare with")?,
        }
        if self.legacy_records > 0 {
            write!(
                f,
                "; WARNING: records 1 to {} predate the keyed chain and are checked only against \
                 an unkeyed SHA-256 chain, which anyone who could write the database could have \
                 recomputed",
                self.legacy_records
            )?;
        }
        Ok(())
    }
}

/// The first record at which the chain breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditBreak {
    /// The record's seq.
    pub seq: u64,
    /// What is wrong with it.
    pub problem: AuditProblem,
    /// The evidence, in words.
    pub detail: String,
}

impl fmt::Display for AuditBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            AuditProblem::Edited => "was edited",
            AuditProblem::Missing => "is missing",
            AuditProblem::Unanchored => "cannot be checked for truncation",
        };
        write!(f, "audit record {} {what} ({})", self.seq, self.detail)
    }
}

/// How a record broke the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AuditProblem {
    /// Its contents, a column or its hash are not what was written with the audit key.
    Edited,
    /// It was deleted (the log was truncated or emptied).
    Missing,
    /// Nothing outside the database says where the log ends: the checkpoint file is missing
    /// or unreadable and no head was expected.
    Unanchored,
}

/// The default check, for stores that keep no keyed chain: the records must be numbered from
/// 1 without a gap (a deleted record is reported as missing), and the head is the last link
/// of a SHA-256 chain computed over them now. Nothing here can tell an edited record from
/// the original: `key_id` is empty and every record counts as not covered by a key.
pub fn verify_unkeyed(
    records: &[StoredAuditRecord],
    expected: Option<&AuditHead>,
) -> AuditVerification {
    let mut hash = GENESIS.to_owned();
    let mut first_bad = None;
    for (i, r) in records.iter().enumerate() {
        let want = i as u64 + 1;
        if r.seq != want && first_bad.is_none() {
            first_bad = Some(AuditBreak {
                seq: want,
                problem: AuditProblem::Missing,
                detail: format!("the log goes from record {} to record {}", want - 1, r.seq),
            });
        }
        let mut h = Sha256::new();
        h.update(hash.as_bytes());
        h.update(serde_json::to_vec(&r.record).unwrap_or_default());
        hash = hex::encode(h.finalize());
    }
    let head_seq = records.last().map_or(0, |r| r.seq);
    if first_bad.is_none()
        && let Some(e) = expected
        && e.seq > head_seq
    {
        first_bad = Some(AuditBreak {
            seq: head_seq + 1,
            problem: AuditProblem::Missing,
            detail: format!("the log ends at {head_seq}, before the expected head {e}"),
        });
    }
    AuditVerification {
        records: records.len() as u64,
        head_seq,
        head_hash: hash,
        key_id: String::new(),
        legacy_records: records.len() as u64,
        checkpoint_seq: None,
        first_bad,
    }
}

/// The state of the audit log's chain as a reader of it is told (`chain` in `GET /v1/audit`,
/// its exports and policy replay): what verified, through which record, and why not further.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditChainState {
    /// `intact`: every record verified; `unanchored`: every record verified, but nothing
    /// outside the database says where the log ends, so a truncation cannot be ruled out;
    /// `broken`: a record was edited, forged or deleted.
    pub status: &'static str,
    /// Whether every record the log holds verified.
    pub verified: bool,
    /// The last record served: records after it are withheld as unverified.
    pub verified_through: u64,
    /// The seq of the log's last record.
    pub head_seq: u64,
    /// How many records were checked.
    pub checked: u64,
    /// Whether the records are checked against an audit key (a store without a keyed
    /// chain only checks that none is missing).
    pub keyed: bool,
    /// How many of the first records predate the keyed chain: they are checked only against
    /// an unkeyed SHA-256 chain, which a writer of the database could recompute.
    pub legacy_records: u64,
    /// The first record at which the chain breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_bad: Option<AuditBreak>,
    /// The verification in words.
    pub message: String,
}

impl AuditChainState {
    /// The state `report` describes.
    pub fn of(report: &AuditVerification) -> Self {
        let (status, verified_through) = match &report.first_bad {
            None => ("intact", report.head_seq),
            // Every record was checked; only the end of the log is not anchored.
            Some(bad) if bad.problem == AuditProblem::Unanchored && bad.seq > 0 => {
                ("unanchored", bad.seq)
            }
            Some(bad) => ("broken", bad.seq.saturating_sub(1)),
        };
        Self {
            status,
            verified: report.first_bad.is_none(),
            verified_through,
            head_seq: report.head_seq,
            checked: report.records,
            keyed: !report.key_id.is_empty(),
            legacy_records: report.legacy_records,
            first_bad: report.first_bad.clone(),
            message: report.to_string(),
        }
    }

    /// The export header's value: `intact; verified-through=12`,
    /// `broken; verified-through=4; first-bad=5; problem=edited`.
    pub fn header(&self) -> String {
        let mut out = format!(
            "{}; verified-through={}",
            self.status, self.verified_through
        );
        if let Some(bad) = &self.first_bad {
            let problem = match bad.problem {
                AuditProblem::Edited => "edited",
                AuditProblem::Missing => "missing",
                AuditProblem::Unanchored => "unanchored",
            };
            out.push_str(&format!("; first-bad={}; problem={problem}", bad.seq));
        }
        out
    }
}
