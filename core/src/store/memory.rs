//! An in-memory store, for tests and for embedding without persistence.

use crate::ids::{SessionId, ToolCallId};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use async_trait::async_trait;

use super::{
    Approvals, AuditLog, AuditQuery, Conversations, DecisionRecord, DecisionWrite, EventLog,
    PendingApproval, RecordedDecision, StoreError, StoredAuditRecord, StoredEvent, WorkspaceStore,
    duplicate_evaluation,
};
use crate::audit::{AuditEvent, AuditRecord};
use crate::event::{Event, now_millis};
use crate::grant::Grant;
use crate::part::{Message, MessagePart, ToolPart};
use crate::workspace::{SessionRecord, WorkspaceState, check_session_id};

#[derive(Default)]
struct State {
    audit: Vec<StoredAuditRecord>,
    messages: Vec<(SessionId, Message)>,
    pending: Vec<PendingApproval>,
    grants: Vec<Grant>,
    workspace: Option<WorkspaceState>,
    events: HashMap<SessionId, (u64, VecDeque<StoredEvent>)>,
    /// The seq of each tool call id's evaluation record.
    evaluated: HashMap<ToolCallId, u64>,
    /// When each session was last written or sent an event (Unix milliseconds).
    touched: HashMap<SessionId, i64>,
}

impl State {
    fn touch(&mut self, session_id: &SessionId) {
        self.touched.insert(session_id.to_owned(), now_millis());
    }

    /// Appends an audit record (see [`AuditLog::append_audit`]).
    fn append_audit(&mut self, record: AuditRecord) -> Result<u64, StoreError> {
        let seq = self.audit.len() as u64 + 1;
        if matches!(record.event, AuditEvent::Evaluation { .. }) {
            if let Some(&first) = self.evaluated.get(&record.tool_call_id) {
                return Err(duplicate_evaluation(record.tool_call_id.as_str(), first));
            }
            self.evaluated.insert(record.tool_call_id.clone(), seq);
        }
        self.audit.push(StoredAuditRecord { seq, record });
        Ok(seq)
    }

    /// Appends an event, keeping the latest `retention` (see [`EventLog::append_event`]).
    fn append_event(&mut self, session_id: &SessionId, event: &Event, retention: usize) -> u64 {
        self.touch(session_id);
        let (last, log) = self.events.entry(session_id.to_owned()).or_default();
        *last += 1;
        log.push_back(StoredEvent {
            seq: *last,
            event: event.clone(),
        });
        while log.len() > retention {
            log.pop_front();
        }
        *last
    }

    /// Inserts or replaces a tool part (see [`Conversations::upsert_tool_part`]).
    fn upsert_tool_part(&mut self, session_id: &SessionId, message_id: &str, part: &ToolPart) {
        self.touch(session_id);
        let index = self
            .messages
            .iter()
            .position(|(sid, m)| sid == session_id && m.id == message_id);
        let message = match index {
            Some(i) => &mut self.messages[i].1,
            None => {
                self.messages.push((
                    session_id.to_owned(),
                    Message {
                        id: message_id.to_owned(),
                        role: "assistant".to_owned(),
                        parts: Vec::new(),
                    },
                ));
                &mut self.messages.last_mut().expect("just pushed").1
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
    }

    /// Whether anything but its record refers to the session.
    fn holds_content(&self, session_id: &SessionId) -> bool {
        self.messages.iter().any(|(sid, _)| sid == session_id)
            || self.pending.iter().any(|p| p.session_id == session_id)
            || self.grants.iter().any(|g| g.session_id == session_id)
    }
}

/// How many of the latest events per session an event log keeps unless configured.
pub const DEFAULT_EVENT_RETENTION: usize = 1_000;

/// Keeps everything in memory; nothing survives the process.
pub struct MemoryStore {
    state: Mutex<State>,
    event_retention: usize,
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryStore")
            .field("event_retention", &self.event_retention)
            .finish_non_exhaustive()
    }
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
impl AuditLog for MemoryStore {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        check_session_id(&record.session_id)?;
        self.with(|s| s.append_audit(record))?
    }

    /// Written under one lock when awaited: all of it, or (the audit record refused) none.
    fn record_decision(&self, record: DecisionRecord) -> DecisionWrite<'_> {
        DecisionWrite::OnAwait(Box::pin(async move {
            let DecisionRecord {
                audit,
                message_id,
                part,
                events,
            } = record;
            let session_id = audit.session_id.clone();
            check_session_id(&session_id)?;
            self.with(|s| {
                let audit_seq = s.append_audit(audit)?;
                if let Some(part) = &part {
                    s.upsert_tool_part(&session_id, &message_id, part);
                }
                let event_seqs = events
                    .iter()
                    .map(|event| s.append_event(&session_id, event, self.event_retention))
                    .collect();
                Ok(RecordedDecision {
                    audit_seq,
                    event_seqs,
                })
            })?
        }))
    }

    async fn evaluation_of(&self, tool_call_id: &ToolCallId) -> Result<Option<u64>, StoreError> {
        self.with(|s| s.evaluated.get(tool_call_id).copied())
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        self.with(|s| {
            // From the end, so a page stops as soon as it is full.
            let mut page: Vec<StoredAuditRecord> = s
                .audit
                .iter()
                .rev()
                .filter(|r| query.matches_stored(r))
                .take(query.limit.unwrap_or(usize::MAX))
                .cloned()
                .collect();
            page.reverse();
            page
        })
    }
}

#[async_trait]
impl EventLog for MemoryStore {
    async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError> {
        check_session_id(session_id)?;
        self.with(|s| s.append_event(session_id, event, self.event_retention))
    }

    async fn events_since(
        &self,
        session_id: &SessionId,
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

#[async_trait]
impl Conversations for MemoryStore {
    async fn upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        check_session_id(session_id)?;
        self.with(|s| s.upsert_tool_part(session_id, message_id, part))
    }

    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError> {
        self.with(|s| {
            s.messages
                .iter()
                .filter(|(sid, _)| sid == session_id)
                .map(|(_, m)| m.clone())
                .collect()
        })
    }
}

#[async_trait]
impl Approvals for MemoryStore {
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        check_session_id(&pending.session_id)?;
        self.with(|s| {
            s.touch(&pending.session_id);
            s.pending
                .retain(|p| p.request.tool_call_id != pending.request.tool_call_id);
            s.pending.push(pending.clone());
        })
    }

    async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        self.with(|s| s.pending.retain(|p| p.request.tool_call_id != tool_call_id))
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.with(|s| s.pending.clone())
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        check_session_id(&grant.session_id)?;
        self.with(|s| {
            s.touch(&grant.session_id);
            s.grants.push(grant.clone());
        })
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.with(|s| s.grants.clone())
    }

    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError> {
        self.with(|s| {
            let before = s.grants.len();
            s.grants.retain(|g| g.clone().with_id().id != grant_id);
            s.grants.len() != before
        })
    }
}

#[async_trait]
impl WorkspaceStore for MemoryStore {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.with(|s| s.workspace.clone())
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        self.with(|s| {
            // Work on a copy, so a refused session leaves the state as it was.
            let mut sessions = s
                .workspace
                .as_ref()
                .map(|w| w.sessions.clone())
                .unwrap_or_default();
            let mut index: HashMap<SessionId, usize> = sessions
                .iter()
                .enumerate()
                .map(|(i, k)| (k.id.clone(), i))
                .collect();
            let mut touched = Vec::new();
            for session in &workspace.sessions {
                match index.get(&session.id) {
                    Some(&i) if sessions[i] == *session => continue,
                    Some(&i) => sessions[i] = session.clone(),
                    None => {
                        index.insert(session.id.clone(), sessions.len());
                        sessions.push(session.clone());
                    }
                }
                check_session_id(&session.id)?;
                touched.push(&session.id);
            }
            for id in touched {
                s.touch(id);
            }
            s.workspace = Some(WorkspaceState {
                settings: workspace.settings.clone(),
                patterns: workspace.patterns.clone(),
                sessions,
            });
            Ok(())
        })?
    }

    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        check_session_id(&session.id)?;
        self.with(|s| {
            let state = s.workspace.get_or_insert_with(WorkspaceState::default);
            match state.sessions.iter_mut().find(|r| r.id == session.id) {
                Some(slot) => *slot = session.clone(),
                None => state.sessions.push(session.clone()),
            }
            s.touch(&session.id);
        })
    }

    async fn expire_idle_sessions(
        &self,
        untouched_since: i64,
    ) -> Result<Vec<SessionId>, StoreError> {
        self.with(|s| {
            let Some(mut state) = s.workspace.take() else {
                return Vec::new();
            };
            let mut expired = Vec::new();
            state.sessions.retain(|session| {
                let idle = s
                    .touched
                    .get(&session.id)
                    .is_none_or(|&at| at < untouched_since);
                let expire = idle && session.is_blank() && !s.holds_content(&session.id);
                if expire {
                    expired.push(session.id.clone());
                }
                !expire
            });
            for id in &expired {
                s.touched.remove(id);
            }
            s.workspace = Some(state);
            expired
        })
    }
}
