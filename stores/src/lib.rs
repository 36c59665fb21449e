//! Warrant's stores: where decisions, tool parts, approvals and the audit log are kept.
//!
//! Three stores implement [`Store`](warrant_core::store::Store):
//!
//! - [`memory`]: everything in memory, nothing survives the process (core's
//!   [`MemoryStore`](warrant_core::store::MemoryStore), re-exported);
//! - [`sqlite`]: the embedded default, one SQLite file in WAL mode, with versioned migrations,
//!   an audit log chained with an HMAC whose key lives outside the database, sessions as
//!   rows of their own, and grouped commits;
//! - `postgres` (feature `postgres`, on by default): one PostgreSQL database shared by
//!   several instances, with the same keyed audit chain kept gap-free across them.
//!
//! All pass the same behaviour suite (`warrant_testkit::store`, run by `tests/behaviour/`); a
//! new store proves itself by passing it too.
//!
//! ```no_run
//! # async fn run() -> Result<(), warrant_core::store::StoreError> {
//! use warrant_core::store::Approvals;
//! use warrant_stores::sqlite::SqliteStore;
//!
//! let store = SqliteStore::open(".warrant/warrant.db")?;
//! let report = store.verify_audit().await?;
//! assert!(report.is_intact(), "{report}");
//! let pending = store.pending_approvals().await?;
//! # let _ = pending;
//! # Ok(())
//! # }
//! ```

mod audit_chain;
mod config;
mod error;
mod files;
mod plugin;
#[cfg(feature = "postgres")]
pub mod postgres;
mod rows;
pub mod sqlite;
mod stored_part;

pub use config::{
    CHECKPOINT_FILE_SUFFIX, DEFAULT_FILE_NAME, DEFAULT_SESSION_IDLE_EXPIRY_SECS, KEY_FILE_SUFFIX,
    SqliteConfig,
};
#[cfg(feature = "postgres")]
pub use postgres::{PostgresConfig, PostgresStore};

/// The in-memory store, for tests and for embedding without persistence.
pub mod memory {
    pub use warrant_core::store::{DEFAULT_EVENT_RETENTION, MemoryStore};
}
