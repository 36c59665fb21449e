//! The OTLP export of decisions (`otel` feature) against a collector stand-in: a small
//! OTLP/HTTP receiver on 127.0.0.1 that decodes `POST /v1/traces`. Each decided call is a span
//! with `decision`, `source`, `reasonCode`, `risk` and `tool`, and no input reaches it.
#![cfg(feature = "otel")]

mod support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{Method, StatusCode};
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use prost::Message as _;
use serde_json::json;
use warrant_core::engine::Engine;
use warrant_core::store::MemoryStore;
use warrant_core::transport::Transport;
use warrant_server::telemetry::otel::{OtlpConfig, OtlpDecisions};
use warrant_server::telemetry::{Metrics, Observer};
use warrant_server::{ServerConfig, ServerState, router};
use warrant_transports::sse::SseHub;

use support::{Server, TOKEN, addr, chain};

const MARKER: &str = "SECRET-INPUT-MARKER-0c51";

/// What the collector stand-in received: each request's raw body, and its spans' attributes.
#[derive(Default)]
struct Received {
    bodies: Vec<Bytes>,
    spans: Vec<(String, HashMap<String, String>)>,
}

async fn collector() -> (String, Arc<Mutex<Received>>) {
    let received = Arc::new(Mutex::new(Received::default()));
    let r = received.clone();
    let app = axum::Router::new().route(
        "/v1/traces",
        post(move |body: Bytes| {
            let r = r.clone();
            async move {
                let Ok(request) = ExportTraceServiceRequest::decode(body.clone()) else {
                    return StatusCode::BAD_REQUEST;
                };
                let mut r = r.lock().unwrap();
                r.bodies.push(body);
                for span in request
                    .resource_spans
                    .iter()
                    .flat_map(|rs| &rs.scope_spans)
                    .flat_map(|ss| &ss.spans)
                {
                    let attributes = span
                        .attributes
                        .iter()
                        .map(|kv| {
                            let value = match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
                                Some(Any::StringValue(s)) => s.clone(),
                                Some(Any::BoolValue(b)) => b.to_string(),
                                Some(Any::IntValue(i)) => i.to_string(),
                                other => format!("{other:?}"),
                            };
                            (kv.key.clone(), value)
                        })
                        .collect();
                    r.spans.push((span.name.clone(), attributes));
                }
                StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let at = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{at}"), received)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_decision_is_a_span_with_its_attributes_and_no_input() {
    let (endpoint, received) = collector().await;
    let metrics = Arc::new(Metrics::new());
    let config = OtlpConfig {
        endpoint,
        batch_delay: Duration::from_millis(50),
    };
    let exporter = Arc::new(OtlpDecisions::new(&config, metrics.clone()).unwrap());
    let observer = Observer::new(metrics.clone()).with_sink(exporter.clone());
    let store = Arc::new(MemoryStore::new());
    let hub = Arc::new(SseHub::new(store.clone()));
    let transports: Vec<Arc<dyn Transport>> = vec![hub.clone(), Arc::new(observer)];
    let engine = Engine::builder(chain::demo())
        .store(store)
        .transport(Arc::new(transports))
        .build()
        .await
        .unwrap();
    let state = ServerState::new(engine, hub, ServerConfig::new(TOKEN), addr());
    let server = Server {
        router: router(state.clone()),
        state,
    };
    for (id, tool, command) in [
        ("o1", "view", "README.md"),
        ("o2", "Bash", "rm -rf /tmp/x"),
        ("o3", "Bash", "git push"),
    ] {
        let body = json!({
            "toolCallId": id,
            "toolName": tool,
            "input": {"command": command, "secret": MARKER},
        });
        let reply = server
            .send(Method::POST, "/v1/sessions/s1/tool-calls", Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let flushed = exporter.clone();
    tokio::task::spawn_blocking(move || flushed.flush())
        .await
        .unwrap()
        .unwrap();
    let spans = {
        let mut waited = Duration::ZERO;
        loop {
            let spans = received.lock().unwrap().spans.clone();
            if spans.len() >= 3 || waited > Duration::from_secs(10) {
                break spans;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            waited += Duration::from_millis(50);
        }
    };
    assert_eq!(spans.len(), 3, "{spans:?}");
    let by_call: HashMap<&str, &HashMap<String, String>> = spans
        .iter()
        .map(|(name, a)| {
            assert_eq!(name, "warrant.decision");
            (a["toolCallId"].as_str(), a)
        })
        .collect();
    let expect = [
        ("o1", "allow", "policy", "read_only_view", "safe", "view"),
        (
            "o2",
            "deny",
            "policy",
            "shell_destructive",
            "critical",
            "Bash",
        ),
        ("o3", "ask", "policy", "filesystem_write", "medium", "Bash"),
    ];
    for (id, decision, source, code, risk, tool) in expect {
        let a = by_call[id];
        assert_eq!(a["decision"], decision, "{a:?}");
        assert_eq!(a["source"], source, "{a:?}");
        assert_eq!(a["reasonCode"], code, "{a:?}");
        assert_eq!(a["risk"], risk, "{a:?}");
        assert_eq!(a["tool"], tool, "{a:?}");
    }
    let received = received.lock().unwrap();
    for body in &received.bodies {
        let raw = String::from_utf8_lossy(body);
        assert!(!raw.contains(MARKER), "an input reached the collector");
        assert!(!raw.contains("rm -rf"), "a command reached the collector");
    }
    assert!(
        metrics
            .render(0)
            .contains("warrant_otlp_export_failures_total 0")
    );
    assert_eq!(metrics.decisions("deny", "policy", "critical"), 1);
}

#[test]
fn an_unusable_endpoint_is_a_configuration_error_naming_it() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _guard = runtime.enter();
    for bad in ["localhost:4318", "ftp://collector", "not a url"] {
        let e = OtlpDecisions::new(&OtlpConfig::new(bad), Arc::new(Metrics::new())).unwrap_err();
        assert!(e.contains(bad), "{e}");
    }
    let config = OtlpConfig::new("http://127.0.0.1:4318/");
    assert_eq!(
        config.traces_url().unwrap(),
        "http://127.0.0.1:4318/v1/traces"
    );
    let config = OtlpConfig::new("http://c:4318/v1/traces");
    assert_eq!(config.traces_url().unwrap(), "http://c:4318/v1/traces");
}
