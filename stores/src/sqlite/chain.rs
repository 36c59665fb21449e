//! The audit log's hash chain: each record carries the hash of the one before it, so an
//! edited, deleted or truncated record is detected by [`verify`](super::verify).

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use sha2::{Digest, Sha256};
use warrant_core::store::StoreError;

use crate::error::Context;

/// The `prev_hash` of the first record.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The record's JSON as it is stored and hashed: object keys sorted, no whitespace, so the
/// same record always has the same text.
pub(crate) fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The hash of a record: SHA-256 (hex) over the previous hash, a newline, and the record's
/// stored JSON.
pub(crate) fn link_hash(prev_hash: &str, record_json: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(prev_hash.as_bytes());
    hasher.update(b"\n");
    hasher.update(record_json.as_bytes());
    hex::encode(hasher.finalize())
}

/// The last link of the chain: its seq and hash (`0` and [`GENESIS`] for an empty log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Head {
    pub seq: u64,
    pub hash: String,
}

impl Head {
    /// The head the database records.
    pub(crate) fn load(conn: &Connection) -> Result<Head, StoreError> {
        let head = conn
            .query_row("SELECT seq, hash FROM audit_head WHERE id = 1", [], |r| {
                Ok(Head {
                    seq: r.get(0)?,
                    hash: r.get(1)?,
                })
            })
            .optional()
            .context("reading the audit head")?;
        Ok(head.unwrap_or(Head {
            seq: 0,
            hash: GENESIS.to_owned(),
        }))
    }

    /// Appends a record after this head and moves the head to it; returns its seq.
    pub(crate) fn append(
        &mut self,
        conn: &Connection,
        record: &AuditRow,
    ) -> Result<u64, StoreError> {
        let seq = self.seq + 1;
        let hash = link_hash(&self.hash, &record.json);
        conn.prepare_cached(
            "INSERT INTO audit (seq, session_id, tool_call_id, at, record, prev_hash, hash) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .and_then(|mut s| {
            s.execute(params![
                seq,
                record.session_id,
                record.tool_call_id,
                record.at,
                record.json,
                self.hash,
                hash
            ])
        })
        .context("appending an audit record")?;
        conn.prepare_cached(
            "INSERT INTO audit_head (id, seq, hash) VALUES (1, ?1, ?2) \
             ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash",
        )
        .and_then(|mut s| s.execute(params![seq, hash]))
        .context("moving the audit head")?;
        *self = Head { seq, hash };
        Ok(seq)
    }
}

/// An audit record ready to append: its indexed columns and its canonical JSON.
#[derive(Debug, Clone)]
pub(crate) struct AuditRow {
    pub session_id: String,
    pub tool_call_id: String,
    pub at: i64,
    pub json: String,
}

/// Chains the records written before the chain existed (schema version 1), in seq order.
pub(crate) fn backfill(conn: &Connection) -> Result<(), StoreError> {
    let mut head = Head {
        seq: 0,
        hash: GENESIS.to_owned(),
    };
    let mut rows = Vec::new();
    {
        let mut stmt = conn
            .prepare("SELECT seq, record FROM audit ORDER BY seq")
            .context("reading audit records to chain")?;
        let mut cursor = stmt.query([]).context("reading audit records to chain")?;
        while let Some(row) = cursor.next().context("reading audit records to chain")? {
            let seq: u64 = row.get(0).context("audit seq")?;
            let record: String = row.get(1).context("audit record")?;
            let hash = link_hash(&head.hash, &record);
            rows.push((seq, head.hash.clone(), hash.clone()));
            head = Head { seq, hash };
        }
    }
    for (seq, prev, hash) in rows {
        conn.execute(
            "UPDATE audit SET prev_hash = ?2, hash = ?3 WHERE seq = ?1",
            params![seq, prev, hash],
        )
        .context("chaining an audit record")?;
    }
    if head.seq > 0 {
        conn.execute(
            "INSERT INTO audit_head (id, seq, hash) VALUES (1, ?1, ?2)",
            params![head.seq, head.hash],
        )
        .context("recording the audit head")?;
    }
    Ok(())
}
