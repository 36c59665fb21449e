//! The HTTP API of `warrant serve`: the AG-UI endpoint, the session event streams, and the
//! approval, message, catalog, pattern, workspace, history, replay and metrics routes.
//!
//! Every error is a JSON body `{"error":{"code","message"}}` with a fitting status, the
//! router's and hyper's own rejections included. Every `/v1/` route needs
//! `Authorization: Bearer <token>`; `/healthz` and the UI's pages do not. A request whose
//! `Host` does not name the server (DNS rebinding) is refused (421), and so is one carrying
//! an `Origin` other than the server's own (403).
//!
//! The events it streams come from [`warrant_transports::sse`]; the scripted agent behind
//! `POST /v1/agent` is [`warrant_demo_agent`]; [`telemetry`] counts decisions for
//! `GET /metrics` and, with the `otel` feature, exports a span per decision over OTLP/HTTP.

mod agent;
mod approvals;
mod body;
mod grants;
mod guard;
mod history;
mod metrics;
mod pages;
mod path;
mod replay;
mod runtime;
mod server;
mod sessions;
pub mod telemetry;
mod workspace;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
pub use tokio::net::TcpListener;
use warrant_core::call::PermissionMode;
use warrant_core::engine::Engine;
pub use warrant_transports::workspace::check_runtime_tools;

pub use body::JsonBody;
pub use history::parse_instant;
pub use path::PathParams;
pub use replay::{ProposedConfig, ReplayError, ReplayRequest, Replayer};
pub use server::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_SHUTDOWN_DEADLINE, serve,
};

use warrant_demo_agent::DemoAgent;
use warrant_transports::sse::{DEFAULT_KEEP_ALIVE, EventStream, SseHub};

/// The request body limit unless configured (1 MiB).
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// How the server guards and streams. The token is hidden from `Debug`.
#[derive(Clone)]
pub struct ServerConfig {
    /// The bearer token every `/v1/` request must carry.
    pub token: String,
    /// Browser origins allowed besides the server's own (`http://localhost:5173`).
    pub allowed_origins: Vec<String>,
    /// The largest request body accepted, in bytes.
    pub body_limit: usize,
    /// How long an event stream stays silent before a keep-alive comment.
    pub keep_alive: Duration,
    /// The permission mode of sidecar tool calls that name none.
    pub mode: PermissionMode,
    /// Host names (or `name:port`) a request's `Host` may name besides `localhost` and IP
    /// literals, which always may; `*` allows any (the DNS-rebinding defence is then off).
    pub allowed_hosts: Vec<String>,
    /// How long a client may take to send a request's headers; also how long a keep-alive
    /// connection may stay idle.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// The most connections open at once (keep it well below the descriptor limit).
    pub max_connections: usize,
    /// How long a graceful shutdown waits for open requests before dropping them.
    pub shutdown_deadline: Duration,
    /// The agents' credentials: an agent's token posts its tool calls and reports their
    /// results, and nothing else (approvals, patterns and settings are a person's, with
    /// `token`). Calls posted with it are that agent's.
    pub agents: Vec<AgentCredential>,
    /// The permission modes an agent's call may ask for (default `default` and `auto`: an
    /// agent never picks Full Access for itself unless the configuration says so).
    pub agent_modes: Vec<PermissionMode>,
}

/// One agent's credential.
#[derive(Clone, PartialEq, Eq)]
pub struct AgentCredential {
    /// The agent id calls posted with this token carry (`agentId`).
    pub id: String,
    /// Its bearer token.
    pub token: String,
}

impl AgentCredential {
    /// A credential for agent `id`.
    pub fn new(id: impl Into<String>, token: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            token: token.into(),
        }
    }
}

impl std::fmt::Debug for AgentCredential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentCredential")
            .field("id", &self.id)
            .field("token", &"[hidden]")
            .finish()
    }
}

/// Who a request comes from, by the token it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// A person (the UI, an operator, a hook acting for the user): every route.
    Person,
    /// An agent, by its id: its own calls and their results only.
    Agent(String),
}

impl ServerConfig {
    /// The defaults, guarded by `token`.
    pub fn new(token: impl Into<String>) -> Self {
        Self {
            token: token.into(),
            allowed_origins: Vec::new(),
            body_limit: DEFAULT_BODY_LIMIT,
            keep_alive: DEFAULT_KEEP_ALIVE,
            mode: PermissionMode::Default,
            allowed_hosts: Vec::new(),
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            shutdown_deadline: DEFAULT_SHUTDOWN_DEADLINE,
            agents: Vec::new(),
            agent_modes: vec![PermissionMode::Default, PermissionMode::Auto],
        }
    }
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("token", &"[hidden]")
            .field("allowed_origins", &self.allowed_origins)
            .field("body_limit", &self.body_limit)
            .field("keep_alive", &self.keep_alive)
            .field("mode", &self.mode)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("header_timeout", &self.header_timeout)
            .field("body_timeout", &self.body_timeout)
            .field("max_connections", &self.max_connections)
            .field("shutdown_deadline", &self.shutdown_deadline)
            .field("agents", &self.agents)
            .field("agent_modes", &self.agent_modes)
            .finish()
    }
}

/// A random bearer token (two v4 UUIDs: 244 random bits, as 64 hex digits).
pub fn generate_token() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// What the handlers share. Cheap to clone.
#[derive(Clone)]
pub struct ServerState {
    inner: Arc<Shared>,
}

impl std::fmt::Debug for ServerState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The configuration holds the tokens: only the engine is shown.
        f.debug_struct("ServerState")
            .field("engine", &self.inner.engine)
            .finish_non_exhaustive()
    }
}

struct Shared {
    engine: Engine,
    hub: Arc<SseHub>,
    agent: Arc<DemoAgent>,
    config: ServerConfig,
    own_origins: Vec<String>,
    replayer: std::sync::OnceLock<Arc<dyn Replayer>>,
}

impl ServerState {
    /// The state of a server bound to `addr`, whose engine emits through `hub`.
    ///
    /// The server streams the engine's own hub ([`Engine::events`]): `hub` is used when it is
    /// that hub (given to the engine as its transport), and otherwise replaced by it, so no
    /// event is logged twice or missed by a stream.
    pub fn new(engine: Engine, hub: Arc<SseHub>, config: ServerConfig, addr: SocketAddr) -> Self {
        let hub = if hub.same_hub(engine.events()) {
            hub
        } else {
            Arc::new(engine.events().clone())
        };
        let mut own_origins = vec![format!("http://{addr}")];
        if addr.ip().is_loopback() {
            let port = addr.port();
            for host in ["127.0.0.1", "localhost", "[::1]"] {
                own_origins.push(format!("http://{host}:{port}"));
            }
        }
        own_origins.extend(config.allowed_origins.iter().cloned());
        let agent = DemoAgent::new(engine.clone(), Arc::clone(&hub));
        Self {
            inner: Arc::new(Shared {
                engine,
                hub,
                agent,
                config,
                own_origins,
                replayer: std::sync::OnceLock::new(),
            }),
        }
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// The hub the engine emits through.
    pub fn hub(&self) -> &Arc<SseHub> {
        &self.inner.hub
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.inner.config
    }

    /// Enables `POST /v1/replay` with `replayer`; answers `false` (and keeps the first) when
    /// one was already set.
    pub fn set_replayer(&self, replayer: Arc<dyn Replayer>) -> bool {
        self.inner.replayer.set(replayer).is_ok()
    }

    /// The policy replayer, when the host set one.
    pub fn replayer(&self) -> Option<&Arc<dyn Replayer>> {
        self.inner.replayer.get()
    }

    fn agent(&self) -> &Arc<DemoAgent> {
        &self.inner.agent
    }

    /// Whether a `Host` header names this server: `localhost`, an IP literal, or a name in
    /// `allowed_hosts` (`name` or `name:port`; `*` allows any). A browser tricked by DNS
    /// rebinding sends the attacker's host name, which is none of these.
    fn host_allowed(&self, host: &str) -> bool {
        let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
        let (name, _) = split_host(&host);
        let literal = name.trim_start_matches('[').trim_end_matches(']');
        if name == "localhost" || literal.parse::<std::net::IpAddr>().is_ok() {
            return true;
        }
        self.inner.config.allowed_hosts.iter().any(|allowed| {
            let allowed = allowed.trim().to_ascii_lowercase();
            allowed == "*" || allowed == host || allowed == name
        })
    }

    fn origin_allowed(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/');
        self.inner
            .own_origins
            .iter()
            .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
    }
}

/// Every route, guarded, with the body limit.
pub fn router(state: ServerState) -> Router {
    let limit = state.config().body_limit;
    Router::new()
        .route("/", get(pages::ui))
        .route("/assets/{*path}", get(pages::ui))
        .route("/healthz", get(pages::healthz))
        .route("/metrics", get(metrics::metrics))
        .route("/v1/agent", post(agent::run))
        .route("/v1/sessions/{id}/events", get(sessions::events))
        .route("/v1/sessions/{id}/tool-calls", post(sessions::tool_call))
        .route(
            "/v1/sessions/{id}/tool-calls/{tool_call_id}/result",
            post(sessions::tool_result),
        )
        .route("/v1/sessions/{id}/messages", get(sessions::messages))
        .route(
            "/v1/sessions/{id}/approval-settings",
            put(sessions::approval_settings),
        )
        .route("/v1/approvals", get(approvals::pending))
        .route(
            "/v1/approvals/{tool_call_id}",
            post(approvals::resolve).delete(approvals::cancel),
        )
        .route("/v1/audit", get(history::list))
        .route("/v1/audit/export", get(history::export))
        .route("/v1/grants", get(grants::list))
        .route("/v1/grants/{id}", delete(grants::revoke))
        .route("/v1/tools", get(workspace::tools))
        .route("/v1/patterns", get(workspace::patterns))
        .route("/v1/patterns/{id}", put(workspace::save_pattern))
        .route("/v1/workspace", get(workspace::workspace))
        .route("/v1/runtime-tools", put(runtime::put_runtime_tools))
        .route(
            "/v1/mcp-servers/{id}",
            put(runtime::put_mcp_server).delete(runtime::delete_mcp_server),
        )
        .route(
            "/v1/lsp-profiles/{id}",
            put(runtime::put_lsp_profile).delete(runtime::delete_lsp_profile),
        )
        .route("/v1/sessions/{id}/run", post(runtime::run))
        .route("/v1/replay", post(replay::replay))
        .fallback(pages::not_found)
        .method_not_allowed_fallback(pages::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .layer(DefaultBodyLimit::max(limit))
        .with_state(state)
}

/// Completes on Ctrl-C (and SIGTERM on Unix).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => drop(s.recv().await),
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

/// An event stream as a `text/event-stream` response.
fn sse_response(stream: EventStream) -> Response {
    let mut response = stream.into_body().into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// A `Host` value as name and port (`[::1]:80` → `("[::1]", Some(80))`; an unreadable port
/// reads as 0).
fn split_host(host: &str) -> (&str, Option<u16>) {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((_, tail)) => {
                let end = host.len() - tail.len();
                (&host[..end], tail.strip_prefix(':'))
            }
            None => (host, None),
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    match port {
        // An unparseable port names no port of ours: the check fails closed.
        Some(p) => (name, Some(p.parse().unwrap_or(0))),
        None => (name, None),
    }
}
