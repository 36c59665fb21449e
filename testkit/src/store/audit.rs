//! The audit log: append-only, numbered, filtered by session, durable.

use std::sync::Arc;

use warrant_core::store::{AuditQuery, StoreErrorKind};

use super::Subject;
use super::sample;

/// Appended records are numbered from one in order.
pub async fn appended_records_are_numbered_from_one_in_order(s: Subject) {
    for (i, call) in ["c1", "c2", "c3"].into_iter().enumerate() {
        let seq = s
            .store
            .append_audit(sample::evaluation("s1", call))
            .await
            .unwrap();
        assert_eq!(seq, i as u64 + 1);
    }
    let records = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    let calls: Vec<(u64, &str)> = records
        .iter()
        .map(|r| (r.seq, r.record.tool_call_id.as_str()))
        .collect();
    assert_eq!(calls, [(1, "c1"), (2, "c2"), (3, "c3")]);
}

/// Records of one session are read alone.
pub async fn records_of_one_session_are_read_alone(s: Subject) {
    s.store
        .append_audit(sample::evaluation("s1", "a"))
        .await
        .unwrap();
    s.store
        .append_audit(sample::evaluation("s2", "b"))
        .await
        .unwrap();
    s.store
        .append_audit(sample::resolution_record("s1", "a"))
        .await
        .unwrap();
    let s1 = s
        .store
        .audit_records(&AuditQuery::session("s1"))
        .await
        .unwrap();
    assert_eq!(s1.iter().map(|r| r.seq).collect::<Vec<_>>(), [1, 3]);
    assert!(s1.iter().all(|r| r.record.session_id == "s1"));
    let unknown = s
        .store
        .audit_records(&AuditQuery::session("nobody"))
        .await
        .unwrap();
    assert!(unknown.is_empty());
}

/// Every kind of record reads back as written.
pub async fn every_kind_of_record_reads_back_as_written(s: Subject) {
    let written = [
        sample::evaluation("s1", "c1"),
        sample::resolution_record("s1", "c1"),
        sample::expiry_record("s1", "c2"),
    ];
    for record in written.clone() {
        s.store.append_audit(record).await.unwrap();
    }
    let read: Vec<_> = s
        .store
        .audit_records(&AuditQuery::all())
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.record)
        .collect();
    assert_eq!(read, written);
}

/// Concurrent appends get distinct consecutive numbers.
pub async fn concurrent_appends_get_distinct_consecutive_numbers(s: Subject) {
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let store = Arc::clone(&s.store);
            tokio::spawn(async move {
                store
                    .append_audit(sample::evaluation("s1", format!("c{i}")))
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut seqs = Vec::new();
    for task in tasks {
        seqs.push(task.await.unwrap());
    }
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=50).collect::<Vec<u64>>());
    assert_eq!(
        s.store
            .audit_records(&AuditQuery::all())
            .await
            .unwrap()
            .len(),
        50
    );
}

/// Records survive a restart and numbering continues.
pub async fn records_survive_a_restart_and_numbering_continues(mut s: Subject) {
    s.store
        .append_audit(sample::evaluation("s1", "before"))
        .await
        .unwrap();
    s.restart();
    let seq = s
        .store
        .append_audit(sample::evaluation("s1", "after"))
        .await
        .unwrap();
    assert_eq!(seq, 2);
    let records = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(records[0].record, sample::evaluation("s1", "before"));
    assert_eq!(records[1].record.tool_call_id, "after");
}

/// A tool call id is evaluated once even after a restart.
pub async fn a_tool_call_id_is_evaluated_once_even_after_a_restart(mut s: Subject) {
    s.store
        .append_audit(sample::evaluation("s1", "c1"))
        .await
        .unwrap();
    s.restart();
    let err = s
        .store
        .append_audit(sample::evaluation("s2", "c1"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    assert!(err.message.contains("\"c1\""), "{err}");
    assert!(err.message.contains("audit record 1"), "{err}");
    assert_eq!(s.store.evaluation_of(&"c1".into()).await.unwrap(), Some(1));
    assert_eq!(s.store.evaluation_of(&"c2".into()).await.unwrap(), None);
    let records = s.store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(records.len(), 1, "the second evaluation was not written");
}

/// An evaluated call still takes its resolution and expiry.
pub async fn an_evaluated_call_still_takes_its_resolution_and_expiry(s: Subject) {
    s.store
        .append_audit(sample::evaluation("s1", "c1"))
        .await
        .unwrap();
    s.store
        .append_audit(sample::resolution_record("s1", "c1"))
        .await
        .unwrap();
    let seq = s
        .store
        .append_audit(sample::expiry_record("s1", "c1"))
        .await
        .unwrap();
    assert_eq!(seq, 3);
    let next = s
        .store
        .append_audit(sample::evaluation("s1", "c2"))
        .await
        .unwrap();
    assert_eq!(next, 4, "a refused duplicate leaves no gap either");
}

/// Every store verifies its log through the trait.
pub async fn every_store_verifies_its_log_through_the_trait(s: Subject) {
    let empty = s.store.verify_audit(None).await.unwrap();
    assert!(empty.is_intact(), "{empty}");
    assert_eq!((empty.records, empty.head_seq), (0, 0));
    for id in ["a", "b", "c"] {
        s.store
            .append_audit(sample::evaluation("s1", id))
            .await
            .unwrap();
    }
    let report = s.store.verify_audit(None).await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!((report.records, report.head_seq), (3, 3));
    // A head the log no longer reaches is reported, by every store.
    let beyond = warrant_core::audit::AuditHead {
        seq: 9,
        hash: report.head_hash.clone(),
    };
    let short = s.store.verify_audit(Some(&beyond)).await.unwrap();
    assert!(!short.is_intact(), "{short}");
    assert_eq!(
        short.first_bad.map(|b| b.problem),
        Some(warrant_core::audit::AuditProblem::Missing)
    );
}
