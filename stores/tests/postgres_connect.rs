//! Connecting the PostgreSQL store: versioned migrations, the audit key, secrets kept out of
//! errors, and the event log shared by instances with its notices.
//!
//! Needs a server: `scripts/with-postgres cargo test -p warrant-stores --test postgres_connect`.
#![cfg(feature = "postgres")]

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use warrant_core::ids::SessionId;
use warrant_core::store::{Approvals, AuditLog, EventLog, StoreErrorKind};
use warrant_stores::postgres::{EventNotice, PostgresConfig, PostgresStore, SCHEMA_VERSION};
use warrant_stores::sqlite::AuditKey;

#[path = "postgres_common/mod.rs"]
mod pg;
#[path = "common/mod.rs"]
mod sample;

fn config(database: &pg::Database, dir: &tempfile::TempDir) -> PostgresConfig {
    // The key's directory must exist: a missing one is never created (it may be a volume that
    // is not mounted yet).
    std::fs::create_dir_all(dir.path().join("keys")).unwrap();
    PostgresConfig::new(database.url.clone())
        .audit_key_file(dir.path().join("keys").join("audit-key"))
        .checkpoint_file(Some(&dir.path().join("audit-head")))
}

#[tokio::test]
async fn a_new_database_is_migrated_once() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let first = config(&database, &dir).connect().await.unwrap();
    assert_eq!(first.migrated_from().await.unwrap(), 0);
    let second = config(&database, &dir).connect().await.unwrap();
    assert_eq!(second.migrated_from().await.unwrap(), SCHEMA_VERSION);
}

#[tokio::test]
async fn instances_starting_together_migrate_once() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let key = AuditKey::generate().unwrap();
    let connecting: Vec<_> = (0..6)
        .map(|_| {
            let config = config(&database, &dir).audit_key(key.clone());
            tokio::spawn(config.connect())
        })
        .collect();
    let mut from = Vec::new();
    for c in connecting {
        from.push(c.await.unwrap().unwrap().migrated_from().await.unwrap());
    }
    from.sort_unstable();
    // One instance found the empty database; the others found it part or all of the way
    // migrated (each version is its own transaction), none found it empty too.
    assert_eq!(from[0], 0, "{from:?}");
    assert!(
        from[1..].iter().all(|&v| (1..=SCHEMA_VERSION).contains(&v)),
        "{from:?}"
    );
    let later = config(&database, &dir)
        .audit_key(key)
        .connect()
        .await
        .unwrap();
    assert_eq!(later.migrated_from().await.unwrap(), SCHEMA_VERSION);
}

#[tokio::test]
async fn a_newer_schema_is_refused_naming_both_versions() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    drop(config(&database, &dir).connect().await.unwrap());
    database.execute("UPDATE schema_version SET version = 99");
    let err = config(&database, &dir).connect().await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
    assert!(err.message.contains("schema version 99"), "{err}");
    assert!(
        err.message
            .contains(&format!("the {SCHEMA_VERSION} this build knows")),
        "{err}"
    );
}

#[tokio::test]
async fn the_key_file_is_created_private_and_another_key_is_refused() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let store = config(&database, &dir).connect().await.unwrap();
    let key_file = dir.path().join("keys").join("audit-key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let id = store.audit_key_id().await.unwrap();
    // The same file: the same key.
    let again = config(&database, &dir).connect().await.unwrap();
    assert_eq!(again.audit_key_id().await.unwrap(), id);

    let other = config(&database, &dir).audit_key(AuditKey::generate().unwrap());
    let err = other.connect().await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
    assert!(
        err.message.contains(&id),
        "names the key the log needs: {err}"
    );

    std::fs::remove_file(&key_file).unwrap();
    let err = config(&database, &dir).connect().await.unwrap_err();
    assert!(err.message.contains("is missing"), "{err}");
    assert!(!key_file.exists(), "no new key replaces the lost one");
}

#[tokio::test]
async fn errors_never_show_the_password() {
    let empty = PostgresStore::connect_lazy(PostgresConfig::default()).unwrap_err();
    assert_eq!(empty.kind, StoreErrorKind::Invalid, "{empty}");
    let bad = PostgresConfig::new("postgresql://warrant:hunter2@127.0.0.1:notaport/w");
    let err = PostgresStore::connect_lazy(bad).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Invalid, "{err}");
    assert!(!err.message.contains("hunter2"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let mut closed = PostgresConfig::new("postgresql://warrant:hunter2@127.0.0.1:1/w")
        .audit_key_file(dir.path().join("audit-key"));
    closed.connect_timeout_ms = 2_000;
    let store = PostgresStore::connect_lazy(closed).unwrap();
    assert!(!format!("{store:?}").contains("hunter2"));
    let err = store
        .append_audit(sample::evaluation("s1", "c1"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Unavailable, "{err}");
    assert!(!err.message.contains("hunter2"), "{err}");
    // Fail closed, every time.
    assert!(store.pending_approvals().await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_number_one_sessions_events_without_gaps() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let a = Arc::new(config(&database, &dir).connect().await.unwrap());
    let b = Arc::new(config(&database, &dir).connect().await.unwrap());
    let mut tasks = Vec::new();
    for store in [&a, &b] {
        for i in 0..50 {
            let store = Arc::clone(store);
            tasks.push(tokio::spawn(async move {
                store
                    .append_event(&"s1".into(), &sample::event(format!("c{i}")))
                    .await
                    .unwrap()
            }));
        }
    }
    let mut seqs = Vec::new();
    for task in tasks {
        seqs.push(task.await.unwrap());
    }
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=100).collect::<Vec<u64>>());
    let events = b.events_since(&"s1".into(), 0, usize::MAX).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=100).collect::<Vec<u64>>()
    );
}

async fn next(notices: &mut warrant_stores::postgres::EventNotices) -> EventNotice {
    tokio::time::timeout(Duration::from_secs(10), notices.next())
        .await
        .expect("a notice within 10 s")
        .expect("the stream goes on")
        .expect("a notice, not an error")
}

#[tokio::test]
async fn a_listener_hears_the_events_of_every_instance_in_commit_order() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let a = config(&database, &dir).connect().await.unwrap();
    let b = config(&database, &dir).connect().await.unwrap();
    let mut notices = a.listen().await.unwrap();
    for id in ["x", "y"] {
        b.append_event(&"team:s1".into(), &sample::event(id))
            .await
            .unwrap();
    }
    a.append_event(&"s2".into(), &sample::event("z"))
        .await
        .unwrap();
    b.append_event(&"team:s1".into(), &sample::event("w"))
        .await
        .unwrap();
    let mut heard = Vec::new();
    for _ in 0..4 {
        let n = next(&mut notices).await;
        heard.push((n.session_id, n.seq));
    }
    let expected = [("team:s1", 1), ("team:s1", 2), ("s2", 1), ("team:s1", 3)];
    assert_eq!(
        heard,
        expected.map(|(s, n)| (SessionId::from(s), n)).to_vec()
    );

    // A lost connection ends the stream with an error, never silently.
    database.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    );
    let end = tokio::time::timeout(Duration::from_secs(10), notices.next())
        .await
        .expect("the stream ends within 10 s");
    let err = end.expect("an item before the end").unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Unavailable, "{err}");
    assert!(notices.next().await.is_none());
}
