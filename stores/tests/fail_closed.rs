//! Damaged or failing storage is an error or a narrower result, never a wider permission.

use std::sync::Arc;

use rusqlite::Connection;
use warrant_core::chain::Chain;
use warrant_core::engine::Engine;
use warrant_core::store::{Approvals, AuditLog, EventLog, StoreErrorKind, WorkspaceStore};
use warrant_stores::sqlite::SqliteStore;

#[path = "common/mod.rs"]
mod sample;

fn open() -> (tempfile::TempDir, Arc<SqliteStore>, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = Arc::new(SqliteStore::open(&path).unwrap());
    (dir, store, Connection::open(&path).unwrap())
}

#[tokio::test]
async fn an_unreadable_pending_approval_is_an_error_not_a_loss() {
    let (_dir, store, raw) = open();
    store
        .put_pending_approval(&sample::pending("s1", "c1"))
        .await
        .unwrap();
    raw.execute(
        "UPDATE pending_approvals SET request = '{\"toolCallId\":'",
        [],
    )
    .unwrap();
    let err = store.pending_approvals().await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt);
    assert!(err.message.contains("\"c1\""), "{err}");
    let built = Engine::builder(Chain::builder().build())
        .store(store)
        .build()
        .await;
    assert!(
        built.is_err(),
        "an engine must not start without its pending approvals"
    );
}

#[tokio::test]
async fn an_unreadable_grant_is_left_out() {
    let (_dir, store, raw) = open();
    store
        .put_grant(&sample::grant("s1", "c1", "git push"))
        .await
        .unwrap();
    store
        .put_grant(&sample::grant("s1", "c2", "npm test"))
        .await
        .unwrap();
    raw.execute("UPDATE grants SET body = 'garbage' WHERE id = 1", [])
        .unwrap();
    assert_eq!(
        store.grants().await.unwrap(),
        [sample::grant("s1", "c2", "npm test")]
    );
}

#[tokio::test]
async fn an_unreadable_workspace_is_an_error_not_a_reset() {
    let (_dir, store, raw) = open();
    store.save_workspace(&Default::default()).await.unwrap();
    raw.execute("UPDATE workspace SET state = '{\"patterns\": 7}'", [])
        .unwrap();
    let err = store.load_workspace().await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
}

#[tokio::test]
async fn an_unreadable_event_is_an_error_naming_it() {
    let (_dir, store, raw) = open();
    store
        .append_event(&"s1".into(), &sample::event("c1"))
        .await
        .unwrap();
    raw.execute("UPDATE events SET body = 'garbage'", [])
        .unwrap();
    let err = store.events_since(&"s1".into(), 0, 10).await.unwrap_err();
    assert!(err.message.contains("event 1 of session \"s1\""), "{err}");
}

#[tokio::test]
async fn a_failing_write_fails_alone() {
    let (_dir, store, raw) = open();
    raw.execute("DROP TABLE grants", []).unwrap();
    let grant = sample::grant("s1", "c1", "git push");
    let record = sample::evaluation("s1", "c1");
    let (granted, audited) = tokio::join!(store.put_grant(&grant), store.append_audit(record));
    assert!(granted.is_err());
    assert_eq!(audited.unwrap(), 1);
    assert!(store.verify_audit().await.unwrap().is_intact());
}
