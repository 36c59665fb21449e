//! [`DecisionRecord`]: a decision's audit record, its tool part and the events that report it,
//! written as one unit.

use futures::future::BoxFuture;

use super::StoreError;
use crate::audit::AuditRecord;
use crate::event::Event;
use crate::part::ToolPart;

/// One decision's durable writes: its audit record, the call's tool part carrying the
/// decision, and the events of the call's session that report it (`tool_permission_decision`).
///
/// A store that [records](super::AuditLog::record_decision) it commits the three as one unit:
/// all of it is durable, or none of it. The audit record is appended first, exactly as
/// [`append_audit`](super::AuditLog::append_audit) would (numbered, chained, a second
/// evaluation of a tool call id refused as [`Duplicate`](super::StoreErrorKind::Duplicate));
/// when it is refused, neither the part nor an event is written. Then the part is
/// [upserted](super::Conversations::upsert_tool_part) in its message of the record's session,
/// and the events are [appended](super::EventLog::append_event) to that session's log, in
/// order. A failure of any write fails the unit.
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionRecord {
    /// The audit record (its session is the part's and the events' session).
    pub audit: AuditRecord,
    /// The message holding the call's tool part.
    pub message_id: String,
    /// The call's tool part, when there is one to persist.
    pub part: Option<ToolPart>,
    /// The events reporting the decision, in order.
    pub events: Vec<Event>,
}

/// Where a [`DecisionRecord`] landed once durable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedDecision {
    /// The audit record's seq.
    pub audit_seq: u64,
    /// Each event's position in its session's log, in the record's order.
    pub event_seqs: Vec<u64>,
}

/// How a store takes a [`DecisionRecord`] (see [`AuditLog::record_decision`](super::AuditLog::record_decision)).
#[must_use = "a started decision record resolves once durable"]
pub enum DecisionWrite<'a> {
    /// Queued now, behind every write started before it and ahead of every write started
    /// after it (as [`start_append_audit`](super::AuditLog::start_append_audit) and
    /// [`start_append_event`](super::EventLog::start_append_event) are); resolves once the
    /// unit is durable. Only a store that starts event appends answers this.
    Queued(BoxFuture<'static, Result<RecordedDecision, StoreError>>),
    /// Written when awaited, nothing before the first poll: the caller keeps the session's
    /// events in order around it (as around an awaited
    /// [`append_event`](super::EventLog::append_event)).
    OnAwait(BoxFuture<'a, Result<RecordedDecision, StoreError>>),
    /// The store does not commit a decision as one unit; the record is handed back. The
    /// caller writes it in two steps instead: the audit record, awaited until durable, and
    /// only once it is, the part and the events (a refused audit record then writes nothing
    /// else either).
    Unsupported(Box<DecisionRecord>),
}

impl std::fmt::Debug for DecisionWrite<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Queued(_) => "DecisionWrite::Queued",
            Self::OnAwait(_) => "DecisionWrite::OnAwait",
            Self::Unsupported(_) => "DecisionWrite::Unsupported",
        })
    }
}

impl dyn super::Store {
    /// Writes a decision record and waits until it is durable: as one unit when the store
    /// [records decisions](super::AuditLog::record_decision), otherwise in two steps (the audit
    /// record; once it is durable, the part and the events), so that a refused audit record
    /// writes nothing else either way.
    ///
    /// This writes the store only; the engine publishes a decision's events through its
    /// [`EventHub`](crate::events::EventHub) instead, which hands them to subscribers.
    ///
    /// # Errors
    ///
    /// The first write's error; for the audit record's refusal (a
    /// [`Duplicate`](super::StoreErrorKind::Duplicate) evaluation, an over-long session id),
    /// nothing was written.
    pub async fn write_decision(
        &self,
        record: DecisionRecord,
    ) -> Result<RecordedDecision, StoreError> {
        match self.record_decision(record) {
            DecisionWrite::Queued(written) => written.await,
            DecisionWrite::OnAwait(written) => written.await,
            DecisionWrite::Unsupported(record) => {
                let record = *record;
                let session_id = record.audit.session_id.clone();
                let audit_seq = self.append_audit(record.audit).await?;
                if let Some(part) = &record.part {
                    self.upsert_tool_part(&session_id, &record.message_id, part)
                        .await?;
                }
                let mut event_seqs = Vec::with_capacity(record.events.len());
                for event in &record.events {
                    event_seqs.push(self.append_event(&session_id, event).await?);
                }
                Ok(RecordedDecision {
                    audit_seq,
                    event_seqs,
                })
            }
        }
    }
}
