//! Memory stays flat while calls never report a result (denied calls, unanswered asks,
//! fire-and-forget sidecars) and while event streams are opened and left without a single
//! event: RSS after 20,000 such calls stays within 10 MB of RSS after 1,000.

mod support;

use std::sync::Arc;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use warrant_core::call::ToolCall;
use warrant_core::engine::{AuthorizeOptions, Engine, EngineLimits};
use warrant_transports::sse::SseHub;
use warrant_transports::stdio::{LineTransport, StdioOptions, serve};

use support::discard::DiscardStore;

/// The resident set size of this process, in kB.
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("procfs");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// A call of one of three kinds, none of which ever reports a result: allowed (a sidecar
/// that forgets), denied, and asking (nobody answers).
fn call(n: usize, pad: usize) -> ToolCall {
    let session = format!("s{}", n % 8);
    let id = format!("call-{n}");
    let padding = "x".repeat(pad);
    match n % 3 {
        0 => ToolCall::new(
            session,
            id,
            "view",
            json!({"path": "README.md", "pad": padding}),
        ),
        1 => ToolCall::new(
            session,
            id,
            "Bash",
            json!({"command": "rm -rf /", "pad": padding}),
        ),
        _ => ToolCall::new(
            session,
            id,
            "Bash",
            json!({"command": format!("git push origin b{n}"), "pad": padding}),
        ),
    }
}

async fn engine(hub: Arc<SseHub>, store: Arc<DiscardStore>) -> Engine {
    Engine::builder(support::chain::demo())
        .store(store)
        .transport(hub)
        .build()
        .await
        .expect("an engine")
}

async fn decide(engine: &Engine, range: std::ops::Range<usize>, pad: usize) {
    for n in range {
        let options = AuthorizeOptions {
            announce: true,
            ..Default::default()
        };
        // Dropping the authorization: nobody waits for the user, nobody reports a result.
        drop(
            engine
                .authorize(call(n, pad), options)
                .await
                .expect("decided"),
        );
    }
}

fn subscribe_and_leave(hub: &SseHub, range: std::ops::Range<usize>) {
    for n in range {
        drop(hub.subscribe(&format!("quiet-{n}").into(), 0));
    }
}

async fn soak(calls: usize, pad: usize) -> (u64, u64) {
    let store = Arc::new(DiscardStore::default());
    let hub = Arc::new(SseHub::new(store.clone()));
    let engine = engine(hub.clone(), store).await;
    decide(&engine, 0..1_000, pad).await;
    subscribe_and_leave(&hub, 0..1_000);
    let after_1k = rss_kb();
    decide(&engine, 1_000..calls, pad).await;
    subscribe_and_leave(&hub, 1_000..calls);
    let after_all = rss_kb();
    let (tracked, settled) = engine.memory_footprint();
    let limits = EngineLimits::default();
    assert!(
        tracked <= limits.max_pending_approvals + limits.max_awaiting_results,
        "{tracked} calls tracked"
    );
    assert!(
        settled <= 2 * limits.settled_memory,
        "{settled} settled remembered"
    );
    assert!(
        engine.pending_requests().len() <= limits.max_pending_approvals,
        "pending approvals are bounded"
    );
    assert_eq!(
        hub.live_sessions(),
        0,
        "streams left without events leave no channel"
    );
    (after_1k, after_all)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rss_after_20000_calls_without_results_stays_within_10_mb_of_rss_after_1000() {
    let (after_1k, after_20k) = soak(20_000, 0).await;
    eprintln!("engine+SSE: RSS after 1,000 calls: {after_1k} kB; after 20,000: {after_20k} kB");
    assert!(
        after_20k <= after_1k + 10 * 1024,
        "RSS grew from {after_1k} kB to {after_20k} kB"
    );
    let (stdio_1k, stdio_10k) = stdio_soak(10_000).await;
    eprintln!("stdio: RSS after 1,000 lines: {stdio_1k} kB; after 10,000: {stdio_10k} kB");
    assert!(
        stdio_10k <= stdio_1k + 10 * 1024,
        "RSS grew from {stdio_1k} kB to {stdio_10k} kB"
    );
}

/// `warrant stdio` over the same kinds of calls (10,000 lines: stdio is slower per call in a
/// debug build): its own map of calls, and the lines it handles at once, are bounded too.
async fn stdio_soak(calls: usize) -> (u64, u64) {
    let store = Arc::new(DiscardStore::default());
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 22);
    let out = Arc::new(LineTransport::new(server_out));
    let engine = Engine::builder(support::chain::demo())
        .store(store)
        .transport(out.clone())
        .build()
        .await
        .expect("an engine");
    let server = tokio::spawn(serve(server_in, engine, out, StdioOptions::default()));
    // Read (and count) every event, so the pipe never fills.
    let reader = tokio::spawn(async move {
        let mut lines = BufReader::new(output).lines();
        let mut decisions = 0usize;
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(r#""name":"tool_permission_decision""#) {
                decisions += 1;
            }
        }
        decisions
    });
    let line = |n: usize| {
        let c = call(n, 0);
        json!({"type": "tool_call", "sessionId": c.session_id, "toolCallId": c.tool_call_id,
               "toolName": c.tool_name, "input": c.input})
        .to_string()
            + "\n"
    };
    for n in 0..1_000 {
        input.write_all(line(n).as_bytes()).await.unwrap();
    }
    // Let the first thousand be decided before measuring.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let after_1k = rss_kb();
    for n in 1_000..calls {
        input.write_all(line(n).as_bytes()).await.unwrap();
    }
    drop(input);
    server.await.unwrap().expect("served");
    let after_all = rss_kb();
    assert_eq!(reader.await.unwrap(), calls, "every call was decided");
    (after_1k, after_all)
}

/// The bigger soak (a few minutes in a debug build; run it alone): 100,000 small calls, then
/// 300 calls of 1 MB each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a longer soak; run alone with --ignored --exact"]
async fn rss_stays_flat_over_100000_calls_and_300_one_megabyte_calls() {
    let (after_1k, after_100k) = soak(100_000, 0).await;
    eprintln!("RSS after 1,000 calls: {after_1k} kB; after 100,000: {after_100k} kB");
    assert!(after_100k <= after_1k + 10 * 1024);
    let store = Arc::new(DiscardStore::default());
    let hub = Arc::new(SseHub::new(store.clone()));
    let engine = engine(hub, store).await;
    decide(&engine, 0..30, 1 << 20).await;
    let after_30 = rss_kb();
    decide(&engine, 30..300, 1 << 20).await;
    let after_300 = rss_kb();
    eprintln!("RSS after 30 calls of 1 MB: {after_30} kB; after 300: {after_300} kB");
    assert!(after_300 <= after_30 + 20 * 1024);
}
