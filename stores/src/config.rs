//! Configuration of the SQLite store.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use warrant_core::store::StoreError;

use crate::sqlite::{AuditKey, SqliteStore};

/// The database's file name inside a data directory.
pub const DEFAULT_FILE_NAME: &str = "warrant.db";

/// What the audit key file's name adds to the database's (`warrant.db.audit-key`).
pub const KEY_FILE_SUFFIX: &str = ".audit-key";

/// What the checkpoint file's name adds to the database's (`warrant.db.audit-head`).
pub const CHECKPOINT_FILE_SUFFIX: &str = ".audit-head";

/// How long a blank session with no content is kept after its last write unless configured:
/// 30 days, in seconds.
pub const DEFAULT_SESSION_IDLE_EXPIRY_SECS: u64 = 30 * 24 * 3600;

/// How the SQLite store is opened. Every field has a default, so an empty configuration works.
///
/// The audit key is, in order: [`audit_key`](Self::audit_key) when set, the
/// `WARRANT_AUDIT_KEY` environment variable (hex), the key file (created with mode 0600 when
/// neither exists and the log holds no keyed record yet). `Debug` never shows the key.
///
/// ```
/// use warrant_stores::SqliteConfig;
///
/// let config = SqliteConfig::in_dir(".warrant").event_retention(500);
/// assert!(config.path.ends_with("warrant.db"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SqliteConfig {
    /// The database file; its directory is created when missing.
    pub path: PathBuf,
    /// How many of the latest events per session the event log keeps: SSE resumption reaches
    /// back this far (at least 1).
    pub event_retention: usize,
    /// Of how many of each message's newest calls the fallback map keeps the permission
    /// decision (at least 1).
    pub decision_map_limit: usize,
    /// The most writes one transaction commits: more waiting writers share one commit (one
    /// fsync) up to this many.
    pub max_batch: usize,
    /// How long a connection waits for a lock held by another process, in milliseconds.
    pub busy_timeout_ms: u64,
    /// How many frames (pages) the WAL holds before a thread of the store copies them into the
    /// database file (a checkpoint; at least 1). The writer checkpoints itself only at
    /// [`WRITER_BOUND_FACTOR`](crate::sqlite::WRITER_BOUND_FACTOR) times as many, when that
    /// thread falls behind. Checkpoints are not part of a commit's durability: a commit is on
    /// disk in the WAL when it returns.
    pub checkpoint_pages: u32,
    /// The audit key file; `None`: beside the database, named after it plus
    /// [`KEY_FILE_SUFFIX`]. Put it elsewhere (another disk, another owner) so that whoever
    /// can write the database cannot also read the key.
    pub audit_key_file: Option<PathBuf>,
    /// The append-only checkpoint file of the audit head; `None`: beside the database, named
    /// after it plus [`CHECKPOINT_FILE_SUFFIX`].
    pub checkpoint_file: Option<PathBuf>,
    /// Blank sessions with no message, approval, grant or recent event expire this many
    /// seconds after their last write, when the store opens (0: never).
    pub session_idle_expiry_secs: u64,
    /// The audit key itself, for embedders that keep it in a secret store; never read from
    /// or written to a configuration file.
    #[serde(skip)]
    pub audit_key: Option<AuditKey>,
}

impl Default for SqliteConfig {
    fn default() -> Self {
        Self {
            path: Path::new(".warrant").join(DEFAULT_FILE_NAME),
            event_retention: 1_000,
            decision_map_limit: 256,
            max_batch: 512,
            busy_timeout_ms: 5_000,
            checkpoint_pages: crate::sqlite::DEFAULT_CHECKPOINT_PAGES,
            audit_key_file: None,
            checkpoint_file: None,
            session_idle_expiry_secs: DEFAULT_SESSION_IDLE_EXPIRY_SECS,
            audit_key: None,
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

    /// Sets how many WAL frames wait before the checkpoint thread copies them into the
    /// database file.
    pub fn checkpoint_pages(mut self, pages: u32) -> Self {
        self.checkpoint_pages = pages;
        self
    }

    /// Sets the audit key (instead of `WARRANT_AUDIT_KEY` or the key file).
    pub fn audit_key(mut self, key: AuditKey) -> Self {
        self.audit_key = Some(key);
        self
    }

    /// Sets how long blank sessions without content are kept after their last write.
    pub fn session_idle_expiry_secs(mut self, secs: u64) -> Self {
        self.session_idle_expiry_secs = secs;
        self
    }

    /// The audit key file this configuration uses.
    pub fn key_file_path(&self) -> PathBuf {
        self.audit_key_file
            .clone()
            .unwrap_or_else(|| beside(&self.path, KEY_FILE_SUFFIX))
    }

    /// The checkpoint file this configuration uses.
    pub fn checkpoint_path(&self) -> PathBuf {
        self.checkpoint_file
            .clone()
            .unwrap_or_else(|| beside(&self.path, CHECKPOINT_FILE_SUFFIX))
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

/// `path` with `suffix` added to its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}
