//! What instances on one PostgreSQL database arbitrate ([`Arbiter`]): a call's result is taken
//! once across them, and one workspace change runs at a time.
//!
//! Needs a server: `scripts/with-postgres cargo test -p warrant-stores --test postgres_arbiter`.
#![cfg(feature = "postgres")]

use std::sync::Arc;
use std::time::Duration;

use warrant_core::engine::Arbiter;
use warrant_stores::postgres::{PostgresConfig, PostgresStore};
use warrant_stores::sqlite::AuditKey;

#[path = "postgres_common/mod.rs"]
mod pg;

async fn two_stores(database: &pg::Database) -> (tempfile::TempDir, PostgresStore, PostgresStore) {
    let dir = tempfile::tempdir().unwrap();
    let key = AuditKey::generate().unwrap();
    let open = |name: &str| {
        PostgresConfig::new(database.url.clone())
            .audit_key(key.clone())
            .checkpoint_file(Some(&dir.path().join(name)))
            .connect()
    };
    let a = open("a-head").await.unwrap();
    let b = open("b-head").await.unwrap();
    (dir, a, b)
}

/// Waits (10 s at most) until a session of the database waits for an advisory lock.
async fn until_waiting_for_the_lock(database: &pg::Database) {
    let (client, connection) = tokio_postgres::connect(&database.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let connection = tokio::spawn(connection);
    for _ in 0..200 {
        let waiting: i64 = client
            .query_one(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted \
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        if waiting > 0 {
            drop(client);
            let _ = connection.await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("nobody waited for the workspace lock");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_result_is_taken_once_across_instances() {
    let database = pg::Database::create();
    let (_dir, a, b) = two_stores(&database).await;
    let (a, b) = (Arc::new(a), Arc::new(b));
    for n in 0..20 {
        let id = warrant_core::ids::ToolCallId::new(format!("call-{n}"));
        let (here, there) = tokio::join!(a.claim_result(&id), b.claim_result(&id));
        let (here, there) = (here.unwrap(), there.unwrap());
        assert!(here ^ there, "{id}: exactly one instance takes the result");
        assert!(
            !a.claim_result(&id).await.unwrap(),
            "{id}: a third post finds it taken"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_workspace_change_at_a_time_and_a_dropped_lock_lets_the_next_in() {
    let database = pg::Database::create();
    let (_dir, a, b) = two_stores(&database).await;
    let b = Arc::new(b);
    let held = a.lock_workspace().await.unwrap();
    let waiting = {
        let b = Arc::clone(&b);
        tokio::spawn(async move { b.lock_workspace().await })
    };
    until_waiting_for_the_lock(&database).await;
    assert!(!waiting.is_finished(), "B took the lock A holds");
    drop(held);
    let on_b = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("B gets the lock once A drops it")
        .unwrap()
        .unwrap();
    // A waits now, and gets it back when B lets go.
    let again = tokio::spawn(async move { a.lock_workspace().await.map(drop) });
    until_waiting_for_the_lock(&database).await;
    assert!(!again.is_finished(), "A took the lock B holds");
    drop(on_b);
    tokio::time::timeout(Duration::from_secs(5), again)
        .await
        .expect("A gets the lock back")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_lock_held_too_long_elsewhere_is_an_error_not_a_change() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let key = AuditKey::generate().unwrap();
    let a = PostgresConfig::new(database.url.clone())
        .audit_key(key.clone())
        .checkpoint_file(None)
        .connect()
        .await
        .unwrap();
    let mut impatient = PostgresConfig::new(database.url.clone())
        .audit_key(key)
        .checkpoint_file(Some(&dir.path().join("head")));
    impatient.workspace_lock_timeout_ms = 200;
    let b = impatient.connect().await.unwrap();
    let _held = a.lock_workspace().await.unwrap();
    let err = b.lock_workspace().await.unwrap_err();
    assert!(
        err.to_string()
            .contains("another instance's workspace change"),
        "{err}"
    );
}

#[tokio::test]
async fn a_version_1_database_is_migrated_and_takes_results() {
    let database = pg::Database::create();
    database.execute(include_str!("../src/postgres/schema_v1.sql"));
    database.execute(
        "CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), \
         version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1, 1)",
    );
    let dir = tempfile::tempdir().unwrap();
    let store = PostgresConfig::new(database.url.clone())
        .audit_key(AuditKey::generate().unwrap())
        .checkpoint_file(Some(&dir.path().join("head")))
        .connect()
        .await
        .unwrap();
    assert_eq!(store.migrated_from().await.unwrap(), 1);
    assert!(store.claim_result(&"call-1".into()).await.unwrap());
    assert!(!store.claim_result(&"call-1".into()).await.unwrap());
}

#[tokio::test]
async fn a_lock_whose_session_ended_is_known_lost_and_frees_the_others() {
    let database = pg::Database::create();
    let (_dir, a, b) = two_stores(&database).await;
    let held = a.lock_workspace().await.unwrap();
    assert!(held.is_held());
    // The server ends the holder's session (a restart, an administrator, a timeout).
    database.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_locks \
         WHERE locktype = 'advisory' AND granted \
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    for _ in 0..100 {
        if !held.is_held() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!held.is_held(), "the holder knows it lost the lock");
    // Another instance gets in at once.
    tokio::time::timeout(Duration::from_secs(5), b.lock_workspace())
        .await
        .expect("the lock is free")
        .unwrap();
}
