//! `GET /metrics`: the person's token only; decisions, reviews, fallbacks and approvals are
//! counted from what the engine emits, and no call's input ever shows.

mod support;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use serde_json::json;
use warrant_core::call::PermissionMode;
use warrant_core::catalog::ToolCatalog;
use warrant_core::engine::Engine;
use warrant_core::store::MemoryStore;
use warrant_core::transport::Transport;
use warrant_evaluators::classifier::{Fallback, OpenAiCompatibleConfig};
use warrant_evaluators::{ClassifierConfig, EvaluatorsConfig, default_chain};
use warrant_server::telemetry::{Metrics, Observer};
use warrant_server::{AgentCredential, ServerConfig, ServerState, router};
use warrant_transports::sse::SseHub;

use support::{Server, TOKEN, addr, request};

const AGENT_TOKEN: &str = "agent-token";
const MARKER: &str = "SECRET-INPUT-MARKER-7f3a";

/// A server in `auto` mode whose reviewer is a model nobody serves (it falls back to the
/// embedded reviewer), observed into the process's metrics.
async fn server() -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let down = listener.local_addr().unwrap();
    drop(listener);
    let mut reviewer = OpenAiCompatibleConfig::new(format!("http://{down}/v1"), "test/down");
    reviewer.api_key_env = None;
    reviewer.timeout_ms = 200;
    reviewer.fallback = Fallback::Embedded;
    let evaluators = EvaluatorsConfig {
        classifier: ClassifierConfig {
            openai: Some(reviewer),
            min_confidence: None,
        },
        ..EvaluatorsConfig::default()
    };
    let chain = default_chain(&evaluators, &ToolCatalog::builtin()).unwrap();
    let store = Arc::new(MemoryStore::new());
    let hub = Arc::new(SseHub::new(store.clone()));
    let observer = Observer::new(Metrics::global().clone());
    let transports: Vec<Arc<dyn Transport>> = vec![hub.clone(), Arc::new(observer)];
    let engine = Engine::builder(chain)
        .store(store)
        .transport(Arc::new(transports))
        .build()
        .await
        .unwrap();
    let config = ServerConfig {
        mode: PermissionMode::Auto,
        agents: vec![AgentCredential::new("agent", AGENT_TOKEN)],
        ..ServerConfig::new(TOKEN)
    };
    let state = ServerState::new(engine, hub, config, addr());
    let router = router(state.clone());
    Server { state, router }
}

async fn scrape(server: &Server, token: Option<&str>) -> support::Reply {
    let mut r = request(Method::GET, "/metrics");
    if let Some(token) = token {
        r = r.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    server.raw(r.body(Body::empty()).unwrap()).await
}

/// The value of the sample line that starts with `series `.
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no sample {series} in\n{text}"))
}

#[tokio::test]
async fn decisions_reviews_and_fallbacks_are_counted_without_inputs() {
    let server = server().await;
    for (id, command) in [("m1", "touch notes.txt"), ("m2", "git push origin main")] {
        let body = json!({
            "toolCallId": id,
            "toolName": "Bash",
            "input": {"command": command, "description": MARKER},
        });
        let reply = server
            .send(Method::POST, "/v1/sessions/s1/tool-calls", Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let reply = scrape(&server, Some(TOKEN)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.content_type,
        "text/plain; version=0.0.4; charset=utf-8"
    );
    let text = &reply.text;
    assert!(
        !text.contains(MARKER),
        "an input leaked into /metrics:\n{text}"
    );
    assert!(
        sample(
            text,
            "warrant_reviewer_fallbacks_total{fallback=\"embedded\"}"
        ) >= 2.0
    );
    assert!(
        sample(
            text,
            "warrant_reviewer_reviews_total{reviewer=\"embedded\"}"
        ) >= 2.0
    );
    assert!(sample(text, "warrant_reviewer_latency_seconds_count") >= 2.0);
    assert!(sample(text, "warrant_reviewer_latency_seconds_bucket{le=\"+Inf\"}") >= 2.0);
    let classifier_decisions: f64 = text
        .lines()
        .filter(|l| {
            l.starts_with("warrant_decisions_total{") && l.contains("source=\"auto_classifier\"")
        })
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert!(classifier_decisions >= 2.0, "{text}");
    let pending = server.engine().pending_requests().len() as f64;
    assert_eq!(sample(text, "warrant_approvals_pending"), pending);
    // Every sample line is `name{labels} value` or `name value`, after its HELP and TYPE.
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (series, value) = line.rsplit_once(' ').unwrap();
        assert!(series.starts_with("warrant_"), "{line}");
        assert!(value.parse::<f64>().is_ok(), "{line}");
    }
}

#[tokio::test]
async fn only_the_persons_token_reads_metrics() {
    let server = server().await;
    for token in [None, Some(AGENT_TOKEN), Some("wrong")] {
        let reply = scrape(&server, token).await;
        reply.assert_error(StatusCode::UNAUTHORIZED, "invalid_token");
    }
    assert_eq!(scrape(&server, Some(TOKEN)).await.status, StatusCode::OK);
}
