//! Verifying the audit log: walk the keyed chain, compare it with the checkpoint file and an
//! expected head, and name the first record that was edited, forged or deleted.

use std::path::Path;

use rusqlite::Connection;
use serde_json::Value;
use warrant_core::store::StoreError;

use super::chain::{Columns, Head, keyed_link_matches};
use super::checkpoint::{self, AuditHead};
use super::key::AuditKey;
use super::legacy::{LegacyBoundary, link_hash};
use super::report::{AuditProblem, AuditVerification};
use crate::audit_chain::{UNSOUND_KEYED, Walk};
use crate::error::Context;

/// Where the end of the log is known from, outside the database.
#[derive(Debug, Clone, Default)]
pub(crate) struct Anchors<'a> {
    /// The checkpoint file.
    pub checkpoint: Option<&'a Path>,
    /// A head the log must contain (`--expect-head`).
    pub expect: Option<&'a AuditHead>,
}

/// Walks the whole chain inside one read transaction and names the first broken record.
pub(crate) fn verify(
    conn: &Connection,
    key: &AuditKey,
    anchors: &Anchors<'_>,
) -> Result<AuditVerification, StoreError> {
    let tx = conn.unchecked_transaction().context("starting a read")?;
    let head = Head::load(&tx)?;
    let head = AuditHead {
        seq: head.seq,
        hash: head.hash,
    };
    let mut walk = Walk::new(&head, key.id());
    let legacy = match LegacyBoundary::load(&tx, key)? {
        Ok(boundary) => boundary,
        Err(evidence) => {
            walk.broken(1, AuditProblem::Edited, evidence);
            return Ok(walk.report);
        }
    };
    let legacy_through = legacy.as_ref().map_or(0, |b| b.through);
    walk.report.legacy_records = legacy_through;
    let checkpoint = match anchors.checkpoint {
        Some(path) => Some((path, checkpoint::read(path)?)),
        None => None,
    };
    if !walk.anchor(checkpoint, anchors.expect) {
        return Ok(walk.report);
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
        if !walk.link(seq, &prev_hash, self_consistent) {
            if !self_consistent && legacy_row {
                walk.broken(
                    seq,
                    AuditProblem::Edited,
                    "its contents do not match its (unkeyed, legacy) hash".to_owned(),
                );
            } else if !self_consistent {
                walk.broken(seq, AuditProblem::Edited, UNSOUND_KEYED.to_owned());
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
                    "it is not the last legacy record signed when the chain became keyed"
                        .to_owned(),
                );
            }
        }
        walk.meet_anchors(seq, &hash);
        if walk.is_broken() {
            return Ok(walk.report);
        }
        walk.last = AuditHead { seq, hash };
    }
    walk.end_of_records();
    let last = walk.last.seq;
    if legacy_through > last {
        walk.broken(
            last + 1,
            AuditProblem::Missing,
            format!("the log ends at {last} but its legacy records ran to {legacy_through}"),
        );
    }
    walk.end_at_head(&head, legacy_through);
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
