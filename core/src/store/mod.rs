//! Where Warrant keeps what it must not lose: the audit log, each session's event log and
//! conversation, pending approvals and grants, and the workspace.
//!
//! Each of those is a small trait with its own contract — [`AuditLog`], [`EventLog`],
//! [`Conversations`], [`Approvals`] and [`WorkspaceStore`] — and [`Store`] is their sum, the
//! one object the engine and the server hold (`Arc<dyn Store>`). Implement the five traits and
//! `Store` follows. The `warrant-testkit` crate holds the behaviour suite every store passes.

mod approvals;
mod audit_log;
mod conversations;
mod decision;
mod event_log;
mod memory;
mod query;
mod workspace;

use crate::ids::SessionId;
use serde::{Deserialize, Serialize};

pub use approvals::Approvals;
pub use audit_log::AuditLog;
pub use conversations::Conversations;
pub use decision::{DecisionRecord, DecisionWrite, RecordedDecision};
pub use event_log::EventLog;
pub use memory::{DEFAULT_EVENT_RETENTION, MemoryStore};
pub use query::{AuditKind, AuditQuery};
pub use workspace::WorkspaceStore;

use crate::approval::ToolApprovalRequest;
use crate::audit::AuditRecord;
use crate::event::Event;
use crate::workspace::SessionIdTooLong;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[error("store {kind}: {message}")]
pub struct StoreError {
    /// What kind of failure.
    pub kind: StoreErrorKind,
    /// What went wrong, naming the offending value.
    pub message: String,
}

/// Kinds of store failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// The backend could not be reached or failed; a retry may help.
    #[error("unavailable")]
    Unavailable,
    /// The data is not what the store expects; a retry will not help.
    #[error("corrupt")]
    Corrupt,
    /// The store refuses a value it was given (a session id over
    /// [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES), …); the message
    /// names it. A retry will not help; a corrected value will.
    #[error("invalid")]
    Invalid,
    /// The write would repeat what may happen only once: a second evaluation of a tool call
    /// id. Nothing was written; the call must not run.
    #[error("duplicate")]
    Duplicate,
}

impl StoreError {
    /// A failure of the given kind.
    pub fn new(kind: StoreErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

impl From<SessionIdTooLong> for StoreError {
    fn from(e: SessionIdTooLong) -> Self {
        Self::new(StoreErrorKind::Invalid, e.to_string())
    }
}

/// The error a store returns when a tool call id was already evaluated: kind
/// [`Duplicate`](StoreErrorKind::Duplicate), naming the id and the seq of its evaluation.
pub fn duplicate_evaluation(tool_call_id: &str, seq: u64) -> StoreError {
    StoreError::new(
        StoreErrorKind::Duplicate,
        format!(
            "tool call id \"{tool_call_id}\" was already evaluated (audit record {seq}); \
             every call needs a new toolCallId"
        ),
    )
}

/// An audit record as stored, with its position in the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredAuditRecord {
    /// Its position (1 is the first).
    pub seq: u64,
    /// The record.
    #[serde(flatten)]
    pub record: AuditRecord,
}

/// An unresolved approval request, with where its tool part lives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    /// The session.
    pub session_id: SessionId,
    /// The message holding the call's tool part.
    pub message_id: String,
    /// The request.
    pub request: ToolApprovalRequest,
}

/// One event of a session's event log, with its position in that session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// Its position in the session (1 is the first; SSE's event id).
    pub seq: u64,
    /// The event.
    pub event: Event,
}

/// Persists what Warrant must not lose: the sum of [`AuditLog`], [`EventLog`],
/// [`Conversations`], [`Approvals`] and [`WorkspaceStore`].
///
/// Implemented for every type that implements the five; nothing to write by hand. Each part's
/// contract is on its trait; every implementation passes the same behaviour suite
/// (`warrant_testkit::store`). `append_audit` returns only once the record is durable: the
/// engine emits nothing about a decision before that.
///
/// The methods of the five parts can be called on `dyn Store` (and on `S: Store`) without
/// importing them; on a concrete store type, import the part (or `warrant_core::prelude::*`).
///
/// # Errors
///
/// Every method returns a [`StoreError`] when the backend fails; the engine fails closed.
/// Every method that takes a session id refuses one longer than
/// [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES) with kind
/// [`Invalid`](StoreErrorKind::Invalid).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::Arc;
/// use warrant_core::SessionId;
/// use warrant_core::event::{Event, TextMessageContent};
/// use warrant_core::store::{MemoryStore, Store};
///
/// let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
/// let session = SessionId::new("s1");
/// let hello = Event::TextMessageContent(TextMessageContent {
///     message_id: "m1".into(),
///     delta: "hello".into(),
///     timestamp: None,
/// });
/// assert_eq!(store.append_event(&session, &hello).await.unwrap(), 1);
/// assert_eq!(store.append_event(&session, &hello).await.unwrap(), 2);
/// // A reader that saw event 1 resumes with event 2.
/// let after = store.events_since(&session, 1, 10).await.unwrap();
/// assert_eq!(after.len(), 1);
/// assert_eq!(after[0].seq, 2);
/// # }
/// ```
pub trait Store:
    AuditLog + EventLog + Conversations + Approvals + WorkspaceStore + Send + Sync
{
}

impl<T> Store for T where T: AuditLog + EventLog + Conversations + Approvals + WorkspaceStore {}

/// A write started by [`AuditLog::start_append_audit`] or [`EventLog::start_append_event`]:
/// resolves to its seq (its position in the log) once it is durable.
pub type PendingAppend = futures::future::BoxFuture<'static, Result<u64, StoreError>>;
