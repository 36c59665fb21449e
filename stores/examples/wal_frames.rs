//! Where a durable decision's WAL frames go: `SESSIONS` sessions each record `WARM` decisions
//! (as `writer_cost` does: an evaluation record, its tool part in one message per session,
//! four events), the store is closed (the WAL is copied into the database and removed), then
//! reopened with checkpoints off and each session records `MORE` decisions. The WAL then holds
//! every frame those commits wrote; each frame's page is mapped to its b-tree by SQLite's
//! `dbstat`, and the frames per decision are printed, in all and by b-tree (its interior
//! pages apart).
//!
//! `cargo run --release -p warrant-stores --example wal_frames -- 256 300 20`

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use warrant_core::store::{AuditLog, DecisionRecord, DecisionWrite};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;
use warrant_testkit::store::sample;

/// Records `count` decisions for each of `sessions` sessions, starting at call `from`, the
/// sessions concurrently (each one call at a time, as the engine's clients do).
fn record(
    runtime: &tokio::runtime::Runtime,
    store: &Arc<SqliteStore>,
    sessions: usize,
    from: usize,
    count: usize,
) {
    runtime.block_on(async {
        let tasks: Vec<_> = (0..sessions)
            .map(|s| {
                let store = Arc::clone(store);
                tokio::spawn(async move {
                    let session = format!("cost-s{s}");
                    for i in from..from + count {
                        let id = format!("{session}-c{i}");
                        let record = DecisionRecord {
                            audit: sample::evaluation(session.as_str(), id.as_str()),
                            message_id: "m0".to_owned(),
                            part: Some(sample::decided_part(id.as_str())),
                            events: (0..4).map(|_| sample::event(id.as_str())).collect(),
                        };
                        match store.record_decision(record) {
                            DecisionWrite::Queued(done) | DecisionWrite::OnAwait(done) => {
                                done.await.expect("durable");
                            }
                            DecisionWrite::Unsupported(_) => panic!("records decisions"),
                        }
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.expect("a session");
        }
    });
}

/// The page number of every valid frame of a WAL file, and how many frames end a commit.
fn frames(wal: &[u8]) -> (Vec<u32>, usize) {
    let be = |at: usize| u32::from_be_bytes([wal[at], wal[at + 1], wal[at + 2], wal[at + 3]]);
    let page_size = be(8) as usize;
    let (salt1, salt2) = (be(16), be(20));
    let mut pages = Vec::new();
    let mut commits = 0;
    let mut at = 32;
    while at + 24 + page_size <= wal.len() {
        if be(at + 8) != salt1 || be(at + 12) != salt2 {
            break;
        }
        pages.push(be(at));
        if be(at + 4) != 0 {
            commits += 1;
        }
        at += 24 + page_size;
    }
    (pages, commits)
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to).expect("copies");
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let [sessions, warm, more] = args[..] else {
        eprintln!("usage: wal_frames SESSIONS WARM MORE");
        std::process::exit(2);
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("warrant.db");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let store = Arc::new(SqliteStore::open(&path).expect("opens"));
    record(&runtime, &store, sessions, 0, warm);
    drop(store);
    let store = Arc::new(
        SqliteConfig::new(&path)
            .checkpoint_pages(100_000_000)
            .open()
            .expect("opens again"),
    );
    record(&runtime, &store, sessions, warm, more);
    // Every commit returned: the WAL holds them all. Copy it beside the database as it was
    // before them (the close above checkpointed everything).
    let snapshot = dir.path().join("snapshot.db");
    copy(&path, &snapshot);
    let wal = std::fs::read(dir.path().join("warrant.db-wal")).expect("reads the WAL");
    std::fs::write(dir.path().join("snapshot.db-wal"), &wal).expect("writes the WAL copy");
    drop(store);
    let (pages, commits) = frames(&wal);
    let conn = rusqlite::Connection::open(&snapshot).expect("opens the snapshot");
    let mut trees: HashMap<u32, String> = HashMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT name || CASE pagetype WHEN 'internal' THEN ' (interior)' \
             WHEN 'overflow' THEN ' (overflow)' ELSE '' END, pageno FROM dbstat",
        )
        .expect("dbstat");
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?)))
        .expect("dbstat");
    for row in rows {
        let (name, page) = row.expect("a dbstat row");
        trees.insert(page, name);
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for page in &pages {
        let tree = trees.get(page).map_or("(free or gone)", String::as_str);
        *counts.entry(tree).or_default() += 1;
    }
    let decisions = (sessions * more) as f64;
    println!(
        "{} frames for {decisions} decisions in {commits} commits: {:.2} a decision ({:.0} decisions a commit)",
        pages.len(),
        pages.len() as f64 / decisions,
        decisions / commits.max(1) as f64
    );
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (tree, n) in counts {
        println!("  {tree}: {:.2}", n as f64 / decisions);
    }
}
