//! The sidecar harness works: the HTTP clients get decisions from a real server over
//! keep-alive connections, and `warrant stdio` writes every call's events.

use std::time::Duration;

use warrant_benches::sidecar::{self, HttpLoad};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_clients_get_every_decision_over_keep_alive_connections() {
    let load = HttpLoad {
        clients: 2,
        warm_up: Duration::from_millis(50),
        measure: Duration::from_secs(5),
        max_calls: 20,
        announce: true,
    };
    let run = sidecar::http(100, load).await;
    assert_eq!(run.clients, 2);
    assert!(run.calls > 0 && run.calls <= 20, "{run:?}");
    assert!(run.per_second > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_writes_every_calls_events() {
    let run = sidecar::stdio(100, 30, 3).await;
    assert_eq!((run.lines, run.sessions), (30, 3));
    assert!(run.per_second > 0.0);
}
