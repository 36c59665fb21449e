//! The schema and its versioned migrations, applied when a store connects.
//!
//! The version lives in the `schema_version` table (one row). Each migration runs in its own
//! transaction under an advisory lock, so instances starting together migrate once.

use tokio_postgres::Client;
use warrant_core::store::StoreError;

use super::error::Context;
use crate::error::corrupt;

/// The schema version this build writes. A database at an older version is migrated when a
/// store connects; one at a newer version is refused.
pub const SCHEMA_VERSION: u32 = 2;

/// Every migration, in order: the one at index `i` takes a database from version `i` to
/// `i + 1`. Shipped migrations are never edited.
const MIGRATIONS: [&str; SCHEMA_VERSION as usize] =
    [include_str!("schema_v1.sql"), include_str!("schema_v2.sql")];

/// The advisory lock key that serializes migrations ("warrant" in ASCII).
const MIGRATION_LOCK: i64 = 0x0077_6172_7261_6e74;

/// Brings the database to [`SCHEMA_VERSION`], one version per transaction, and returns the
/// version it had.
///
/// # Errors
///
/// A database written by a newer build is refused rather than guessed at.
pub(crate) async fn migrate(client: &mut Client) -> Result<u32, StoreError> {
    let mut found = None;
    loop {
        let tx = client.transaction().await.context("starting a migration")?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .context("locking the schema")?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_version (\
                 id INTEGER PRIMARY KEY CHECK (id = 1), \
                 version INTEGER NOT NULL)",
        )
        .await
        .context("creating the schema_version table")?;
        // Read under the lock: another instance may have migrated meanwhile.
        let current: i32 = tx
            .query_opt("SELECT version FROM schema_version WHERE id = 1", &[])
            .await
            .context("reading the schema version")?
            .map(|row| row.try_get(0))
            .transpose()
            .context("reading the schema version")?
            .unwrap_or(0);
        let current = u32::try_from(current).map_err(|_| {
            corrupt(
                "postgres schema",
                format!("the schema_version table holds {current}"),
            )
        })?;
        let found = *found.get_or_insert(current);
        if current > SCHEMA_VERSION {
            return Err(corrupt(
                "postgres schema",
                format!(
                    "the database is at schema version {current}, newer than the \
                     {SCHEMA_VERSION} this build knows; connect with a newer warrant"
                ),
            ));
        }
        let Some(step) = MIGRATIONS.get(current as usize) else {
            tx.commit().await.context("ending a migration")?;
            return Ok(found);
        };
        tx.batch_execute(step)
            .await
            .context(&format!("schema v{}", current + 1))?;
        let next = i32::try_from(current + 1).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO schema_version (id, version) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET version = excluded.version",
            &[&next],
        )
        .await
        .context("recording the schema version")?;
        tx.commit().await.context("committing a migration")?;
        tracing::info!(
            from = current,
            to = current + 1,
            "migrated the postgres schema"
        );
    }
}
