//! An in-memory store, for tests and for embedding without persistence.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use async_trait::async_trait;

use super::{AuditQuery, PendingApproval, Store, StoreError, StoredAuditRecord, StoredEvent};
use crate::audit::AuditRecord;
use crate::event::Event;
use crate::grant::Grant;
use crate::part::{Message, MessagePart, ToolPart};
use crate::workspace::WorkspaceState;

#[derive(Default)]
struct State {
    audit: Vec<StoredAuditRecord>,
    messages: Vec<(String, Message)>,
    pending: Vec<PendingApproval>,
    grants: Vec<Grant>,
    workspace: Option<WorkspaceState>,
    events: HashMap<String, (u64, VecDeque<StoredEvent>)>,
}

/// How many of the latest events per session an event log keeps unless configured.
pub const DEFAULT_EVENT_RETENTION: usize = 1_000;

/// Keeps everything in memory; nothing survives the process.
pub struct MemoryStore {
    state: Mutex<State>,
    event_retention: usize,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::with_event_retention(DEFAULT_EVENT_RETENTION)
    }
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store whose event log keeps the latest `retention` events per session
    /// (at least one).
    pub fn with_event_retention(retention: usize) -> Self {
        Self {
            state: Mutex::default(),
            event_retention: retention.max(1),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> Result<T, StoreError> {
        // A poisoned lock only means another thread panicked mid-update of plain data.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        Ok(f(&mut state))
    }
}

#[async_trait]
impl Store for MemoryStore {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        self.with(|s| {
            let seq = s.audit.len() as u64 + 1;
            s.audit.push(StoredAuditRecord { seq, record });
            seq
        })
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        self.with(|s| {
            s.audit
                .iter()
                .filter(|r| query.matches(&r.record))
                .cloned()
                .collect()
        })
    }

    async fn upsert_tool_part(
        &self,
        session_id: &str,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        self.with(|s| {
            let index = s
                .messages
                .iter()
                .position(|(sid, m)| sid == session_id && m.id == message_id);
            let message = match index {
                Some(i) => &mut s.messages[i].1,
                None => {
                    s.messages.push((
                        session_id.to_owned(),
                        Message {
                            id: message_id.to_owned(),
                            role: "assistant".to_owned(),
                            parts: Vec::new(),
                        },
                    ));
                    &mut s.messages.last_mut().expect("just pushed").1
                }
            };
            let existing = message
                .parts
                .iter_mut()
                .find(|p| matches!(p, MessagePart::Tool(t) if t.tool_call_id == part.tool_call_id));
            match existing {
                Some(slot) => *slot = MessagePart::Tool(part.clone()),
                None => message.parts.push(MessagePart::Tool(part.clone())),
            }
        })
    }

    async fn messages(&self, session_id: &str) -> Result<Vec<Message>, StoreError> {
        self.with(|s| {
            s.messages
                .iter()
                .filter(|(sid, _)| sid == session_id)
                .map(|(_, m)| m.clone())
                .collect()
        })
    }

    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        self.with(|s| {
            s.pending
                .retain(|p| p.request.tool_call_id != pending.request.tool_call_id);
            s.pending.push(pending.clone());
        })
    }

    async fn remove_pending_approval(&self, tool_call_id: &str) -> Result<(), StoreError> {
        self.with(|s| s.pending.retain(|p| p.request.tool_call_id != tool_call_id))
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.with(|s| s.pending.clone())
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.with(|s| s.grants.push(grant.clone()))
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.with(|s| s.grants.clone())
    }

    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.with(|s| s.workspace.clone())
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        self.with(|s| s.workspace = Some(workspace.clone()))
    }

    async fn append_event(&self, session_id: &str, event: &Event) -> Result<u64, StoreError> {
        self.with(|s| {
            let (last, log) = s.events.entry(session_id.to_owned()).or_default();
            *last += 1;
            log.push_back(StoredEvent {
                seq: *last,
                event: event.clone(),
            });
            while log.len() > self.event_retention {
                log.pop_front();
            }
            *last
        })
    }

    async fn events_since(
        &self,
        session_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        self.with(|s| {
            s.events.get(session_id).map_or_else(Vec::new, |(_, log)| {
                log.iter()
                    .filter(|e| e.seq > after_seq)
                    .take(limit)
                    .cloned()
                    .collect()
            })
        })
    }
}
