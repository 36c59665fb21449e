//! The audit log's chain: each record carries the hash of the one before it, keyed with the
//! audit key (HMAC-SHA-256 over every column), so an edited, deleted or forged record is
//! detected by [`verify`](super::verify). Records of schema version 2 and older keep their
//! unkeyed links ([`legacy`](super::legacy)).

use hmac::Mac;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use warrant_core::store::{StoreError, duplicate_evaluation};

use super::key::{AuditKey, HmacSha256};
use crate::error::Context;

pub use warrant_core::audit::GENESIS;

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

    /// Appends a record after this head, keyed, and moves the head to it; returns its seq.
    ///
    /// # Errors
    ///
    /// `Duplicate` when the record is a second evaluation of its tool call id.
    pub(crate) fn append(
        &mut self,
        conn: &Connection,
        key: &AuditKey,
        record: &AuditRow,
    ) -> Result<u64, StoreError> {
        let seq = self.seq + 1;
        if record.evaluation {
            claim_evaluation(conn, &record.tool_call_id, seq)?;
        }
        let hash = keyed_link(key, seq, &self.hash, &record.columns());
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

/// Records that a tool call id is evaluated at `seq`, or fails naming the first evaluation.
fn claim_evaluation(conn: &Connection, tool_call_id: &str, seq: u64) -> Result<(), StoreError> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO evaluated_calls (tool_call_id, seq) VALUES (?1, ?2) \
             ON CONFLICT (tool_call_id) DO NOTHING",
        )
        .and_then(|mut s| s.execute(params![tool_call_id, seq]))
        .context("recording an evaluated tool call")?;
    if inserted == 1 {
        return Ok(());
    }
    let first = evaluation_of(conn, tool_call_id)?.unwrap_or(0);
    Err(duplicate_evaluation(tool_call_id, first))
}

/// The seq of a tool call id's evaluation record, if it was evaluated.
pub(crate) fn evaluation_of(
    conn: &Connection,
    tool_call_id: &str,
) -> Result<Option<u64>, StoreError> {
    conn.prepare_cached("SELECT seq FROM evaluated_calls WHERE tool_call_id = ?1")
        .and_then(|mut s| s.query_row([tool_call_id], |r| r.get(0)).optional())
        .context("looking up an evaluated tool call")
}

/// An audit record ready to append: its indexed columns and its canonical JSON.
#[derive(Debug, Clone)]
pub(crate) struct AuditRow {
    pub session_id: String,
    pub tool_call_id: String,
    pub at: i64,
    pub json: String,
    /// Whether it is an evaluation (at most one per tool call id).
    pub evaluation: bool,
}

impl AuditRow {
    fn columns(&self) -> Columns<'_> {
        Columns {
            session_id: &self.session_id,
            tool_call_id: &self.tool_call_id,
            at: self.at,
            record: &self.json,
        }
    }
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
