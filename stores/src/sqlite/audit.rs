//! Reading the audit log: typed records for the engine, raw chained entries for
//! `warrant audit`.

use rusqlite::Connection;
use rusqlite::types::Value as SqlValue;
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

/// The entries that match a query, oldest first. An entry whose record is not JSON matches
/// every query of its session, so damage is never hidden by a filter.
pub(crate) fn entries(
    conn: &Connection,
    query: &AuditQuery,
) -> Result<Vec<AuditEntry>, StoreError> {
    let mut out = Vec::new();
    let limit = query.limit.unwrap_or(usize::MAX);
    each_row(
        conn,
        query,
        Filters::Columns,
        |seq, prev_hash, hash, record| {
            if out.len() >= limit {
                return Ok(Flow::Stop);
            }
            let record = match serde_json::from_str::<Value>(&record) {
                Ok(value) => {
                    let typed = serde_json::from_value::<AuditRecord>(value.clone());
                    if typed.is_ok_and(|r| !query.matches(&r)) {
                        return Ok(Flow::Next);
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
            Ok(Flow::Next)
        },
    )?;
    if query.limit.is_some() {
        out.reverse();
    }
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
    let limit = query.limit.unwrap_or(usize::MAX);
    each_row(conn, query, Filters::All, |seq, _, _, record| {
        if out.len() >= limit {
            return Ok(Flow::Stop);
        }
        let record: AuditRecord = serde_json::from_str(&record).map_err(|e| {
            corrupt(
                format!("audit record {seq} cannot be read (run `warrant audit --verify`)"),
                e,
            )
        })?;
        if query.matches(&record) {
            out.push(StoredAuditRecord { seq, record });
        }
        Ok(Flow::Next)
    })?;
    if query.limit.is_some() {
        out.reverse();
    }
    Ok(out)
}

/// Which of a query's filters the SQL applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Filters {
    /// Only those on columns (session, seq, time): a row whose record is not JSON still
    /// reaches the caller.
    Columns,
    /// Also those on the record's JSON, as a prefilter the caller refines (a row whose
    /// record is not JSON passes it, so the caller sees the damage).
    All,
}

/// Whether [`each_row`] reads on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Next,
    Stop,
}

/// The `SELECT` of a query's rows and its parameters: the filters SQLite applies cheaply,
/// newest first when the query has a limit (so a page reads no further than it needs),
/// oldest first otherwise. The caller applies the whole query to each record.
fn select(query: &AuditQuery, filters: Filters) -> (String, Vec<SqlValue>) {
    let mut conditions: Vec<String> = Vec::new();
    let mut params: Vec<SqlValue> = Vec::new();
    let text = |value: &str| SqlValue::Text(value.to_owned());
    if let Some(id) = &query.session_id {
        conditions.push("session_id = ?".into());
        params.push(text(id.as_str()));
    }
    if let Some(before) = query.before_seq {
        conditions.push("seq < ?".into());
        params.push(SqlValue::Integer(i64::try_from(before).unwrap_or(i64::MAX)));
    }
    if let Some(since) = query.since {
        conditions.push("at >= ?".into());
        params.push(SqlValue::Integer(since));
    }
    if let Some(until) = query.until {
        conditions.push("at < ?".into());
        params.push(SqlValue::Integer(until));
    }
    if filters == Filters::All {
        let mut json: Vec<String> = Vec::new();
        if let Some(tool) = &query.tool_name {
            json.push("json_extract(record, '$.toolName') = ?".into());
            params.push(text(tool));
        }
        if let Some(kind) = query.kind {
            json.push("json_extract(record, '$.kind') = ?".into());
            params.push(text(kind.as_str()));
        }
        if let Some(outcome) = query.outcome {
            json.push(
                "(json_extract(record, '$.decision.behavior') = ? \
                 OR json_extract(record, '$.resolution.behavior') = ?)"
                    .into(),
            );
            params.push(text(outcome.as_str()));
            params.push(text(outcome.as_str()));
        }
        if let Some(source) = query.source {
            json.push("json_extract(record, '$.decision.source') = ?".into());
            params.push(text(source.as_str()));
        }
        match query
            .reason_code
            .as_deref()
            .map(|c| (c, c.strip_suffix('*')))
        {
            Some((_, Some(prefix))) => {
                json.push("substr(json_extract(record, '$.decision.reasonCode'), 1, ?) = ?".into());
                params.push(SqlValue::Integer(prefix.chars().count() as i64));
                params.push(text(prefix));
            }
            Some((code, None)) => {
                json.push("json_extract(record, '$.decision.reasonCode') = ?".into());
                params.push(text(code));
            }
            None => {}
        }
        // The record's JSON holds every text the filter searches, verbatim when the text
        // has nothing JSON escapes; SQLite's lower() folds ASCII only, as the filter does.
        if let Some(needle) = query.text.as_deref().filter(|t| {
            !t.is_empty()
                && t.bytes()
                    .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
        }) {
            json.push("instr(lower(record), ?) > 0".into());
            params.push(text(&needle.to_ascii_lowercase()));
        }
        if !json.is_empty() {
            conditions.push(format!(
                "(NOT json_valid(record) OR ({}))",
                json.join(" AND ")
            ));
        }
    }
    let mut sql = String::from("SELECT seq, prev_hash, hash, record FROM audit");
    if !conditions.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conditions.join(" AND "));
    }
    sql.push_str(if query.limit.is_some() {
        " ORDER BY seq DESC"
    } else {
        " ORDER BY seq"
    });
    (sql, params)
}

/// Calls `each` with the rows [`select`] picks until it answers [`Flow::Stop`]; the caller
/// applies the whole query to the record.
fn each_row(
    conn: &Connection,
    query: &AuditQuery,
    filters: Filters,
    mut each: impl FnMut(u64, String, String, String) -> Result<Flow, StoreError>,
) -> Result<(), StoreError> {
    let (sql, params) = select(query, filters);
    let mut stmt = conn.prepare_cached(&sql).context("reading the audit log")?;
    let mut rows = stmt
        .query(rusqlite::params_from_iter(params))
        .context("reading the audit log")?;
    while let Some(row) = rows.next().context("reading the audit log")? {
        let flow = each(
            row.get(0).context("audit seq")?,
            row.get(1).context("audit prev_hash")?,
            row.get(2).context("audit hash")?,
            row.get(3).context("audit record")?,
        )?;
        if flow == Flow::Stop {
            break;
        }
    }
    Ok(())
}
