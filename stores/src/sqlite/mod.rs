//! The SQLite store: one database file in WAL mode, the embedded default.
//!
//! # Layout (schema version 8)
//!
//! | table | holds |
//! |---|---|
//! | `audit` | the append-only audit log: `seq`, session, tool call id, `at`, the record's canonical JSON, and its link in the chain (`prev_hash`, `hash`: HMAC-SHA-256 under the audit key over every column) |
//! | `audit_head` | the chain's last link, written by every commit that appends; also appended to the checkpoint file outside the database, so a truncated or emptied log shows |
//! | `audit_meta` | the audit key's id (never the key) and the signed boundary of the legacy, unkeyed records of older schemas |
//! | `calls` | a tool call id's entries side by side, keyed by the id: its evaluation (kind 0, the audit seq of its record) once, so an id is never evaluated twice, restarts included; and its part in each message that holds one (kind 1, the message and the part's row id), at most one per message. A decision's claim and its part's entry dirty one leaf |
//! | `messages`, `tool_parts` | messages and their tool parts as JSON (`permissionDecision` and `permissionResolution` included), in order (found by message through `tool_parts_by_ordinal`, and by tool call id through `calls`); the part's `decision` and `resolution` columns are the per-message decision map, kept for the newest calls of each message only (those above the message's `map_floor`): it serves a part whose JSON cannot be restored |
//! | `pending_approvals` | unresolved approval requests only; a request leaves when it is resolved or expired |
//! | `grants` | standing approvals from `session` and `global` resolutions |
//! | `workspace` | the workspace settings and patterns as one JSON document, so fields added to it need no migration |
//! | `sessions` | one row per session (its JSON and when it was last written): a new session is one insert |
//! | `events` | each session's event log for SSE resumption, bounded to the latest events per session; rows in the order they were appended, a session's found through the unique index `events_by_session` (session, seq), so a commit of many sessions' events fills the table's last pages |
//!
//! # Files
//!
//! Beside the database (`warrant.db`): its WAL and shared memory, the audit key file
//! (`warrant.db.audit-key`, unless `WARRANT_AUDIT_KEY` or the configuration supplies the key)
//! and the checkpoint file (`warrant.db.audit-head`), all mode 0600; a data directory the
//! store creates is 0700.
//!
//! # Durability
//!
//! One writer thread owns the write connection. Every write waits until the transaction
//! holding it is committed with `synchronous = FULL`; the writes that queue while one commit
//! reaches the disk are committed together in the next, so concurrent decisions share fsyncs.
//! A decision's audit record, tool part and events are one write
//! ([`record_decision`](AuditLog::record_decision)). A second thread copies the WAL into the
//! database file (passive checkpoints on a connection of its own), woken by the write
//! connection's WAL hook once the WAL holds
//! [`checkpoint_pages`](SqliteConfig::checkpoint_pages) frames, so commits rarely carry a
//! checkpoint; the writer checkpoints itself only at [`WRITER_BOUND_FACTOR`] times as many,
//! the bound when that thread falls behind.

use warrant_core::ids::{SessionId, ToolCallId};
mod audit;
mod chain;
mod checkpoint;
mod key;
mod known;
mod legacy;
mod meta;
mod parts;
mod readers;
mod records;
mod report;
mod schema;
mod sessions;
mod verify;
mod wal;
mod writer;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::Connection;
use warrant_core::audit::AuditRecord;
use warrant_core::event::Event;
use warrant_core::event::now_millis;
use warrant_core::grant::Grant;
use warrant_core::part::{Message, ToolPart};
use warrant_core::store::{
    Approvals, AuditLog, AuditQuery, Conversations, DecisionRecord, DecisionWrite, EventLog,
    PendingAppend, PendingApproval, StoreError, StoredAuditRecord, StoredEvent, WorkspaceStore,
};
use warrant_core::workspace::{SessionRecord, WorkspaceState, check_session_id};

pub use audit::AuditEntry;
pub use chain::GENESIS;
pub use checkpoint::AuditHead;
pub use key::{AUDIT_KEY_ENV, AuditKey, MIN_KEY_BYTES};
pub use report::{AuditBreak, AuditProblem, AuditVerification};
pub use schema::SCHEMA_VERSION;
pub use wal::{DEFAULT_CHECKPOINT_PAGES, WRITER_BOUND_FACTOR};

use self::chain::AuditRow;
use self::readers::Readers;
use self::records::{EventRow, PendingRow};
use self::sessions::{SessionRow, Written};
use self::verify::Anchors;
use self::writer::{ChainConfig, DecisionRows, Limits, Write, Writer};
use crate::config::SqliteConfig;
use crate::error::{Context, corrupt, to_json, unavailable};
use crate::files;

/// The SQLite store. See the [module documentation](self) for its tables.
///
/// Share it as an `Arc<dyn Store>`; dropping the last handle finishes the writes in flight
/// and closes the database.
pub struct SqliteStore {
    path: PathBuf,
    migrated_from: u32,
    busy_timeout: Duration,
    key: AuditKey,
    checkpoint: PathBuf,
    writer: Writer,
    readers: Arc<Readers>,
    /// What this handle last wrote of the workspace (loaded on the first save), so a save
    /// writes only what changed; held across a save so saves apply in order.
    written: tokio::sync::Mutex<Option<Written>>,
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
            files::create_private_dir(dir)
                .map_err(|e| unavailable(format!("creating {}", dir.display()), e))?;
        }
        files::make_private(&path)
            .map_err(|e| unavailable(format!("creating {}", path.display()), e))?;
        let busy_timeout = Duration::from_millis(config.busy_timeout_ms);
        let mut conn = Connection::open(&path).context(&format!("opening {}", path.display()))?;
        schema::configure(&conn, busy_timeout)?;
        let log_key_id = meta::get(&conn, meta::KEY_ID)?;
        let key = key::resolve(
            config.audit_key.as_ref(),
            &config.key_file_path(),
            log_key_id.as_deref(),
        )?;
        if let Some(id) = log_key_id.as_deref().filter(|id| *id != key.id()) {
            return Err(corrupt(
                "the audit key",
                format!(
                    "it has id {}, but the audit log of {} was written with the key of id {id}; \
                     use that key (its file, or {})",
                    key.id(),
                    path.display(),
                    key::AUDIT_KEY_ENV
                ),
            ));
        }
        let migrated_from = schema::migrate(&mut conn, &key)?;
        if log_key_id.is_none() {
            meta::set(&conn, meta::KEY_ID, &key.id())?;
        }
        for companion in ["-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(companion);
            let file = PathBuf::from(name);
            files::narrow(&file)
                .map_err(|e| unavailable(format!("restricting {}", file.display()), e))?;
        }
        if config.session_idle_expiry_secs > 0 {
            let idle = i64::try_from(config.session_idle_expiry_secs.saturating_mul(1_000))
                .unwrap_or(i64::MAX);
            let expired = expire_sessions(&mut conn, now_millis().saturating_sub(idle))?;
            if !expired.is_empty() {
                tracing::info!(sessions = expired.len(), "expired idle empty sessions");
            }
        }
        let limits = Limits {
            event_retention: config.event_retention.max(1),
            decision_map_limit: config.decision_map_limit.max(1),
            max_batch: config.max_batch.max(1),
        };
        let checkpoint = config.checkpoint_path();
        files::narrow(&checkpoint)
            .map_err(|e| unavailable(format!("restricting {}", checkpoint.display()), e))?;
        let chain = ChainConfig {
            key: key.clone(),
            checkpoint: checkpoint.clone(),
        };
        Ok(Self {
            writer: Writer::spawn(
                conn,
                limits,
                chain,
                wal::Checkpointer::spawn(&path, busy_timeout, config.checkpoint_pages)?,
            )?,
            readers: Readers::new(path.clone(), busy_timeout),
            path,
            migrated_from,
            busy_timeout,
            key,
            checkpoint,
            written: tokio::sync::Mutex::new(None),
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

    /// The checkpoint file the audit head is appended to.
    pub fn checkpoint_path(&self) -> &Path {
        &self.checkpoint
    }

    /// The id of the audit key (a public name, not the key).
    pub fn audit_key_id(&self) -> String {
        self.key.id()
    }

    /// Walks the audit log's keyed chain, compares it with the checkpoint file, and names
    /// the first record that was edited, forged or deleted, if any.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the database cannot be read; a broken chain is a report, not
    /// an error.
    pub async fn verify_audit(&self) -> Result<AuditVerification, StoreError> {
        self.verify(None).await
    }

    /// As [`verify_audit`](Self::verify_audit), and the log must also hold `expected` (a
    /// head noted earlier, kept where the database's writers cannot reach): a log truncated
    /// or emptied below it is reported even when the checkpoint file was removed too.
    ///
    /// # Errors
    ///
    /// As [`verify_audit`](Self::verify_audit).
    pub async fn verify_audit_expecting(
        &self,
        expected: &AuditHead,
    ) -> Result<AuditVerification, StoreError> {
        self.verify(Some(expected.clone())).await
    }

    async fn verify(&self, expect: Option<AuditHead>) -> Result<AuditVerification, StoreError> {
        let key = self.key.clone();
        let checkpoint = self.checkpoint.clone();
        self.readers
            .run(move |c| {
                let anchors = Anchors {
                    checkpoint: Some(&checkpoint),
                    expect: expect.as_ref(),
                };
                verify::verify(c, &key, &anchors)
            })
            .await
    }

    /// A new read-write connection, for the rare writes that answer more than a number.
    fn side_connection(&self) -> Result<Connection, StoreError> {
        let conn = Connection::open(&self.path).context("opening a write connection")?;
        conn.busy_timeout(self.busy_timeout)
            .context("busy timeout")?;
        Ok(conn)
    }
}

#[async_trait]
impl AuditLog for SqliteStore {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        let row = AuditRow::new(record)?;
        self.writer.submit(Write::Audit(row)).await
    }

    /// The writer applies queued writes in order, so the record is durable no later than
    /// anything started after it.
    fn start_append_audit(&self, record: AuditRecord) -> Option<PendingAppend> {
        Some(match AuditRow::new(record) {
            Ok(row) => Box::pin(self.writer.queue(Write::Audit(row))),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        })
    }

    /// Queued as one write of the writer, applied in one savepoint of its transaction: the
    /// engine waits for one commit per decision.
    fn record_decision(&self, record: DecisionRecord) -> DecisionWrite<'_> {
        DecisionWrite::Queued(match DecisionRows::new(record) {
            Ok(rows) => Box::pin(self.writer.queue_decision(rows)),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        })
    }

    async fn evaluation_of(&self, tool_call_id: &ToolCallId) -> Result<Option<u64>, StoreError> {
        let id = tool_call_id.to_owned();
        self.readers
            .run(move |c| chain::evaluation_of(c, id.as_str()))
            .await
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        let query = query.clone();
        self.readers.run(move |c| audit::records(c, &query)).await
    }

    async fn verify_audit(
        &self,
        expected: Option<&AuditHead>,
    ) -> Result<AuditVerification, StoreError> {
        self.verify(expected.cloned()).await
    }
}

#[async_trait]
impl EventLog for SqliteStore {
    async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError> {
        let row = EventRow::new(session_id.as_str(), event)?;
        self.writer.submit(Write::Event(row)).await
    }

    /// The writer applies queued writes in order, so events get positions in the order they
    /// were started.
    fn start_append_event(&self, session_id: &SessionId, event: &Event) -> Option<PendingAppend> {
        Some(match EventRow::new(session_id.as_str(), event) {
            Ok(row) => Box::pin(self.writer.queue(Write::Event(row))),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        })
    }

    async fn events_since(
        &self,
        session_id: &SessionId,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let session = session_id.to_owned();
        self.readers
            .run(move |c| records::events_since(c, session.as_str(), after_seq, limit))
            .await
    }
}

#[async_trait]
impl Conversations for SqliteStore {
    async fn upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        let row = parts::PartRow::new(session_id.as_str(), message_id, part)?;
        self.writer.submit(Write::ToolPart(row)).await.map(drop)
    }

    /// The writer applies queued writes in order, so the part is durable no later than
    /// anything started after it.
    fn start_upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Option<Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send>>> {
        Some(
            match parts::PartRow::new(session_id.as_str(), message_id, part) {
                Ok(row) => {
                    let written = self.writer.queue(Write::ToolPart(row));
                    Box::pin(async move { written.await.map(drop) })
                }
                Err(e) => Box::pin(std::future::ready(Err(e))),
            },
        )
    }

    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError> {
        let session = session_id.to_owned();
        self.readers
            .run(move |c| parts::messages(c, session.as_str()))
            .await
    }
}

#[async_trait]
impl Approvals for SqliteStore {
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        let row = PendingRow::new(pending)?;
        self.writer.submit(Write::PutPending(row)).await.map(drop)
    }

    async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        let write = Write::RemovePending(tool_call_id.as_str().to_owned());
        self.writer.submit(write).await.map(drop)
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.readers.run(records::pending).await
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        check_session_id(&grant.session_id)?;
        let write = Write::Grant {
            session_id: grant.session_id.as_str().to_owned(),
            body: to_json("a grant", grant)?,
        };
        self.writer.submit(write).await.map(drop)
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.readers.run(records::grants).await
    }

    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError> {
        let write = Write::RemoveGrant(grant_id.to_owned());
        self.writer.submit(write).await.map(|n| n > 0)
    }
}

#[async_trait]
impl WorkspaceStore for SqliteStore {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.readers.run(sessions::load_workspace).await
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        let mut written = self.written.lock().await;
        if written.is_none() {
            *written = Some(self.readers.run(Written::load).await?);
        }
        let Some(known) = written.as_mut() else {
            return Err(unavailable(
                "saving the workspace",
                "nothing is known of it",
            ));
        };
        let change = known.diff(workspace)?;
        if change.is_empty() {
            return Ok(());
        }
        self.writer.submit(Write::Workspace(change.clone())).await?;
        known.apply(change);
        Ok(())
    }

    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        let row = SessionRow::new(session)?;
        let mut written = self.written.lock().await;
        self.writer.submit(Write::Session(row)).await?;
        if let Some(known) = written.as_mut() {
            known.put(session);
        }
        Ok(())
    }

    async fn expire_idle_sessions(
        &self,
        untouched_since: i64,
    ) -> Result<Vec<SessionId>, StoreError> {
        let mut written = self.written.lock().await;
        let conn = self.side_connection()?;
        let expire = move || {
            let mut conn = conn;
            expire_sessions(&mut conn, untouched_since)
        };
        let expired = match tokio::runtime::Handle::try_current() {
            Ok(runtime) => runtime
                .spawn_blocking(expire)
                .await
                .map_err(|e| unavailable("expiring sessions", e))??,
            Err(_) => expire()?,
        };
        if let Some(known) = written.as_mut() {
            known.expire(&expired);
        }
        Ok(expired.into_iter().map(SessionId::from).collect())
    }
}

/// Expires idle empty sessions in one transaction (see [`Store::expire_idle_sessions`]).
fn expire_sessions(conn: &mut Connection, untouched_since: i64) -> Result<Vec<String>, StoreError> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .context("starting to expire sessions")?;
    let expired = sessions::expire(&tx, untouched_since)?;
    tx.commit().context("expiring sessions")?;
    Ok(expired)
}
