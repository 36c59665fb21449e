//! The SQLite store's threads (the writer, the WAL checkpointer): the checkpointer copies
//! committed pages into the database file while the store is open, well before the writer's
//! own checkpoint would, and dropping the store stops both threads.
//!
//! One test in a binary of its own: it counts the process's threads by name.

use std::time::{Duration, Instant};

use warrant_core::store::AuditLog;
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;

#[path = "common/mod.rs"]
mod sample;

/// The process's threads named for the SQLite store (names are cut at 15 bytes:
/// `warrant-sqlite-`).
fn store_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .filter_map(Result::ok)
                .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
                .filter(|name| name.starts_with("warrant-sqlite"))
                .count()
        })
        .unwrap_or(0)
}

/// Waits (a few seconds at most) until [`store_threads`] counts `n`: a thread names itself
/// once it runs, and leaves the list once it has exited.
async fn expect_store_threads(n: usize, why: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while store_threads() != n {
        assert!(
            Instant::now() < deadline,
            "{why}: {} threads",
            store_threads()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checkpointer_copies_the_wal_and_stops_with_the_store() {
    let linux = std::path::Path::new("/proc/self/task").exists();
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path()).checkpoint_pages(100);
    let store = SqliteStore::with_config(config.clone()).unwrap();
    if linux {
        expect_store_threads(2, "the writer and the checkpointer").await;
    }
    let size = || std::fs::metadata(&config.path).map_or(0, |m| m.len());
    let before = size();
    // A few hundred pages of WAL, past the thread's threshold of 100 frames.
    for i in 0..200 {
        store
            .append_audit(sample::evaluation("s1", format!("c{i}").as_str()))
            .await
            .unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while size() <= before {
        assert!(
            Instant::now() < deadline,
            "nothing was checkpointed into the database file ({before} bytes)"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(store);
    if linux {
        expect_store_threads(0, "both threads stop with the store").await;
    }
    let reopened = SqliteStore::with_config(config).unwrap();
    let report = reopened.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!(
        reopened
            .audit_records(&warrant_core::store::AuditQuery::all())
            .await
            .unwrap()
            .len(),
        200
    );
}
