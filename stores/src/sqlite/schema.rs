//! The schema and its versioned migrations, applied when a database opens.

use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};
use warrant_core::store::StoreError;

use super::key::AuditKey;
use super::legacy;
use crate::error::{Context, corrupt};

/// The schema version this build writes. A database at an older version is migrated when
/// it opens; one at a newer version is refused.
pub const SCHEMA_VERSION: u32 = 8;

/// One step of the schema, run inside the transaction that records its version, with the
/// audit key.
type Migration = fn(&Connection, &AuditKey) -> Result<(), StoreError>;

/// Every migration, in order: the one at index `i` takes a database from version `i` to
/// `i + 1`. Shipped migrations are never edited.
const MIGRATIONS: [Migration; SCHEMA_VERSION as usize] = [
    |tx, _| {
        tx.execute_batch(include_str!("schema_v1.sql"))
            .context("schema v1")
    },
    |tx, _| {
        tx.execute_batch(include_str!("schema_v2.sql"))
            .context("schema v2")?;
        legacy::backfill(tx)
    },
    |tx, key| {
        tx.execute_batch(include_str!("schema_v3.sql"))
            .context("schema v3")?;
        legacy::LegacyBoundary::mark(tx, key)
    },
    |tx, _| {
        tx.execute_batch(include_str!("schema_v4.sql"))
            .context("schema v4")
    },
    |tx, _| {
        tx.execute_batch(include_str!("schema_v5.sql"))
            .context("schema v5")
    },
    |tx, _| {
        tx.execute_batch(include_str!("schema_v6.sql"))
            .context("schema v6")
    },
    |tx, _| {
        tx.execute_batch(include_str!("schema_v7.sql"))
            .context("schema v7")
    },
    |tx, _| {
        tx.execute_batch(include_str!("schema_v8.sql"))
            .context("schema v8")
    },
];

/// Sets up a connection: WAL, full sync at commit (a commit is on disk when it returns),
/// foreign keys, and the busy timeout.
pub(crate) fn configure(conn: &Connection, busy_timeout: Duration) -> Result<(), StoreError> {
    conn.busy_timeout(busy_timeout).context("busy timeout")?;
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .context("journal mode")?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(corrupt(
            "sqlite journal mode",
            format!("the database refused WAL (it is in {mode} mode)"),
        ));
    }
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        .context("pragmas")
}

/// The schema version of a database (0 for a new one).
pub(crate) fn version(conn: &Connection) -> Result<u32, StoreError> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
        .context("reading the schema version")
}

/// Brings a database to [`SCHEMA_VERSION`], one version per transaction, and returns the
/// version it had.
///
/// # Errors
///
/// A database written by a newer build is refused rather than guessed at.
pub(crate) fn migrate(conn: &mut Connection, key: &AuditKey) -> Result<u32, StoreError> {
    let found = version(conn)?;
    check_not_newer(found)?;
    loop {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .context("starting a migration")?;
        // Read again under the write lock: another process may have migrated meanwhile.
        let current = version(&tx)?;
        check_not_newer(current)?;
        let Some(step) = MIGRATIONS.get(current as usize) else {
            return Ok(found);
        };
        step(&tx, key)?;
        tx.pragma_update(None, "user_version", current + 1)
            .context("recording the schema version")?;
        tx.commit().context("committing a migration")?;
        tracing::info!(
            from = current,
            to = current + 1,
            "migrated the database schema"
        );
    }
}

fn check_not_newer(version: u32) -> Result<(), StoreError> {
    if version > SCHEMA_VERSION {
        return Err(corrupt(
            "sqlite schema",
            format!(
                "the database is at schema version {version}, newer than the {SCHEMA_VERSION} \
                 this build knows; open it with a newer warrant"
            ),
        ));
    }
    Ok(())
}
