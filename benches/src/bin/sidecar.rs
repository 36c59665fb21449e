//! The sidecar benchmarks alone, for profiling: `warrant serve` over HTTP with keep-alive
//! clients, `warrant stdio` over a batch of lines, and the engine end to end at the same
//! concurrency for comparison.
//!
//! ```text
//! cargo run --release -p warrant-benches --bin sidecar -- [http|http-quiet|stdio|engine] [CLIENTS]
//! ```

/// The allocator the program runs with (the benchmarks measure the same): a decision makes
/// about a hundred small allocations, which mimalloc serves in fewer instructions than the
/// system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::time::Duration;

use warrant_benches::endtoend::Rig;
use warrant_benches::sidecar::{self, HttpLoad};

/// Rules of the engine behind the transports.
const RULES: usize = 1_000;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "http".to_owned());
    let clients: usize = std::env::args()
        .nth(2)
        .map_or(8, |n| n.parse().expect("CLIENTS is a number"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        match what.as_str() {
            "http" | "http-quiet" => {
                let load = HttpLoad {
                    clients,
                    warm_up: Duration::from_secs(2),
                    measure: Duration::from_secs(5),
                    max_calls: 50_000,
                    announce: what == "http",
                };
                let h = sidecar::http(RULES, load).await;
                println!(
                    "{what}, {clients} clients: {:.0} calls/s, median {:?}, mean {:?}, p99 {:?} ({} calls)",
                    h.per_second, h.latency.median, h.latency.mean, h.latency.p99, h.calls
                );
            }
            "stdio" => {
                let s = sidecar::stdio(RULES, 20_000, clients).await;
                println!("stdio, {clients} sessions: {:.0} lines/s", s.per_second);
            }
            "engine" => {
                let rig = Arc::new(Rig::new(RULES).await);
                let _ = rig.run("warm", clients, 50).await;
                let t = rig.run("run", clients, 500).await;
                println!(
                    "engine, {clients} sessions: {:.0} decisions/s, median {:?}, mean {:?}, p99 {:?}",
                    t.per_second, t.latency.median, t.latency.mean, t.latency.p99
                );
            }
            other => panic!("unknown benchmark {other:?}: http, http-quiet, stdio or engine"),
        }
    });
}
