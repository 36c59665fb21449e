//! Configuration of the SQLite store.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use warrant_core::store::StoreError;

use crate::sqlite::SqliteStore;

/// The database's file name inside a data directory.
pub const DEFAULT_FILE_NAME: &str = "warrant.db";

/// How the SQLite store is opened. Every field has a default, so an empty configuration works.
///
/// ```
/// use warrant_stores::SqliteConfig;
///
/// let config = SqliteConfig::in_dir(".warrant").event_retention(500);
/// assert!(config.path.ends_with("warrant.db"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SqliteConfig {
    /// The database file; its directory is created when missing.
    pub path: PathBuf,
    /// How many of the latest events per session the event log keeps: SSE resumption reaches
    /// back this far (at least 1).
    pub event_retention: usize,
    /// How many permission decisions per message the fallback map keeps (the newest calls
    /// of the message win; at least 1).
    pub decision_map_limit: usize,
    /// The most writes one transaction commits: more waiting writers share one commit (one
    /// fsync) up to this many.
    pub max_batch: usize,
    /// How long a connection waits for a lock held by another process, in milliseconds.
    pub busy_timeout_ms: u64,
}

impl Default for SqliteConfig {
    fn default() -> Self {
        Self {
            path: Path::new(".warrant").join(DEFAULT_FILE_NAME),
            event_retention: 1_000,
            decision_map_limit: 256,
            max_batch: 512,
            busy_timeout_ms: 5_000,
        }
    }
}

impl SqliteConfig {
    /// The defaults, with the database at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            ..Self::default()
        }
    }

    /// The defaults, with the database `warrant.db` in `data_dir`.
    pub fn in_dir(data_dir: impl AsRef<Path>) -> Self {
        Self::new(data_dir.as_ref().join(DEFAULT_FILE_NAME))
    }

    /// Sets how many of the latest events per session the event log keeps.
    pub fn event_retention(mut self, events: usize) -> Self {
        self.event_retention = events;
        self
    }

    /// Sets how many permission decisions per message the fallback map keeps.
    pub fn decision_map_limit(mut self, decisions: usize) -> Self {
        self.decision_map_limit = decisions;
        self
    }

    /// Opens (creating and migrating when needed) the database this configuration names.
    ///
    /// # Errors
    ///
    /// See [`SqliteStore::with_config`].
    pub fn open(self) -> Result<SqliteStore, StoreError> {
        SqliteStore::with_config(self)
    }
}
