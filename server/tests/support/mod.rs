//! Shared by the server tests: the transport tests' chain, transports and SSE readers, a
//! server around them, and readers for responses.
#![allow(dead_code)]

#[path = "../../../transports/tests/support/chain.rs"]
pub mod chain;
#[path = "../../../transports/tests/support/discard.rs"]
pub mod discard;
#[path = "../../../transports/tests/support/failing.rs"]
pub mod failing;
#[path = "../../../transports/tests/support/sse.rs"]
pub mod sse;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::Value;
use tower::ServiceExt;
use warrant_core::engine::Engine;
use warrant_core::store::{MemoryStore, Store};
use warrant_server::{ServerConfig, ServerState, router};
use warrant_transports::sse::SseHub;

/// The token of test servers.
pub const TOKEN: &str = "test-token";

/// The address test servers pretend to be bound to.
pub fn addr() -> SocketAddr {
    "127.0.0.1:7878".parse().expect("an address")
}

/// A server (not bound) around the demo chain and a memory store.
pub struct Server {
    pub state: ServerState,
    pub router: Router,
}

impl Server {
    pub async fn new() -> Self {
        Self::with(Arc::new(MemoryStore::new()), ServerConfig::new(TOKEN)).await
    }

    pub async fn with(store: Arc<dyn Store>, config: ServerConfig) -> Self {
        let hub = Arc::new(SseHub::new(Arc::clone(&store)));
        let engine = Engine::builder(chain::demo())
            .store(store)
            .transport(hub.clone())
            .build()
            .await
            .expect("an engine");
        let state = ServerState::new(engine, hub, config, addr());
        let router = router(state.clone());
        Self { state, router }
    }

    pub fn engine(&self) -> &Engine {
        self.state.engine()
    }

    /// Sends a request with the token and, when given, a JSON body.
    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> Reply {
        let request = request(method, path)
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .expect("a request");
        self.raw(request).await
    }

    /// Sends a prepared request.
    pub async fn raw(&self, request: Request<Body>) -> Reply {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("infallible");
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        Reply {
            status,
            content_type,
            text: String::from_utf8(bytes.to_vec()).expect("UTF-8"),
        }
    }

    /// The response to a request, for streaming bodies.
    pub async fn open(&self, request: Request<Body>) -> axum::response::Response {
        self.router
            .clone()
            .oneshot(request)
            .await
            .expect("infallible")
    }
}

/// A request builder for `path`.
pub fn request(method: Method, path: &str) -> axum::http::request::Builder {
    Request::builder().method(method).uri(path)
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub text: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// Asserts a JSON error body with this status and code.
    pub fn assert_error(&self, status: StatusCode, code: &str) {
        assert_eq!(self.status, status, "{}", self.text);
        let body = self.json();
        assert_eq!(body["error"]["code"], code, "{body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "an error names its problem: {body}");
    }
}
