//! The SQLite store's history queries over a damaged log: a page that reaches a record that
//! cannot be read says so, naming it; a page that does not reach it is served.

use rusqlite::Connection;
use warrant_core::store::{AuditLog, AuditQuery, StoreErrorKind};
use warrant_stores::sqlite::SqliteStore;

#[path = "common/mod.rs"]
mod sample;

/// Five records of `Bash` in session s1, the third of which is no longer JSON.
async fn damaged() -> (tempfile::TempDir, SqliteStore) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = SqliteStore::open(&path).unwrap();
    for i in 1..=5 {
        store
            .append_audit(sample::evaluation("s1", format!("c{i}")))
            .await
            .unwrap();
    }
    Connection::open(&path)
        .unwrap()
        .execute("UPDATE audit SET record = 'not json' WHERE seq = 3", [])
        .unwrap();
    (dir, store)
}

#[tokio::test]
async fn a_page_short_of_the_damage_is_served() {
    let (_dir, store) = damaged().await;
    let newest = AuditQuery {
        limit: Some(2),
        ..AuditQuery::all()
    };
    let page = store.audit_records(&newest).await.unwrap();
    assert_eq!(page.iter().map(|r| r.seq).collect::<Vec<_>>(), [4, 5]);
}

#[tokio::test]
async fn a_filtered_page_that_reaches_the_damage_names_it() {
    let (_dir, store) = damaged().await;
    // The record's JSON filters cannot read it: it reaches the reader, which reports it.
    let bash = AuditQuery {
        tool_name: Some("Bash".into()),
        text: Some("classifier".into()),
        limit: Some(10),
        ..AuditQuery::all()
    };
    let err = store.audit_records(&bash).await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
    assert!(err.to_string().contains("audit record 3"), "{err}");
    // The raw entries show it whatever the filter, oldest first within the page.
    let other_tool = AuditQuery {
        tool_name: Some("Write".into()),
        limit: Some(10),
        ..AuditQuery::all()
    };
    let entries = store.audit_entries(&other_tool).await.unwrap();
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0].seq, 3);
    assert_eq!(entries[0].record, "not json");
}

#[tokio::test]
async fn the_verification_names_the_damaged_record() {
    let (_dir, store) = damaged().await;
    let report = store.verify_audit().await.unwrap();
    assert_eq!(report.first_bad.map(|b| b.seq), Some(3));
}
