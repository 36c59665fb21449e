//! The audit log's chain: each record carries the hash of the one before it, keyed with the
//! audit key (HMAC-SHA-256 over every column), so an edited, deleted or forged record is
//! detected by [`verify`](super::verify). Records of schema version 2 and older keep their
//! unkeyed links ([`legacy`](super::legacy)).

use rusqlite::{Connection, OptionalExtension, Statement, params};
use warrant_core::audit::{AuditEvent, AuditRecord};
use warrant_core::store::{StoreError, duplicate_evaluation};
use warrant_core::workspace::check_session_id;

use super::key::AuditKey;
use super::writer::Statements;
use crate::error::{Context, corrupt};

pub use warrant_core::audit::GENESIS;

pub(crate) use crate::audit_chain::{Columns, canonical_json_of, keyed_link, keyed_link_matches};

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
            .prepare_cached("SELECT seq, hash FROM audit_head WHERE id = 1")
            .and_then(|mut s| {
                s.query_row([], |r| {
                    Ok(Head {
                        seq: r.get(0)?,
                        hash: r.get(1)?,
                    })
                })
                .optional()
            })
            .context("reading the audit head")?;
        Ok(head.unwrap_or(Head {
            seq: 0,
            hash: GENESIS.to_owned(),
        }))
    }

    /// Appends a record after this head, keyed, and moves the head to it (in memory: see
    /// [`store`](Self::store)); returns its seq.
    ///
    /// # Errors
    ///
    /// `Duplicate` when the record is a second evaluation of its tool call id.
    pub(crate) fn append(
        &mut self,
        conn: &Connection,
        statements: &mut Statements<'_>,
        key: &AuditKey,
        record: &AuditRow,
    ) -> Result<u64, StoreError> {
        let seq = self.seq + 1;
        if record.evaluation {
            claim_evaluation(
                conn,
                &mut statements.claim_evaluation,
                &record.tool_call_id,
                seq,
            )?;
        }
        let hash = keyed_link(key, seq, &self.hash, &record.columns());
        statements
            .append_audit
            .execute(params![
                seq,
                record.session_id,
                record.tool_call_id,
                record.at,
                record.json,
                self.hash,
                hash
            ])
            .context("appending an audit record")?;
        *self = Head { seq, hash };
        Ok(seq)
    }

    /// Writes this head as the database's (once per transaction, after its appends: the
    /// appends of a transaction only move the head in memory).
    pub(crate) fn store(&self, conn: &Connection) -> Result<(), StoreError> {
        conn.prepare_cached(
            "INSERT INTO audit_head (id, seq, hash) VALUES (1, ?1, ?2) \
             ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash",
        )
        .and_then(|mut s| s.execute(params![self.seq, self.hash]))
        .context("moving the audit head")?;
        Ok(())
    }
}

/// Appends an audit record (see [`Head::append`]).
pub(crate) const APPEND_AUDIT: &str = "INSERT INTO audit (seq, session_id, tool_call_id, at, record, prev_hash, hash) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/// Claims a tool call id's evaluation (see [`claim_evaluation`]).
/// The claim is the id's kind-0 row of `calls`, beside its parts' rows (schema version 8).
pub(crate) const CLAIM_EVALUATION: &str = "INSERT INTO calls (tool_call_id, kind, message, target) \
     VALUES (?1, 0, 0, ?2) ON CONFLICT (tool_call_id, kind, message) DO NOTHING";

/// Records that a tool call id is evaluated at `seq`, or fails naming the first evaluation.
fn claim_evaluation(
    conn: &Connection,
    claim: &mut Statement<'_>,
    tool_call_id: &str,
    seq: u64,
) -> Result<(), StoreError> {
    let inserted = claim
        .execute(params![tool_call_id, seq])
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
    conn.prepare_cached(
        "SELECT target FROM calls WHERE tool_call_id = ?1 AND kind = 0 AND message = 0",
    )
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
    /// Encodes a record: its canonical JSON and its indexed columns. Refuses an over-long
    /// session id.
    pub(crate) fn new(record: AuditRecord) -> Result<Self, StoreError> {
        check_session_id(&record.session_id)?;
        let json =
            canonical_json_of(&record).map_err(|e| corrupt("cannot encode an audit record", e))?;
        Ok(Self {
            json,
            evaluation: matches!(record.event, AuditEvent::Evaluation { .. }),
            session_id: record.session_id.into_string(),
            tool_call_id: record.tool_call_id.into_string(),
            at: record.at,
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::audit_chain::canonical_json;

    /// The encoding the audit chain was first hashed with: keys and scalars through
    /// `to_string`. The chain's hashes depend on the text staying exactly this.
    fn reference(value: &Value, out: &mut String) {
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
                    reference(value, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    reference(item, out);
                }
                out.push(']');
            }
            scalar => out.push_str(&scalar.to_string()),
        }
    }

    #[test]
    fn the_canonical_text_is_unchanged() {
        let samples = [
            json!(null),
            json!(true),
            json!(-12.5e-7),
            json!(u64::MAX),
            json!(i64::MIN),
            json!("quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é ☃ 𝄞"),
            json!({"z": 1, "a": [1, 2.5, "x", {"k\"ey": null, "b": false}], "m": {}, "é": []}),
            json!([{"b": {"d": 1, "c": 2}, "a": "\u{1f}"}, [], [[]], 0.1, 1e300]),
        ];
        for value in samples {
            let mut expected = String::new();
            reference(&value, &mut expected);
            assert_eq!(canonical_json(&value), expected, "{value}");
        }
    }
}
