//! Verifying the audit log: walk the hash chain and name the first record that was edited
//! or deleted.

use std::fmt;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use warrant_core::store::StoreError;

use super::chain::{GENESIS, Head, link_hash};
use crate::error::Context;

/// What [`SqliteStore::verify_audit`](super::SqliteStore::verify_audit) found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditVerification {
    /// How many records were checked.
    pub records: u64,
    /// The seq of the last record the log says it holds.
    pub head_seq: u64,
    /// The first record that is not as it was written, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_bad: Option<AuditBreak>,
}

impl AuditVerification {
    /// Whether every record is as it was written and none is missing.
    pub fn is_intact(&self) -> bool {
        self.first_bad.is_none()
    }
}

impl fmt::Display for AuditVerification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.first_bad {
            None => write!(f, "audit log intact: {} records verified", self.records),
            Some(bad) => write!(f, "audit log broken: {bad}"),
        }
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
        };
        write!(f, "audit record {} {what} ({})", self.seq, self.detail)
    }
}

/// How a record broke the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditProblem {
    /// Its contents or hash are not what was written.
    Edited,
    /// It was deleted.
    Missing,
}

/// Walks the whole chain inside one read transaction and names the first broken record.
pub(crate) fn verify(conn: &Connection) -> Result<AuditVerification, StoreError> {
    let tx = conn.unchecked_transaction().context("starting a read")?;
    let head = Head::load(&tx)?;
    let mut report = AuditVerification {
        records: 0,
        head_seq: head.seq,
        first_bad: None,
    };
    let broken = |seq, problem, detail: String| {
        Some(AuditBreak {
            seq,
            problem,
            detail,
        })
    };
    let mut stmt = tx
        .prepare("SELECT seq, session_id, record, prev_hash, hash FROM audit ORDER BY seq")
        .context("reading the audit log")?;
    let mut rows = stmt.query([]).context("reading the audit log")?;
    let mut last = Head {
        seq: 0,
        hash: GENESIS.to_owned(),
    };
    while let Some(row) = rows.next().context("reading the audit log")? {
        let seq: u64 = row.get(0).context("audit seq")?;
        let session: String = row.get(1).context("audit session")?;
        let record: String = row.get(2).context("audit record")?;
        let prev_hash: String = row.get(3).context("audit prev_hash")?;
        let hash: String = row.get(4).context("audit hash")?;
        report.records += 1;
        report.first_bad = if seq != last.seq + 1 {
            broken(
                last.seq + 1,
                AuditProblem::Missing,
                format!("the log skips from {} to {seq}", last.seq),
            )
        } else if prev_hash != last.hash {
            // A self-consistent record chained to another hash means its predecessor changed.
            let culprit = if seq > 1 && link_hash(&prev_hash, &record) == hash {
                last.seq
            } else {
                seq
            };
            broken(
                culprit,
                AuditProblem::Edited,
                format!(
                    "record {seq} is chained to a hash record {} does not have",
                    last.seq
                ),
            )
        } else if link_hash(&prev_hash, &record) != hash {
            broken(
                seq,
                AuditProblem::Edited,
                "its contents do not match its hash".to_owned(),
            )
        } else if !session_matches(&record, &session) {
            broken(
                seq,
                AuditProblem::Edited,
                format!("its session column says \"{session}\", its record does not"),
            )
        } else {
            None
        };
        if report.first_bad.is_some() {
            return Ok(report);
        }
        last = Head { seq, hash };
    }
    report.first_bad = if head.seq > last.seq {
        broken(
            last.seq + 1,
            AuditProblem::Missing,
            format!(
                "the log ends at {} but its head is at {}",
                last.seq, head.seq
            ),
        )
    } else if head.seq == last.seq && head.hash != last.hash {
        broken(
            last.seq,
            AuditProblem::Edited,
            "its hash does not match the log's head".to_owned(),
        )
    } else if head.seq < last.seq {
        broken(
            head.seq + 1,
            AuditProblem::Edited,
            format!(
                "records after the head at {} were added outside the log",
                head.seq
            ),
        )
    } else {
        None
    };
    Ok(report)
}

fn session_matches(record: &str, session: &str) -> bool {
    serde_json::from_str::<Value>(record)
        .ok()
        .and_then(|v| {
            v.get("sessionId")
                .and_then(Value::as_str)
                .map(|s| s == session)
        })
        .unwrap_or(false)
}
