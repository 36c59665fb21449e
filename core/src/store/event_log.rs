//! [`EventLog`]: each session's stream of events, for resuming readers.

use crate::ids::SessionId;
use async_trait::async_trait;

use super::{PendingAppend, StoreError, StoredEvent};
use crate::event::Event;

/// Each session's event log: the events sent to its subscribers, numbered so that a reader
/// that lost its connection resumes where it stopped (SSE's `Last-Event-ID`).
///
/// # Contract
///
/// - **Durability.** [`append_event`](Self::append_event) returns once the event is durable.
/// - **Ordering.** A session's events are numbered 1, 2, 3, … in the order they were
///   appended; sessions are numbered independently. Reads return them oldest first.
/// - **Retention.** The log keeps a bounded number of the latest events per session; older
///   ones are dropped, never renumbered, so a reader sees a gap rather than a wrong event.
/// - **Invalid.** A session id longer than
///   [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES) is refused with kind
///   [`Invalid`](super::StoreErrorKind::Invalid), naming it. There is no duplicate: the same
///   event appended twice is two events.
/// - **Errors.** A backend failure is an error, never an empty page.
#[async_trait]
pub trait EventLog: Send + Sync {
    /// Appends an event to a session's event log and returns its position there (1, 2, …).
    ///
    /// The log keeps a bounded number of the latest events per session; older ones are
    /// dropped, never renumbered.
    async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError>;

    /// At most `limit` events of a session after position `after_seq`, oldest first.
    ///
    /// When the first event returned is past `after_seq + 1`, the events between were dropped
    /// by retention: the reader resumed with a gap and should resynchronize.
    async fn events_since(
        &self,
        session_id: &SessionId,
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
    fn start_append_event(&self, session_id: &SessionId, event: &Event) -> Option<PendingAppend> {
        let _ = (session_id, event);
        None
    }
}
