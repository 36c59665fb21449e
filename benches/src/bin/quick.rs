//! The quick run: a reduced version of every benchmark in a few minutes, rewriting
//! `BENCHMARKS.md` (or the file named as the only argument).
//!
//! ```text
//! cargo run --release -p warrant-benches --bin quick
//! ```
//!
//! The engine end to end also runs on PostgreSQL when `WARRANT_BENCH_POSTGRES_URL` (or
//! `WARRANT_TEST_POSTGRES_URL`) names a server; `WARRANT_PG_DURABLE=1 scripts/with-postgres
//! cargo run --release -p warrant-benches --bin quick` runs it beside a throwaway cluster
//! that syncs its commits to disk, as SQLite does. Without a server its rows say "not run".

/// The allocator the program runs with (the benchmarks measure the same): a decision makes
/// about a hundred small allocations, which mimalloc serves in fewer instructions than the
/// system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use warrant_benches::calls::Outcome;
use warrant_benches::compare::SideBySide;
use warrant_benches::endtoend::{self, Rig, Throughput};
use warrant_benches::report::{Machine, OnPostgres, PeerTiming, Results};
use warrant_benches::sidecar::{self, HttpLoad};
use warrant_benches::timing::{Stats, sample};
use warrant_benches::{fanout, latency, reload};
use warrant_core::store::Store;

/// The command this binary documents itself as.
const COMMAND: &str = "cargo run --release -p warrant-benches --bin quick";

/// Rule counts for Warrant's latencies.
const SIZES: [usize; 4] = [100, 1_000, 10_000, 100_000];
/// Timed runs per latency probe.
const LATENCY_RUNS: usize = 5_000;
/// Rule counts side by side with the peers, and the passes over the corpus each peer makes.
const PEER_PASSES: [(usize, usize); 3] = [(100, 20), (1_000, 4), (10_000, 1)];
/// Passes Warrant makes over the corpus.
const WARRANT_PASSES: usize = 200;
/// Rules of the engine end to end.
const ENGINE_RULES: usize = 1_000;
/// Concurrent sessions, and decisions per session.
const ENGINE_RUNS: [(usize, usize); 4] = [(1, 300), (8, 80), (16, 40), (256, 8)];
/// Fan-out subscribers, and the events timed.
const FANOUT: (usize, usize) = (1_000, 40);
/// Reload: parts, parts per message, concurrent writers, timed reads.
const RELOAD: (usize, usize, usize, usize) = (10_000, 100, 64, 10);
/// `warrant serve` over HTTP: keep-alive clients, 2 s of warm-up, then at most 5 s or
/// 50,000 calls counted.
const HTTP: HttpLoad = HttpLoad {
    clients: 8,
    warm_up: Duration::from_secs(2),
    measure: Duration::from_secs(5),
    max_calls: 50_000,
    announce: true,
};
/// `warrant stdio`: input lines, and the sessions they are spread over.
const STDIO: (usize, usize) = (20_000, 8);

fn step(what: &str) -> Instant {
    eprintln!("quick: {what}");
    Instant::now()
}

/// Times `passes` passes of one engine over a corpus of `calls` calls, one decision at a time.
fn over_corpus(calls: usize, passes: usize, mut decide: impl FnMut(usize) -> Outcome) -> Stats {
    let mut k = 0;
    sample(calls * passes, || {
        let outcome = decide(k % calls);
        k += 1;
        outcome
    })
}

/// Times each engine over the corpus, one decision at a time, cycling through the calls.
fn peers() -> Vec<PeerTiming> {
    PEER_PASSES
        .iter()
        .map(|&(n, passes)| {
            let started = step(&format!("{n} rules side by side with Cedar and Rego"));
            let s = SideBySide::new(n);
            let calls = s.corpus.len();
            let warrant = over_corpus(calls, WARRANT_PASSES, |i| s.warrant(&s.corpus[i].call));
            let cedar = over_corpus(calls, passes, |i| s.cedar.decide(&s.corpus[i].call));
            let rego = over_corpus(calls, passes, |i| s.rego.decide(&s.corpus[i].call));
            eprintln!("quick:   done in {:.1} s", started.elapsed().as_secs_f64());
            PeerTiming {
                rules: n,
                calls,
                warrant,
                cedar,
                rego,
            }
        })
        .collect()
}

/// The engine end to end on PostgreSQL, the same runs as on SQLite, when a server is named.
async fn on_postgres() -> OnPostgres {
    let Some(url) = endtoend::postgres_server() else {
        eprintln!(
            "quick: engine end to end on PostgreSQL not run: set {} (or run under \
             scripts/with-postgres)",
            endtoend::POSTGRES_URL_ENV
        );
        return OnPostgres::NotRun;
    };
    step(&format!(
        "engine end to end on PostgreSQL, {ENGINE_RULES} rules"
    ));
    let rig = Rig::postgres(ENGINE_RULES, &url)
        .await
        .unwrap_or_else(|e| panic!("the engine on PostgreSQL: {e}"));
    let rig = Arc::new(rig);
    let server = rig
        .server()
        .await
        .unwrap_or_else(|e| panic!("the PostgreSQL server: {e}"));
    eprintln!("quick:   {server}");
    let runs = engine_runs(&rig).await;
    OnPostgres::Ran { server, runs }
}

/// The engine end to end at each concurrency of [`ENGINE_RUNS`]; every decision must then be
/// in the store's audit log.
async fn engine_runs<S: Store + 'static>(rig: &Arc<Rig<S>>) -> Vec<(usize, Throughput)> {
    let mut runs = Vec::new();
    for (sessions, per_session) in ENGINE_RUNS {
        let t = rig
            .run(&format!("run{sessions}"), sessions, per_session)
            .await;
        eprintln!(
            "quick:   {sessions} sessions: {:.0} decisions/s",
            t.per_second
        );
        runs.push((sessions, t));
    }
    let decided: usize = ENGINE_RUNS.iter().map(|(s, d)| s * d).sum();
    let audited = rig.audit_entries().await;
    assert_eq!(audited, decided, "every decision is in the audit log");
    runs
}

fn main() {
    let out = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md"),
        PathBuf::from,
    );
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");

    step("rule evaluator and chain latencies");
    let latencies = latency::measure(&SIZES, LATENCY_RUNS);
    let peers = peers();

    let (engine, engine_postgres, fanout, reload, http, stdio) = runtime.block_on(async {
        step(&format!(
            "engine end to end on SQLite, {ENGINE_RULES} rules"
        ));
        let rig = Arc::new(Rig::new(ENGINE_RULES).await);
        let engine = engine_runs(&rig).await;
        let engine_postgres = on_postgres().await;
        step(&format!("fan-out to {} subscribers", FANOUT.0));
        let fanout = fanout::fan_out(FANOUT.0, FANOUT.1).await;
        step(&format!("reload of {} parts", RELOAD.0));
        let (parts, per_message, writers, reads) = RELOAD;
        let reload = reload::reload(&rig, parts, per_message, writers, reads).await;
        step(&format!(
            "`warrant serve` over HTTP, {} keep-alive clients, {ENGINE_RULES} rules",
            HTTP.clients
        ));
        let mut http = Vec::new();
        for announce in [true, false] {
            let h = sidecar::http(ENGINE_RULES, HttpLoad { announce, ..HTTP }).await;
            eprintln!(
                "quick:   announce {announce}: {:.0} calls/s, p99 {:?}",
                h.per_second, h.latency.p99
            );
            http.push(h);
        }
        step(&format!(
            "`warrant stdio`, {} lines, {ENGINE_RULES} rules",
            STDIO.0
        ));
        let stdio = sidecar::stdio(ENGINE_RULES, STDIO.0, STDIO.1).await;
        eprintln!("quick:   {:.0} lines/s", stdio.per_second);
        (
            engine,
            engine_postgres,
            (FANOUT.0, fanout),
            (parts, reload),
            http,
            stdio,
        )
    });

    let results = Results {
        machine: Machine::current(),
        latencies,
        peers,
        engine,
        engine_postgres,
        fanout: Some(fanout),
        reload: Some(reload),
        http,
        stdio: Some(stdio),
        wall: started.elapsed(),
    };
    let previous = std::fs::read_to_string(&out).ok();
    let markdown = results.markdown(COMMAND, previous.as_deref());
    std::fs::write(&out, &markdown).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
    println!("{}\n{}", results.figures(), results.targets());
    eprintln!(
        "quick: wrote {} in {:.0} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
}
