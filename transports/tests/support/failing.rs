//! A store that fails on demand, for the 503 paths, and that can record resolutions slowly,
//! for races.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use warrant_core::ids::{SessionId, ToolCallId};

use async_trait::async_trait;
use warrant_core::audit::AuditRecord;
use warrant_core::event::Event;
use warrant_core::grant::Grant;
use warrant_core::part::{Message, ToolPart};
use warrant_core::store::*;
use warrant_core::workspace::WorkspaceState;

/// A memory store whose every operation fails while `failing` is set.
#[derive(Default)]
pub struct FailingStore {
    inner: MemoryStore,
    pub failing: AtomicBool,
    /// Milliseconds each resolution takes to audit.
    pub resolution_delay_ms: AtomicU64,
}

impl FailingStore {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    pub fn fail(&self) {
        self.failing.store(true, Ordering::SeqCst);
    }

    fn check(&self) -> Result<(), StoreError> {
        if self.failing.load(Ordering::SeqCst) {
            Err(StoreError::new(
                StoreErrorKind::Unavailable,
                "disk unplugged",
            ))
        } else {
            Ok(())
        }
    }
}

#[async_trait]
impl AuditLog for FailingStore {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        self.check()?;
        let delay = self.resolution_delay_ms.load(Ordering::SeqCst);
        if delay > 0
            && matches!(
                record.event,
                warrant_core::audit::AuditEvent::Resolution { .. }
            )
        {
            tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
        }
        self.inner.append_audit(record).await
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        self.check()?;
        self.inner.audit_records(query).await
    }
}

#[async_trait]
impl EventLog for FailingStore {
    async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError> {
        self.check()?;
        self.inner.append_event(session_id, event).await
    }

    async fn events_since(
        &self,
        session_id: &SessionId,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        self.check()?;
        self.inner.events_since(session_id, after_seq, limit).await
    }
}

#[async_trait]
impl Conversations for FailingStore {
    async fn upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner
            .upsert_tool_part(session_id, message_id, part)
            .await
    }

    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError> {
        self.check()?;
        self.inner.messages(session_id).await
    }
}

#[async_trait]
impl Approvals for FailingStore {
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        self.check()?;
        self.inner.put_pending_approval(pending).await
    }

    async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        self.check()?;
        self.inner.remove_pending_approval(tool_call_id).await
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.check()?;
        self.inner.pending_approvals().await
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.check()?;
        self.inner.put_grant(grant).await
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.check()?;
        self.inner.grants().await
    }

    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError> {
        self.check()?;
        self.inner.remove_grant(grant_id).await
    }
}

#[async_trait]
impl WorkspaceStore for FailingStore {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.check()?;
        self.inner.load_workspace().await
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        self.check()?;
        self.inner.save_workspace(workspace).await
    }
}
