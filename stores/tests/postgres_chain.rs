//! The PostgreSQL store's audit chain across instances: concurrent appenders on one database
//! make one gap-free chain, a killed connection loses no acknowledged record, tampering is
//! detected, and the links are those the SQLite store computes.
//!
//! Needs a server: `scripts/with-postgres cargo test -p warrant-stores --test postgres_chain`.
#![cfg(feature = "postgres")]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use warrant_core::audit::{AuditHead, AuditProblem};
use warrant_core::store::{AuditLog, AuditQuery, StoreErrorKind};
use warrant_stores::SqliteConfig;
use warrant_stores::postgres::{PostgresConfig, PostgresStore};
use warrant_stores::sqlite::{AuditKey, SqliteStore};

#[path = "postgres_common/mod.rs"]
mod pg;
#[path = "common/mod.rs"]
mod sample;

fn key() -> AuditKey {
    AuditKey::from_bytes(vec![42u8; 32]).unwrap()
}

/// An instance's configuration: the shared key, a checkpoint file of its own.
fn config(database: &pg::Database, dir: &tempfile::TempDir, instance: &str) -> PostgresConfig {
    PostgresConfig::new(database.url.clone())
        .audit_key(key())
        .checkpoint_file(Some(&dir.path().join(format!("{instance}.audit-head"))))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_appending_at_once_make_one_gap_free_chain() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let a = Arc::new(config(&database, &dir, "a").connect().await.unwrap());
    let b = Arc::new(config(&database, &dir, "b").connect().await.unwrap());
    let mut tasks = Vec::new();
    for (name, store) in [("a", &a), ("b", &b)] {
        for i in 0..200 {
            let store = Arc::clone(store);
            let call = format!("{name}{i}");
            tasks.push(tokio::spawn(async move {
                let seq = store
                    .append_audit(sample::evaluation("s1", &call))
                    .await
                    .unwrap();
                (seq, call)
            }));
        }
    }
    // Verifying while both instances append never mistakes an append for damage.
    let verifier = {
        let a = Arc::clone(&a);
        tokio::spawn(async move {
            let mut checks = 0;
            loop {
                let report = a.verify_audit(None).await.unwrap();
                assert!(report.is_intact(), "{report}");
                checks += 1;
                if report.records == 400 {
                    return checks;
                }
            }
        })
    };
    let mut acknowledged = HashMap::new();
    for task in tasks {
        let (seq, call) = task.await.unwrap();
        assert!(
            acknowledged.insert(seq, call).is_none(),
            "seq {seq} was given twice"
        );
    }
    assert!(verifier.await.unwrap() >= 1);
    let mut seqs: Vec<u64> = acknowledged.keys().copied().collect();
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=400).collect::<Vec<u64>>());

    for store in [&a, &b] {
        let records = store.audit_records(&AuditQuery::all()).await.unwrap();
        assert_eq!(records.len(), 400);
        for record in &records {
            assert_eq!(acknowledged[&record.seq], record.record.tool_call_id);
        }
        let report = store.verify_audit(None).await.unwrap();
        assert!(report.is_intact(), "{report}");
        assert_eq!((report.records, report.head_seq), (400, 400));
        assert!(report.checkpoint_seq.is_some(), "each instance checkpoints");
        let expected = report.head();
        let again = store.verify_audit(Some(&expected)).await.unwrap();
        assert!(again.is_intact(), "{again}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_connections_mid_transaction_loses_no_acknowledged_record() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(config(&database, &dir, "a").connect().await.unwrap());
    let acknowledged: Arc<Mutex<Vec<(u64, String)>>> = Arc::default();
    let failed: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for w in 0..8 {
        let (store, acknowledged, failed, stop) = (
            Arc::clone(&store),
            Arc::clone(&acknowledged),
            Arc::clone(&failed),
            Arc::clone(&stop),
        );
        writers.push(tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let call = format!("w{w}-{i}");
                i += 1;
                match store.append_audit(sample::evaluation("s1", &call)).await {
                    Ok(seq) => acknowledged.lock().unwrap().push((seq, call)),
                    Err(e) => {
                        assert_eq!(e.kind, StoreErrorKind::Unavailable, "{e}");
                        failed.lock().unwrap().push(e.message);
                    }
                }
            }
        }));
    }
    let acknowledged_count = || acknowledged.lock().unwrap().len();
    let wait_for = |n: usize| async move {
        for _ in 0..600 {
            if acknowledged_count() >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("fewer than {n} appends were acknowledged in 30 s");
    };
    let kill = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                WHERE datname = current_database() AND application_name = 'warrant'";
    wait_for(100).await;
    database.execute(kill);
    // The pool replaces the killed connections and appends go on.
    let after_kill = acknowledged_count();
    wait_for(after_kill + 100).await;
    // Kill again, and drop the store with appends in flight.
    database.execute(kill);
    for writer in &writers {
        writer.abort();
    }
    stop.store(true, Ordering::Relaxed);
    for writer in writers {
        let _ = writer.await;
    }
    drop(store);

    let reopened = config(&database, &dir, "a").connect().await.unwrap();
    let records = reopened.audit_records(&AuditQuery::all()).await.unwrap();
    let by_seq: HashMap<u64, &str> = records
        .iter()
        .map(|r| (r.seq, r.record.tool_call_id.as_str()))
        .collect();
    let acknowledged = acknowledged.lock().unwrap().clone();
    for (seq, call) in acknowledged.iter() {
        assert_eq!(
            by_seq.get(seq).copied(),
            Some(call.as_str()),
            "acknowledged record {seq} ({call}) is in the log"
        );
    }
    let report = reopened.verify_audit(None).await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!(report.records, records.len() as u64);
    assert!(report.records >= acknowledged.len() as u64);
    let failures = failed.lock().unwrap().clone();
    eprintln!(
        "{} acknowledged, {} failed, {} in the log",
        acknowledged.len(),
        failures.len(),
        records.len()
    );
    assert!(
        !failures.is_empty(),
        "the kills interrupted appends in flight"
    );
    for message in failures.iter() {
        assert!(
            !message.contains("password"),
            "an error names no secret: {message}"
        );
    }
}

/// Five records in a fresh database, and the store that wrote them.
async fn five_records() -> (pg::Database, tempfile::TempDir, PostgresStore) {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let store = config(&database, &dir, "a").connect().await.unwrap();
    for i in 1..=5 {
        store
            .append_audit(sample::evaluation("s1", format!("c{i}")))
            .await
            .unwrap();
    }
    (database, dir, store)
}

async fn first_bad(store: &PostgresStore) -> (u64, AuditProblem) {
    let report = store.verify_audit(None).await.unwrap();
    let bad = report.first_bad.expect("the tampering is detected");
    (bad.seq, bad.problem)
}

#[tokio::test]
async fn an_edited_record_is_named() {
    let (database, _dir, store) = five_records().await;
    database.execute("UPDATE audit SET record = replace(record, 'c3', 'cX') WHERE seq = 3");
    assert_eq!(first_bad(&store).await, (3, AuditProblem::Edited));
}

#[tokio::test]
async fn a_deleted_record_is_named() {
    let (database, _dir, store) = five_records().await;
    database.execute("DELETE FROM audit WHERE seq = 2");
    assert_eq!(first_bad(&store).await, (2, AuditProblem::Missing));
}

#[tokio::test]
async fn a_truncated_tail_with_its_head_rewound_is_caught_by_the_checkpoint() {
    let (database, _dir, store) = five_records().await;
    database.execute(
        "DELETE FROM audit WHERE seq > 3; \
         UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)",
    );
    assert_eq!(first_bad(&store).await, (4, AuditProblem::Missing));
}

#[tokio::test]
async fn without_a_checkpoint_an_expected_head_anchors_the_log() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let store = config(&database, &dir, "a")
        .checkpoint_file(None)
        .connect()
        .await
        .unwrap();
    for i in 1..=3 {
        store
            .append_audit(sample::evaluation("s1", format!("c{i}")))
            .await
            .unwrap();
    }
    let unanchored = store.verify_audit(None).await.unwrap();
    assert_eq!(
        unanchored.first_bad.as_ref().map(|b| b.problem),
        Some(AuditProblem::Unanchored)
    );
    let head = unanchored.head();
    assert!(store.verify_audit(Some(&head)).await.unwrap().is_intact());
    let forged = AuditHead {
        seq: 2,
        hash: "ab".repeat(32),
    };
    let report = store.verify_audit(Some(&forged)).await.unwrap();
    assert_eq!(
        report.first_bad.map(|b| (b.seq, b.problem)),
        Some((2, AuditProblem::Edited))
    );
}

#[tokio::test]
async fn a_record_forged_without_the_key_is_named() {
    let (database, _dir, store) = five_records().await;
    // A writer of the database without the key recomputes nothing it can: the hash stays.
    database.execute("UPDATE audit SET at = at + 1 WHERE seq = 5");
    assert_eq!(first_bad(&store).await, (5, AuditProblem::Edited));
}

#[tokio::test]
async fn the_links_are_those_the_sqlite_store_computes() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let postgres = config(&database, &dir, "a").connect().await.unwrap();
    let sqlite =
        SqliteStore::with_config(SqliteConfig::in_dir(dir.path()).audit_key(key())).unwrap();
    let records = [
        sample::evaluation("s1", "c1"),
        sample::resolution_record("s1", "c1"),
        sample::expiry_record("s2", "c2"),
    ];
    for record in records {
        let a = postgres.append_audit(record.clone()).await.unwrap();
        let b = sqlite.append_audit(record).await.unwrap();
        assert_eq!(a, b);
    }
    let pg_entries = postgres.audit_entries(&AuditQuery::all()).await.unwrap();
    let sqlite_entries = sqlite.audit_entries(&AuditQuery::all()).await.unwrap();
    assert_eq!(pg_entries, sqlite_entries);
    assert_eq!(
        postgres.audit_key_id().await.unwrap(),
        sqlite.audit_key_id()
    );
}
