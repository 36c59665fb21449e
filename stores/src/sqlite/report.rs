//! What verifying the audit log reports: whether it is intact, how much of it the audit key
//! covers, its head, and the first record that broke.

use std::fmt;

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use super::chain::GENESIS;
use super::checkpoint::AuditHead;

/// What [`SqliteStore::verify_audit`](super::SqliteStore::verify_audit) found.
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
pub enum AuditProblem {
    /// Its contents, a column or its hash are not what was written with the audit key.
    Edited,
    /// It was deleted (the log was truncated or emptied).
    Missing,
    /// Nothing outside the database says where the log ends: the checkpoint file is missing
    /// or unreadable and no head was expected.
    Unanchored,
}
