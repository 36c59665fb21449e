//! [`AuditLog`]: the append-only record of every decision.

use crate::ids::ToolCallId;
use async_trait::async_trait;

use super::{
    AuditQuery, DecisionRecord, DecisionWrite, PendingAppend, StoreError, StoredAuditRecord,
};
use crate::audit::{AuditEvent, AuditHead, AuditRecord, AuditVerification};

/// The audit log: every evaluation, resolution and grant of every session, in one order.
///
/// # Contract
///
/// - **Durability.** [`append_audit`](Self::append_audit) returns only once the record is
///   durable; the engine emits nothing about a decision before that. A record, once
///   appended, is never changed or dropped.
/// - **Ordering.** Records are numbered 1, 2, 3, … in the order they were appended, with no
///   gap; every read returns them oldest first.
/// - **Duplicate.** A second [`Evaluation`](AuditEvent::Evaluation) record of a tool call id is
///   refused with kind [`Duplicate`](super::StoreErrorKind::Duplicate) (see
///   [`duplicate_evaluation`](super::duplicate_evaluation)), durably: a restart does not forget
///   the first. Nothing is written; the call must not run.
/// - **Invalid.** A record whose session id is longer than
///   [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES) is refused with kind
///   [`Invalid`](super::StoreErrorKind::Invalid), naming it.
/// - **Errors.** Any backend failure is an error ([`Unavailable`](super::StoreErrorKind::Unavailable)
///   or [`Corrupt`](super::StoreErrorKind::Corrupt)), never an empty answer; the engine fails
///   closed on it.
#[async_trait]
pub trait AuditLog: Send + Sync {
    /// Appends an audit record and returns its seq; durable when this returns.
    ///
    /// # Errors
    ///
    /// [`Duplicate`](super::StoreErrorKind::Duplicate) (see
    /// [`duplicate_evaluation`](super::duplicate_evaluation)) for a second evaluation record of
    /// a tool call id, durably: a restart does not forget the first.
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError>;

    /// Starts appending an audit record without waiting for it to be durable: queued now, the
    /// future resolves to its seq once durable; writes started one after another (audit,
    /// parts, events) become durable in the order they were started, so awaiting the last
    /// proves the earlier ones durable. `None` when the store cannot promise that order.
    ///
    /// The default is `None`: callers then await [`append_audit`](Self::append_audit).
    fn start_append_audit(&self, record: AuditRecord) -> Option<PendingAppend> {
        let _ = record;
        None
    }

    /// Takes a decision's audit record, tool part and events to write as one unit: all of it
    /// durable, or none of it (see [`DecisionRecord`] for the order and the refusals). The
    /// engine emits the decision once the unit is durable, so it waits for one commit
    /// instead of two (the audit record's, then the part's and the event's).
    ///
    /// The answer says how: [`Queued`](DecisionWrite::Queued) (now, in order with the
    /// store's other started writes), [`OnAwait`](DecisionWrite::OnAwait) (when awaited) or
    /// [`Unsupported`](DecisionWrite::Unsupported), the default, which hands the record back
    /// to be written in two steps: the audit record awaited, then the part and the events.
    /// A store answering `Unsupported` keeps every guarantee; it only waits longer.
    fn record_decision(&self, record: DecisionRecord) -> DecisionWrite<'_> {
        DecisionWrite::Unsupported(Box::new(record))
    }

    /// The seq of the evaluation record of a tool call id, `None` when the id was never
    /// evaluated.
    ///
    /// The default reads the whole log; stores override it with a lookup.
    async fn evaluation_of(&self, tool_call_id: &ToolCallId) -> Result<Option<u64>, StoreError> {
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

    /// Verifies the audit log: numbering, and for stores that keep one, the keyed chain and
    /// its checkpoints. `expected` is a head noted earlier (`SEQ:HASH`) the log must still
    /// hold. A broken log is a report ([`AuditVerification::first_bad`]), not an error.
    ///
    /// The default reads every record and checks that none is missing
    /// ([`verify_unkeyed`](crate::audit::verify_unkeyed)); it cannot detect an edit.
    async fn verify_audit(
        &self,
        expected: Option<&AuditHead>,
    ) -> Result<AuditVerification, StoreError> {
        let records = self.audit_records(&AuditQuery::all()).await?;
        Ok(crate::audit::verify_unkeyed(&records, expected))
    }
}
