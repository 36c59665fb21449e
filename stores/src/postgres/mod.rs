//! The PostgreSQL store: one database shared by several Warrant instances.
//!
//! # Layout (schema version 1)
//!
//! | table | holds |
//! |---|---|
//! | `schema_version` | the schema version (one row); migrations run under an advisory lock, each in its own transaction |
//! | `audit` | the append-only audit log: `seq`, session, tool call id, `at`, the record's canonical JSON, and its link in the chain (`prev_hash`, `hash`: HMAC-SHA-256 under the audit key over every column, as the SQLite store computes it) |
//! | `audit_head` | the chain's last link; its row lock admits one appender at a time, across instances |
//! | `audit_meta` | the audit key's id (never the key) |
//! | `evaluated_calls` | each evaluated tool call id once, so an id is never evaluated twice |
//! | `messages`, `tool_parts`, `part_decisions` | messages and their tool parts as JSON, in order, and the bounded per-message decision map |
//! | `pending_approvals` | unresolved approval requests only |
//! | `grants` | standing approvals |
//! | `workspace`, `sessions` | the workspace settings and patterns as one JSON document; one row per session |
//! | `event_heads`, `events` | each session's last event position (its row lock numbers events one at a time) and its bounded event log |
//!
//! # Audit chain
//!
//! An append locks the head row (`SELECT … FOR UPDATE`), computes the new link from the
//! previous head inside that transaction, inserts the record, moves the head and commits:
//! `append_audit` returns once the commit is acknowledged, so the chain stays gap-free and
//! ordered whatever number of instances append to it. Each instance then appends the new
//! head to its [checkpoint file](PostgresConfig::checkpoint_file), which verification
//! compares with the log. Connections whose server has `synchronous_commit = off` turn it on
//! for themselves, so an acknowledged commit is durable.
//!
//! # Events
//!
//! An event takes the next position of its session from its `event_heads` row in the same
//! transaction, older events beyond the retention are dropped, and `NOTIFY warrant_events,
//! '<session>:<seq>'` is sent with the commit; [`PostgresStore::listen`] receives those.

use warrant_core::ids::{SessionId, ToolCallId};
mod audit;
mod config;
mod error;
mod instances;
mod listen;
mod open;
mod records;
mod schema;
mod sessions;
mod tls;

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Hook, HookError, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::OnceCell;
use warrant_core::audit::{AuditHead, AuditRecord, AuditVerification};
use warrant_core::event::Event;
use warrant_core::grant::Grant;
use warrant_core::part::{Message, ToolPart};
use warrant_core::store::{
    Approvals, AuditLog, AuditQuery, Conversations, DecisionRecord, DecisionWrite, EventLog,
    PendingApproval, RecordedDecision, StoreError, StoreErrorKind, StoredAuditRecord, StoredEvent,
    WorkspaceStore,
};
use warrant_core::workspace::{SessionRecord, WorkspaceState};

pub use config::{DEFAULT_AUDIT_KEY_FILE, DEFAULT_CHECKPOINT_FILE, PostgresConfig};
pub use listen::{EVENT_CHANNEL, EventNotice, EventNotices};
pub use schema::SCHEMA_VERSION;

use self::error::Context;
use crate::error::corrupt;
use crate::sqlite::{AUDIT_KEY_ENV, AuditEntry, AuditKey};

/// The PostgreSQL store. See the [module documentation](self) for its tables.
///
/// Share it as an `Arc<dyn Store>`; several stores, in one process or many, may use one
/// database at once.
pub struct PostgresStore {
    pool: Pool,
    pg_config: tokio_postgres::Config,
    /// How connections negotiate TLS (see [`tls`]).
    tls: tokio_postgres_rustls::MakeRustlsConnect,
    config: PostgresConfig,
    ready: OnceCell<Ready>,
    /// Sessions this handle expired: a caller's older copy saved back unchanged leaves them
    /// expired.
    expired: Mutex<HashSet<String>>,
}

/// What connecting established.
struct Ready {
    key: AuditKey,
    migrated_from: u32,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("database", &config::redacted(&self.config.url))
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connects to the database a configuration names, creates or migrates its schema to
    /// [`SCHEMA_VERSION`], and checks the audit key against the id the database records.
    ///
    /// # Errors
    ///
    /// `Invalid` when the URL is not a connection string; `Unavailable` when the server
    /// cannot be reached; `Corrupt` when the database was written by a newer schema version
    /// or with another audit key.
    pub async fn connect(config: PostgresConfig) -> Result<Self, StoreError> {
        let store = Self::connect_lazy(config)?;
        store.ready().await?;
        Ok(store)
    }

    /// As [`connect`](Self::connect), without waiting: the first operation connects,
    /// migrates and checks the key, and fails (as every later one does until it succeeds)
    /// when that fails. For callers that cannot await.
    ///
    /// # Errors
    ///
    /// `Invalid` when the URL is empty or not a connection string.
    pub fn connect_lazy(config: PostgresConfig) -> Result<Self, StoreError> {
        if config.url.trim().is_empty() {
            return Err(StoreError::new(
                StoreErrorKind::Invalid,
                "no postgres URL is configured; set the store's url \
                 (postgresql://user@host/dbname)",
            ));
        }
        // libpq's verifying modes are what every TLS connection here does anyway.
        let url = config
            .url
            .replace("sslmode=verify-full", "sslmode=require")
            .replace("sslmode=verify-ca", "sslmode=require");
        let mut pg_config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::new(
                StoreErrorKind::Invalid,
                format!("the postgres URL is not a connection string: {e}"),
            )
        })?;
        // With a CA of its own configured, TLS is expected: a server (or someone between)
        // answering that it has none is refused rather than spoken to in the clear.
        if config.tls_ca_file.is_some()
            && pg_config.get_ssl_mode() == tokio_postgres::config::SslMode::Prefer
        {
            pg_config.ssl_mode(tokio_postgres::config::SslMode::Require);
        }
        if pg_config.get_application_name().is_none() {
            pg_config.application_name("warrant");
        }
        let timeout = Duration::from_millis(config.connect_timeout_ms.max(1));
        if pg_config.get_connect_timeout().is_none() {
            pg_config.connect_timeout(timeout);
        }
        let tls = tls::connector(config.tls_ca_file.as_deref())?;
        let manager = Manager::from_config(
            pg_config.clone(),
            tls.clone(),
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(config.pool_size.max(1))
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(timeout))
            .wait_timeout(Some(timeout))
            .post_create(Hook::async_fn(|client, _| {
                Box::pin(async move {
                    let row = client
                        .query_one("SHOW synchronous_commit", &[])
                        .await
                        .map_err(HookError::Backend)?;
                    let value: String = row.try_get(0).map_err(HookError::Backend)?;
                    if value == "off" {
                        client
                            .batch_execute("SET synchronous_commit = on")
                            .await
                            .map_err(HookError::Backend)?;
                    }
                    Ok(())
                })
            }))
            .build()
            .map_err(|e| {
                StoreError::new(
                    StoreErrorKind::Invalid,
                    format!("postgres connection pool: {e}"),
                )
            })?;
        Ok(Self {
            pool,
            pg_config,
            tls,
            config,
            ready: OnceCell::new(),
            expired: Mutex::new(HashSet::new()),
        })
    }

    /// Connects, migrates and resolves the audit key once.
    async fn ready(&self) -> Result<&Ready, StoreError> {
        self.ready.get_or_try_init(|| self.initialize()).await
    }

    async fn initialize(&self) -> Result<Ready, StoreError> {
        let mut client = self.client().await?;
        let migrated_from = schema::migrate(&mut client).await?;
        let key_id = |row: Option<tokio_postgres::Row>| -> Result<Option<String>, StoreError> {
            row.map(|r| r.try_get::<_, String>(0))
                .transpose()
                .context("reading the audit key id")
        };
        const KEY_ID: &str = "SELECT value FROM audit_meta WHERE name = 'key_id'";
        let recorded = key_id(
            client
                .query_opt(KEY_ID, &[])
                .await
                .context("reading the audit key id")?,
        )?;
        let key_file = self.config.audit_key_file.clone();
        let configured = self.config.audit_key.clone();
        let log_id = recorded.clone();
        let key = tokio::task::spawn_blocking(move || {
            crate::audit_chain::resolve_key(configured.as_ref(), &key_file, log_id.as_deref())
        })
        .await
        .map_err(|e| crate::error::unavailable("resolving the audit key", e))??;
        if recorded.is_none() {
            client
                .execute(
                    "INSERT INTO audit_meta (name, value) VALUES ('key_id', $1) \
                     ON CONFLICT (name) DO NOTHING",
                    &[&key.id()],
                )
                .await
                .context("recording the audit key id")?;
        }
        // Read again: another instance may have recorded its key first.
        let recorded = key_id(
            client
                .query_opt(KEY_ID, &[])
                .await
                .context("reading the audit key id")?,
        )?;
        if let Some(id) = recorded.filter(|id| *id != key.id()) {
            return Err(corrupt(
                "the audit key",
                format!(
                    "it has id {}, but the audit log of {} was written with the key of id {id}; \
                     use that key (its file {}, or {AUDIT_KEY_ENV})",
                    key.id(),
                    config::redacted(&self.config.url),
                    self.config.audit_key_file.display(),
                ),
            ));
        }
        if let Some(path) = &self.config.checkpoint_file {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                crate::files::create_private_dir(dir).map_err(|e| {
                    crate::error::unavailable(format!("creating {}", dir.display()), e)
                })?;
            }
            crate::files::narrow(path).map_err(|e| {
                crate::error::unavailable(format!("restricting {}", path.display()), e)
            })?;
        }
        Ok(Ready { key, migrated_from })
    }

    /// A pooled connection.
    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.context("connecting")
    }

    /// A pooled connection to a ready database, with the audit key.
    async fn ready_client(&self) -> Result<(deadpool_postgres::Object, &Ready), StoreError> {
        let ready = self.ready().await?;
        Ok((self.client().await?, ready))
    }

    /// The schema version the database had when this store first connected (0 for a new
    /// database).
    ///
    /// # Errors
    ///
    /// When connecting fails.
    pub async fn migrated_from(&self) -> Result<u32, StoreError> {
        Ok(self.ready().await?.migrated_from)
    }

    /// The id of the audit key (a public name, not the key).
    ///
    /// # Errors
    ///
    /// When connecting fails.
    pub async fn audit_key_id(&self) -> Result<String, StoreError> {
        Ok(self.ready().await?.key.id())
    }

    /// The audit log's entries that match a query, with their hash chain, oldest first:
    /// what `warrant audit` prints as JSON lines.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the database cannot be read.
    pub async fn audit_entries(&self, query: &AuditQuery) -> Result<Vec<AuditEntry>, StoreError> {
        let (mut client, _) = self.ready_client().await?;
        audit::entries(&mut client, query).await
    }

    /// Listens for the events any instance appends to this database: a stream of
    /// `(session, seq)` notices, each sent when the event's transaction committed. It ends
    /// with an error when its connection is lost (notices may then have been missed: read
    /// the event log to catch up).
    ///
    /// # Errors
    ///
    /// `Unavailable` when the listening connection cannot be opened.
    pub async fn listen(&self) -> Result<EventNotices, StoreError> {
        listen::listen(&self.pg_config, self.tls.clone()).await
    }
}

#[async_trait]
impl AuditLog for PostgresStore {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        let row = audit::AuditRow::new(&record)?;
        let (mut client, ready) = self.ready_client().await?;
        let head = audit::append(&mut client, &ready.key, &row).await?;
        self.export_head(&head);
        Ok(head.seq)
    }

    /// One transaction when awaited: the audit record under the head row's lock, the tool
    /// part, the events; a refused audit record rolls all of it back.
    fn record_decision(&self, record: DecisionRecord) -> DecisionWrite<'_> {
        DecisionWrite::OnAwait(Box::pin(self.record_decision_now(record)))
    }

    async fn evaluation_of(&self, tool_call_id: &ToolCallId) -> Result<Option<u64>, StoreError> {
        let (client, _) = self.ready_client().await?;
        audit::evaluation_of(&client, tool_call_id.as_str()).await
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        let (mut client, _) = self.ready_client().await?;
        audit::records(&mut client, query).await
    }

    async fn verify_audit(
        &self,
        expected: Option<&AuditHead>,
    ) -> Result<AuditVerification, StoreError> {
        let (mut client, ready) = self.ready_client().await?;
        audit::verify(
            &mut client,
            &ready.key,
            self.config.checkpoint_file.as_deref(),
            expected,
        )
        .await
    }
}

#[async_trait]
impl EventLog for PostgresStore {
    async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError> {
        let row = records::EventRow::new(session_id.as_str(), event)?;
        let (mut client, _) = self.ready_client().await?;
        records::append_event(&mut client, &row, self.config.event_retention).await
    }

    async fn events_since(
        &self,
        session_id: &SessionId,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let (client, _) = self.ready_client().await?;
        records::events_since(&client, session_id.as_str(), after_seq, limit).await
    }
}

#[async_trait]
impl Conversations for PostgresStore {
    async fn upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        let row = records::PartRow::new(session_id.as_str(), message_id, part)?;
        let (mut client, _) = self.ready_client().await?;
        records::upsert_part(&mut client, &row, self.config.decision_map_limit).await
    }

    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError> {
        let (client, _) = self.ready_client().await?;
        records::messages(&client, session_id.as_str()).await
    }
}

#[async_trait]
impl Approvals for PostgresStore {
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        let row = records::PendingRow::new(pending)?;
        let (client, _) = self.ready_client().await?;
        records::put_pending(&client, &row).await
    }

    async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        let (client, _) = self.ready_client().await?;
        records::remove_pending(&client, tool_call_id.as_str()).await
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        let (client, _) = self.ready_client().await?;
        records::pending(&client).await
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        warrant_core::workspace::check_session_id(&grant.session_id)?;
        let body = crate::error::to_json("a grant", grant)?;
        let (client, _) = self.ready_client().await?;
        records::put_grant(&client, grant.session_id.as_str(), &body).await
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        let (client, _) = self.ready_client().await?;
        records::grants(&client).await
    }

    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError> {
        let (mut client, _) = self.ready_client().await?;
        records::remove_grant(&mut client, grant_id).await
    }
}

#[async_trait]
impl WorkspaceStore for PostgresStore {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        let (mut client, _) = self.ready_client().await?;
        sessions::load_workspace(&mut client).await
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        let expired = self.expired_now();
        let change = sessions::Change::new(workspace, &expired)?;
        let (mut client, _) = self.ready_client().await?;
        sessions::save(&mut client, &change).await
    }

    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        let row = sessions::SessionRow::new(session)?;
        let (client, _) = self.ready_client().await?;
        sessions::put(&client, &row).await?;
        self.with_expired(|e| {
            e.remove(session.id.as_str());
        });
        Ok(())
    }

    async fn expire_idle_sessions(
        &self,
        untouched_since: i64,
    ) -> Result<Vec<SessionId>, StoreError> {
        let (mut client, _) = self.ready_client().await?;
        let expired = sessions::expire(&mut client, untouched_since).await?;
        self.with_expired(|e| e.extend(expired.iter().cloned()));
        Ok(expired.into_iter().map(SessionId::from).collect())
    }
}

impl PostgresStore {
    /// Appends the committed audit head to the checkpoint file, when one is configured. The
    /// record is durable already, so a failure is logged, not returned: the checkpoint then
    /// lags, which verification tolerates.
    fn export_head(&self, head: &AuditHead) {
        if let Some(path) = &self.config.checkpoint_file
            && let Err(e) = crate::audit_chain::append_checkpoint(path, head)
        {
            tracing::error!(error = %e, seq = head.seq, "the audit head was not checkpointed");
        }
    }

    /// Writes a decision record in one transaction (see [`AuditLog::record_decision`]).
    async fn record_decision_now(
        &self,
        record: DecisionRecord,
    ) -> Result<RecordedDecision, StoreError> {
        let session_id = record.audit.session_id.as_str();
        let audit_row = audit::AuditRow::new(&record.audit)?;
        let part = record
            .part
            .as_ref()
            .map(|part| records::PartRow::new(session_id, &record.message_id, part))
            .transpose()?;
        let events = record
            .events
            .iter()
            .map(|event| records::EventRow::new(session_id, event))
            .collect::<Result<Vec<_>, _>>()?;
        let (mut client, ready) = self.ready_client().await?;
        let tx = client
            .transaction()
            .await
            .context("starting a decision record")?;
        let written = async {
            let head = audit::append_in(&tx, &ready.key, &audit_row).await?;
            if let Some(part) = &part {
                records::upsert_part_in(&tx, part, self.config.decision_map_limit).await?;
            }
            let mut event_seqs = Vec::with_capacity(events.len());
            for event in &events {
                event_seqs
                    .push(records::append_event_in(&tx, event, self.config.event_retention).await?);
            }
            Ok::<_, StoreError>((head, event_seqs))
        }
        .await;
        let (head, event_seqs) = match written {
            Ok(written) => written,
            Err(e) => {
                tx.rollback()
                    .await
                    .context("abandoning a decision record")?;
                return Err(e);
            }
        };
        tx.commit().await.context("committing a decision record")?;
        self.export_head(&head);
        Ok(RecordedDecision {
            audit_seq: head.seq,
            event_seqs,
        })
    }

    fn with_expired<T>(&self, f: impl FnOnce(&mut HashSet<String>) -> T) -> T {
        // A poisoned lock only means another thread panicked mid-update of a plain set.
        let mut set = self.expired.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut set)
    }

    fn expired_now(&self) -> HashSet<String> {
        self.with_expired(|e| e.clone())
    }
}
