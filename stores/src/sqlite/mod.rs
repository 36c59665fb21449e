//! The SQLite store: one database file in WAL mode, the embedded default.
//!
//! # Layout (schema version 2)
//!
//! | table | holds |
//! |---|---|
//! | `audit` | the append-only audit log: `seq`, the record's canonical JSON, and its link in the hash chain (`prev_hash`, `hash`) |
//! | `audit_head` | the chain's last link, written with every append, so a truncated tail shows |
//! | `messages`, `tool_parts` | messages and their tool parts as JSON (`permissionDecision` and `permissionResolution` included), in order |
//! | `part_decisions` | the per-message decision map, bounded to the newest calls of each message: it serves a part whose JSON cannot be restored |
//! | `pending_approvals` | unresolved approval requests only; a request leaves when it is resolved or expired |
//! | `grants` | standing approvals from `session` and `global` resolutions |
//! | `workspace` | the workspace state (settings, patterns, sessions) as one JSON document, so fields added to it need no migration |
//! | `events` | each session's event log for SSE resumption, bounded to the latest events per session |
//!
//! # Durability
//!
//! One writer thread owns the write connection. Every write waits until the transaction
//! holding it is committed with `synchronous = FULL`; the writes that queue while one commit
//! reaches the disk are committed together in the next, so concurrent decisions share fsyncs.

mod audit;
mod chain;
mod parts;
mod readers;
mod records;
mod schema;
mod verify;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::Connection;
use warrant_core::audit::AuditRecord;
use warrant_core::event::Event;
use warrant_core::grant::Grant;
use warrant_core::part::{Message, ToolPart};
use warrant_core::store::{
    AuditQuery, PendingApproval, Store, StoreError, StoredAuditRecord, StoredEvent,
};
use warrant_core::workspace::WorkspaceState;

pub use audit::AuditEntry;
pub use chain::GENESIS;
pub use schema::SCHEMA_VERSION;
pub use verify::{AuditBreak, AuditProblem, AuditVerification};

use self::chain::{AuditRow, canonical_json};
use self::readers::Readers;
use self::records::{EventRow, PendingRow};
use self::writer::{Limits, Write, Writer};
use crate::config::SqliteConfig;
use crate::error::{Context, corrupt, to_json, unavailable};

/// The SQLite store. See the [module documentation](self) for its tables.
///
/// Share it as an `Arc<dyn Store>`; dropping the last handle finishes the writes in flight
/// and closes the database.
pub struct SqliteStore {
    path: PathBuf,
    migrated_from: u32,
    writer: Writer,
    readers: Arc<Readers>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl SqliteStore {
    /// Opens the database at `path` with the default configuration, creating it (and its
    /// directory) when missing and migrating it to [`SCHEMA_VERSION`].
    ///
    /// # Errors
    ///
    /// See [`SqliteStore::with_config`].
    pub fn open(path: impl Into<PathBuf>) -> Result<Self, StoreError> {
        Self::with_config(SqliteConfig::new(path))
    }

    /// Opens the database a configuration names, creating and migrating it when needed.
    ///
    /// # Errors
    ///
    /// `Unavailable` when the file cannot be created or opened; `Corrupt` when it is not a
    /// database, refuses WAL, or was written by a newer schema version.
    pub fn with_config(config: SqliteConfig) -> Result<Self, StoreError> {
        let path = config.path.clone();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| unavailable(format!("creating {}", dir.display()), e))?;
        }
        let busy_timeout = Duration::from_millis(config.busy_timeout_ms);
        let mut conn = Connection::open(&path).context(&format!("opening {}", path.display()))?;
        schema::configure(&conn, busy_timeout)?;
        let migrated_from = schema::migrate(&mut conn)?;
        let limits = Limits {
            event_retention: config.event_retention.max(1),
            decision_map_limit: config.decision_map_limit.max(1),
            max_batch: config.max_batch.max(1),
        };
        Ok(Self {
            writer: Writer::spawn(conn, limits)?,
            readers: Readers::new(path.clone(), busy_timeout),
            path,
            migrated_from,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version the database had when it was opened (0 for a new file).
    pub fn migrated_from(&self) -> u32 {
        self.migrated_from
    }

    /// The audit log's entries that match a query, with their hash chain, oldest first:
    /// what `warrant audit` prints as JSON lines.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the database cannot be read.
    pub async fn audit_entries(&self, query: &AuditQuery) -> Result<Vec<AuditEntry>, StoreError> {
        let query = query.clone();
        self.readers.run(move |c| audit::entries(c, &query)).await
    }

    /// Walks the audit log's hash chain and names the first record that was edited or
    /// deleted, if any.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the database cannot be read; a broken chain is a report, not
    /// an error.
    pub async fn verify_audit(&self) -> Result<AuditVerification, StoreError> {
        self.readers.run(verify::verify).await
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        let value = serde_json::to_value(&record)
            .map_err(|e| corrupt("cannot encode an audit record", e))?;
        let row = AuditRow {
            json: canonical_json(&value),
            session_id: record.session_id,
            tool_call_id: record.tool_call_id,
            at: record.at,
        };
        self.writer.submit(Write::Audit(row)).await
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        let query = query.clone();
        self.readers.run(move |c| audit::records(c, &query)).await
    }

    async fn upsert_tool_part(
        &self,
        session_id: &str,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        let row = parts::PartRow::new(session_id, message_id, part)?;
        self.writer.submit(Write::ToolPart(row)).await.map(drop)
    }

    async fn messages(&self, session_id: &str) -> Result<Vec<Message>, StoreError> {
        let session = session_id.to_owned();
        self.readers
            .run(move |c| parts::messages(c, &session))
            .await
    }

    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        let row = PendingRow::new(pending)?;
        self.writer.submit(Write::PutPending(row)).await.map(drop)
    }

    async fn remove_pending_approval(&self, tool_call_id: &str) -> Result<(), StoreError> {
        let write = Write::RemovePending(tool_call_id.to_owned());
        self.writer.submit(write).await.map(drop)
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.readers.run(records::pending).await
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        let write = Write::Grant {
            session_id: grant.session_id.clone(),
            body: to_json("a grant", grant)?,
        };
        self.writer.submit(write).await.map(drop)
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.readers.run(records::grants).await
    }

    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.readers.run(records::load_workspace).await
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        let write = Write::Workspace(to_json("the workspace state", workspace)?);
        self.writer.submit(write).await.map(drop)
    }

    async fn append_event(&self, session_id: &str, event: &Event) -> Result<u64, StoreError> {
        let row = EventRow::new(session_id, event)?;
        self.writer.submit(Write::Event(row)).await
    }

    async fn events_since(
        &self,
        session_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let session = session_id.to_owned();
        self.readers
            .run(move |c| records::events_since(c, &session, after_seq, limit))
            .await
    }
}
