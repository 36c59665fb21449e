//! [`WorkspaceStore`]: the workspace's settings, patterns and sessions.

use async_trait::async_trait;

use super::StoreError;
use crate::ids::SessionId;
use crate::workspace::{SessionRecord, WorkspaceState, check_session_id};

/// The workspace: its settings and patterns, and the list of sessions it holds.
///
/// # Contract
///
/// - **Durability.** Every write is durable when it returns.
/// - **Ordering.** Sessions keep the order in which they were first added; replacing one
///   keeps its place.
/// - **No lost session.** A save never drops a stored session it does not hold: sessions leave
///   only by [`expire_idle_sessions`](Self::expire_idle_sessions), so a writer with an older
///   copy never undoes a [`put_session`](Self::put_session) made meanwhile.
/// - **Invalid.** A session id longer than
///   [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES) is refused with kind
///   [`Invalid`](super::StoreErrorKind::Invalid), naming it. There is no duplicate: a session
///   put twice is kept once, the latest.
/// - **Errors.** A backend failure is an error, never a default workspace.
#[async_trait]
pub trait WorkspaceStore: Send + Sync {
    /// The workspace state, `None` before it was first saved.
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError>;

    /// Saves the workspace state: its settings and patterns, and the sessions it holds (added
    /// at the end, or replaced in place). A stored session it does not hold is kept: sessions
    /// leave only by [`expire_idle_sessions`](Self::expire_idle_sessions), so a caller with
    /// an older copy never drops one added meanwhile by [`put_session`](Self::put_session).
    ///
    /// Stores that keep sessions as rows of their own write only the sessions that changed.
    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError>;

    /// Adds a session, or replaces the one with its id, without rewriting the others.
    ///
    /// The default loads and saves the whole workspace; stores override it with one row.
    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        check_session_id(session.id.as_str())?;
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
    async fn expire_idle_sessions(
        &self,
        untouched_since: i64,
    ) -> Result<Vec<SessionId>, StoreError> {
        let _ = untouched_since;
        Ok(Vec::new())
    }
}
