//! The SQLite store's costs: durable decisions per second as concurrent writers share
//! commits, and the time to reload a session of 10,000 tool parts.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use warrant_core::store::{AuditLog, Conversations};
use warrant_stores::sqlite::SqliteStore;

#[path = "../tests/common/mod.rs"]
mod sample;

/// Parts in the reloaded session: 100 messages of 100 tool parts.
const PARTS: usize = 10_000;
const PARTS_PER_MESSAGE: usize = 100;

/// Numbers the benchmarked calls: a tool call id is evaluated once, iterations included.
static NEXT_CALL: AtomicU64 = AtomicU64::new(0);

/// Runs `count` futures made by `each` concurrently and waits for all of them.
async fn concurrently<F>(count: usize, each: impl Fn(usize) -> F)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let tasks: Vec<_> = (0..count).map(|i| tokio::spawn(each(i))).collect();
    for task in tasks {
        task.await.expect("the task finishes");
    }
}

fn durable_decisions(c: &mut Criterion) {
    let runtime = sample::runtime();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Arc::new(SqliteStore::open(dir.path().join("bench.db")).expect("opens"));
    let mut group = c.benchmark_group("durable_decisions");
    for writers in [1_usize, 16, 64] {
        group.throughput(Throughput::Elements(writers as u64));
        group.bench_with_input(
            BenchmarkId::new("writers", writers),
            &writers,
            |b, &writers| {
                b.to_async(&runtime).iter(|| {
                    let store = Arc::clone(&store);
                    concurrently(writers, move |_| {
                        let store = Arc::clone(&store);
                        async move {
                            let call = NEXT_CALL.fetch_add(1, Ordering::Relaxed);
                            let record = sample::evaluation("bench", format!("call-{call}"));
                            store.append_audit(record).await.expect("durable");
                        }
                    })
                });
            },
        );
    }
    group.finish();
}

fn reload_session(c: &mut Criterion) {
    let runtime = sample::runtime();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Arc::new(SqliteStore::open(dir.path().join("bench.db")).expect("opens"));
    runtime.block_on(concurrently(PARTS, |i| {
        let store = Arc::clone(&store);
        async move {
            let message = format!("m{}", i / PARTS_PER_MESSAGE);
            let part = sample::decided_part(format!("call-{i}"));
            store
                .upsert_tool_part(&"big".into(), &message, &part)
                .await
                .expect("saved");
        }
    }));
    let mut group = c.benchmark_group("reload");
    group.throughput(Throughput::Elements(PARTS as u64));
    group.bench_function("session_of_10000_tool_parts", |b| {
        b.to_async(&runtime).iter(|| async {
            let messages = store.messages(&"big".into()).await.expect("loads");
            assert_eq!(messages.iter().map(|m| m.parts.len()).sum::<usize>(), PARTS);
        });
    });
    group.finish();
}

/// The benchmark group (in a private module: criterion's macro makes an undocumented `pub fn`).
mod group {
    use super::{Criterion, durable_decisions, reload_session};

    criterion::criterion_group! {
        name = benches;
        config = Criterion::default().sample_size(20);
        targets = durable_decisions, reload_session
    }
}

criterion_main!(group::benches);
