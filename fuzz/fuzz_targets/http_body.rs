//! The HTTP API of `warrant serve` through its public router (`tower::ServiceExt::oneshot`),
//! with the default chain and a memory store: JSON bodies (`JsonBody`) of every route that
//! takes one, and the path segments they name.
//!
//! The input is up to four requests separated by `\n---\n`; each is a route byte, a path id
//! up to the first `\n` (percent-encoded, so any byte reaches the path decoder), then the body.
//! A call that asks (`c-ask` in session `s1`) is pending before the first request.
//!
//! Asserts: no panic; no 5xx (the memory store never fails); every error is a JSON body
//! `{"error":{"code","message"}}` with both non-empty; a 200 from the tool-call route is a
//! decision (allow, ask or deny) for the call the body named.
#![no_main]

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tower::ServiceExt;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::store::MemoryStore;
use warrant_fuzz::{chain, evaluators_config, runtime, workspace};
use warrant_server::{ServerConfig, ServerState, router};
use warrant_transports::sse::SseHub;

const TOKEN: &str = "fuzz-token";

fn encode(id: &[u8]) -> String {
    let mut out = String::new();
    for &b in id {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.is_empty() { "x".to_owned() } else { out }
}

fn split<'a>(data: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = data;
    while let Some(i) = rest.windows(sep.len()).position(|w| w == sep) {
        parts.push(&rest[..i]);
        rest = &rest[i + sep.len()..];
    }
    parts.push(rest);
    parts
}

fuzz_target!(|data: &[u8]| {
    let rt = runtime();
    rt.block_on(async {
        let store = Arc::new(MemoryStore::new());
        let hub = Arc::new(SseHub::new(store.clone()));
        let engine = Engine::builder(chain())
            .store(store)
            .transport(hub.clone())
            .grant_scoper(Arc::new(warrant_evaluators::grant_scoper(
                &evaluators_config(),
                workspace(),
            )))
            .workspace_root(workspace())
            .build()
            .await
            .expect("an engine");
        let pending = ToolCall::new("s1", "c-ask", "Bash", json!({"command": "git push origin main"}));
        let options = AuthorizeOptions { mode: PermissionMode::Default, announce: true };
        engine.authorize(pending, options).await.expect("decided");
        let addr: SocketAddr = "127.0.0.1:7878".parse().expect("an address");
        let state = ServerState::new(engine, hub, ServerConfig::new(TOKEN), addr);
        let app = router(state);

        for part in split(data, b"\n---\n").into_iter().take(4) {
            let Some((&route, rest)) = part.split_first() else { continue };
            let (id, body) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (&rest[..0], rest),
            };
            let id = encode(id);
            let (method, path) = match route % 9 {
                0 => (Method::POST, format!("/v1/sessions/{id}/tool-calls")),
                1 => (Method::POST, format!("/v1/sessions/s1/tool-calls/{id}/result")),
                2 => (Method::PUT, format!("/v1/sessions/{id}/approval-settings")),
                3 => (Method::POST, format!("/v1/approvals/{id}")),
                4 => (Method::PUT, format!("/v1/patterns/{id}")),
                5 => (Method::POST, "/v1/agent".to_owned()),
                6 => (Method::GET, format!("/v1/sessions/{id}/messages")),
                7 => (Method::GET, "/v1/workspace".to_owned()),
                _ => (Method::GET, "/v1/approvals".to_owned()),
            };
            let request = Request::builder()
                .method(method)
                .uri(&path)
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_vec()))
                .expect("a request");
            let response = app.clone().oneshot(request).await.expect("infallible");
            let status = response.status();
            assert!(!status.is_server_error(), "{path}: {status} for body {:?}", String::from_utf8_lossy(body));
            let streaming = response
                .headers()
                .get(header::CONTENT_TYPE)
                .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
            if streaming {
                // An endless event stream; its framing is fuzzed by `last_event_id`.
                continue;
            }
            let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
                .await
                .expect("a body");
            if status.is_client_error() {
                let error: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                    panic!("{path}: a {status} body that is not JSON ({e}): {:?}", String::from_utf8_lossy(&bytes))
                });
                let code = error["error"]["code"].as_str().unwrap_or_default();
                let message = error["error"]["message"].as_str().unwrap_or_default();
                assert!(!code.is_empty() && !message.is_empty(), "{path}: an error that names nothing: {error}");
            } else if status == StatusCode::OK && route % 9 == 0 {
                let decision: Value = serde_json::from_slice(&bytes).expect("a decision");
                assert!(
                    ["allow", "ask", "deny"].contains(&decision["behavior"].as_str().unwrap_or("")),
                    "{path}: not a decision: {decision}"
                );
                let sent: Value = serde_json::from_slice(body).expect("the body was JSON");
                if let Some(id) = sent.get("toolCallId").and_then(Value::as_str) {
                    assert_eq!(decision["toolCallId"], id, "the decision is for the call sent");
                }
            }
        }
    });
});
