//! SQLite checkpoints driven by the WAL's size: nothing is copied into the database file while
//! the WAL holds fewer frames than `checkpoint_pages`, the checkpoint thread copies them once
//! it holds that many (well before the writer's own bound), and checkpoints held back by a
//! reader fail no commit and lose nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use warrant_core::store::{AuditLog, AuditQuery, EventLog, Store};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::{SqliteStore, WRITER_BOUND_FACTOR};
use warrant_testkit::store::decisions::record;

#[path = "common/mod.rs"]
mod sample;

/// A WAL frame: its 24-byte header and a 4 KiB page (the default page size).
const FRAME: u64 = 24 + 4096;

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn wal_of(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Frames in the WAL file (its 32-byte header aside): the frames written since the database
/// opened, as long as the WAL has not been restarted.
fn wal_frames(db: &Path) -> u64 {
    size(&wal_of(db)).saturating_sub(32) / FRAME
}

/// Waits (10 s at most) until a checkpoint grew the database file past `bytes`.
async fn grows_past(db: &Path, bytes: u64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while size(db) <= bytes {
        assert!(
            Instant::now() < deadline,
            "nothing was checkpointed at {} WAL frames",
            wal_frames(db)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Opens the database again: its audit chain verifies and holds `records` records.
async fn reopen_intact(config: SqliteConfig, records: usize) -> SqliteStore {
    let reopened = SqliteStore::with_config(config).unwrap();
    let report = reopened.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
    let kept = reopened.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(kept.len(), records);
    reopened
}

/// Appends the `i`th audit record and counts it.
async fn append(store: &SqliteStore, i: &mut usize) {
    let record = sample::evaluation("s1", format!("c{i}").as_str());
    store.append_audit(record).await.unwrap();
    *i += 1;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wal_is_copied_once_it_holds_the_configured_frames() {
    const PAGES: u32 = 300;
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path()).checkpoint_pages(PAGES);
    let db = config.path.clone();
    let store = SqliteStore::with_config(config.clone()).unwrap();
    let opened = size(&db);
    let mut i = 0;

    // Below the threshold: the pages stay in the WAL.
    while wal_frames(&db) < u64::from(PAGES) / 2 {
        append(&store, &mut i).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        size(&db),
        opened,
        "checkpointed at {} WAL frames, below the threshold of {PAGES}",
        wal_frames(&db)
    );

    // At the threshold: the checkpoint thread copies them, long before the writer's bound.
    while wal_frames(&db) < u64::from(PAGES) {
        append(&store, &mut i).await;
    }
    let bound = u64::from(PAGES * WRITER_BOUND_FACTOR);
    assert!(
        wal_frames(&db) < bound,
        "the writer's own bound was reached"
    );
    grows_past(&db, opened).await;
    drop(store);
    reopen_intact(config, i).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkpoints_held_back_by_a_reader_fail_no_commit_and_lose_nothing() {
    const PAGES: u32 = 20;
    const DECISIONS: usize = 300;
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path()).checkpoint_pages(PAGES);
    let db = config.path.clone();
    let store: std::sync::Arc<dyn Store> =
        std::sync::Arc::new(SqliteStore::with_config(config.clone()).unwrap());

    // A reader in a transaction keeps its snapshot: no checkpoint may copy past it, and the
    // WAL cannot start over, however far it grows past the thread's threshold and the
    // writer's bound.
    let reader = Connection::open(&db).unwrap();
    reader.execute_batch("BEGIN").unwrap();
    let _: i64 = reader
        .query_row("SELECT count(*) FROM audit", [], |r| r.get(0))
        .unwrap();

    for i in 0..DECISIONS {
        let written = store
            .write_decision(record("held", &format!("h{i}")))
            .await
            .unwrap();
        assert_eq!(written.audit_seq, i as u64 + 1);
    }
    let bound = u64::from(PAGES * WRITER_BOUND_FACTOR);
    assert!(
        wal_frames(&db) > 2 * bound,
        "the WAL reached {} frames only",
        wal_frames(&db)
    );
    let held = size(&db);

    // Once the reader is gone, checkpoints copy the WAL again.
    reader.execute_batch("COMMIT").unwrap();
    drop(reader);
    store.write_decision(record("held", "after")).await.unwrap();
    grows_past(&db, held).await;
    drop(store);

    let reopened = reopen_intact(config, DECISIONS + 1).await;
    let events = reopened
        .events_since(&"held".into(), 0, DECISIONS * 2)
        .await
        .unwrap();
    assert_eq!(events.len(), DECISIONS + 1, "every decision event is kept");
}
