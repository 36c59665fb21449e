//! What a durable decision costs the SQLite writer: `SESSIONS` concurrent sessions each record
//! `DECISIONS` decisions (an evaluation record, its tool part in one message per session, four
//! events), as the engine does, and the CPU time of the store's threads is printed (from
//! `/proc/self/task/*/schedstat`, so it does not depend on what else the machine runs).
//!
//! `cargo run --release -p warrant-stores --example writer_cost -- 256 20`

use std::sync::Arc;
use std::time::Instant;

use warrant_core::store::{AuditLog, DecisionRecord, DecisionWrite};
use warrant_stores::sqlite::SqliteStore;
use warrant_testkit::store::sample;

/// The CPU time (ns) of each thread of this process, by name.
fn thread_cpu() -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        let dir = task.path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let ns = std::fs::read_to_string(dir.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        let tid: u64 = dir
            .file_name()
            .and_then(|n| n.to_str()?.parse().ok())
            .unwrap_or(0);
        out.push((format!("{}:{tid}", name.trim()), ns));
    }
    out.sort();
    out
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let [sessions, per_session] = args[..] else {
        eprintln!("usage: writer_cost SESSIONS DECISIONS_PER_SESSION");
        std::process::exit(2);
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let store = Arc::new(SqliteStore::open(dir.path().join("warrant.db")).expect("opens"));
    let started = Instant::now();
    runtime.block_on(async {
        let tasks: Vec<_> = (0..sessions)
            .map(|s| {
                let store = Arc::clone(&store);
                tokio::spawn(async move {
                    let session = format!("cost-s{s}");
                    for i in 0..per_session {
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
    let elapsed = started.elapsed();
    let decisions = (sessions * per_session) as f64;
    for (name, ns) in thread_cpu() {
        if name.starts_with("warrant-sqlite") {
            println!(
                "{name}: {:.1} ms, {:.1} µs per decision",
                ns as f64 / 1e6,
                ns as f64 / 1e3 / decisions
            );
        }
    }
    println!(
        "{decisions} decisions in {:.2} s ({:.0} /s)",
        elapsed.as_secs_f64(),
        decisions / elapsed.as_secs_f64()
    );
    drop(store);
}
