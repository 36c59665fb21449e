//! The records of schema versions 1 and 2, written before the chain was keyed: their unkeyed
//! SHA-256 links, and the boundary, signed with the audit key when the chain became keyed,
//! that says how far they run.

use hmac::Mac;
use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};
use warrant_core::store::StoreError;

use super::chain::{GENESIS, Head};
use super::key::{AuditKey, HmacSha256};
use super::meta;
use crate::error::Context;

/// The unkeyed hash of a legacy record (schema version 2): SHA-256 (hex) over the previous
/// hash, a newline, and the record's stored JSON.
pub(crate) fn link_hash(prev_hash: &str, record_json: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(prev_hash.as_bytes());
    hasher.update(b"\n");
    hasher.update(record_json.as_bytes());
    hex::encode(hasher.finalize())
}

/// The records written before the chain was keyed (schema version 2 and older): `1..=through`,
/// ending at `hash`. The boundary is signed with the audit key, so it cannot be moved to pass
/// keyed records off as legacy ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LegacyBoundary {
    pub through: u64,
    pub hash: String,
}

const LEGACY_META: &str = "legacy_through";

impl LegacyBoundary {
    fn tag_mac(&self, key: &AuditKey) -> HmacSha256 {
        let mut mac = key.mac();
        let through = self.through.to_string();
        let fields: [&[u8]; 3] = [
            b"warrant audit legacy boundary",
            through.as_bytes(),
            self.hash.as_bytes(),
        ];
        for field in fields {
            mac.update(&(field.len() as u64).to_be_bytes());
            mac.update(field);
        }
        mac
    }

    fn tag(&self, key: &AuditKey) -> String {
        hex::encode(self.tag_mac(key).finalize().into_bytes())
    }

    /// Signs the unkeyed records of an older schema as legacy, once, when the chain becomes
    /// keyed (nothing to sign for an empty log).
    pub(crate) fn mark(conn: &Connection, key: &AuditKey) -> Result<(), StoreError> {
        let head = Head::load(conn)?;
        if head.seq == 0 {
            return Ok(());
        }
        let boundary = LegacyBoundary {
            through: head.seq,
            hash: head.hash,
        };
        let value = format!(
            "{}:{}:{}",
            boundary.through,
            boundary.hash,
            boundary.tag(key)
        );
        meta::set(conn, LEGACY_META, &value)
    }

    /// The boundary the database records: `Ok(None)` when there is none, `Err` with the
    /// evidence when one is recorded but not signed by this key.
    pub(crate) fn load(
        conn: &Connection,
        key: &AuditKey,
    ) -> Result<Result<Option<Self>, String>, StoreError> {
        let Some(value) = meta::get(conn, LEGACY_META)? else {
            return Ok(Ok(None));
        };
        let mut parts = value.splitn(3, ':');
        let (Some(through), Some(hash), Some(tag)) = (parts.next(), parts.next(), parts.next())
        else {
            return Ok(Err(format!(
                "the legacy boundary \"{value}\" is not SEQ:HASH:TAG"
            )));
        };
        let Ok(through) = through.parse::<u64>() else {
            return Ok(Err(format!(
                "the legacy boundary's seq \"{through}\" is not a number"
            )));
        };
        let boundary = LegacyBoundary {
            through,
            hash: hash.to_owned(),
        };
        let signed = hex::decode(tag).is_ok_and(|t| boundary.tag_mac(key).verify_slice(&t).is_ok());
        if !signed {
            return Ok(Err(format!(
                "the legacy boundary at record {through} is not signed with the audit key"
            )));
        }
        Ok(Ok(Some(boundary)))
    }
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
