//! Verifying the audit log: walk the keyed chain, compare it with the checkpoint file and an
//! expected head, and name the first record that was edited, forged or deleted.

use std::path::Path;

use rusqlite::Connection;
use serde_json::Value;
use warrant_core::store::StoreError;

use super::chain::{Columns, GENESIS, Head, keyed_link_matches};
use super::checkpoint::{self, AuditHead, Checkpoints};
use super::key::AuditKey;
use super::legacy::{LegacyBoundary, link_hash};
use super::report::{AuditBreak, AuditProblem, AuditVerification};
use crate::error::Context;

/// Where the end of the log is known from, outside the database.
#[derive(Debug, Clone, Default)]
pub(crate) struct Anchors<'a> {
    /// The checkpoint file.
    pub checkpoint: Option<&'a Path>,
    /// A head the log must contain (`--expect-head`).
    pub expect: Option<&'a AuditHead>,
}

struct Walk {
    report: AuditVerification,
    last: Head,
}

impl Walk {
    fn broken(&mut self, seq: u64, problem: AuditProblem, detail: String) {
        if self.report.first_bad.is_none() {
            self.report.first_bad = Some(AuditBreak {
                seq,
                problem,
                detail,
            });
        }
    }
}

/// Walks the whole chain inside one read transaction and names the first broken record.
pub(crate) fn verify(
    conn: &Connection,
    key: &AuditKey,
    anchors: &Anchors<'_>,
) -> Result<AuditVerification, StoreError> {
    let tx = conn.unchecked_transaction().context("starting a read")?;
    let head = Head::load(&tx)?;
    let mut walk = Walk {
        report: AuditVerification {
            records: 0,
            head_seq: head.seq,
            head_hash: head.hash.clone(),
            key_id: key.id(),
            legacy_records: 0,
            checkpoint_seq: None,
            first_bad: None,
        },
        last: Head {
            seq: 0,
            hash: GENESIS.to_owned(),
        },
    };
    let legacy = match LegacyBoundary::load(&tx, key)? {
        Ok(boundary) => boundary,
        Err(evidence) => {
            walk.broken(1, AuditProblem::Edited, evidence);
            return Ok(walk.report);
        }
    };
    let legacy_through = legacy.as_ref().map_or(0, |b| b.through);
    walk.report.legacy_records = legacy_through;
    let mut checks: Vec<(AuditHead, String)> = Vec::new();
    let mut anchored = anchors.expect.is_some();
    if let Some(path) = anchors.checkpoint {
        match checkpoint::read(path)? {
            Checkpoints::Absent => {}
            Checkpoints::Unreadable(evidence) => {
                walk.broken(0, AuditProblem::Unanchored, evidence);
                return Ok(walk.report);
            }
            Checkpoints::Heads(heads) => {
                anchored = true;
                walk.report.checkpoint_seq = heads.last().map(|h| h.seq);
                let source = format!("the checkpoint file {}", path.display());
                checks.extend(heads.into_iter().map(|h| (h, source.clone())));
            }
        }
    }
    if let Some(expect) = anchors.expect {
        checks.push((expect.clone(), "the expected head".to_owned()));
    }
    checks.sort_by_key(|(h, _)| h.seq);
    let mut pending = checks.into_iter().peekable();
    // Heads at seq 0 name the empty log.
    while let Some((h, source)) = pending.next_if(|(h, _)| h.seq == 0) {
        if h.hash != GENESIS {
            walk.broken(
                0,
                AuditProblem::Edited,
                format!("{source} names a record 0"),
            );
        }
    }

    let mut stmt = tx
        .prepare(
            "SELECT seq, session_id, tool_call_id, at, record, prev_hash, hash FROM audit ORDER BY seq",
        )
        .context("reading the audit log")?;
    let mut rows = stmt.query([]).context("reading the audit log")?;
    while let Some(row) = rows.next().context("reading the audit log")? {
        let seq: u64 = row.get(0).context("audit seq")?;
        let session: String = row.get(1).context("audit session")?;
        let tool_call_id: String = row.get(2).context("audit tool_call_id")?;
        let at: i64 = row.get(3).context("audit at")?;
        let record: String = row.get(4).context("audit record")?;
        let prev_hash: String = row.get(5).context("audit prev_hash")?;
        let hash: String = row.get(6).context("audit hash")?;
        walk.report.records += 1;
        let columns = Columns {
            session_id: &session,
            tool_call_id: &tool_call_id,
            at,
            record: &record,
        };
        let legacy_row = seq <= legacy_through;
        let self_consistent = if legacy_row {
            link_hash(&prev_hash, &record) == hash
        } else {
            keyed_link_matches(key, seq, &prev_hash, &columns, &hash)
        };
        let last = walk.last.clone();
        if seq != last.seq + 1 {
            walk.broken(
                last.seq + 1,
                AuditProblem::Missing,
                format!("the log skips from {} to {seq}", last.seq),
            );
        } else if prev_hash != last.hash {
            // A record that is sound on its own but chained to another hash means its
            // predecessor changed.
            let culprit = if seq > 1 && self_consistent {
                last.seq
            } else {
                seq
            };
            walk.broken(
                culprit,
                AuditProblem::Edited,
                format!(
                    "record {seq} is chained to a hash record {} does not have",
                    last.seq
                ),
            );
        } else if !self_consistent && legacy_row {
            walk.broken(
                seq,
                AuditProblem::Edited,
                "its contents do not match its (unkeyed, legacy) hash".to_owned(),
            );
        } else if !self_consistent {
            walk.broken(
                seq,
                AuditProblem::Edited,
                "a column or its contents do not match its keyed hash: it was edited, or \
                 written without the audit key"
                    .to_owned(),
            );
        } else if legacy_row && !session_matches(&record, &session) {
            walk.broken(
                seq,
                AuditProblem::Edited,
                format!("its session column says \"{session}\", its record does not"),
            );
        } else if legacy
            .as_ref()
            .is_some_and(|b| b.through == seq && b.hash != hash)
        {
            walk.broken(
                seq,
                AuditProblem::Edited,
                "it is not the last legacy record signed when the chain became keyed".to_owned(),
            );
        }
        while let Some((h, source)) = pending.next_if(|(h, _)| h.seq <= seq) {
            if h.seq < seq {
                continue; // a gap already reported
            }
            if h.hash != hash {
                walk.broken(
                    seq,
                    AuditProblem::Edited,
                    format!("{source} records another hash for it"),
                );
            }
        }
        if walk.report.first_bad.is_some() {
            return Ok(walk.report);
        }
        walk.last = Head { seq, hash };
    }
    let last = walk.last.clone();
    if let Some((h, source)) = pending.last() {
        walk.broken(
            last.seq + 1,
            AuditProblem::Missing,
            format!(
                "the log ends at {} but {source} names record {}",
                last.seq, h.seq
            ),
        );
    }
    if legacy_through > last.seq {
        walk.broken(
            last.seq + 1,
            AuditProblem::Missing,
            format!(
                "the log ends at {} but its legacy records ran to {legacy_through}",
                last.seq
            ),
        );
    }
    if head.seq > last.seq {
        walk.broken(
            last.seq + 1,
            AuditProblem::Missing,
            format!(
                "the log ends at {} but its head is at {}",
                last.seq, head.seq
            ),
        );
    } else if head.seq == last.seq && head.hash != last.hash {
        walk.broken(
            last.seq,
            AuditProblem::Edited,
            "its hash does not match the log's head".to_owned(),
        );
    } else if head.seq < last.seq {
        walk.broken(
            head.seq + 1,
            AuditProblem::Edited,
            format!(
                "records after the head at {} were added outside the log",
                head.seq
            ),
        );
    }
    if !anchored && last.seq > legacy_through {
        walk.broken(
            last.seq,
            AuditProblem::Unanchored,
            match anchors.checkpoint {
                Some(path) => format!(
                    "the checkpoint file {} is missing, so a truncated log cannot be told from \
                     an intact one; pass --expect-head SEQ:HASH from a copy kept elsewhere",
                    path.display()
                ),
                None => "no checkpoint file and no expected head".to_owned(),
            },
        );
    }
    Ok(walk.report)
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
