//! The store's files are private: a data directory it creates is 0700; the database, its WAL
//! and shared memory, the audit key and the checkpoint file are 0600.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use warrant_core::store::{AuditLog, StoreErrorKind};
use warrant_stores::sqlite::SqliteStore;

#[path = "common/mod.rs"]
mod sample;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test]
async fn the_data_directory_is_0700_and_every_file_0600() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("nested").join(".warrant");
    let store = SqliteStore::open(data.join("warrant.db")).unwrap();
    store
        .append_audit(sample::evaluation("s1", "c1"))
        .await
        .unwrap();
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&root.path().join("nested")), 0o700);
    for file in [
        "warrant.db",
        "warrant.db-wal",
        "warrant.db-shm",
        "warrant.db.audit-key",
        "warrant.db.audit-head",
    ] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
}

#[tokio::test]
async fn existing_files_readable_by_others_are_narrowed_to_0600() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = SqliteStore::open(&path).unwrap();
    store
        .append_audit(sample::evaluation("s1", "c1"))
        .await
        .unwrap();
    drop(store);
    let checkpoint = dir.path().join("warrant.db.audit-head");
    for file in [&path, &checkpoint] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    drop(SqliteStore::open(&path).unwrap());
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&checkpoint), 0o600);
}

#[test]
fn an_audit_key_file_readable_by_others_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    drop(SqliteStore::open(&path).unwrap());
    let key = dir.path().join("warrant.db.audit-key");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = SqliteStore::open(&path).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Invalid);
    assert!(err.message.contains(&key.display().to_string()), "{err}");
    assert!(err.message.contains("644"), "{err}");
    assert!(err.message.contains("chmod 600"), "{err}");
}
