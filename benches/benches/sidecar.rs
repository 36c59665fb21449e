//! Warrant beside an agent: one tool call's round trip through `warrant serve` (HTTP/1.1,
//! keep-alive, durable audit), 8 keep-alive clients at once, and `warrant stdio` over a
//! batch of `tool_call` lines.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use warrant_benches::benchmarking;
use warrant_benches::endtoend::command;
use warrant_benches::sidecar::{self, Sidecar};

/// Rules of the engine behind both transports.
const RULES: usize = 1_000;

/// Numbers the sessions the clients post to: call ids are per session, and an id is never
/// reused, so every connection of every sample gets a session of its own.
static ROUND: AtomicUsize = AtomicUsize::new(0);

fn session(what: &str) -> String {
    format!("{what}-{}", ROUND.fetch_add(1, Ordering::Relaxed))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn http(c: &mut Criterion) {
    let runtime = runtime();
    let sidecar = runtime.block_on(Sidecar::start(RULES));
    let clients = if benchmarking() { 8 } else { 2 };
    let mut group = c.benchmark_group("warrant_serve_http");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    group.bench_function("one_client_round_trip", |b| {
        b.to_async(&runtime).iter_custom(|iters| {
            let sidecar = &sidecar;
            async move {
                let mut client = sidecar.client(&session("one")).await;
                let started = Instant::now();
                for i in 0..iters {
                    let i = usize::try_from(i).unwrap_or(usize::MAX);
                    client.decide(&command(RULES, i)).await;
                }
                started.elapsed()
            }
        });
    });
    group.bench_function(BenchmarkId::new("keep_alive_clients", clients), |b| {
        b.to_async(&runtime).iter_custom(|iters| {
            let sidecar = &sidecar;
            async move {
                // `iters` calls in all, shared by the clients: the time is per call.
                let per_client = usize::try_from(iters)
                    .unwrap_or(usize::MAX)
                    .div_ceil(clients);
                let mut connected = Vec::with_capacity(clients);
                for _ in 0..clients {
                    connected.push(sidecar.client(&session("many")).await);
                }
                let started = Instant::now();
                let tasks: Vec<_> = connected
                    .into_iter()
                    .enumerate()
                    .map(|(k, mut client)| {
                        tokio::spawn(async move {
                            for i in 0..per_client {
                                client.decide(&command(RULES, k + i)).await;
                            }
                        })
                    })
                    .collect();
                for t in tasks {
                    t.await.expect("a client");
                }
                started
                    .elapsed()
                    .div_f64((per_client * clients) as f64 / iters.max(1) as f64)
            }
        });
    });
    group.finish();
    runtime.block_on(sidecar.stop());
}

fn stdio(c: &mut Criterion) {
    let runtime = runtime();
    let lines = if benchmarking() { 2_000 } else { 20 };
    let input = sidecar::stdio_input(RULES, lines, 8);
    let mut group = c.benchmark_group("warrant_stdio");
    group.sample_size(10);
    group.throughput(Throughput::Elements(lines as u64));
    group.bench_function(BenchmarkId::new("lines", lines), |b| {
        b.to_async(&runtime).iter_custom(|iters| {
            let input = &input;
            async move {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += sidecar::serve_stdio(RULES, input).await.0;
                }
                total
            }
        });
    });
    group.finish();
}

/// The benchmark group (in a private module: criterion's macro makes an undocumented `pub fn`).
mod group {
    criterion::criterion_group!(benches, super::http, super::stdio);
}

criterion_main!(group::benches);
