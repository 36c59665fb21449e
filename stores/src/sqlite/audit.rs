//! Reading the audit log: typed records for the engine, raw chained entries for
//! `warrant audit`.

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use warrant_core::audit::AuditRecord;
use warrant_core::store::{AuditQuery, StoreError, StoredAuditRecord};

use crate::error::{Context, corrupt};

/// One audit record as the log holds it: its seq, its link in the hash chain, and the
/// record's JSON exactly as stored (a string when the stored text is not JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// Its position (1 is the first).
    pub seq: u64,
    /// The hash of the record before it (64 zeros for the first).
    pub prev_hash: String,
    /// HMAC-SHA-256 (hex) under the audit key over every column of the row (seq,
    /// `prev_hash`, session, tool call id, `at`, the record); for a legacy record of schema
    /// version 2 or older, SHA-256 over `prev_hash`, a newline and the record's JSON.
    pub hash: String,
    /// The record.
    pub record: Value,
}

const SELECT_ALL: &str = "SELECT seq, prev_hash, hash, record FROM audit ORDER BY seq";
const SELECT_SESSION: &str =
    "SELECT seq, prev_hash, hash, record FROM audit WHERE session_id = ?1 ORDER BY seq";

/// The entries that match a query, oldest first. An entry whose record is not JSON matches
/// every query of its session, so damage is never hidden by a filter.
pub(crate) fn entries(
    conn: &Connection,
    query: &AuditQuery,
) -> Result<Vec<AuditEntry>, StoreError> {
    let mut out = Vec::new();
    each_row(conn, query, |seq, prev_hash, hash, record| {
        let record = match serde_json::from_str::<Value>(&record) {
            Ok(value) => {
                let typed = serde_json::from_value::<AuditRecord>(value.clone());
                if typed.is_ok_and(|r| !query.matches(&r)) {
                    return Ok(());
                }
                value
            }
            Err(_) => Value::String(record),
        };
        out.push(AuditEntry {
            seq,
            prev_hash,
            hash,
            record,
        });
        Ok(())
    })?;
    Ok(out)
}

/// The typed records that match a query, oldest first.
///
/// # Errors
///
/// A record that cannot be read is an error naming its seq.
pub(crate) fn records(
    conn: &Connection,
    query: &AuditQuery,
) -> Result<Vec<StoredAuditRecord>, StoreError> {
    let mut out = Vec::new();
    each_row(conn, query, |seq, _, _, record| {
        let record: AuditRecord = serde_json::from_str(&record).map_err(|e| {
            corrupt(
                format!("audit record {seq} cannot be read (run `warrant audit --verify`)"),
                e,
            )
        })?;
        if query.matches(&record) {
            out.push(StoredAuditRecord { seq, record });
        }
        Ok(())
    })?;
    Ok(out)
}

/// Calls `each` with every row of the query's session (or of all), oldest first; the
/// caller applies the rest of the query to the record.
fn each_row(
    conn: &Connection,
    query: &AuditQuery,
    mut each: impl FnMut(u64, String, String, String) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let session_id = query.session_id.as_deref();
    let sql = if session_id.is_some() {
        SELECT_SESSION
    } else {
        SELECT_ALL
    };
    let mut stmt = conn.prepare_cached(sql).context("reading the audit log")?;
    let mut rows = match session_id {
        Some(id) => stmt.query([id]),
        None => stmt.query([]),
    }
    .context("reading the audit log")?;
    while let Some(row) = rows.next().context("reading the audit log")? {
        each(
            row.get(0).context("audit seq")?,
            row.get(1).context("audit prev_hash")?,
            row.get(2).context("audit hash")?,
            row.get(3).context("audit record")?,
        )?;
    }
    Ok(())
}
