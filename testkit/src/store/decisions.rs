//! Decision records: a decision's audit record, tool part and events written as one unit
//! ([`AuditLog::record_decision`](warrant_core::store::AuditLog::record_decision)), through
//! `write_decision`, which writes in two steps for a store that does not record decisions
//! as one unit; either way, a refused audit record writes nothing else.

use warrant_core::decision::Behavior;
use warrant_core::engine::EngineError;
use warrant_core::event::{Event, WarrantEvent};
use warrant_core::ids::SessionId;
use warrant_core::store::{AuditQuery, DecisionRecord, RecordedDecision, StoreErrorKind};

use super::engine::{OPTIONS, call, engine};
use super::{Subject, sample};

/// A decision record of call `id` in session `session`: an evaluation, the decided part in
/// message `m-<id>`, and its decision event.
pub fn record(session: &str, id: &str) -> DecisionRecord {
    let decision = sample::decision(id);
    DecisionRecord {
        audit: sample::evaluation(session, id),
        message_id: format!("m-{id}"),
        part: Some(sample::decided_part(id)),
        events: vec![WarrantEvent::Decision(decision).into_event(Some(1_700_000_000_000))],
    }
}

/// The events of a session's log, oldest first, with their positions.
async fn events(s: &Subject, session: &str) -> Vec<(u64, Event)> {
    let log = s.store.events_since(&session.into(), 0, 100).await.unwrap();
    log.into_iter().map(|e| (e.seq, e.event)).collect()
}

/// A decision record writes its audit record, its part and its events, numbered after what
/// was there, and answers where they landed.
pub async fn a_decision_record_writes_its_audit_record_part_and_events(s: Subject) {
    let session = SessionId::new("s1");
    s.store
        .append_audit(sample::evaluation("s1", "c0"))
        .await
        .unwrap();
    s.store
        .append_event(&session, &sample::event("c0"))
        .await
        .unwrap();
    let written = record("s1", "c1");
    let recorded = s.store.write_decision(written.clone()).await.unwrap();
    assert_eq!(
        recorded,
        RecordedDecision {
            audit_seq: 2,
            event_seqs: vec![2]
        }
    );
    let audit = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[1].seq, 2);
    assert_eq!(audit[1].record, written.audit);
    let messages = s.store.messages(&session).await.unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].id, "m-c1");
    assert_eq!(
        sample::tool_parts(messages),
        [written.part.clone().unwrap()]
    );
    assert_eq!(
        events(&s, "s1").await,
        [(1, sample::event("c0")), (2, written.events[0].clone())]
    );
    assert_eq!(s.store.evaluation_of(&"c1".into()).await.unwrap(), Some(2));
}

/// A decision record whose audit record is refused writes nothing: a second evaluation of a
/// tool call id (after a restart too) leaves no part, no event and no second record, and
/// the first call's part stands; so does an over-long session id.
pub async fn a_refused_decision_record_writes_nothing(mut s: Subject) {
    let first = s.store.write_decision(record("s1", "c1")).await.unwrap();
    s.restart();
    let mut again = record("s2", "c1");
    let mut other = sample::decided_part("c1");
    other.tool_name = "other".to_owned();
    again.part = Some(other);
    again.message_id = "m-c1".to_owned();
    let err = s.store.write_decision(again).await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    assert!(err.message.contains("\"c1\""), "{err}");
    let audit = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(audit.len(), 1, "the second evaluation was not written");
    assert!(s.store.messages(&"s2".into()).await.unwrap().is_empty());
    assert!(
        events(&s, "s2").await.is_empty(),
        "no event of the refused record"
    );
    assert_eq!(
        sample::tool_parts(s.store.messages(&"s1".into()).await.unwrap()),
        [sample::decided_part("c1")],
        "the first call's part stands"
    );
    assert_eq!(events(&s, "s1").await.len(), first.event_seqs.len());

    let long = "s".repeat(warrant_core::workspace::MAX_SESSION_ID_BYTES + 1);
    let err = s
        .store
        .write_decision(record(&long, "c2"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Invalid, "{err}");
    assert_eq!(s.store.evaluation_of(&"c2".into()).await.unwrap(), None);
    assert_eq!(
        s.store
            .audit_records(&AuditQuery::all())
            .await
            .unwrap()
            .len(),
        1
    );
}

/// Decision records survive a restart, and numbering continues after them.
pub async fn decision_records_survive_a_restart(mut s: Subject) {
    let written = record("s1", "c1");
    s.store.write_decision(written.clone()).await.unwrap();
    s.restart();
    let audit = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].record, written.audit);
    assert_eq!(
        sample::tool_parts(s.store.messages(&"s1".into()).await.unwrap()),
        [written.part.unwrap()]
    );
    assert_eq!(events(&s, "s1").await, [(1, written.events[0].clone())]);
    let next = s.store.write_decision(record("s1", "c2")).await.unwrap();
    assert_eq!(
        next,
        RecordedDecision {
            audit_seq: 2,
            event_seqs: vec![2]
        }
    );
}

/// Concurrent decision records and event appends of one session get distinct, consecutive
/// numbers in the audit log and in the session's log.
pub async fn concurrent_decision_records_are_numbered_without_gaps(s: Subject) {
    let session = SessionId::new("s1");
    let writes = (0..16).map(|i| {
        let store = std::sync::Arc::clone(&s.store);
        let session = session.clone();
        async move {
            let id = format!("c{i}");
            let recorded = store.write_decision(record("s1", &id)).await.unwrap();
            let seq = store
                .append_event(&session, &sample::event(id.as_str()))
                .await
                .unwrap();
            (recorded, seq)
        }
    });
    let done = futures::future::join_all(writes).await;
    let mut audit: Vec<u64> = done.iter().map(|(r, _)| r.audit_seq).collect();
    audit.sort_unstable();
    assert_eq!(audit, (1..=16).collect::<Vec<_>>());
    let mut seqs: Vec<u64> = done
        .iter()
        .flat_map(|(r, seq)| r.event_seqs.iter().copied().chain([*seq]))
        .collect();
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=32).collect::<Vec<_>>());
}

/// Decision records racing plain part upserts into the same message and plain event appends
/// to the same session all land (a store that locks them in different orders would
/// deadlock here): every part in the one message, the audit log and the session's log
/// numbered without gaps, the chain intact.
pub async fn decision_records_racing_plain_writes_of_their_message_all_land(s: Subject) {
    let session = SessionId::new("s1");
    let writes = (0..24).map(|i| {
        let store = std::sync::Arc::clone(&s.store);
        let session = session.clone();
        async move {
            let id = format!("c{i}");
            match i % 3 {
                0 => {
                    let mut unit = record("s1", &id);
                    unit.message_id = "m-shared".to_owned();
                    store.write_decision(unit).await.map(|r| r.event_seqs)
                }
                1 => store
                    .upsert_tool_part(&session, "m-shared", &sample::decided_part(id.as_str()))
                    .await
                    .map(|()| Vec::new()),
                _ => store
                    .append_event(&session, &sample::event(id.as_str()))
                    .await
                    .map(|seq| vec![seq]),
            }
        }
    });
    let done = futures::future::join_all(writes).await;
    let mut seqs: Vec<u64> = done
        .into_iter()
        .flat_map(|written| written.unwrap())
        .collect();
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=16).collect::<Vec<_>>());
    let messages = s.store.messages(&session).await.unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(sample::tool_parts(messages).len(), 16);
    let audit: Vec<u64> = s
        .store
        .audit_records(&AuditQuery::all())
        .await
        .unwrap()
        .iter()
        .map(|r| r.seq)
        .collect();
    assert_eq!(audit, (1..=8).collect::<Vec<_>>());
    let report = s.store.verify_audit(None).await.unwrap();
    assert!(report.is_intact(), "{report}");
}

/// Under a real engine, a call whose id was evaluated before a restart is refused as a
/// duplicate: no decision event, no part, nothing for the transports, and the first call's
/// part keeps its decision.
pub async fn a_call_refused_as_a_duplicate_leaves_no_part_and_no_event(mut s: Subject) {
    let first = engine(&s.store, None).await;
    let allowed = first.authorize(call("c1", "view"), OPTIONS).await.unwrap();
    assert_eq!(allowed.decision.behavior, Behavior::Allow);
    drop(first);
    let events_before = events(&s, "s1").await;

    s.restart();
    let second = engine(&s.store, None).await;
    let mut repeat = call("c1", "view");
    repeat.session_id = "s2".into();
    let err = second.authorize(repeat, OPTIONS).await.unwrap_err();
    assert!(
        matches!(err, EngineError::DuplicateCall(ref id) if id == "c1"),
        "{err}"
    );
    let decisions: Vec<(u64, Event)> = events(&s, "s2")
        .await
        .into_iter()
        .filter(|(_, e)| matches!(e.warrant(), Some(Ok(WarrantEvent::Decision(_)))))
        .collect();
    assert!(
        decisions.is_empty(),
        "no decision of a refused call: {decisions:?}"
    );
    assert!(s.store.messages(&"s2".into()).await.unwrap().is_empty());
    assert_eq!(events(&s, "s1").await, events_before);
    let parts = sample::tool_parts(s.store.messages(&"s1".into()).await.unwrap());
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].permission_decision, Some(allowed.decision));
    let audit = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(audit.len(), 1);
}
