//! A store that keeps only the workspace and counters: for soaks that measure what the
//! engine and the transports themselves hold.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use warrant_core::ids::{SessionId, ToolCallId};

use async_trait::async_trait;
use warrant_core::audit::AuditRecord;
use warrant_core::event::Event;
use warrant_core::grant::Grant;
use warrant_core::part::{Message, ToolPart};
use warrant_core::store::*;
use warrant_core::workspace::WorkspaceState;

/// Records nothing but the workspace; every write succeeds.
#[derive(Default)]
pub struct DiscardStore {
    audits: AtomicU64,
    workspace: Mutex<Option<WorkspaceState>>,
    events: Mutex<HashMap<String, u64>>,
}

#[async_trait]
impl AuditLog for DiscardStore {
    async fn append_audit(&self, _: AuditRecord) -> Result<u64, StoreError> {
        Ok(self.audits.fetch_add(1, Ordering::Relaxed) + 1)
    }

    async fn audit_records(&self, _: &AuditQuery) -> Result<Vec<StoredAuditRecord>, StoreError> {
        Ok(Vec::new())
    }
}

#[async_trait]
impl EventLog for DiscardStore {
    async fn append_event(&self, session_id: &SessionId, _: &Event) -> Result<u64, StoreError> {
        let mut events = self.events.lock().unwrap();
        let seq = events.entry(session_id.to_owned().to_string()).or_default();
        *seq += 1;
        Ok(*seq)
    }

    async fn events_since(
        &self,
        _: &SessionId,
        _: u64,
        _: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        Ok(Vec::new())
    }
}

#[async_trait]
impl Conversations for DiscardStore {
    async fn upsert_tool_part(
        &self,
        _: &SessionId,
        _: &str,
        _: &ToolPart,
    ) -> Result<(), StoreError> {
        Ok(())
    }

    async fn messages(&self, _: &SessionId) -> Result<Vec<Message>, StoreError> {
        Ok(Vec::new())
    }
}

#[async_trait]
impl Approvals for DiscardStore {
    async fn put_pending_approval(&self, _: &PendingApproval) -> Result<(), StoreError> {
        Ok(())
    }

    async fn remove_pending_approval(&self, _: &ToolCallId) -> Result<(), StoreError> {
        Ok(())
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        Ok(Vec::new())
    }

    async fn put_grant(&self, _: &Grant) -> Result<(), StoreError> {
        Ok(())
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        Ok(Vec::new())
    }

    async fn remove_grant(&self, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
}

#[async_trait]
impl WorkspaceStore for DiscardStore {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        Ok(self.workspace.lock().unwrap().clone())
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        *self.workspace.lock().unwrap() = Some(workspace.clone());
        Ok(())
    }
}
