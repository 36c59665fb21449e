//! The `audit_meta` table: small named values of the audit chain.

use rusqlite::{Connection, OptionalExtension, params};
use warrant_core::store::StoreError;

use crate::error::Context;

/// The id of the key the log is written with.
pub(crate) const KEY_ID: &str = "key_id";

/// A value, `None` when unset or when the table does not exist yet (older schema).
pub(crate) fn get(conn: &Connection, name: &str) -> Result<Option<String>, StoreError> {
    let exists: bool = conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_meta')",
            [],
            |r| r.get(0),
        )
        .context("reading the audit metadata")?;
    if !exists {
        return Ok(None);
    }
    conn.query_row(
        "SELECT value FROM audit_meta WHERE name = ?1",
        [name],
        |r| r.get(0),
    )
    .optional()
    .context("reading the audit metadata")
}

/// Sets a value.
pub(crate) fn set(conn: &Connection, name: &str, value: &str) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO audit_meta (name, value) VALUES (?1, ?2) \
         ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        params![name, value],
    )
    .context("writing the audit metadata")
    .map(drop)
}
