//! The engine end to end with the SQLite store and SSE subscribers (1, 16 and 256
//! concurrent sessions), fan-out to 1,000 subscribers of one session, and the reload of a
//! session of 10,000 tool parts.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use warrant_benches::benchmarking;
use warrant_benches::endtoend::Rig;
use warrant_benches::{fanout, reload};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn end_to_end(c: &mut Criterion) {
    let runtime = runtime();
    let rig = Arc::new(runtime.block_on(Rig::new(1_000)));
    let runs: &[(usize, usize)] = if benchmarking() {
        &[(1, 50), (16, 10), (256, 4)]
    } else {
        &[(1, 2)]
    };
    let round = AtomicUsize::new(0);
    let mut group = c.benchmark_group("engine_end_to_end");
    group.sample_size(10);
    for &(sessions, per_session) in runs {
        group.throughput(Throughput::Elements((sessions * per_session) as u64));
        group.bench_function(BenchmarkId::new("sessions", sessions), |b| {
            b.to_async(&runtime).iter_custom(|iters| {
                let (rig, round) = (Arc::clone(&rig), &round);
                async move {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let name = format!("r{}", round.fetch_add(1, Ordering::Relaxed));
                        let t = rig.run(&name, sessions, per_session).await;
                        total +=
                            Duration::from_secs_f64((sessions * per_session) as f64 / t.per_second);
                    }
                    total
                }
            });
        });
    }
    group.finish();
}

fn fan_out(c: &mut Criterion) {
    let runtime = runtime();
    let subscribers = if benchmarking() { 1_000 } else { 10 };
    let mut group = c.benchmark_group("sse_fan_out");
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("subscribers", subscribers), |b| {
        b.to_async(&runtime).iter_custom(|iters| async move {
            let events = usize::try_from(iters).unwrap_or(usize::MAX);
            let f = fanout::fan_out(subscribers, events).await;
            f.last.mean * u32::try_from(iters).unwrap_or(u32::MAX)
        });
    });
    group.finish();
}

fn reload_session(c: &mut Criterion) {
    let runtime = runtime();
    let parts = if benchmarking() { 10_000 } else { 100 };
    let rig = Arc::new(runtime.block_on(Rig::new(100)));
    runtime.block_on(reload::fill(&rig, parts, 100, 64));
    let mut group = c.benchmark_group("reload");
    group.sample_size(20);
    group.bench_function(BenchmarkId::new("tool_parts", parts), |b| {
        b.to_async(&runtime).iter_custom(|iters| {
            let rig = Arc::clone(&rig);
            async move {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += reload::read(&rig, parts).await;
                }
                total
            }
        });
    });
    group.finish();
}

/// The benchmark group (in a private module: criterion's macro makes an undocumented `pub fn`).
mod group {
    criterion::criterion_group!(
        benches,
        super::end_to_end,
        super::fan_out,
        super::reload_session
    );
}

criterion_main!(group::benches);
