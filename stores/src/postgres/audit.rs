//! The audit log on PostgreSQL: appending under the head row's lock, reading pages of
//! records, and verifying the keyed chain.

use std::path::Path;

use deadpool_postgres::ClientWrapper;
use tokio_postgres::IsolationLevel;
use tokio_postgres::types::ToSql;
use warrant_core::audit::GENESIS;
use warrant_core::audit::{AuditEvent, AuditHead, AuditProblem, AuditRecord, AuditVerification};
use warrant_core::store::{AuditQuery, StoreError, StoredAuditRecord, duplicate_evaluation};
use warrant_core::workspace::check_session_id;

use super::error::{Context, from_db, to_db};
use crate::audit_chain::{
    Columns, UNSOUND_KEYED, Walk, canonical_json, keyed_link, keyed_link_matches, read_checkpoints,
};
use crate::error::corrupt;
use crate::sqlite::{AuditEntry, AuditKey};

/// How many rows a read fetches from the server at a time.
const BATCH: i32 = 256;

/// An audit record ready to append: its indexed columns and its canonical JSON.
pub(crate) struct AuditRow {
    session_id: String,
    tool_call_id: String,
    at: i64,
    json: String,
    /// Whether it is an evaluation (at most one per tool call id).
    evaluation: bool,
}

impl AuditRow {
    /// Encodes a record, refusing an over-long session id.
    pub(crate) fn new(record: &AuditRecord) -> Result<Self, StoreError> {
        check_session_id(&record.session_id)?;
        let value = serde_json::to_value(record)
            .map_err(|e| corrupt("cannot encode an audit record", e))?;
        Ok(Self {
            session_id: record.session_id.as_str().to_owned(),
            tool_call_id: record.tool_call_id.as_str().to_owned(),
            at: record.at,
            json: canonical_json(&value),
            evaluation: matches!(record.event, AuditEvent::Evaluation { .. }),
        })
    }

    fn columns(&self) -> Columns<'_> {
        Columns {
            session_id: &self.session_id,
            tool_call_id: &self.tool_call_id,
            at: self.at,
            record: &self.json,
        }
    }
}

/// Appends a record after the chain's head, in one transaction holding the head row's lock,
/// and returns the new head once the commit is acknowledged.
///
/// # Errors
///
/// `Duplicate` (nothing written) for a second evaluation of a tool call id; any failure of
/// the transaction, its commit included, is an error: the record then counts as not written.
pub(crate) async fn append(
    client: &mut ClientWrapper,
    key: &AuditKey,
    row: &AuditRow,
) -> Result<AuditHead, StoreError> {
    let tx = client
        .transaction()
        .await
        .context("starting an audit append")?;
    let head = match append_in(&tx, key, row).await {
        Ok(head) => head,
        Err(e) => {
            tx.rollback().await.context("abandoning an audit append")?;
            return Err(e);
        }
    };
    tx.commit().await.context("committing an audit record")?;
    Ok(head)
}

/// Appends a record after the chain's head inside `tx`, which holds the head row's lock from
/// here to its end, and returns the new head (durable once `tx` commits).
///
/// # Errors
///
/// `Duplicate` for a second evaluation of a tool call id (nothing written by this call;
/// roll `tx` back); any failure of a statement.
pub(crate) async fn append_in(
    tx: &deadpool_postgres::Transaction<'_>,
    key: &AuditKey,
    row: &AuditRow,
) -> Result<AuditHead, StoreError> {
    let lock = tx
        .prepare_cached("SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE")
        .await
        .context("locking the audit head")?;
    let head = tx
        .query_opt(&lock, &[])
        .await
        .context("locking the audit head")?
        .ok_or_else(|| {
            corrupt(
                "the audit head",
                "its row is missing, so appends cannot be ordered (run `warrant audit --verify`)",
            )
        })?;
    let prev_seq = from_db(head.try_get(0).context("audit head seq")?, "audit head")?;
    let prev_hash: String = head.try_get(1).context("audit head hash")?;
    let seq = prev_seq + 1;
    if row.evaluation {
        let claim = tx
            .prepare_cached(
                "INSERT INTO evaluated_calls (tool_call_id, seq) VALUES ($1, $2) \
                 ON CONFLICT (tool_call_id) DO NOTHING",
            )
            .await
            .context("recording an evaluated tool call")?;
        let inserted = tx
            .execute(&claim, &[&row.tool_call_id, &to_db(seq)])
            .await
            .context("recording an evaluated tool call")?;
        if inserted == 0 {
            let first = tx
                .query_opt(
                    "SELECT seq FROM evaluated_calls WHERE tool_call_id = $1",
                    &[&row.tool_call_id],
                )
                .await
                .context("looking up an evaluated tool call")?
                .map(|r| r.try_get::<_, i64>(0))
                .transpose()
                .context("evaluated seq")?
                .map_or(Ok(0), |seq| from_db(seq, "evaluated call"))?;
            return Err(duplicate_evaluation(&row.tool_call_id, first));
        }
    }
    let hash = keyed_link(key, seq, &prev_hash, &row.columns());
    let insert = tx
        .prepare_cached(
            "INSERT INTO audit (seq, session_id, tool_call_id, at, record, prev_hash, hash) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .await
        .context("appending an audit record")?;
    tx.execute(
        &insert,
        &[
            &to_db(seq),
            &row.session_id,
            &row.tool_call_id,
            &row.at,
            &row.json,
            &prev_hash,
            &hash,
        ],
    )
    .await
    .context("appending an audit record")?;
    let advance = tx
        .prepare_cached("UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1")
        .await
        .context("moving the audit head")?;
    tx.execute(&advance, &[&to_db(seq), &hash])
        .await
        .context("moving the audit head")?;
    Ok(AuditHead { seq, hash })
}

/// The seq of a tool call id's evaluation record, if it was evaluated.
pub(crate) async fn evaluation_of(
    client: &ClientWrapper,
    tool_call_id: &str,
) -> Result<Option<u64>, StoreError> {
    let stmt = client
        .prepare_cached("SELECT seq FROM evaluated_calls WHERE tool_call_id = $1")
        .await
        .context("looking up an evaluated tool call")?;
    let row = client
        .query_opt(&stmt, &[&tool_call_id])
        .await
        .context("looking up an evaluated tool call")?;
    row.map(|r| from_db(r.try_get(0).context("evaluated seq")?, "evaluated call"))
        .transpose()
}

/// One row of the audit table.
struct Raw {
    seq: u64,
    session_id: String,
    tool_call_id: String,
    at: i64,
    record: String,
    prev_hash: String,
    hash: String,
}

impl Raw {
    fn read(row: &tokio_postgres::Row) -> Result<Self, StoreError> {
        Ok(Self {
            seq: from_db(row.try_get(0).context("audit seq")?, "audit seq")?,
            session_id: row.try_get(1).context("audit session")?,
            tool_call_id: row.try_get(2).context("audit tool_call_id")?,
            at: row.try_get(3).context("audit at")?,
            record: row.try_get(4).context("audit record")?,
            prev_hash: row.try_get(5).context("audit prev_hash")?,
            hash: row.try_get(6).context("audit hash")?,
        })
    }
}

/// Whether [`each_row`] reads on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Next,
    Stop,
}

/// Calls `each` with the rows of the query's column filters (session, seq, time) until it
/// answers [`Flow::Stop`]: newest first when the query has a limit, so a page reads no
/// further than it needs, oldest first otherwise. Rows come from the server in batches, in
/// one read-only snapshot. The caller applies the whole query to each record.
async fn each_row(
    client: &mut ClientWrapper,
    query: &AuditQuery,
    mut each: impl FnMut(Raw) -> Result<Flow, StoreError>,
) -> Result<(), StoreError> {
    let mut conditions: Vec<String> = Vec::new();
    let mut params: Vec<Box<dyn ToSql + Sync + Send>> = Vec::new();
    let mut param = |condition: &str, value: Box<dyn ToSql + Sync + Send>| {
        params.push(value);
        conditions.push(condition.replace('?', &format!("${}", params.len())));
    };
    if let Some(id) = &query.session_id {
        param("session_id = ?", Box::new(id.as_str().to_owned()));
    }
    if let Some(before) = query.before_seq {
        param("seq < ?", Box::new(to_db(before)));
    }
    if let Some(since) = query.since {
        param("at >= ?", Box::new(since));
    }
    if let Some(until) = query.until {
        param("at < ?", Box::new(until));
    }
    let mut sql = String::from(
        "SELECT seq, session_id, tool_call_id, at, record, prev_hash, hash FROM audit",
    );
    if !conditions.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conditions.join(" AND "));
    }
    sql.push_str(if query.limit.is_some() {
        " ORDER BY seq DESC"
    } else {
        " ORDER BY seq"
    });
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .context("starting a read")?;
    let stmt = tx
        .prepare_cached(&sql)
        .await
        .context("reading the audit log")?;
    let refs: Vec<&(dyn ToSql + Sync)> = params
        .iter()
        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
        .collect();
    let portal = tx
        .bind(&stmt, &refs)
        .await
        .context("reading the audit log")?;
    'batches: loop {
        let rows = tx
            .query_portal(&portal, BATCH)
            .await
            .context("reading the audit log")?;
        let done = rows.len() < BATCH as usize;
        for row in &rows {
            if each(Raw::read(row)?)? == Flow::Stop {
                break 'batches;
            }
        }
        if done {
            break;
        }
    }
    tx.commit().await.context("ending a read")
}

/// The typed records that match a query, oldest first.
///
/// # Errors
///
/// A record that cannot be read is an error naming its seq.
pub(crate) async fn records(
    client: &mut ClientWrapper,
    query: &AuditQuery,
) -> Result<Vec<StoredAuditRecord>, StoreError> {
    let mut out = Vec::new();
    let limit = query.limit.unwrap_or(usize::MAX);
    if limit == 0 {
        return Ok(out);
    }
    each_row(client, query, |raw| {
        let record: AuditRecord = serde_json::from_str(&raw.record).map_err(|e| {
            corrupt(
                format!(
                    "audit record {} cannot be read (run `warrant audit --verify`)",
                    raw.seq
                ),
                e,
            )
        })?;
        let stored = StoredAuditRecord {
            seq: raw.seq,
            record,
        };
        if query.matches_stored(&stored) {
            out.push(stored);
        }
        Ok(if out.len() >= limit {
            Flow::Stop
        } else {
            Flow::Next
        })
    })
    .await?;
    if query.limit.is_some() {
        out.reverse();
    }
    Ok(out)
}

/// The entries that match a query, oldest first. An entry whose record is not JSON matches
/// every query of its session, so damage is never hidden by a filter.
pub(crate) async fn entries(
    client: &mut ClientWrapper,
    query: &AuditQuery,
) -> Result<Vec<AuditEntry>, StoreError> {
    let mut out = Vec::new();
    let limit = query.limit.unwrap_or(usize::MAX);
    if limit == 0 {
        return Ok(out);
    }
    each_row(client, query, |raw| {
        let record = match serde_json::from_str::<serde_json::Value>(&raw.record) {
            Ok(value) => {
                let typed = serde_json::from_value::<AuditRecord>(value.clone());
                if typed.is_ok_and(|r| !query.matches(&r)) {
                    return Ok(Flow::Next);
                }
                value
            }
            Err(_) => serde_json::Value::String(raw.record),
        };
        out.push(AuditEntry {
            seq: raw.seq,
            prev_hash: raw.prev_hash,
            hash: raw.hash,
            record,
        });
        Ok(if out.len() >= limit {
            Flow::Stop
        } else {
            Flow::Next
        })
    })
    .await?;
    if query.limit.is_some() {
        out.reverse();
    }
    Ok(out)
}

/// Walks the whole chain in one snapshot, compares it with the checkpoint file and the
/// expected head, and names the first record that was edited, forged or deleted.
///
/// The checkpoint file is read before the snapshot is taken: every head it holds was
/// committed by then, so appends running meanwhile are never mistaken for a truncation.
pub(crate) async fn verify(
    client: &mut ClientWrapper,
    key: &AuditKey,
    checkpoint: Option<&Path>,
    expect: Option<&AuditHead>,
) -> Result<AuditVerification, StoreError> {
    let file = match checkpoint {
        Some(path) => Some((path.to_path_buf(), read_checkpoints(path)?)),
        None => None,
    };
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .context("starting a read")?;
    let head = match tx
        .query_opt("SELECT seq, hash FROM audit_head WHERE id = 1", &[])
        .await
        .context("reading the audit head")?
    {
        Some(row) => AuditHead {
            seq: from_db(row.try_get(0).context("audit head seq")?, "audit head")?,
            hash: row.try_get(1).context("audit head hash")?,
        },
        None => AuditHead {
            seq: 0,
            hash: GENESIS.to_owned(),
        },
    };
    let mut walk = Walk::new(&head, key.id());
    let (path, found) = file.unzip();
    if !walk.anchor(path.as_deref().zip(found), expect) {
        return Ok(walk.report);
    }

    let stmt = tx
        .prepare(
            "SELECT seq, session_id, tool_call_id, at, record, prev_hash, hash \
             FROM audit ORDER BY seq",
        )
        .await
        .context("reading the audit log")?;
    let portal = tx.bind(&stmt, &[]).await.context("reading the audit log")?;
    'batches: loop {
        let rows = tx
            .query_portal(&portal, BATCH)
            .await
            .context("reading the audit log")?;
        let done = rows.len() < BATCH as usize;
        for row in &rows {
            let raw = Raw::read(row)?;
            walk.report.records += 1;
            let columns = Columns {
                session_id: &raw.session_id,
                tool_call_id: &raw.tool_call_id,
                at: raw.at,
                record: &raw.record,
            };
            let seq = raw.seq;
            let sound = keyed_link_matches(key, seq, &raw.prev_hash, &columns, &raw.hash);
            if !walk.link(seq, &raw.prev_hash, sound) && !sound {
                walk.broken(seq, AuditProblem::Edited, UNSOUND_KEYED.to_owned());
            }
            walk.meet_anchors(seq, &raw.hash);
            if walk.is_broken() {
                break 'batches;
            }
            walk.last = AuditHead {
                seq,
                hash: raw.hash,
            };
        }
        if done {
            break;
        }
    }
    tx.commit().await.context("ending a read")?;
    if walk.report.first_bad.is_some() {
        return Ok(walk.report);
    }
    walk.end_of_records();
    walk.end_at_head(&head, 0);
    Ok(walk.report)
}
