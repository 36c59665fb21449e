//! The `Store` trait: where tool parts, pending approvals, grants, the workspace and the
//! audit log are kept.

mod memory;
mod query;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

pub use memory::{DEFAULT_EVENT_RETENTION, MemoryStore};
pub use query::{AuditKind, AuditQuery};

use crate::approval::ToolApprovalRequest;
use crate::audit::{AuditEvent, AuditRecord};
use crate::event::Event;
use crate::grant::Grant;
use crate::part::{Message, ToolPart};
use crate::workspace::{SessionIdTooLong, SessionRecord, WorkspaceState, check_session_id};

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
    pub session_id: String,
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

/// Persists what Warrant must not lose.
///
/// Every implementation passes the same behaviour suite. `append_audit` returns only once the
/// record is durable: the engine emits nothing about a decision before that.
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
/// use warrant_core::event::{Event, TextMessageContent};
/// use warrant_core::store::{MemoryStore, Store};
///
/// let store = MemoryStore::new();
/// let hello = Event::TextMessageContent(TextMessageContent {
///     message_id: "m1".into(),
///     delta: "hello".into(),
///     timestamp: None,
/// });
/// assert_eq!(store.append_event("s1", &hello).await.unwrap(), 1);
/// assert_eq!(store.append_event("s1", &hello).await.unwrap(), 2);
/// // A reader that saw event 1 resumes with event 2.
/// let after = store.events_since("s1", 1, 10).await.unwrap();
/// assert_eq!(after.len(), 1);
/// assert_eq!(after[0].seq, 2);
/// # }
/// ```
#[async_trait]
pub trait Store: Send + Sync {
    /// Appends an audit record; durable when this returns.
    ///
    /// # Errors
    ///
    /// [`Duplicate`](StoreErrorKind::Duplicate) (see [`duplicate_evaluation`]) for a second
    /// evaluation record of a tool call id, durably: a restart does not forget the first.
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError>;

    /// The seq of the evaluation record of a tool call id, `None` when the id was never
    /// evaluated.
    ///
    /// The default reads the whole log; stores override it with a lookup.
    async fn evaluation_of(&self, tool_call_id: &str) -> Result<Option<u64>, StoreError> {
        let records = self.audit_records(&AuditQuery::all()).await?;
        Ok(records
            .iter()
            .find(|r| {
                r.record.tool_call_id == tool_call_id
                    && matches!(r.record.event, AuditEvent::Evaluation { .. })
            })
            .map(|r| r.seq))
    }

    /// The audit records that match a query, oldest first. With a
    /// [`limit`](AuditQuery::limit), the newest `limit` of those below
    /// [`before_seq`](AuditQuery::before_seq), still oldest first.
    async fn audit_records(&self, query: &AuditQuery)
    -> Result<Vec<StoredAuditRecord>, StoreError>;

    /// Inserts or replaces a tool part in its message (created when new, role `assistant`).
    async fn upsert_tool_part(
        &self,
        session_id: &str,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError>;

    /// A session's messages with their parts, in order.
    async fn messages(&self, session_id: &str) -> Result<Vec<Message>, StoreError>;

    /// Records an unresolved approval request.
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError>;

    /// Forgets an approval request once it is resolved or expired.
    async fn remove_pending_approval(&self, tool_call_id: &str) -> Result<(), StoreError>;

    /// Every unresolved approval request.
    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError>;

    /// Records a grant.
    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError>;

    /// Every grant, of every session.
    async fn grants(&self) -> Result<Vec<Grant>, StoreError>;

    /// Verifies the audit log: numbering, and for stores that keep one, the keyed chain and
    /// its checkpoints. `expected` is a head noted earlier (`SEQ:HASH`) the log must still
    /// hold. A broken log is a report ([`AuditVerification::first_bad`]), not an error.
    ///
    /// The default reads every record and checks that none is missing
    /// ([`verify_unkeyed`](crate::audit::verify_unkeyed)); it cannot detect an edit.
    ///
    /// [`AuditVerification::first_bad`]: crate::audit::AuditVerification::first_bad
    async fn verify_audit(
        &self,
        expected: Option<&crate::audit::AuditHead>,
    ) -> Result<crate::audit::AuditVerification, StoreError> {
        let records = self.audit_records(&AuditQuery::all()).await?;
        Ok(crate::audit::verify_unkeyed(&records, expected))
    }

    /// Forgets the grant with this id (see [`Grant::id_for`]: grants recorded without an id
    /// are matched by the id derived from them); answers whether one was removed.
    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError>;

    /// The workspace state, `None` before it was first saved.
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError>;

    /// Saves the workspace state: its settings and patterns, and the sessions it holds (added
    /// at the end, or replaced in place). A stored session it does not hold is kept: sessions
    /// leave only by [`expire_idle_sessions`](Store::expire_idle_sessions), so a caller with
    /// an older copy never drops one added meanwhile by [`put_session`](Store::put_session).
    ///
    /// Stores that keep sessions as rows of their own write only the sessions that changed.
    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError>;

    /// Adds a session, or replaces the one with its id, without rewriting the others.
    ///
    /// The default loads and saves the whole workspace; stores override it with one row.
    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        check_session_id(&session.id)?;
        let mut state = self.load_workspace().await?.unwrap_or_default();
        match state.sessions.iter_mut().find(|s| s.id == session.id) {
            Some(slot) => *slot = session.clone(),
            None => state.sessions.push(session.clone()),
        }
        self.save_workspace(&state).await
    }

    /// Forgets the sessions that are idle and empty: [blank](SessionRecord::is_blank), with no
    /// message, pending approval or grant, and neither written nor sent an event since
    /// `untouched_since` (Unix milliseconds). Returns their ids; their audit records stay.
    ///
    /// The default expires nothing.
    async fn expire_idle_sessions(&self, untouched_since: i64) -> Result<Vec<String>, StoreError> {
        let _ = untouched_since;
        Ok(Vec::new())
    }

    /// Appends an event to a session's event log and returns its position there (1, 2, …).
    ///
    /// The log keeps a bounded number of the latest events per session; older ones are
    /// dropped, never renumbered.
    async fn append_event(&self, session_id: &str, event: &Event) -> Result<u64, StoreError>;

    /// At most `limit` events of a session after position `after_seq`, oldest first.
    ///
    /// When the first event returned is past `after_seq + 1`, the events between were dropped
    /// by retention: the reader resumed with a gap and should resynchronize.
    async fn events_since(
        &self,
        session_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError>;

    /// Starts [appending](Self::append_event) an event without waiting for it to be durable:
    /// the event is queued now, and the returned future resolves to its position once it is
    /// durable. Events of a session started one after another get positions in that order,
    /// however their futures are awaited, so a caller may hold its ordering lock only while
    /// starting, not across the commit.
    ///
    /// `None` (the default) when the store cannot promise that order; callers then await
    /// [`append_event`](Self::append_event) one event at a time.
    fn start_append_event(&self, session_id: &str, event: &Event) -> Option<PendingAppend> {
        let _ = (session_id, event);
        None
    }
}

/// An event being appended by [`Store::start_append_event`]: resolves to its position in the
/// session's log once it is durable.
pub type PendingAppend = futures::future::BoxFuture<'static, Result<u64, StoreError>>;
