//! The audit log's hash chain: `verify_audit` names the first record edited or deleted.

use rusqlite::{Connection, params};
use warrant_core::store::{AuditLog, AuditQuery};
use warrant_stores::sqlite::{AuditProblem, GENESIS, SqliteStore};

#[path = "common/mod.rs"]
mod sample;

/// A database holding five audit records, and a raw connection to tamper with it.
async fn five_records() -> (tempfile::TempDir, SqliteStore, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = SqliteStore::open(&path).unwrap();
    for i in 1..=5 {
        store
            .append_audit(sample::evaluation("s1", format!("c{i}")))
            .await
            .unwrap();
    }
    (dir, store, Connection::open(&path).unwrap())
}

async fn first_bad(store: &SqliteStore) -> (u64, AuditProblem) {
    let report = store.verify_audit().await.unwrap();
    let bad = report.first_bad.expect("the tampering is detected");
    (bad.seq, bad.problem)
}

#[tokio::test]
async fn an_untouched_log_verifies() {
    let (_dir, store, _) = five_records().await;
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!((report.records, report.head_seq), (5, 5));
}

#[tokio::test]
async fn every_entry_carries_the_hash_of_the_one_before() {
    let (_dir, store, _) = five_records().await;
    let entries = store.audit_entries(&AuditQuery::all()).await.unwrap();
    assert_eq!(entries[0].prev_hash, GENESIS);
    for pair in entries.windows(2) {
        assert_eq!(pair[1].prev_hash, pair[0].hash);
    }
    assert_eq!(entries[2].record["toolCallId"], "c3");
}

#[tokio::test]
async fn an_edited_record_is_named() {
    let (_dir, store, raw) = five_records().await;
    raw.execute(
        "UPDATE audit SET record = replace(record, '\"allow\"', '\"deny\"') WHERE seq = 3",
        [],
    )
    .unwrap();
    assert_eq!(first_bad(&store).await, (3, AuditProblem::Edited));
}

#[tokio::test]
async fn an_edited_record_with_a_recomputed_hash_is_named() {
    let (_dir, store, raw) = five_records().await;
    let (prev, record): (String, String) = raw
        .query_row(
            "SELECT prev_hash, record FROM audit WHERE seq = 2",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let forged = record.replace("\"allow\"", "\"deny\"");
    let hash = sha256_link(&prev, &forged);
    raw.execute(
        "UPDATE audit SET record = ?1, hash = ?2 WHERE seq = 2",
        params![forged, hash],
    )
    .unwrap();
    assert_eq!(first_bad(&store).await, (2, AuditProblem::Edited));
}

#[tokio::test]
async fn a_deleted_record_is_named() {
    let (_dir, store, raw) = five_records().await;
    raw.execute("DELETE FROM audit WHERE seq = 4", []).unwrap();
    assert_eq!(first_bad(&store).await, (4, AuditProblem::Missing));
}

#[tokio::test]
async fn a_deleted_tail_is_named() {
    let (_dir, store, raw) = five_records().await;
    raw.execute("DELETE FROM audit WHERE seq >= 4", []).unwrap();
    assert_eq!(first_bad(&store).await, (4, AuditProblem::Missing));
}

#[tokio::test]
async fn a_moved_session_column_is_named() {
    let (_dir, store, raw) = five_records().await;
    raw.execute(
        "UPDATE audit SET session_id = 'elsewhere' WHERE seq = 1",
        [],
    )
    .unwrap();
    assert_eq!(first_bad(&store).await, (1, AuditProblem::Edited));
}

#[tokio::test]
async fn a_second_handle_on_the_same_file_continues_the_same_chain() {
    let (dir, store, _) = five_records().await;
    let other = SqliteStore::open(dir.path().join("warrant.db")).unwrap();
    assert_eq!(
        other
            .append_audit(sample::evaluation("s1", "c6"))
            .await
            .unwrap(),
        6
    );
    assert_eq!(
        store
            .append_audit(sample::evaluation("s1", "c7"))
            .await
            .unwrap(),
        7
    );
    assert!(store.verify_audit().await.unwrap().is_intact());
}

#[tokio::test]
async fn an_unreadable_record_is_an_error_naming_it() {
    let (_dir, store, raw) = five_records().await;
    raw.execute("UPDATE audit SET record = 'not json' WHERE seq = 2", [])
        .unwrap();
    let err = store.audit_records(&AuditQuery::all()).await.unwrap_err();
    assert!(err.message.contains("audit record 2"), "{err}");
    let entries = store.audit_entries(&AuditQuery::all()).await.unwrap();
    assert_eq!(entries[1].record, "not json");
}

/// The chain's link hash, computed independently of the store.
fn sha256_link(prev: &str, record: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(format!("{prev}\n{record}").as_bytes()))
}
